//! Reading and writing WXF game files: sample files in the shapes PlayOK
//! and XieXie write, every error kind, limits, and arbitrary input.

use super::*;
use xiangqi_core::FenError;
use xiangqi_notation::{MoveTextError, Notation, WxfStyle};

use crate::{
    ErrorKind, Game, GameFileError, GameResult, Limits, Location, ReaderOptions, WriteError,
};

fn read_all(text: &str) -> Vec<Result<Game, GameFileError>> {
    read_str(text).collect()
}

fn one_game(text: &str) -> Game {
    let mut games = read_all(text);
    assert_eq!(games.len(), 1, "{games:?}");
    games.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The one error of `text`: a broken game, or one recorded on a game
/// that was read (a move that cannot be played).
fn one_error(text: &str) -> GameFileError {
    let games = read_all(text);
    let errors: Vec<GameFileError> = games
        .into_iter()
        .flat_map(|g| match g {
            Ok(game) => game.errors,
            Err(e) => vec![e],
        })
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}\n{text}");
    errors.into_iter().next().unwrap()
}

fn iccs(game: &Game) -> Vec<String> {
    game.moves().map(|m| m.to_string()).collect()
}

fn round_trip(game: &Game, options: &WxfWriteOptions) -> String {
    let written = write_wxf(game, options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&one_game(&written), game, "{written}");
    written
}

