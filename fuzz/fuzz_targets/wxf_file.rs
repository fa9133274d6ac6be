//! WXF game files: arbitrary bytes through the streaming reader, with the
//! default limits or tiny ones chosen by the first byte. The reader must end,
//! never panic, number its errors within the input, respect every limit and
//! only return games whose moves are legal from their start position. Every
//! game the writer accepts reads back the same (its moves then in WXF).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_fuzz::{assert_legal_sequence, reader_limits};
use xiangqi_gamefile::{wxf, Game, Limits, ReaderOptions};
use xiangqi_gamefile::wxf::{write_wxf, WxfReader, WxfWriteOptions};
use xiangqi_notation::{Notation, WxfStyle};

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
    for item in WxfReader::with_options(input, options) {
        items += 1;
        assert!(items <= input.len() + 1, "more games than bytes");
        match item {
            Err(e) => {
                assert!(
                    e.game >= 1 && e.game <= items,
                    "item {items} names game {}: {e}",
                    e.game
                );
                let Some((line, column)) = e.line_column() else {
                    panic!("a text error without a line: {e}");
                };
                assert!(line >= 1 && line <= lines + 1, "line {line} of {lines}: {e}");
                assert!(column >= 1, "{e}");
                let _ = e.to_string();
            }
            Ok(game) => check_game(&game, &limits, mode),
        }
    }
});

fn check_game(game: &Game, limits: &Limits, mode: u8) {
    // A diagram no game can reach is shown, never played (docs/gamefile.md).
    if xiangqi_fuzz::check_diagram_game(game) {
        return;
    }
    let start = match game.start_position() {
        Ok(start) => start,
        Err(e) => panic!("a game was read with a bad FEN header: {e}"),
    };
    assert!(game.mainline.count_moves() <= limits.max_moves_per_game);
    // A `name ; rating ;;` player header adds its rating as a second tag.
    assert!(
        game.tags.len() <= limits.max_tags_per_game + 1,
        "{} tags",
        game.tags.len()
    );
    assert_legal_sequence(&start, game.moves());
    game.final_position().expect("main line replays");

    let style = if mode & 2 == 0 {
        WxfStyle::default()
    } else {
        WxfStyle::fsf()
    };
    let options = WxfWriteOptions {
        style,
        moves_per_line: usize::from(mode >> 2) % 4,
        drop_variations: false,
    };
    // Refusals (a comment holding `}`, tags no header can name) are documented.
    let Ok(written) = write_wxf(game, &options) else {
        return;
    };
    let back = wxf::read_str(&written)
        .next()
        .expect("a written game reads back")
        .unwrap_or_else(|e| panic!("cannot read back a written game: {e}\n{written}"));
    let mut want = game.clone();
    want.notation = Notation::Wxf;
    // A game's errors (a cut at an unplayable move) are not written.
    want.errors.clear();
    assert_eq!(back, want, "round trip of\n{written}");
}
