//! # xiangqi-server-protocol
//!
//! The messages a client sends to `xiangqi serve` (protocol version 1) and
//! their decoder, which every frame passes before anything else; and the
//! messages the server sends ([`server::ServerMessage`]), one type per frame
//! kind, which the server renders its frames from. A crate of its own so
//! that clients, bots and the fuzzer take both without the server's
//! dependencies. The protocol is written down in `docs/server.md`; a test
//! reads every example there into these types.
//!
//! [`bot`] holds the bot API's HTTP bodies and NDJSON stream lines
//! (`docs/server.md`, "Bots"), which the server and `xiangqi bot` share;
//! [`time_control`] reads the protocol's `MIN+INC` time controls, for both
//! too.

use serde::{Deserialize, Serialize};

pub mod bot;
pub mod echo;
pub mod server;
mod session;
pub mod time_control;

pub use server::ServerMessage;

pub use session::{session_cookie_pair, SESSION_COOKIE};

/// The protocol version this server speaks.
pub const PROTOCOL_VERSION: u32 = 1;
/// The largest text frame accepted, in bytes.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;

/// The colour a seek or engine game asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// Play Red.
    Red,
    /// Play Black.
    Black,
    /// Let the server draw lots.
    Random,
}

impl ColorChoice {
    /// The protocol's name.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::Red => "red",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// Which of a game's two chats a message is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    /// The two players' chat: only they write and read it.
    Players,
    /// The spectators' chat: accounts that do not play the game write it,
    /// every watcher but the players reads it.
    Spectators,
}

impl ChatChannel {
    /// The protocol's name.
    pub fn name(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }
}

/// The rule set a seek gets when it names none.
pub const DEFAULT_RULES: &str = "online";

fn default_rules() -> String {
    DEFAULT_RULES.to_string()
}

fn default_color() -> ColorChoice {
    ColorChoice::Random
}

/// One message from a client.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The handshake.
    Hello {
        /// Protocol version.
        v: u32,
    },
    /// Keep-alive request; answered with `pong`.
    Ping,
    /// Answer to the server's ping.
    Pong,
    /// Subscribe to the lobby.
    Lobby,
    /// Open a seek.
    Seek {
        /// `MIN+INC`.
        tc: String,
        /// Rated or casual.
        #[serde(default)]
        rated: bool,
        /// The colour wanted.
        #[serde(default = "default_color")]
        color: ColorChoice,
        /// The rule set's preset name.
        #[serde(default = "default_rules")]
        rules: String,
    },
    /// Withdraw one's own seek.
    CancelSeek {
        /// The seek.
        id: String,
    },
    /// Accept another player's seek.
    Accept {
        /// The seek.
        id: String,
    },
    /// A casual game against the built-in engine.
    PlayEngine {
        /// 0..=20.
        level: i64,
        /// `MIN+INC`.
        tc: String,
        /// The colour wanted.
        #[serde(default = "default_color")]
        color: ColorChoice,
    },
    /// Join a game's room.
    Watch {
        /// The game.
        game: String,
        /// The last event version this client saw.
        #[serde(default)]
        since: Option<u64>,
    },
    /// Leave a game's room.
    Unwatch {
        /// The game.
        game: String,
    },
    /// Play a move.
    Move {
        /// The game.
        game: String,
        /// Plies already played when the move was chosen.
        ply: u32,
        /// ICCS text.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Resign.
    Resign {
        /// The game.
        game: String,
    },
    /// Call the game off before both sides have moved: cancelled, unrated.
    Abort {
        /// The game.
        game: String,
    },
    /// Offer a draw.
    OfferDraw {
        /// The game.
        game: String,
    },
    /// Accept the opponent's draw offer.
    AcceptDraw {
        /// The game.
        game: String,
    },
    /// Decline the opponent's draw offer.
    DeclineDraw {
        /// The game.
        game: String,
    },
    /// Ask to take back one's last move (and the opponent's reply).
    OfferTakeback {
        /// The game.
        game: String,
    },
    /// Agree to the opponent's takeback request.
    AcceptTakeback {
        /// The game.
        game: String,
    },
    /// Refuse the opponent's takeback request.
    DeclineTakeback {
        /// The game.
        game: String,
    },
    /// After the end: offer a new game with colours swapped.
    OfferRematch {
        /// The finished game.
        game: String,
    },
    /// Accept the opponent's rematch offer: the new game starts.
    AcceptRematch {
        /// The finished game.
        game: String,
    },
    /// Decline the opponent's rematch offer.
    DeclineRematch {
        /// The finished game.
        game: String,
    },
    /// Write in a game's chat (added within version 1).
    Chat {
        /// The game.
        game: String,
        /// Which chat.
        channel: ChatChannel,
        /// Plain text, at most 300 characters.
        text: String,
    },
    /// Analyse a position with the engine, live (added within version 1):
    /// replaces the player's running analysis.
    Analyse(AnalyseRequest),
    /// Stop the player's analysis (added within version 1).
    StopAnalysis {
        /// The analysis (`a_…`); absent: whichever runs.
        #[serde(default)]
        id: Option<String>,
    },
}

