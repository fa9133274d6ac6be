//! Every diagram opens: a manual's diagram of a finished mate leaves both
//! generals in check, a position no game can reach. Read from every format
//! that can hold it (XQF, CBR, CBL, CBF, PGN `[FEN]`, WXF `FEN`), a game without
//! moves starts from it with an `InvalidDiagram` error saying what is
//! wrong; a game with moves shows it too, its moves unread (they cannot be
//! played from it), and says so. Nothing plays from it: its
//! `start_position()` is an error, its `start_diagram()` the board.

use xiangqi_core::{Diagram, FenError, Position, Validation};
use xiangqi_gamefile::write_xqf;
use xiangqi_gamefile::{ErrorKind, Format, Game, GameFileError, Games, ReaderOptions};
use xiangqi_test_support::shared_testdata;

/// The example of issue 39, as cchess reads it: Black's general on d7 in
/// check from the chariot on b7, Red's on f2 from the chariot on f1.
const BOTH_IN_CHECK: &str = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w - - 0 1";

fn read(bytes: &[u8], format: Format) -> Vec<Result<Game, GameFileError>> {
    Games::from_bytes(bytes, Some(format)).collect()
}

fn read_strict(bytes: &[u8], format: Format) -> Vec<Result<Game, GameFileError>> {
    let options = ReaderOptions {
        strict: true,
        ..ReaderOptions::default()
    };
    Games::from_reader(std::io::Cursor::new(bytes.to_vec()), Some(format), options)
        .unwrap()
        .collect()
}

/// The game is the diagram: its board, no move, one error saying both
/// generals are in check and whether moves were left unread; nothing can
/// play from it.
fn assert_diagram(game: &Game, fen: &str, moves_skipped: bool) {
    assert_eq!(game.plies(), 0);
    assert_eq!(game.tag("FEN"), Some(fen));
    assert_eq!(game.start_diagram().unwrap().to_fen(), fen);
    assert_eq!(
        game.start_position(),
        Err(FenError::OpponentInCheck(xiangqi_core::Color::Black))
    );
    assert!(game.final_position().is_err());
    let [error] = &game.errors[..] else {
        panic!("{:?}", game.errors)
    };
    assert_eq!(
        error.kind,
        ErrorKind::InvalidDiagram {
            error: Box::new(FenError::BothInCheck),
            moves_skipped
        },
        "{error}"
    );
    let text = error.to_string();
    assert!(text.contains("both generals are in check"), "{text}");
    assert_eq!(text.contains("not read"), moves_skipped, "{text}");
}

#[test]
fn the_diagram_is_no_position_but_a_diagram() {
    assert!(Position::from_fen(BOTH_IN_CHECK).is_err());
    assert!(Position::from_fen_lenient(BOTH_IN_CHECK).is_err());
    let diagram = Diagram::from_fen(BOTH_IN_CHECK).unwrap();
    assert_eq!(
        diagram.problems(Validation::Lenient),
        [FenError::BothInCheck]
    );
    assert_eq!(diagram.to_fen(), BOTH_IN_CHECK);
}

#[test]
fn pgn_fen_tags_open_as_diagrams() {
    let text = format!(
        "[Event \"diagram\"]\n[FEN \"{BOTH_IN_CHECK}\"]\n\n{{mate}} *\n\n\
         [Event \"with moves\"]\n[FEN \"{BOTH_IN_CHECK}\"]\n\n1. b7b9 {{x}} (1. c6e5) f1f2 *\n\n\
         [Event \"next\"]\n\n1. h2e2 h9g7 *\n"
    );
    let games = read(text.as_bytes(), Format::Pgn);
    assert_eq!(games.len(), 3);
    let first = games[0].as_ref().unwrap();
    assert_diagram(first, BOTH_IN_CHECK, false);
    assert_eq!(first.mainline.comments, ["mate"]);
    assert_eq!(first.errors[0].line_column(), Some((2, 1)));
    assert_diagram(games[1].as_ref().unwrap(), BOTH_IN_CHECK, true);
    assert_eq!(games[2].as_ref().unwrap().plies(), 2);
    // Strict reading refuses both; text that is no FEN is still no game.
    let strict = read_strict(text.as_bytes(), Format::Pgn);
    assert!(strict[0].is_err() && strict[1].is_err() && strict[2].is_ok());
    let broken = read(b"[FEN \"5ab2/4a4 w\"]\n\n*\n", Format::Pgn);
    assert!(matches!(
        broken[0].as_ref().unwrap_err().kind,
        ErrorKind::BadFen { .. }
    ));
    // Written back as read, and read again the same.
    let written = xiangqi_gamefile::pgn::write_game(
        first,
        &xiangqi_gamefile::pgn::WriteOptions::new(xiangqi_notation::Notation::Iccs),
    )
    .unwrap();
    let again = read(written.as_bytes(), Format::Pgn);
    assert_diagram(again[0].as_ref().unwrap(), BOTH_IN_CHECK, false);
}

#[test]
fn wxf_fen_headers_open_as_diagrams() {
    let wxf_fen = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 r";
    let text = format!(
        "FORMAT WXF\nFEN {wxf_fen}\nSTART{{\n}}END\n\
         FORMAT WXF\nFEN {wxf_fen}\nSTART{{\n 1. R8+2 r6+1\n}}END\n\
         FORMAT WXF\nSTART{{\n 1. C2.5 h8+7\n}}END\n"
    );
    let games = read(text.as_bytes(), Format::Wxf);
    assert_eq!(games.len(), 3, "{games:?}");
    assert_diagram(games[0].as_ref().unwrap(), BOTH_IN_CHECK, false);
    assert_diagram(games[1].as_ref().unwrap(), BOTH_IN_CHECK, true);
    assert_eq!(games[2].as_ref().unwrap().plies(), 2);
    // Written back (WXF, and PGN from WXF), it reads as the same diagram.
    let first = games[0].as_ref().unwrap();
    let wxf = xiangqi_gamefile::wxf::write_wxf(first, &Default::default()).unwrap();
    assert!(
        wxf.contains(&format!(
            "FEN     {}",
            wxf_fen
                .replace('B', "E")
                .replace('b', "e")
                .replace('N', "H")
                .replace('n', "h")
        )),
        "{wxf}"
    );
    let again = read(wxf.as_bytes(), Format::Wxf);
    assert_diagram(again[0].as_ref().unwrap(), BOTH_IN_CHECK, false);
}

