//! Engine client: everything an external engine writes is untrusted. The
//! input is split into lines and each is read as a UCI/UCCI `info` line, as
//! xboard `feature` pairs and as move text in both rank numberings; the
//! spec parser gets the whole input. Nothing may panic; a PV keeps every
//! word after `pv`; a move that reads back is written so that it reads back
//! to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_engine_client::protocol::info::read_info;
use xiangqi_engine_client::protocol::xboard::parse_features;
use xiangqi_engine_client::{EngineSpec, MoveText};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = text.parse::<EngineSpec>();
    for line in text.lines() {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        words.insert(0, "info");
        if let Some(info) = read_info(&words) {
            assert!(info.multipv >= 1);
            assert!(info.pv.len() < words.len());
        }
        let _ = parse_features(line);
        for ranks_from_one in [false, true] {
            let notation = MoveText { ranks_from_one };
            if let Some(mv) = notation.read(line) {
                assert_eq!(notation.read(&notation.write(mv)), Some(mv), "{line:?}");
            }
        }
    }
});
