//! PGN reading and writing (N-PGN): the torture file, streaming, limits,
//! and round trips in every notation.

use std::io::Read;

use xiangqi_core::Move;
use xiangqi_gamefile::pgn::{read_str, write_game, PgnReader, WriteOptions};
use xiangqi_gamefile::ErrorKind;
use xiangqi_gamefile::{Game, GameResult, Limits, ReaderOptions, TextEncoding};
use xiangqi_notation::{MoveTextError, Notation, Style, WxfStyle};

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn torture() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/torture.pgn"
    ))
    .unwrap()
}

/// tests/fixtures/torture.pgn: UTF-8 BOM, CRLF in games 1 and 4, comments
/// between tags, before the first move, between a move number and its move,
/// inside variations, over two lines and after `;`; variations nested two
/// deep; `$1` and `!?`; game 2 has no result token; game 3 has an illegal
/// move on line 23; game 4 is GBK-encoded traditional Chinese; game 5 is
/// Vietnamese without a Format tag and ends the file without a newline.
#[test]
fn torture_file_parses_as_specified() {
    let data = torture();
    let mut reader = PgnReader::new(&data[..]);
    let results: Vec<_> = reader.by_ref().collect();
    assert_eq!(results.len(), 5, "{results:#?}");

    let g1 = results[0].as_ref().unwrap();
    assert_eq!(g1.tag("Event"), Some("Torture 1: UTF-8, CRLF, BOM"));
    assert_eq!(g1.tag("Red"), Some("红方"));
    assert_eq!(
        g1.notation,
        Notation::Chinese,
        "detected without a Format tag"
    );
    assert_eq!(
        g1.mainline.comments,
        [
            "a comment between the tags",
            "before the first move",
            "between number and move"
        ]
    );
    let moves: Vec<String> = g1.moves().map(|m| m.to_string()).collect();
    assert_eq!(
        moves,
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]
    );
    let n = &g1.mainline.moves;
    assert_eq!(n[1].nags(), [1]);
    assert_eq!(n[2].nags(), [5], "!? is $5");
    assert_eq!(n[2].variations().len(), 1);
    let v = &n[2].variations()[0];
    assert_eq!(v.moves[0].mv, mv("g3g4"));
    assert_eq!(
        v.moves[0].comments(),
        ["variation comment (with parens; and [brackets])"]
    );
    assert_eq!(
        v.moves[0].variations()[0]
            .moves
            .iter()
            .map(|n| n.mv)
            .collect::<Vec<_>>(),
        [mv("b0c2"), mv("b9c7")]
    );
    assert_eq!(v.moves[1].mv, mv("c6c5"));
    assert_eq!(n[3].comments(), ["a comment\nover two lines"]);
    assert_eq!(n[4].comments(), ["a line comment"]);
    assert_eq!(n[7].comments(), ["before the result"]);
    assert_eq!(g1.result, Some(GameResult::RedWins));

    let g2 = results[1].as_ref().unwrap();
    assert_eq!(g2.notation, Notation::Iccs);
    assert_eq!(
        g2.moves().collect::<Vec<_>>(),
        [mv("e5e2"), mv("d9d8"), mv("e1e0"), mv("d8d9")]
    );
    assert_eq!(g2.result, None, "no result token");
    assert_eq!(g2.outcome(), GameResult::Draw, "the Result tag");

    // The illegal move cuts the main line: the game keeps the five moves
    // before it and names the move in its errors.
    let g3 = results[2].as_ref().unwrap();
    assert_eq!(g3.plies(), 5);
    assert_eq!(g3.errors.len(), 1, "{:?}", g3.errors);
    let e3 = &g3.errors[0];
    assert_eq!((e3.game, e3.line_column()), (3, Some((23, 9))), "{e3}");
    let ErrorKind::MoveText {
        ply_name, error, ..
    } = &e3.kind
    else {
        panic!("{e3}")
    };
    assert_eq!(ply_name, "3...");
    assert!(
        matches!(**error, MoveTextError::Illegal { mv: m, .. } if m == mv("h9h0")),
        "{error}"
    );

    let g4 = results[3].as_ref().unwrap();
    assert_eq!(g4.tag("Event"), Some("全國象棋錦標賽"));
    assert_eq!(g4.tag("Red"), Some("胡榮華"));
    assert_eq!(g4.plies(), 5);
    assert_eq!(
        g4.mainline.moves[3].variations()[0].moves[1].comments(),
        ["GBK 註釋"]
    );
    assert_eq!(g4.result, Some(GameResult::BlackWins));

    let g5 = results[4].as_ref().unwrap();
    assert_eq!(g5.notation, Notation::Vietnamese);
    assert_eq!(g5.tag("Red"), Some("Lại Lý Huynh"));
    assert_eq!(
        g5.moves().collect::<Vec<_>>(),
        [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("i9h9")]
    );
    assert_eq!(g5.mainline.moves[2].variations()[0].moves[0].mv, mv("b0c2"));
    assert_eq!(g5.result, Some(GameResult::Unknown));

    assert_eq!(reader.encoding(), Some(TextEncoding::Utf8));
    assert_eq!(reader.bytes_read(), data.len() as u64);
}

