//! WebSocket messages: every text frame a client of `xiangqi serve` sends
//! goes through `decode` before anything else. Arbitrary bytes as a frame's
//! text: nothing may panic; the answer is the same each time; a frame over
//! the limit is `too_large` whatever it holds; an unknown type is quoted
//! cut to 40 characters; a decoded message is JSON whose `t` is the
//! message's own type; every refusal says why.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use xiangqi_server_protocol::{decode, ClientMessage, ProtocolError, MAX_FRAME_BYTES};

/// The protocol's `t` of a decoded message.
fn type_name(message: &ClientMessage) -> &'static str {
    match message {
        ClientMessage::Hello { .. } => "hello",
        ClientMessage::Ping => "ping",
        ClientMessage::Pong => "pong",
        ClientMessage::Lobby => "lobby",
        ClientMessage::Seek { .. } => "seek",
        ClientMessage::CancelSeek { .. } => "cancel_seek",
        ClientMessage::Accept { .. } => "accept",
        ClientMessage::PlayEngine { .. } => "play_engine",
        ClientMessage::Watch { .. } => "watch",
        ClientMessage::Unwatch { .. } => "unwatch",
        ClientMessage::Move { .. } => "move",
        ClientMessage::Resign { .. } => "resign",
        ClientMessage::Abort { .. } => "abort",
        ClientMessage::OfferDraw { .. } => "offer_draw",
        ClientMessage::AcceptDraw { .. } => "accept_draw",
        ClientMessage::DeclineDraw { .. } => "decline_draw",
        ClientMessage::OfferTakeback { .. } => "offer_takeback",
        ClientMessage::AcceptTakeback { .. } => "accept_takeback",
        ClientMessage::DeclineTakeback { .. } => "decline_takeback",
        ClientMessage::OfferRematch { .. } => "offer_rematch",
        ClientMessage::AcceptRematch { .. } => "accept_rematch",
        ClientMessage::DeclineRematch { .. } => "decline_rematch",
        ClientMessage::Chat { .. } => "chat",
        ClientMessage::Analyse(_) => "analyse",
        ClientMessage::StopAnalysis { .. } => "stop_analysis",
    }
}

fuzz_target!(|data: &[u8]| {
    // A text frame is UTF-8 (the WebSocket layer checks that first).
    let text = String::from_utf8_lossy(data);
    let answer = decode(&text);
    assert_eq!(answer, decode(&text), "decode is not deterministic");
    match answer {
        Ok(message) => {
            assert!(text.len() <= MAX_FRAME_BYTES);
            let value: Value = serde_json::from_str(&text).expect("a decoded frame is JSON");
            assert_eq!(value["t"].as_str(), Some(type_name(&message)), "{text:?}");
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