/// The shape PlayOK writes: padded keys, `name ; rating ;;`, lower-case
/// Black moves with `.`, three moves a line, `}END` after the last move.
#[test]
fn reads_a_playok_style_file() {
    let file = "FORMAT  WXF\nRED     Chen ; 1810 ;;\nBLACK   Wu ; 1795 ;;\nRESULT  1-0\n\
                DATE    2024-05-06 18:30:00\nEVENT   Club game ; 10m+5s\nSTART{\n \
                1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3\n \
                4. P7+1 p7+1   5. H8+7 c8+4 }END\n";
    let game = one_game(file);
    assert_eq!(game.notation, Notation::Wxf);
    assert_eq!(
        game.tags,
        [
            ("Red", "Chen"),
            ("RedElo", "1810"),
            ("Black", "Wu"),
            ("BlackElo", "1795"),
            ("Result", "1-0"),
            ("Date", "2024-05-06 18:30:00"),
            ("Event", "Club game ; 10m+5s"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    assert_eq!(game.result, Some(GameResult::RedWins));
    assert_eq!(
        iccs(&game),
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5", "b0c2", "h7h3"]
    );
    let written = round_trip(&game, &WxfWriteOptions::default());
    assert!(
        written.starts_with("FORMAT  WXF\nRED     Chen ; 1810 ;;\n"),
        "{written}"
    );
    assert!(
        written.contains("START{\n 1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3\n 4. P7+1 p7+1   5. H8+7 c8+4\n}END\n"),
        "{written}"
    );
}

/// The shape XieXie writes: tabs, empty values, `;;;`, a two-field FEN
/// with Black to move, and upper case for Black's moves too.
#[test]
fn reads_a_xiexie_style_file_with_black_to_move() {
    let fen = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b";
    let file = format!(
        "FORMAT  \tWXF\nGAME    \nRED     \t;;;\nBLACK   \t;;;\nDATE    \t2014-07-16\n\
         FEN  \t\t{fen}\n\nSTART{{\n 1. ... H8+7   2. H2+3 R9.8\n}}END\n"
    );
    let game = one_game(&file);
    assert_eq!(game.tag("Game"), Some(""));
    assert_eq!(game.tag("Red"), Some(""));
    assert_eq!(game.tag("RedElo"), None);
    let normalised = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1";
    assert_eq!(game.tag("FEN"), Some(normalised));
    assert_eq!(game.result, None);
    assert_eq!(iccs(&game), ["h9g7", "h0g2", "i9h9"]);
    let written = round_trip(&game, &WxfWriteOptions::default());
    assert!(written.contains(&format!("\nFEN     {fen}\n")), "{written}");
    assert!(
        written.contains("START{\n 1. ... h8+7   2. H2+3 r9.8\n}END\n"),
        "{written}"
    );
    // An empty game.
    let empty = one_game("FORMAT WXF\nFEN 4k4/9/9/9/9/9/9/9/9/3K5 r\nSTART{\n}END\n");
    assert_eq!(empty.plies(), 0);
    round_trip(&empty, &WxfWriteOptions::default());
}

#[test]
fn comments_annotations_numbers_and_tolerated_forms() {
    let file = "FORMAT WXF\nSTART{ {before} 1.C2=5! H8+7?? {two\n  lines}\n\
                2. H2+3 ... R9=8 3. R1=2 H2+3 4. R2+6 C8.9 5. R2.3 C9-1 1-0 }end";
    let game = one_game(file);
    assert_eq!(game.mainline.comments, ["before"]);
    let m = &game.mainline.moves;
    assert_eq!((m[0].nags(), m[1].nags()), (&[1][..], &[4][..]));
    assert_eq!(m[1].comments(), ["two\n  lines"]);
    assert_eq!(game.plies(), 10);
    assert_eq!(game.result, Some(GameResult::RedWins));
    round_trip(&game, &WxfWriteOptions::default());
    // A check mark after a move is implied by the position.
    let checked = one_game("FORMAT WXF\nFEN 5k3/9/9/9/9/9/9/9/9/3RK4 r\nSTART{\n1. R6+9+\n}END\n");
    assert_eq!(iccs(&checked), ["d0d9"]);
    // "+R.4", the marker before the letter (EX-WXF-TANDEM's `R+=4`).
    let tandem = one_game("FORMAT WXF\nFEN 4k4/9/9/9/3R5/9/9/3R5/9/5K3 r\nSTART{\n1. +R.4\n}END\n");
    assert_eq!(iccs(&tandem), ["d5f5"]);
}

#[test]
fn iccs_moves_and_missing_format() {
    let game = one_game("FORMAT ICCS\nSTART{\n1. H2-E2 H9-G7\n}END\n");
    assert_eq!(
        (game.notation, iccs(&game)),
        (Notation::Iccs, vec!["h2e2".to_owned(), "h9g7".to_owned()])
    );
    let game = one_game("RED x\nSTART{\n1. C2.5 h8+7\n}END\n");
    assert_eq!((game.notation, iccs(&game).len()), (Notation::Wxf, 2));
}

#[test]
fn several_games_and_recovery_after_a_broken_one() {
    let file = "FORMAT WXF\nSTART{\n1. C2.5\n}END\n\n\
                FORMAT WXF\nSTART{\n1. C2.5 h8+7 2. R1+4\n}END\n\
                FORMAT WXF\nRED c\nSTART{ 1. P3+1 }END FORMAT WXF\nSTART{\n}END\n";
    let games = read_all(file);
    assert_eq!(games.len(), 4, "{games:?}");
    assert_eq!(games[0].as_ref().unwrap().plies(), 1);
    // The illegal move cuts the game's moves: the two before it are kept.
    let cut = games[1].as_ref().unwrap();
    assert_eq!(iccs(cut), ["h2e2", "h9g7"]);
    assert_eq!(cut.errors.len(), 1, "{cut:?}");
    let err = &cut.errors[0];
    assert_eq!((err.game, err.line_column()), (2, Some((8, 17))), "{err}");
    match &err.kind {
        ErrorKind::MoveText {
            ply_name, error, ..
        } => {
            assert_eq!(ply_name, "2.");
            assert!(matches!(**error, MoveTextError::Illegal { .. }), "{error}");
        }
        other => panic!("{other}"),
    }
    assert_eq!(games[2].as_ref().unwrap().tag("Red"), Some("c"));
    assert_eq!(games[3].as_ref().unwrap().plies(), 0);
}

#[test]
fn every_error_kind_names_its_place() {
    /// A file, where its error is (line, column), and what it must be.
    type Case = (&'static str, (usize, usize), fn(&ErrorKind) -> bool);
    let cases: &[Case] = &[
        ("FORMAT WXF\n[Event \"x\"]\nSTART{\n}END\n", (2, 1), |k| {
            matches!(k, ErrorKind::BadHeader(_))
        }),
        (
            "FORMAT LALG\nSTART{\n}END\n",
            (1, 12),
            |k| matches!(k, ErrorKind::UnsupportedMoveFormat(f) if f == "LALG"),
        ),
        ("FORMAT WXF\nWXFSTYLE odd\nSTART{\n}END\n", (2, 13), |k| {
            matches!(k, ErrorKind::BadHeader(_))
        }),
        ("FORMAT WXF\n  FEN 9/9 r\nSTART{\n}END\n", (2, 3), |k| {
            matches!(k, ErrorKind::BadFen { .. })
        }),
        ("FORMAT WXF\nRED x\n", (2, 6), |k| {
            matches!(k, ErrorKind::MissingStart)
        }),
        ("FORMAT WXF\nSTART{\n1. C2.5\n", (3, 8), |k| {
            matches!(k, ErrorKind::MissingEnd(2))
        }),
        ("FORMAT WXF\nSTART{\n1. C2.5 {open\n", (3, 14), |k| {
            matches!(k, ErrorKind::UnterminatedComment(3))
        }),
        ("FORMAT WXF\nSTART{\n1. C2.5 } x\n}END\n", (3, 9), |k| {
            matches!(k, ErrorKind::Unexpected(_))
        }),
        (
            "FORMAT WXF\nSTART{\n1. C2.5!!! \n}END\n",
            (3, 8),
            |k| matches!(k, ErrorKind::BadAnnotation(a) if a == "!!!"),
        ),
        ("FORMAT WXF\nSTART{\n1. C2.5 c9.9\n}END\n", (3, 9), |k| {
            matches!(k, ErrorKind::MoveText { .. })
        }),
        ("FORMAT WXF\nSTART{\n1. X2.5\n}END\n", (3, 4), |k| {
            matches!(
                k,
                ErrorKind::MoveText { error, .. } if matches!(**error, MoveTextError::Syntax(_))
            )
        }),
        ("\u{7}\n", (1, 1), |k| matches!(k, ErrorKind::BadHeader(_))),
    ];
    for (text, place, kind) in cases {
        let err = one_error(text);
        assert!(kind(&err.kind), "{text:?}: {err}");
        assert_eq!(err.line_column(), Some(*place), "{text:?}: {err}");
    }
    // The next game's FORMAT line ends a game early and is read again.
    for (text, kind) in [
        (
            "FORMAT WXF\nRED x\nFORMAT WXF\nSTART{\n}END\n",
            (ErrorKind::MissingStart, 3),
        ),
        (
            "FORMAT WXF\nSTART{\n1. C2.5\nFORMAT WXF\nSTART{\n}END\n",
            (ErrorKind::MissingEnd(2), 4),
        ),
    ] {
        let games = read_all(text);
        assert_eq!(games.len(), 2, "{games:?}");
        let err = games[0].as_ref().unwrap_err();
        assert_eq!(
            (err.kind.clone(), err.line_column().map(|p| p.0)),
            (kind.0, Some(kind.1)),
            "{err}"
        );
        assert!(games[1].is_ok(), "{games:?}");
    }
    // UTF-16 with its byte-order mark is read (it was refused before the
    // encodings were detected per file).
    let text = "FORMAT WXF\nRED 許銀川\nSTART{\n1. C2.5 h8+7\n}END\n";
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let game = WxfReader::new(&utf16[..]).next().unwrap().unwrap();
    assert_eq!((game.tag("Red"), game.plies()), (Some("許銀川"), 2));
}

#[test]
fn limits_are_errors() {
    let limits = Limits {
        max_line_len: 40,
        max_comment_len: 8,
        max_moves_per_game: 2,
        max_tags_per_game: 1,
        ..Limits::default()
    };
    let options = ReaderOptions {
        limits,
        ..ReaderOptions::default()
    };
    let read = |text: &str| -> Vec<Result<Game, GameFileError>> {
        WxfReader::with_options(text.as_bytes(), options).collect()
    };
    let long = format!(
        "FORMAT WXF\nEVENT {}\nSTART{{\n}}END\nFORMAT WXF\nSTART{{\n}}END\n",
        "x".repeat(50)
    );
    let games = read(&long);
    assert!(
        matches!(
            games[0],
            Err(GameFileError {
                location: Location::Text { line: 2, .. },
                kind: ErrorKind::LineTooLong(40),
                ..
            })
        ),
        "{games:?}"
    );
    assert!(games[1].is_ok(), "{games:?}");
    for (text, want) in [
        (
            "FORMAT WXF\nRED a\nBLACK b\nSTART{\n}END\n",
            ErrorKind::TooManyTags(1),
        ),
        (
            "FORMAT WXF\nSTART{\n1. C2.5 h8+7 2. H2+3\n}END\n",
            ErrorKind::TooManyMoves(2),
        ),
        (
            "FORMAT WXF\nSTART{\n{123456789}\n}END\n",
            ErrorKind::CommentTooLong(8),
        ),
        (
            "FORMAT WXF\nSTART{\n{1234\n56789}\n}END\n",
            ErrorKind::CommentTooLong(8),
        ),
    ] {
        let games = read(text);
        assert!(
            matches!(&games[..], [Err(e)] if e.kind == want),
            "{text:?}: {games:?}"
        );
    }
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let game = crate::pgn::read_str("1. h2e2 $7 (1. h0g2) h9g7 {a} 2. h0g2 ;b}c\n")
        .next()
        .unwrap()
        .unwrap();
    let strict = WxfWriteOptions::default();
    assert!(matches!(
        write_wxf(&game, &strict),
        Err(WriteError::Variations(1))
    ));
    let mut no_variations = game.clone();
    no_variations.mainline.moves[0].variations_mut().clear();
    assert!(matches!(
        write_wxf(&no_variations, &strict),
        Err(WriteError::Nags { ply: 1, .. })
    ));
    no_variations.mainline.moves[0].nags_mut().clear();
    assert!(matches!(
        write_wxf(&no_variations, &strict),
        Err(WriteError::CommentBrace(_))
    ));
    let lossy = WxfWriteOptions {
        drop_variations: true,
        ..strict
    };
    let mut tolerable = game.clone();
    tolerable.mainline.moves[2].comments_mut().clear();
    let back = one_game(&write_wxf(&tolerable, &lossy).unwrap());
    assert_eq!(iccs(&back), iccs(&game));
    assert!(back
        .mainline
        .moves
        .iter()
        .all(|n| n.variations().is_empty() && n.nags().is_empty()));
    let mut bad_tag = Game::default();
    bad_tag.set_tag("Event", "two\nlines");
    assert!(matches!(
        write_wxf(&bad_tag, &strict),
        Err(WriteError::Tag { .. })
    ));
    let mut bad_tag = Game::default();
    bad_tag.set_tag("Format", "WXF");
    assert!(matches!(
        write_wxf(&bad_tag, &strict),
        Err(WriteError::Tag { .. })
    ));
}

/// Found by the `wxf_file` fuzz target (fuzz/regressions/wxf_file-repeated-player):
/// a file naming Black twice, each with a rating, came back with the first
/// rating on both lines. Each player header now takes the rating after it.
#[test]
fn repeated_player_headers_keep_their_own_ratings() {
    let text = "FORMAT WXF\nBLACK A ; 2650 ;;\nBLACK B ; 2600 ;;\nRED C\nREDELO 9\nSTART{\n}END\n";
    let game = one_game(text);
    let tags: Vec<(&str, &str)> = game
        .tags
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Black", "A"),
            ("BlackElo", "2650"),
            ("Black", "B"),
            ("BlackElo", "2600"),
            ("Red", "C"),
            ("RedElo", "9"),
        ]
    );
    let written = write_wxf(&game, &WxfWriteOptions::default()).unwrap();
    assert!(
        written.contains("BLACK   A ; 2650 ;;\nBLACK   B ; 2600 ;;\n"),
        "{written}"
    );
    assert_eq!(one_game(&written), game, "{written}");
}

/// Tags map both ways; the fsf convention is recorded and honoured;
/// a result token without a `Result` tag becomes the `RESULT` header.
#[test]
fn tags_styles_and_results_survive() {
    let mut game = crate::pgn::read_str(
        "[Event \"E\"]\n[Site \"S\"]\n[RedTeam \"T\"]\n[Custom_1 \"c\"]\n[Red \"R;x\"]\n[RedElo \"2000\"]\n\
         [FEN \"4k4/9/9/9/2P1P1P2/9/9/9/9/3K5 w - - 5 30\"]\n\n30. P5=4 0-1\n",
    )
    .next()
    .unwrap()
    .unwrap();
    let fsf = WxfWriteOptions {
        style: WxfStyle::fsf(),
        moves_per_line: 0,
        ..WxfWriteOptions::default()
    };
    let written = write_wxf(&game, &fsf).unwrap();
    assert!(written.contains("WXFSTYLE fsf\n"), "{written}");
    assert!(
        written.contains("REDTEAM T\nCustom_1 c\nRED     R;x\nREDELO  2000\n"),
        "{written}"
    );
    assert!(
        written.contains("FEN     4k4/9/9/9/2P1P1P2/9/9/9/9/3K5 r - - 5 30\n"),
        "{written}"
    );
    assert!(
        written.ends_with("RESULT  0-1\nSTART{\n30. P5=4\n}END\n"),
        "{written}"
    );
    let back = one_game(&written);
    game.set_tag("Result", "0-1");
    assert_eq!(back, game, "{written}");
}

/// `game` as the writer gives it back: its moves (if any) in WXF, as the
/// writer always writes them (a `FORMAT ICCS` game without moves included),
/// and the errors that reading it again finds anew.
fn written_as_wxf(mut game: Game) -> (Game, Vec<FenError>) {
    game.notation = Notation::Wxf;
    read_back(game)
}

/// A game read back, as comparable with what was written: a game's errors
/// (a cut at an unplayable move) are not written, but a start that is a
/// diagram no game can reach is, and reading finds it again (at the line
/// where it now stands, and without the moves that could not be played
/// from it, so only what is wrong with the diagram is compared).
fn read_back(mut game: Game) -> (Game, Vec<FenError>) {
    let diagram = game
        .errors
        .drain(..)
        .filter_map(|e| match e.kind {
            ErrorKind::InvalidDiagram { error, .. } => Some(*error),
            _ => None,
        })
        .collect();
    (game, diagram)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]

    /// Any bytes: errors or games, never a panic or a hang; every game
    /// read writes back (when it has no comment with `}`) to itself.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
        for game in WxfReader::new(&bytes[..]).take(1000).flatten() {
            if let Ok(text) = write_wxf(&game, &WxfWriteOptions::default()) {
                proptest::prop_assert_eq!(read_back(one_game(&text)), written_as_wxf(game));
            }
        }
    }

    /// Texts close to WXF files (the format's own words and moves).
    #[test]
    fn wxf_like_texts_never_panic(parts in proptest::collection::vec(proptest::sample::select(vec![
        "FORMAT WXF\n", "FORMAT ICCS\n", "START{", "}END", "\n", " ", "{", "}", "1.", "2...", "...",
        "C2.5", "h8+7", "H2+3", "R9.8", "r1.2", "P7+1", "+R.3", "C2=5!", "1-0", "RED a ; 12 ;;\n",
        "FEN 4k4/9/9/9/9/9/9/9/9/4K4 b\n", "FEN x\n", "WXFSTYLE fsf\n", "\u{feff}", "炮", "\r",
    ]), 0..40)) {
        let text: String = parts.concat();
        for game in read_str(&text).take(1000).flatten() {
            if let Ok(written) = write_wxf(&game, &WxfWriteOptions::default()) {
                proptest::prop_assert_eq!(read_back(one_game(&written)), written_as_wxf(game), "{}", text);
            }
        }
    }
}