#[test]
fn gbk_text_is_detected() {
    let data = torture();
    // Game 4 alone, GBK-encoded.
    let start = data.windows(7).position(|w| w == b"[Event ").unwrap();
    let g4_start = data
        .windows(6)
        .enumerate()
        .filter(|(_, w)| *w == b"[Event")
        .nth(3)
        .unwrap()
        .0;
    assert!(g4_start > start);
    let end = data
        .windows(18)
        .position(|w| w == b"[Event \"Torture 5:")
        .unwrap();
    let mut reader = PgnReader::new(&data[g4_start..end]);
    let game = reader.next().unwrap().unwrap();
    assert_eq!(game.tag("Black"), Some("楊官璘"));
    assert_eq!(reader.encoding(), Some(TextEncoding::Gb18030));
}

#[test]
fn round_trip_in_every_notation_keeps_variations_and_comments() {
    let data = torture();
    let games: Vec<Game> = PgnReader::new(&data[..]).filter_map(Result::ok).collect();
    assert_eq!(games.len(), 5);
    let fsf = Style {
        wxf: WxfStyle::fsf(),
        ..Style::default()
    };
    for game in &games {
        for notation in Notation::ALL {
            for style in [Style::default(), fsf] {
                let options = WriteOptions {
                    notation,
                    style,
                    line_width: 60,
                };
                let text = write_game(game, &options).unwrap();
                let back: Vec<_> = read_str(&text).collect();
                assert_eq!(back.len(), 1, "{text}");
                let back = back[0].as_ref().unwrap_or_else(|e| panic!("{e}\n{text}"));
                let mut expected = game.clone();
                expected.notation = notation;
                // A game's errors (the cut of torture game 3) are not written.
                expected.errors.clear();
                assert_eq!(back, &expected, "{notation}:\n{text}");
            }
        }
    }
}

#[test]
fn round_trip_of_a_long_random_game_with_crowded_soldiers() {
    // A playout long enough for tandem pieces, written in fsf WXF (two-digit forms).
    let mut pos = xiangqi_core::Position::startpos();
    let mut game = Game::default();
    let mut rng = xiangqi_core::SplitMix64::new(77);
    for _ in 0..200 {
        let moves = pos.legal_move_vec();
        let Some(&m) = rng.choose(&moves) else {
            break;
        };
        game.mainline.moves.push(xiangqi_gamefile::Node::new(m));
        pos.make_move(m);
    }
    for notation in Notation::ALL {
        let options = WriteOptions {
            notation,
            style: Style {
                wxf: WxfStyle::fsf(),
                ..Style::default()
            },
            line_width: 80,
        };
        let text = write_game(&game, &options).unwrap();
        let back = read_str(&text).next().unwrap().unwrap();
        assert_eq!(back.mainline, game.mainline, "{notation}");
    }
}