/// The most lines an `analyse` may ask for.
pub const MAX_MULTI_PV: u32 = 5;

fn default_multipv() -> u32 {
    1
}

/// An `analyse` message's fields: a start position, moves from it, and
/// how many lines. Unknown fields are refused (`bad_message`), so a
/// misspelt `multipv` is not silently one line.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The start position's FEN.
    pub fen: String,
    /// Moves played from it (ICCS), the position analysed being the last.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Lines wanted, 1 to [`MAX_MULTI_PV`].
    #[serde(default = "default_multipv")]
    pub multipv: u32,
}

/// The message types a client may send: the `t` of each [`ClientMessage`]
/// (what [`ClientMessage::type_name`] gives), the one list the decoder,
/// the fuzz target `ws_message` and the tests use.
pub const CLIENT_MESSAGE_TYPES: &[&str] = &[
    "hello",
    "ping",
    "pong",
    "lobby",
    "seek",
    "cancel_seek",
    "accept",
    "play_engine",
    "watch",
    "unwatch",
    "move",
    "resign",
    "abort",
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "offer_takeback",
    "accept_takeback",
    "decline_takeback",
    "offer_rematch",
    "accept_rematch",
    "decline_rematch",
    "chat",
    "analyse",
    "stop_analysis",
];

impl ClientMessage {
    /// The protocol's `t` of this message, one of [`CLIENT_MESSAGE_TYPES`].
    pub fn type_name(&self) -> &'static str {
        match self {
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
}

/// Why a frame is not a client message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Over [`MAX_FRAME_BYTES`].
    #[error("the frame has {0} bytes, more than the limit of {MAX_FRAME_BYTES}")]
    TooLarge(usize),
    /// Not JSON, not an object, no `t`, or fields of the wrong shape.
    #[error("bad message: {0}")]
    BadMessage(String),
    /// A `t` this server does not know.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
}

impl ProtocolError {
    /// The protocol's error code.
    pub fn code(&self) -> &'static str {
        match self {
            ProtocolError::TooLarge(_) => "too_large",
            ProtocolError::BadMessage(_) => "bad_message",
            ProtocolError::UnknownType(_) => "unknown_type",
        }
    }
}

