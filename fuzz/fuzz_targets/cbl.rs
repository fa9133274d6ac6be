//! CBL files: a library laid out from the fuzzer's bytes, so that its
//! header and index fields, not only its slots, can lie. Input: the mode
//! byte (limits, see `xiangqi_fuzz::check_game_file`), the capacity field
//! (4 bytes, any value: zero, negative, past the file), how many index
//! entries to lay out (one byte, below 64, independent of the capacity),
//! the first 16 bytes of each entry (flags, number, slot count, length),
//! then the slots. The header up to the index (66 624 bytes, beyond what
//! the fuzzer grows by itself) is built here. What must hold is
//! `check_game_file`'s.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_fuzz::check_game_file;
use xiangqi_gamefile::Format;

const INDEX_START: usize = 66_624;
const ENTRY_LEN: usize = 276;
const ENTRY_FIELDS: usize = 16;

fuzz_target!(|data: &[u8]| {
    let [mode, c0, c1, c2, c3, entries, rest @ ..] = data else {
        return;
    };
    let entries = usize::from(entries % 64);
    let fields = rest.len().min(entries * ENTRY_FIELDS);
    let (fields, slots) = rest.split_at(fields);
    let mut library = b"CCBridgeLibrary\0".to_vec();
    library.resize(INDEX_START, 0);
    library[60..64].copy_from_slice(&[*c0, *c1, *c2, *c3]);
    for n in 0..entries {
        let mut entry = [0; ENTRY_LEN];
        let given = fields.get(n * ENTRY_FIELDS..).unwrap_or(&[]);
        let given = &given[..given.len().min(ENTRY_FIELDS)];
        entry[..given.len()].copy_from_slice(given);
        library.extend_from_slice(&entry);
    }
    library.extend_from_slice(slots);
    check_game_file(*mode, &library, Format::Cbl);
});