#[test]
fn reader_continues_after_broken_games() {
    let text = "[Event \"1\"]\n1. h2e2 h9g7 *\n\n[Event \"2\"]\n1. h2e2 (\n\n[Event \"3\"]\n[Bad tag\n1. h2e2 *\n[Event \"4\"]\n1. x9x9 *\n[Event \"5\"]\n1. h0g2 1-0\n";
    let results: Vec<_> = read_str(text).collect();
    assert_eq!(results.len(), 5, "{results:#?}");
    assert!(results[0].is_ok());
    let e2 = results[1].as_ref().unwrap_err();
    assert_eq!(e2.game, 2);
    assert!(
        matches!(e2.kind, ErrorKind::UnterminatedVariation(5)),
        "{e2}"
    );
    let e3 = results[2].as_ref().unwrap_err();
    assert_eq!((e3.game, e3.line_column().map(|p| p.0)), (3, Some(8)));
    assert!(matches!(e3.kind, ErrorKind::BadTag(_)), "{e3}");
    // Text that is no move cuts the line: the game keeps its tags.
    let g4 = results[3].as_ref().unwrap();
    assert_eq!((g4.tag("Event"), g4.plies()), (Some("4"), 0));
    let e4 = &g4.errors[0];
    assert_eq!((e4.game, e4.line_column()), (4, Some((11, 4))), "{e4}");
    assert_eq!(results[4].as_ref().unwrap().tag("Event"), Some("5"));
}

#[test]
fn unclosed_comment_stops_at_the_next_games_tags() {
    let text = "[Event \"1\"]\n1. h2e2 {never closed\n1. h0g2\n[Event \"2\"]\n1. h2e2 *\n";
    let results: Vec<_> = read_str(text).collect();
    assert_eq!(results.len(), 2);
    assert!(matches!(
        results[0].as_ref().unwrap_err().kind,
        ErrorKind::UnterminatedComment(2)
    ));
    assert_eq!(results[1].as_ref().unwrap().tag("Event"), Some("2"));
}

#[test]
fn limits_are_enforced_with_clear_errors() {
    let limits = Limits {
        max_line_len: 40,
        max_comment_len: 10,
        max_variation_depth: 2,
        max_moves_per_game: 3,
        max_tags_per_game: 2,
    };
    let options = ReaderOptions {
        limits,
        ..ReaderOptions::default()
    };
    let read = |t: &str| PgnReader::with_options(t.as_bytes(), options).collect::<Vec<_>>();
    let kinds = |t: &str| {
        read(t)
            .into_iter()
            .map(|r| r.err().map(|e| e.kind))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        kinds(&format!("1. h2e2 {{{}}} *\n", "x".repeat(30))),
        [Some(ErrorKind::LineTooLong(40))]
    );
    assert_eq!(
        kinds("1. h2e2 {0123456789ab} *\n"),
        [Some(ErrorKind::CommentTooLong(10))]
    );
    assert_eq!(
        kinds("1. h2e2 h9g7 2. h0g2 i9h9 *\n"),
        [Some(ErrorKind::TooManyMoves(3))]
    );
    assert_eq!(
        kinds("1. h2e2 (1. h0g2 (1. i0i1 (\n"),
        [Some(ErrorKind::VariationTooDeep(2))]
    );
    assert_eq!(
        kinds("[A \"1\"]\n[B \"2\"]\n[C \"3\"]\n*\n"),
        [Some(ErrorKind::TooManyTags(2))]
    );
    // After a too-long line the next game is read normally.
    let r = read(&format!(
        "1. h2e2 {{{}}} *\n[Event \"x\"]\n1. h2e2 *\n",
        "x".repeat(30)
    ));
    assert_eq!(r.len(), 2);
    assert!(r[1].is_ok());
}

#[test]
fn streaming_reads_a_large_input_game_by_game() {
    // 10 000 games through a reader that never holds more than one.
    struct Repeat {
        game: &'static [u8],
        left: usize,
        at: usize,
    }
    impl Read for Repeat {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.left == 0 {
                return Ok(0);
            }
            let n = buf.len().min(self.game.len() - self.at);
            buf[..n].copy_from_slice(&self.game[self.at..self.at + n]);
            self.at += n;
            if self.at == self.game.len() {
                self.at = 0;
                self.left -= 1;
            }
            Ok(n)
        }
    }
    let src = Repeat {
        game: b"[Event \"e\"]\n1. h2e2 h9g7 2. h0g2 i9h9 1/2-1/2\n\n",
        left: 10_000,
        at: 0,
    };
    let mut count = 0;
    for g in PgnReader::new(std::io::BufReader::new(src)) {
        assert_eq!(g.unwrap().plies(), 4);
        count += 1;
    }
    assert_eq!(count, 10_000);
}

