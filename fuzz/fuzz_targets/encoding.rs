//! Encoding detection: arbitrary bytes through `detect_encoding` (as a
//! whole text and as a prefix), through every encoding's decoder and
//! encoder, and through the PGN and WXF readers with the encoding they
//! detect. Never a panic; see `xiangqi_fuzz::check_encoding` for what
//! must hold.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_fuzz::check_encoding;

fuzz_target!(|data: &[u8]| {
    check_encoding(data);
});
