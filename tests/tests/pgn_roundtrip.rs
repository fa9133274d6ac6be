//! PGN write/read round trips that fuzzing (`fuzz/`, target `pgn`) found
//! broken. A test that still fails is `#[ignore]`d with the bug it shows.

use xiangqi_notation::pgn::{read_str, write_game, GameResult, WriteOptions};
use xiangqi_notation::Notation;

/// Found by the `pgn` target (fuzz/regressions/pgn-8b2d89b3): a game with a
/// `Result` tag but neither moves nor a termination marker is written with
/// the marker `*`, which the reader then prefers to the tag: the result is lost.
#[test]
#[ignore = "notation bug: the writer ends a game without a marker with `*`, contradicting its Result tag (docs/robustness.md)"]
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