/// Found by the `wxf_file` fuzz target (fuzz/regressions/wxf_file-two-results):
/// with two RESULT headers the last one gave the result, which the writer
/// then wrote into the first, losing its value. The first header now gives
/// the result; a result token in the moves still wins over both.
#[test]
fn the_first_of_two_result_headers_gives_the_result() {
    let text = "FORMAT WXF\nRESULT 1-; 26\nRESULT 1-0\nSTART{\n}END\n";
    let game = one_game(text);
    assert_eq!(game.result, None);
    let written = write_wxf(&game, &WxfWriteOptions::default()).unwrap();
    assert_eq!(one_game(&written), game, "{written}");
    let token = one_game("FORMAT WXF\nRESULT 1-0\nRESULT 1-0\nSTART{\n 1. C2.5 0-1\n}END\n");
    assert_eq!(token.result, Some(GameResult::BlackWins));
    assert_eq!(token.tag("Result"), Some("0-1"));
    let written = write_wxf(&token, &WxfWriteOptions::default()).unwrap();
    assert_eq!(one_game(&written), token, "{written}");
}

/// Found by the `wxf_file` fuzz target (fuzz/regressions/wxf_file-second-fen):
/// the reader sets up the first FEN header and keeps later ones verbatim,
/// but the writer rewrote every FEN header in the WXF form, so a second
/// one (`… r`) came back changed (`…`, its side dropped).
#[test]
fn a_second_fen_header_is_kept_as_written() {
    let text = "FORMAT WXF\nFEN 4k4/9/9/9/9/9/9/9/9/5K2R r\nFEN 4k4/9/9/9/9/9/9/9/9/5K2R r\n\
                START{\n 1. R1+1\n}END\n";
    let game = one_game(text);
    let fens: Vec<&str> = game
        .tags
        .iter()
        .filter(|(k, _)| k == "FEN")
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(
        fens,
        [
            "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1",
            "4k4/9/9/9/9/9/9/9/9/5K2R r"
        ]
    );
    let written = write_wxf(&game, &WxfWriteOptions::default()).unwrap();
    assert_eq!(one_game(&written), game, "{written}");
    // A later FEN header need not even be a position: it is only a tag.
    let odd = one_game("FORMAT WXF\nFEN 4k4/9/9/9/9/9/9/9/9/5K2R r\nFEN x\nSTART{\n}END\n");
    let written = write_wxf(&odd, &WxfWriteOptions::default()).unwrap();
    assert_eq!(one_game(&written), odd, "{written}");
}

