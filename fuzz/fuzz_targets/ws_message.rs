//! WebSocket messages: every text frame a client of `xiangqi serve` sends
//! goes through `decode` before anything else. Arbitrary bytes as a frame's
//! text: nothing may panic; the answer is the same each time; a frame over
//! the limit is `too_large` whatever it holds; an unknown type is quoted
//! cut to 40 characters; a decoded message is JSON whose `t` is the
//! message's own type; every refusal says why.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use xiangqi_server_protocol::{decode, ProtocolError, CLIENT_MESSAGE_TYPES, MAX_FRAME_BYTES};

fuzz_target!(|data: &[u8]| {
    // A text frame is UTF-8 (the WebSocket layer checks that first).
    let text = String::from_utf8_lossy(data);
    let answer = decode(&text);
    assert_eq!(answer, decode(&text), "decode is not deterministic");
    match answer {
        Ok(message) => {
            assert!(text.len() <= MAX_FRAME_BYTES);
            let value: Value = serde_json::from_str(&text).expect("a decoded frame is JSON");
            assert_eq!(value["t"].as_str(), Some(message.type_name()), "{text:?}");
            assert!(CLIENT_MESSAGE_TYPES.contains(&message.type_name()));
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
            assert!(["too_large", "bad_message", "unknown_type"].contains(&error.code()));
            match error {
                ProtocolError::TooLarge(len) => {
                    assert_eq!(len, text.len());
                    assert!(len > MAX_FRAME_BYTES);
                }
                ProtocolError::UnknownType(kind) => {
                    assert!(text.len() <= MAX_FRAME_BYTES);
                    assert!(kind.chars().count() <= 40, "{kind:?}");
                }
                ProtocolError::BadMessage(why) => {
                    assert!(text.len() <= MAX_FRAME_BYTES);
                    assert!(!why.is_empty());
                }
            }
        }
    }
});