#[test]
fn xqbase_style_and_serde() {
    let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. H0-G2 $14 1/2-1/2\n";
    let game = read_str(text).next().unwrap().unwrap();
    assert_eq!(game.plies(), 3);
    assert_eq!(game.mainline.moves[2].nags(), [14]);
    let json = serde_json::to_string(&game).unwrap();
    assert!(json.contains("\"result\":\"1/2-1/2\""), "{json}");
    // A node serialises as its move and its non-empty lists only.
    assert!(json.contains("{\"move\":\"h0g2\",\"nags\":[14]}"), "{json}");
    assert!(json.contains("{\"move\":\"h2e2\"}"), "{json}");
    let back: Game = serde_json::from_str(&json).unwrap();
    assert_eq!(back, game);
}

/// N-ICCS-RANKS10: `[Variant "xiangqi"]` files (pychess, Fairy-Stockfish)
/// number ranks 1-10; they are read as such, written back as such in ICCS,
/// and a rank 0 there is an error, not a guess.
#[test]
fn variant_xiangqi_files_number_ranks_from_one() {
    let text = "[Variant \"Xiangqi\"]\n\n1. h3e3 h10g8 2. h1g3 a7a6 *\n";
    let game = read_str(text).next().unwrap().unwrap();
    assert_eq!(game.notation, Notation::Iccs);
    assert_eq!(
        game.moves().collect::<Vec<_>>(),
        [mv("h2e2"), mv("h9g7"), mv("h0g2"), mv("a6a5")]
    );
    let iccs = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
    assert!(iccs.contains("1. h3e3 h10g8 2. h1g3 a7a6 *"), "{iccs}");
    for notation in Notation::ALL {
        let written = write_game(&game, &WriteOptions::new(notation)).unwrap();
        let back = read_str(&written).next().unwrap().unwrap();
        assert_eq!(back.mainline, game.mainline, "{notation}:\n{written}");
    }

    // The same text without the tag is ICCS: a4a5 is then a soldier's move
    // from a4, which is empty at the start.
    let plain = read_str("1. a4a5 *\n").next().unwrap().unwrap();
    assert_eq!(plain.plies(), 0);
    assert!(
        matches!(&plain.errors[..], [e] if matches!(e.kind, ErrorKind::MoveText { .. })),
        "{plain:?}"
    );
    let tagged = read_str("[Variant \"xiangqi\"]\n1. a4a5 *\n")
        .next()
        .unwrap();
    assert_eq!(tagged.unwrap().moves().next(), Some(mv("a3a4")));

    let cut = read_str("[Variant \"xiangqi\"]\n1. h2e2 *\n")
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(cut.plies(), 0);
    let err = &cut.errors[0];
    assert!(
        matches!(
            &err.kind,
            ErrorKind::MoveText { error, .. } if matches!(**error, MoveTextError::Illegal { .. })
        ),
        "h2e2 is h1e1 in ranks 1-10: {err}"
    );
    // Text that is no move cuts the line: the game keeps its tags.
    let kept = read_str("[Variant \"xiangqi\"]\n1. h0e0 *\n")
        .next()
        .unwrap()
        .unwrap();
    assert_eq!((kept.plies(), kept.tag("Variant")), (0, Some("xiangqi")));
    let err = &kept.errors[0];
    assert!(
        matches!(
            &err.kind,
            ErrorKind::MoveText { error, .. } if matches!(**error, MoveTextError::Syntax(_))
        ),
        "rank 0 does not exist in ranks 1-10: {err}"
    );
}