/// Reads one text frame.
pub fn decode(text: &str) -> Result<ClientMessage, ProtocolError> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(ProtocolError::TooLarge(text.len()));
    }
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| ProtocolError::BadMessage(echo::cut_echoes(&e.to_string())))?;
    let Some(kind) = value.get("t") else {
        return Err(ProtocolError::BadMessage(
            "a message is a JSON object with a \"t\" field".to_string(),
        ));
    };
    let Some(kind) = kind.as_str() else {
        return Err(ProtocolError::BadMessage(
            "\"t\" must be a string".to_string(),
        ));
    };
    if !CLIENT_MESSAGE_TYPES.contains(&kind) {
        // Cut what is echoed back so an error frame stays small.
        let shown: String = kind.chars().take(echo::MAX_ECHO_CHARS).collect();
        return Err(ProtocolError::UnknownType(shown));
    }
    serde_json::from_value(value)
        .map_err(|e| ProtocolError::BadMessage(echo::cut_echoes(&e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_type_decodes_to_a_message_of_that_type() {
        let mut seen = std::collections::BTreeSet::new();
        for name in CLIENT_MESSAGE_TYPES {
            assert!(seen.insert(name), "{name} is listed twice");
            // Every field any message has (the others are ignored), except
            // for `analyse`, which refuses fields it does not know.
            let frame = if *name == "analyse" {
                serde_json::json!({"t": name, "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w", "multipv": 2})
            } else {
                serde_json::json!({"t": name, "v": 1, "tc": "5+3", "id": "s_1",
                    "level": 3, "game": "g_1", "ply": 0, "move": "h2e2",
                    "channel": "players", "text": "hi"})
            };
            let message = decode(&frame.to_string())
                .unwrap_or_else(|e| panic!("{name} does not decode: {e}"));
            assert_eq!(message.type_name(), *name);
        }
        // A name off the list is refused before serde sees it.
        assert_eq!(
            decode(r#"{"t":"surrender"}"#),
            Err(ProtocolError::UnknownType("surrender".into()))
        );
    }

    #[test]
    fn decodes_each_kind_of_message() {
        assert_eq!(
            decode(r#"{"t":"hello","v":1}"#),
            Ok(ClientMessage::Hello { v: 1 })
        );
        assert_eq!(
            decode(r#"{"t":"move","game":"g_1","ply":0,"move":"h2e2"}"#),
            Ok(ClientMessage::Move {
                game: "g_1".into(),
                ply: 0,
                mv: "h2e2".into()
            })
        );
        assert_eq!(
            decode(r#"{"t":"seek","tc":"5+3"}"#),
            Ok(ClientMessage::Seek {
                tc: "5+3".into(),
                rated: false,
                color: ColorChoice::Random,
                rules: "online".into()
            })
        );
        assert_eq!(
            decode(r#"{"t":"abort","game":"g_1"}"#),
            Ok(ClientMessage::Abort { game: "g_1".into() })
        );
        assert_eq!(
            decode(r#"{"t":"chat","game":"g_1","channel":"players","text":"gg"}"#),
            Ok(ClientMessage::Chat {
                game: "g_1".into(),
                channel: ChatChannel::Players,
                text: "gg".into()
            })
        );
        assert_eq!(
            decode(r#"{"t":"chat","game":"g_1","channel":"all","text":"gg"}"#)
                .unwrap_err()
                .code(),
            "bad_message"
        );
        assert_eq!(
            decode(r#"{"t":"analyse","fen":"9/9/9/9/9/9/9/9/9/9 w","multipv":3}"#),
            Ok(ClientMessage::Analyse(AnalyseRequest {
                fen: "9/9/9/9/9/9/9/9/9/9 w".into(),
                moves: Vec::new(),
                multipv: 3
            }))
        );
        assert_eq!(
            decode(r#"{"t":"analyse","fen":"x","multi_pv":3}"#)
                .unwrap_err()
                .code(),
            "bad_message"
        );
        assert_eq!(
            decode(r#"{"t":"stop_analysis"}"#),
            Ok(ClientMessage::StopAnalysis { id: None })
        );
        assert_eq!(
            decode(r#"{"t":"watch","game":"g_1","since":4}"#),
            Ok(ClientMessage::Watch {
                game: "g_1".into(),
                since: Some(4)
            })
        );
    }

    #[test]
    fn refuses_bad_frames_with_their_code() {
        assert_eq!(decode("{").unwrap_err().code(), "bad_message");
        assert_eq!(decode("[1,2]").unwrap_err().code(), "bad_message");
        assert_eq!(decode(r#"{"t":5}"#).unwrap_err().code(), "bad_message");
        assert_eq!(
            decode(r#"{"t":"move","game":"g"}"#).unwrap_err().code(),
            "bad_message"
        );
        assert_eq!(
            decode(r#"{"t":"dance"}"#).unwrap_err().code(),
            "unknown_type"
        );
        let big = format!(r#"{{"t":"ping","pad":"{}"}}"#, "x".repeat(MAX_FRAME_BYTES));
        assert_eq!(decode(&big).unwrap_err().code(), "too_large");
    }
}
