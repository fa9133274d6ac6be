//! PGN: arbitrary bytes (any encoding) through the streaming reader, with
//! the default limits or tiny ones chosen by the first byte. The reader must
//! end, never panic, number its errors sensibly (game index, line and column
//! within the input), respect every limit, and only return games whose
//! moves (variations included) are legal from the start position. Every
//! game read is written back in a notation chosen by the input and must read
//! back with the same moves, comments, annotations and result.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_core::Position;
use xiangqi_fuzz::{assert_legal_sequence, reader_limits};
use xiangqi_gamefile::{Game, Limits, Line, ReaderOptions};
use xiangqi_gamefile::pgn::{write_game, PgnReader, WriteError, WriteOptions};
use xiangqi_notation::Notation;

/// Checks every move of `line` (and, recursively, of its variations) from `pos`;
/// returns the deepest variation nesting below `line`.
fn check_line(pos: &Position, line: &Line, limits: &Limits) -> usize {
    let mut p = pos.clone();
    let mut depth = 0;
    for (i, node) in line.moves.iter().enumerate() {
        for comment in node.comments() {
            assert!(
                comment.len() <= limits.max_comment_len,
                "comment of {} bytes kept",
                comment.len()
            );
        }
        for variation in node.variations() {
            depth = depth.max(1 + check_line(&p, variation, limits));
        }
        if let Err(e) = p.play(node.mv) {
            panic!(
                "move {} ({}) of a line is illegal in {}: {e}",
                i + 1,
                node.mv,
                p.to_fen()
            );
        }
    }
    depth
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let limits = reader_limits(mode);
    let options = ReaderOptions {
        limits,
        ..ReaderOptions::default()
    };
    let lines = input.split(|&b| b == b'\n').count();
    let mut items = 0;
    for item in PgnReader::with_options(input, options) {
        items += 1;
        // One line may hold several games (`* 1. h2e2 *`), but each takes a byte.
        assert!(items <= input.len() + 1, "more games than bytes");
        match item {
            Err(e) => {
                // Errors and games share one numbering, the one `xiangqi pgn check` prints.
                assert_eq!(
                    e.game, items,
                    "error of item {items} names game {}: {e}",
                    e.game
                );
                let Some((line, column)) = e.line_column() else {
                    panic!("a text error without a line: {e}");
                };
                assert!(line >= 1 && line <= lines + 1, "line {line} of {lines}: {e}");
                assert!(column >= 1, "{e}");
                let _ = e.to_string();
            }
            Ok(game) => {
                check_game(&game, &limits, mode);
            }
        }
    }
});

fn check_game(game: &Game, limits: &Limits, mode: u8) {
    // A diagram no game can reach is shown, never played (docs/gamefile.md).
    if xiangqi_fuzz::check_diagram_game(game) {
        return;
    }
    // Every game is returned with a valid start position, also one without
    // moves (docs/robustness.md, finding 6).
    let start = match game.start_position() {
        Ok(start) => start,
        Err(e) => panic!("a game was read with a bad FEN tag: {e}"),
    };
    let depth = check_line(&start, &game.mainline, limits);
    assert!(
        depth <= limits.max_variation_depth,
        "variations nested {depth} deep"
    );
    assert!(game.mainline.count_moves() <= limits.max_moves_per_game);
    assert!(game.tags.len() <= limits.max_tags_per_game);
    assert_legal_sequence(&start, game.moves());
    game.final_position().expect("main line replays");

    let notation = Notation::ALL[usize::from(mode >> 1) % 4];
    let written = match write_game(game, &WriteOptions::new(notation)) {
        Ok(w) => w,
        // The one documented refusal: a comment PGN cannot hold.
        Err(WriteError::Comment(_)) => return,
        Err(e) => panic!("cannot write a game that was read: {e}\n{game:?}"),
    };
    let relaxed = ReaderOptions {
        // Lines of any length (docs/robustness.md, finding 2).
        limits: Limits {
            max_line_len: usize::MAX,
            ..Limits::default()
        },
        ..ReaderOptions::default()
    };
    let mut again = PgnReader::with_options(written.as_bytes(), relaxed);
    let back = match again.next() {
        Some(Ok(g)) => g,
        other => panic!("written game does not read back: {other:?}\n{written}"),
    };
    // Exactly, comments included: the reader drops the CRs of a line end and
    // a BOM starting a line, so no comment it returns holds what the writer
    // could not give back (docs/robustness.md, findings 7 and 8).
    assert_eq!(
        back.mainline, game.mainline,
        "move text changed on the round trip through\n{written}"
    );
    // With or without a termination marker (docs/robustness.md, finding 3).
    assert_eq!(back.outcome(), game.outcome(), "result changed:\n{written}");
    assert_eq!(
        back.start_position().ok(),
        Some(start),
        "start position changed:\n{written}"
    );
    assert!(
        again.next().is_none(),
        "one game written, several read:\n{written}"
    );
}