/// A token that is no move (issue 41) keeps the tags and the moves before
/// it, as an unplayable move does; the next game is read as usual. Text that
/// is no move before any tag or move is still no game.
#[test]
fn a_bad_token_keeps_the_tags_and_the_moves_before_it() {
    let text = "[Event \"e\"]\n[Red \"A\"]\n\n1. h2e2 h9g7 2. ###garbage### h0g2 *\n\n\
                [Event \"next\"]\n\n1. h2e2 *\n";
    let games: Vec<_> = read_str(text).collect();
    assert_eq!(games.len(), 2);
    let first = games[0].as_ref().unwrap();
    assert_eq!(
        (first.tag("Event"), first.tag("Red")),
        (Some("e"), Some("A"))
    );
    assert_eq!(first.moves().collect::<Vec<_>>(), [mv("h2e2"), mv("h9g7")]);
    assert_eq!(first.result, Some(GameResult::Unknown));
    let err = &first.errors[0];
    assert!(
        matches!(
            &err.kind,
            ErrorKind::MoveText { ply: 3, error, .. } if matches!(**error, MoveTextError::Syntax(_))
        ),
        "{err}"
    );
    assert!(err.to_string().contains("###garbage###"), "{err}");
    let second = games[1].as_ref().unwrap();
    assert_eq!((second.tag("Event"), second.plies()), (Some("next"), 1));
    // Strict reading still refuses it.
    assert!(first.clone().into_strict().is_err());
    // Nothing before the bad token: no game to keep, a broken one.
    assert!(read_str("###garbage### *\n").next().unwrap().is_err());
}

/// N-VI-SHORT in PGN: the writer marks the compact form with
/// `[VietnameseStyle "short"]`, which the reader needs (the form's letters
/// are WXF's: without the tag `P2-5` is a soldier's move).
#[test]
fn compact_vietnamese_round_trips_through_its_tag() {
    let text = "1. h2e2 h9g7 (1... b7e7 2. h0g2) 2. h0g2 i9h9 3. i0h0 *\n";
    let game = read_str(text).next().unwrap().unwrap();
    let options = WriteOptions {
        style: Style {
            vietnamese: xiangqi_notation::VietnameseStyle::short(),
            ..Style::default()
        },
        ..WriteOptions::new(Notation::Vietnamese)
    };
    let written = write_game(&game, &options).unwrap();
    assert!(written.contains("[VietnameseStyle \"short\"]"), "{written}");
    assert!(
        written.contains("1. P2-5 M8.7 (1... P2-5 2. M2.3) 2. M2.3 X9-8 3. X1-2 *"),
        "{written}"
    );
    let back = read_str(&written).next().unwrap().unwrap();
    assert_eq!(back.mainline, game.mainline, "{written}");
    assert_eq!(
        back.tag("VietnameseStyle"),
        None,
        "a reading convention, not a tag"
    );

    let untagged = written.replace("[VietnameseStyle \"short\"]\n", "");
    // Read as WXF, P2-5 names no move: the main line is cut at once.
    let as_wxf = read_str(&untagged).next().unwrap().unwrap();
    assert_eq!(as_wxf.plies(), 0, "P2-5 read as WXF");
    assert!(
        matches!(&as_wxf.errors[..], [e] if matches!(e.kind, ErrorKind::MoveText { .. })),
        "{as_wxf:?}"
    );
}

/// Randomly damaged copies of the torture file (bytes changed, removed, cut
/// out) give errors or games, never a panic, and never more items than lines.
#[test]
fn damaged_pgn_gives_errors_not_panics() {
    let original = torture();
    let mut rng = xiangqi_core::SplitMix64::new(7);
    const BYTES: &[u8] = b"{}()[];$*\"\n\r.0123456789xX\xe5\xff";
    for _ in 0..300 {
        let mut data = original.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(data.len());
            match rng.below(3) {
                0 => data[at] = BYTES[rng.below(BYTES.len())],
                1 => {
                    data.remove(at);
                }
                _ => {
                    let cut = (at + rng.below(40)).min(data.len());
                    data.drain(at..cut);
                }
            }
        }
        let results: Vec<_> = PgnReader::new(&data[..]).collect();
        assert!(results.len() <= 40);
    }
}

