//! PGN reading and write/read round trips that fuzzing (`fuzz/`, target
//! `pgn`) found broken. A test that still fails is `#[ignore]`d with the bug
//! it shows.

use xiangqi_notation::pgn::{read_str, write_game, GameResult, PgnErrorKind, WriteOptions};
use xiangqi_notation::Notation;

/// Found by the `pgn` target (fuzz/regressions/pgn-8b2d89b3): a game with a
/// `Result` tag but neither moves nor a termination marker is written with
/// the marker `*`, which the reader then prefers to the tag: the result is lost.
#[test]
fn result_tag_survives_a_round_trip() {
    let game = read_str("[Result \"1-0\"]\n").next().unwrap().unwrap();
    assert_eq!(game.result, None);
    assert_eq!(game.outcome(), GameResult::RedWins);
    for notation in Notation::ALL {
        let text = write_game(&game, &WriteOptions::new(notation)).unwrap();
        let back = read_str(&text).next().unwrap().unwrap();
        assert_eq!(back.outcome(), GameResult::RedWins, "{notation}:\n{text}");
    }
}

/// Moves, comments, NAGs and variations survive a round trip in every notation.
#[test]
fn move_text_survives_a_round_trip() {
    let text = "[Event \"t\"]\n\n1. h2e2 {centre} h9g7 $1 (1... b9c7 ; line comment with } inside\n2. h0g2) \
                2. h0g2 i9h9 3. i0h0 1-0\n";
    let game = read_str(text).next().unwrap().unwrap();
    for notation in Notation::ALL {
        let written = write_game(&game, &WriteOptions::new(notation)).unwrap();
        let back = read_str(&written).next().unwrap().unwrap();
        assert_eq!(back.mainline, game.mainline, "{notation}:\n{written}");
        assert_eq!(back.outcome(), GameResult::RedWins);
    }
}

/// Found by the `pgn` target (fuzz/regressions/pgn-932643a2): a game without
/// moves is returned as read although its FEN tag is invalid, so
/// `xiangqi pgn check` reports it as fine and `Game::start_position` fails later.
#[test]
#[ignore = "notation bug: the FEN tag of a game without moves is not checked (docs/robustness.md)"]
fn invalid_fen_tag_is_an_error_even_without_moves() {
    for text in [
        "[FEN \"garbage\"]\n\n*\n",
        "[FEN \"4k4/9/9/9/9/9/9 w - - 0 1\"]\n",
    ] {
        let item = read_str(text).next().expect("one item");
        let err = item.expect_err(text);
        assert!(
            matches!(err.kind, PgnErrorKind::BadFen(_)),
            "{text:?}: {err}"
        );
        assert_eq!((err.game, err.line), (1, 1), "{text:?}: {err}");
    }
}

/// Found by the `pgn` target (fuzz/regressions/pgn-fb9f62e2): a carriage
/// return before a line break inside a multi-line comment (`\r\r\n` line
/// ends: the reader strips one `\r`) is kept in the comment, written back, and
/// then stripped by the reader: the comment changes on the round trip.
#[test]
#[ignore = "notation bug: a CR inside a multi-line comment is lost on a round trip (docs/robustness.md)"]
fn carriage_return_in_a_comment_survives_a_round_trip() {
    let game = read_str("1. h2e2 {two\r\r\nlines} *\n")
        .next()
        .unwrap()
        .unwrap();
    let written = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
    let back = read_str(&written).next().unwrap().unwrap();
    assert_eq!(back.mainline, game.mainline, "{written:?}");
}

/// Found by the `pgn` target (fuzz/regressions/pgn-90d04a9c): a line of a
/// multi-line comment starting with the GB18030 byte-order mark is read as
/// U+FEFF in the comment; written back as UTF-8 at the start of a line, the
/// reader drops it: the comment changes on the round trip.
#[test]
#[ignore = "notation bug: a BOM starting a comment line is lost on a round trip (docs/robustness.md)"]
fn bom_in_a_comment_survives_a_round_trip() {
    let bytes: &[u8] = b"1. h2e2 {a\n\x84\x31\x95\x33b} *\n";
    let game = xiangqi_notation::pgn::Reader::new(bytes)
        .next()
        .unwrap()
        .unwrap();
    let written = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
    let back = read_str(&written).next().unwrap().unwrap();
    assert_eq!(back.mainline, game.mainline, "{written:?}");
}