/// Pieces' squares of an XQF 1.0 file (`file * 10 + rank`, 0xFF taken) in
/// the format's order (chariot, horse, elephant, advisor, general, advisor,
/// elephant, horse, chariot, two cannons, five soldiers; Red, then Black).
fn xqf_with_both_in_check() -> Vec<u8> {
    let start = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    let mut game = Game::default();
    game.set_tag("FEN", start);
    let mut bytes = write_xqf(&game).unwrap();
    const T: u8 = 0xFF;
    let red = [17, 26, 64, 41, 52, 30, 82, T, T, T, T, T, T, T, T, T];
    let black = [51, 63, 69, 59, 37, 48, 47, T, T, T, T, T, T, T, T, T];
    bytes[16..32].copy_from_slice(&red);
    bytes[32..48].copy_from_slice(&black);
    bytes
}

#[test]
fn xqf_diagrams_open() {
    let bytes = xqf_with_both_in_check();
    let games = read(&bytes, Format::Xqf);
    assert_diagram(games[0].as_ref().unwrap(), BOTH_IN_CHECK, false);
    assert!(read_strict(&bytes, Format::Xqf)[0].is_err());
}

/// A CBR record's board (90 codes, rows from Black's side) set to the
/// diagram; with `moveless`, its move records emptied.
fn put_diagram_on_record(record: &mut [u8], moveless: bool) {
    let diagram = Diagram::from_fen(BOTH_IN_CHECK).unwrap();
    for (i, code) in record[2120..2210].iter_mut().enumerate() {
        let sq = xiangqi_core::Square::from_coords((i % 9) as u8, 9 - (i / 9) as u8).unwrap();
        *code = diagram.piece_at(sq).map_or(0, |p| {
            let kind = b"RNBAKCP"
                .iter()
                .position(|&c| c == p.fen_char().to_ascii_uppercase() as u8)
                .unwrap() as u8;
            let colour = if p.color == xiangqi_core::Color::Red {
                0x10
            } else {
                0x20
            };
            colour + kind + 1
        });
    }
    record[2116] = 1; // Red to move
    if moveless {
        // The opening comment (a flag, then a length and its text), then
        // the move records: the terminator first.
        let flag = u32::from_le_bytes(record[2214..2218].try_into().unwrap());
        let first_move = match flag {
            0 => 2218,
            _ => 2222 + u32::from_le_bytes(record[2218..2222].try_into().unwrap()) as usize,
        };
        record[first_move..first_move + 4].fill(0);
    }
}

#[test]
fn cbr_and_cbl_diagrams_open() {
    let Some(dir) = shared_testdata("corpus/games") else {
        return;
    };
    let cbr = std::fs::read(dir.join("test2.cbr")).unwrap();
    for moveless in [true, false] {
        let mut bytes = cbr.clone();
        put_diagram_on_record(&mut bytes, moveless);
        let games = read(&bytes, Format::Cbr);
        assert_diagram(games[0].as_ref().unwrap(), BOTH_IN_CHECK, !moveless);
    }
    // In a library: the record in its place, the others as before.
    let library = std::fs::read(dir.join("1956年全国象棋锦标赛93局.CBL")).unwrap();
    let before = read(&library, Format::Cbl);
    let mut bytes = library.clone();
    put_diagram_on_record(&mut bytes[101_952 + 4 * 4096..], true);
    let games = read(&bytes, Format::Cbl);
    assert_eq!(games.len(), 93);
    let game = games[4].as_ref().unwrap();
    assert_diagram(game, BOTH_IN_CHECK, false);
    assert_eq!(game.tag("Title"), before[4].as_ref().unwrap().tag("Title"));
    for (n, (ours, theirs)) in games.iter().zip(&before).enumerate() {
        if n != 4 {
            assert_eq!(ours, theirs);
        }
    }
}

#[test]
fn cbf_diagrams_open() {
    let Some(dir) = shared_testdata("corpus/games") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("test2.cbf")).unwrap();
    let standard =
        "<FEN>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1</FEN>";
    assert!(text.contains(standard));
    let with_moves = text.replace(standard, &format!("<FEN>{BOTH_IN_CHECK}</FEN>"));
    let games = read(with_moves.as_bytes(), Format::Cbf);
    let game = games[0].as_ref().unwrap();
    assert_diagram(game, BOTH_IN_CHECK, true);
    // The opening comment (the root move's text) is kept.
    assert_eq!(game.mainline.comments.len(), 1);
    // Without moves: the root move only.
    let start = with_moves.find("<Move value=\"00-00\">").unwrap();
    let root_end = start + with_moves[start..].find("</Move>").unwrap() + "</Move>".len();
    let end = with_moves.find("</MoveList>").unwrap();
    let moveless = format!("{}{}", &with_moves[..root_end], &with_moves[end..]);
    let games = read(moveless.as_bytes(), Format::Cbf);
    assert_diagram(games[0].as_ref().unwrap(), BOTH_IN_CHECK, false);
}
