//! CBL files: a library header (the games start at byte 101 952, beyond
//! what the fuzzer grows on its own) followed by arbitrary bytes as the
//! slots, through the CBL reader, with the default limits or tiny ones
//! chosen by the first byte (see `xiangqi_fuzz::check_game_file` for
//! what must hold).
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_fuzz::check_game_file;
use xiangqi_gamefile::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, input)) = data.split_first() else {
        return;
    };
    let mut library = b"CCBridgeLibrary\0".to_vec();
    library.resize(101_952, 0);
    library.extend_from_slice(input);
    check_game_file(mode, &library, Format::Cbl);
});
