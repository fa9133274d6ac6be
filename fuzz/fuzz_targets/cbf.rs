//! CBF files (CCBridge's XML): arbitrary bytes through the CBF reader, with
//! the default limits or tiny ones chosen by the first byte (see
//! `xiangqi_fuzz::check_game_file` for what must hold).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_fuzz::check_game_file;
use xiangqi_gamefile::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    check_game_file(mode, input, Format::Cbf);
});