/// The main line and each variation of `game`, in ICCS, as `lines()` lists them.
fn iccs_lines(game: &Game) -> Vec<String> {
    xiangqi_gamefile::lines(&game.mainline)
        .iter()
        .map(|l| {
            l.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn a_move_that_cannot_be_played_cuts_only_its_own_line() {
    // Game 1: the variation's second move is illegal (h0h5 is no horse
    // move): the variation keeps its first move, the main line goes on
    // after its `)`. Everything in the cut part is read past, nested
    // variations and a comment holding `)` over two lines included.
    // Game 2: the main line's third move names no piece: the main line
    // ends before it, with its later variations. Game 3 is read as usual.
    let text = "[Event \"1\"]\n\
        1. h2e2 (1. b2e2 h9g7 2. h0h5 {a comment ) over\ntwo lines} b9c7 (2... a9a8 (2... i9i8)) 3. a0a1) h9g7 2. h0g2 *\n\n\
        [Event \"2\"]\n1. h2e2 h9g7 2. C9.5 (2. h0g2 b9c7) b9c7 *\n\n\
        [Event \"3\"]\n1. h2e2 *\n";
    let games: Vec<Game> = read_str(text).map(Result::unwrap).collect();
    assert_eq!(games.len(), 3);

    assert_eq!(iccs_lines(&games[0]), ["h2e2 h9g7 h0g2", "b2e2 h9g7"]);
    let [cut] = &games[0].errors[..] else {
        panic!("{:?}", games[0].errors)
    };
    assert_eq!((cut.game, cut.line_column()), (1, Some((2, 26))), "{cut}");
    assert!(
        matches!(&cut.kind, ErrorKind::MoveText { ply: 3, ply_name, error }
            if ply_name == "2." && matches!(**error, MoveTextError::Illegal { .. })),
        "{cut}"
    );

    assert_eq!(iccs_lines(&games[1]), ["h2e2 h9g7"]);
    let [cut] = &games[1].errors[..] else {
        panic!("{:?}", games[1].errors)
    };
    assert_eq!((cut.game, cut.line_column()), (2, Some((6, 17))), "{cut}");
    assert!(
        matches!(cut.kind, ErrorKind::MoveText { ply: 3, .. }),
        "{cut}"
    );
    assert_eq!(games[1].result, Some(GameResult::Unknown));

    assert!(games[2].errors.is_empty());
    assert_eq!(games[2].tag("Event"), Some("3"));
}

#[test]
fn ambiguous_and_missing_pieces_and_text_that_is_no_move_cut_the_line() {
    // Two red chariots on file 9 (a0, a4), no front/rear marker: R9+1 fits both.
    let ambiguous = "[FEN \"3k5/9/9/9/9/R8/9/9/4K4/R8 w - - 0 1\"]\n1. R9+1 *\n";
    let game = read_str(ambiguous).next().unwrap().unwrap();
    assert_eq!(game.plies(), 0);
    assert!(
        matches!(&game.errors[..], [e] if matches!(&e.kind, ErrorKind::MoveText { error, .. }
            if matches!(**error, MoveTextError::Ambiguous { .. }))),
        "{:?}",
        game.errors
    );
    let cut = read_str("1. h2e2 ##!! *\n").next().unwrap().unwrap();
    assert_eq!(cut.moves().collect::<Vec<_>>(), [mv("h2e2")]);
    assert!(
        matches!(&cut.errors[..], [e] if matches!(&e.kind, ErrorKind::MoveText { ply: 2, error, .. }
            if matches!(**error, MoveTextError::Syntax(_)))),
        "{:?}",
        cut.errors
    );
    // With nothing before it to keep, it is no game: a broken one.
    let broken = read_str("##!! *\n").next().unwrap();
    assert!(broken.is_err(), "{broken:?}");
}

#[test]
fn strict_reading_refuses_a_cut_game() {
    let text = "[Event \"1\"]\n1. h2e2 h9g7 2. a0a9 *\n\n[Event \"2\"]\n1. h2e2 *\n";
    let options = ReaderOptions {
        strict: true,
        ..ReaderOptions::default()
    };
    let games: Vec<_> =
        xiangqi_gamefile::Games::from_reader(std::io::Cursor::new(text), None, options)
            .unwrap()
            .collect();
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!((e.game, e.line_column()), (1, Some((2, 17))), "{e}");
    assert!(games[1].is_ok());
    // Not strict: the same game with its error.
    let lenient: Vec<_> = read_str(text).collect();
    assert_eq!(lenient[0].as_ref().unwrap().plies(), 2);
}
