//! PGN reading and write/read round trips that fuzzing (`fuzz/`, target
//! `pgn`) found broken (docs/robustness.md, findings 3 and 6-8), now fixed.

use xiangqi_gamefile::pgn::{read_str, write_game, WriteOptions};
use xiangqi_gamefile::ErrorKind;
use xiangqi_gamefile::GameResult;
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
/// moves was returned although its FEN tag is invalid, so `xiangqi pgn check`
/// reported it as fine and `Game::start_position` failed later. The error
/// names the tag's line, and the next game is read.
#[test]
fn invalid_fen_tag_is_an_error_even_without_moves() {
    for text in [
        "[FEN \"garbage\"]\n\n*\n",
        "[FEN \"4k4/9/9/9/9/9/9 w - - 0 1\"]\n",
    ] {
        let item = read_str(text).next().expect("one item");
        let err = item.expect_err(text);
        assert!(
            matches!(err.kind, ErrorKind::BadFen { .. }),
            "{text:?}: {err}"
        );
        assert_eq!(
            (err.game, err.line_column()),
            (1, Some((1, 1))),
            "{text:?}: {err}"
        );
    }
    let mut items = read_str("[Event \"a\"]\n[FEN \"garbage\"]\n*\n\n[Event \"b\"]\n1. h2e2 *\n");
    let err = items.next().unwrap().unwrap_err();
    assert_eq!(
        (err.game, err.line_column().map(|p| p.0)),
        (1, Some(2)),
        "{err}"
    );
    let next = items.next().unwrap().unwrap();
    assert_eq!(next.tag("Event"), Some("b"));
    assert_eq!(next.plies(), 1);
}

/// Found by the `pgn` target (fuzz/regressions/pgn-fb9f62e2): with `\r\r\n`
/// line ends the reader stripped one `\r` and kept the other in a multi-line
/// comment, which the reader then lost on the round trip. Every CR before the
/// line feed now belongs to the line end.
#[test]
fn carriage_return_in_a_comment_survives_a_round_trip() {
    let game = read_str("1. h2e2 {two\r\r\nlines} *\n")
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(game.mainline.moves[0].comments(), ["two\nlines"]);
    let written = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
    let back = read_str(&written).next().unwrap().unwrap();
    assert_eq!(back.mainline, game.mainline, "{written:?}");
}

/// Found by the `pgn` target (fuzz/regressions/pgn-90d04a9c): a line of a
/// multi-line comment starting with the GB18030 byte-order mark was read as
/// U+FEFF in the comment, which the reader dropped on the round trip (written
/// as UTF-8 at the start of a line). It is now dropped in both encodings.
#[test]
fn bom_in_a_comment_survives_a_round_trip() {
    let bytes: &[u8] = b"1. h2e2 {a\n\x84\x31\x95\x33b} *\n";
    let game = xiangqi_gamefile::pgn::PgnReader::new(bytes)
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(game.mainline.moves[0].comments(), ["a\nb"]);
    let written = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
    let back = read_str(&written).next().unwrap().unwrap();
    assert_eq!(back.mainline, game.mainline, "{written:?}");
}