/// Found by the `wxf_file` fuzz target (fuzz/regressions/wxf_file-vertical-tab):
/// a vertical tab or another non-ASCII space in the moves (whitespace to
/// `char`, not to the byte test) stopped the move loop where it stood, and
/// the reader never returned.
#[test]
fn unicode_whitespace_in_the_moves_is_skipped() {
    for space in ["\u{b}", "\u{3000}", "\u{a0}", "\u{2003}"] {
        let text = format!("FORMAT WXF\nSTART{{{space}1. C2.5{space}h8+7{space}\n}}END\n");
        let game = one_game(&text);
        assert_eq!(game.plies(), 2, "{space:?}");
    }
}

/// Found by the `wxf_file` fuzz target (fuzz/regressions/wxf_file-bom-before-format):
/// after a broken header the reader resumed at a line holding a byte-order
/// mark before `FORMAT`, which the game-start test skipped but the header
/// reader did not: the same error came back forever. Both trim alike now,
/// and a skipped game never resumes where it failed.
#[test]
fn a_bom_before_format_starts_a_game_once() {
    let text = "FORMAT WXF\nGAME x\n\u{c}\u{feff}\u{c}FORMAT\tWXF\nSTART{\n 1. C2.5\n}END\n";
    // At most ten items, so that a reader that loops fails here instead of hanging.
    let items: Vec<_> = read_str(text).take(10).collect();
    assert!(items.len() <= 3, "{items:?}");
    let games: Vec<Game> = items.into_iter().filter_map(Result::ok).collect();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].plies(), 1);
}
