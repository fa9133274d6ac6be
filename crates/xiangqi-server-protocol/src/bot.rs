//! The bot API's bodies and stream lines (`docs/server.md`, "Bots"): the
//! HTTP bodies of the token, challenge and game endpoints, and the lines of
//! the two NDJSON streams (the event stream, a game's stream). The server
//! renders them and `xiangqi bot` reads them back from these types only.
//! Streams are one JSON object per line; an empty line is a keep-alive,
//! which [`parse_line`] skips.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::server::Side;
use crate::{ChatChannel, ColorChoice, DEFAULT_RULES};

/// The prefix of every API token, so that a leaked one is recognisable.
pub const TOKEN_PREFIX: &str = "xqb_";
/// How many tokens a player may hold at once.
pub const MAX_TOKENS_PER_PLAYER: usize = 10;
/// How many open challenges one challenger may have at once.
pub const MAX_OPEN_CHALLENGES: usize = 3;
/// How long a challenge waits for an answer, in seconds.
pub const CHALLENGE_LAPSE_SECS: u64 = 30;
/// How often a stream sends a keep-alive (an empty line), in seconds.
pub const KEEP_ALIVE_SECS: u64 = 5;
/// The media type of both streams.
pub const NDJSON: &str = "application/x-ndjson";

fn default_rules() -> String {
    DEFAULT_RULES.to_string()
}

fn default_color() -> ColorChoice {
    ColorChoice::Random
}

/// `POST /api/account/tokens`'s body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenRequest {
    /// What the token is for, for its owner (at most 60 characters).
    #[serde(default)]
    pub description: String,
}

/// The answer to a created token: the only time the token is shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenCreated {
    /// `t_…`, what revoking names.
    pub id: String,
    /// `xqb_…`: the secret, for `Authorization: Bearer`.
    pub token: String,
    /// What it is for.
    pub description: String,
    /// Unix ms.
    pub created_at: i64,
}

/// One token in the owner's list (never the secret).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenInfo {
    /// `t_…`.
    pub id: String,
    /// What it is for.
    pub description: String,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms of the last request made with it, `null` if never used.
    pub last_used_at: Option<i64>,
}

/// `GET /api/account/tokens`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenList {
    /// The player's tokens, newest first.
    pub tokens: Vec<TokenInfo>,
}

/// A bot with an open event stream, in `GET /api/bots/online`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnlineBot {
    /// Its name.
    pub name: String,
    /// Its bot-pool rating.
    pub rating: i32,
    /// The games it is playing now.
    pub games: u32,
}

/// `GET /api/bots/online`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnlineBots {
    /// Bots online, by name.
    pub bots: Vec<OnlineBot>,
}

/// A player as challenges and game streams show them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name.
    pub name: String,
    /// The rating of the pool bot games use (`null` for guests).
    pub rating: Option<i32>,
    /// True for bot accounts.
    pub bot: bool,
}

/// `POST /api/challenge/{name}`'s body; the fields of a seek.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeRequest {
    /// `MIN+INC`.
    pub tc: String,
    /// Rated (in the bot pool) or casual.
    #[serde(default)]
    pub rated: bool,
    /// The rule set's preset name.
    #[serde(default = "default_rules")]
    pub rules: String,
    /// The colour the challenger wants.
    #[serde(default = "default_color")]
    pub color: ColorChoice,
}

/// `CHALLENGE`: an open (or just closed) challenge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    /// `c_…`.
    pub id: String,
    /// Who challenges.
    pub challenger: PlayerInfo,
    /// The bot challenged.
    pub dest: PlayerInfo,
    /// `MIN+INC`.
    pub tc: String,
    /// Rated or casual.
    pub rated: bool,
    /// The rule set's preset name.
    pub rules: String,
    /// The challenger's colour.
    pub color: ColorChoice,
}

/// The answer to a challenge made: `201 {"challenge": CHALLENGE}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChallengeCreated {
    /// The challenge as opened.
    pub challenge: Challenge,
}

/// Why a bot declines a challenge.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    /// No reason given.
    #[default]
    Generic,
    /// Not now.
    Later,
    /// Not this time control.
    Tc,
    /// Not a rated game.
    Rated,
    /// Not a casual game.
    Casual,
    /// Not this rule set.
    Rules,
}

impl DeclineReason {
    /// The protocol's name.
    pub fn name(self) -> &'static str {
        match self {
            DeclineReason::Generic => "generic",
            DeclineReason::Later => "later",
            DeclineReason::Tc => "tc",
            DeclineReason::Rated => "rated",
            DeclineReason::Casual => "casual",
            DeclineReason::Rules => "rules",
        }
    }
}

/// `POST /api/challenge/{id}/decline`'s body (optional).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclineRequest {
    /// Why.
    #[serde(default)]
    pub reason: DeclineReason,
}

/// A game of the bot's, in `game_start` and `game_finish`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRef {
    /// `g_…`.
    pub id: String,
    /// The bot's colour in it.
    pub color: Side,
    /// The other player.
    pub opponent: PlayerInfo,
}

/// One line of `GET /api/stream/event`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotEvent {
    /// A challenge to the bot (also sent on connect for each open one).
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge to or from the bot was withdrawn or lapsed.
    ChallengeCanceled {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge from the bot was declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: Challenge,
        /// Why.
        reason: DeclineReason,
    },
    /// A game of the bot's started (also sent on connect for each game in
    /// progress): open its game stream.
    GameStart {
        /// The game.
        game: GameRef,
    },
    /// A game of the bot's ended.
    GameFinish {
        /// The game.
        game: GameRef,
    },
}

/// Whether a game goes on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Being played.
    Started,
    /// Over (finished or aborted; `reason` says how).
    Ended,
}

/// `STATE`: a game's moves, clocks and offers now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamState {
    /// The moves played, ICCS, separated by spaces.
    pub moves: String,
    /// Red's remaining time, ms.
    pub red_ms: u64,
    /// Black's remaining time, ms.
    pub black_ms: u64,
    /// Started or ended.
    pub status: GameStatus,
    /// `1-0`, `0-1` or `1/2-1/2` once ended (`*` for an aborted game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The server's reason code once ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The side with a pending draw offer.
    pub draw_offer: Option<Side>,
    /// The side whose takeback request waits for an answer.
    pub takeback_offer: Option<Side>,
}

/// The first line of a game's stream: the game in full.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFull {
    /// `g_…`.
    pub id: String,
    /// Rated or casual.
    pub rated: bool,
    /// The rule set's preset name.
    pub rules: String,
    /// `MIN+INC`.
    pub tc: String,
    /// Red's player.
    pub red: PlayerInfo,
    /// Black's player.
    pub black: PlayerInfo,
    /// The start position.
    pub initial_fen: String,
    /// The game now.
    pub state: StreamState,
}

/// A chat message, as a game's stream carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StreamChat {
    /// Which chat (a bot reads only the players' chat).
    pub room: ChatChannel,
    /// The author's name.
    pub name: String,
    /// Plain text.
    pub text: String,
}

/// One line of `GET /api/bot/game/stream/{id}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum GameStreamLine {
    /// The first line.
    GameFull(Box<GameFull>),
    /// After every change.
    GameState(StreamState),
    /// A chat message.
    ChatLine(StreamChat),
}

/// `POST /api/bot/game/{id}/chat`'s body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    /// Which chat; a player writes only the players' chat.
    #[serde(default = "players_room")]
    pub room: ChatChannel,
    /// At most 140 characters.
    pub text: String,
}

fn players_room() -> ChatChannel {
    ChatChannel::Players
}

/// The answer to an accepted action: `{"ok": true}`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OkAnswer {
    /// Always true.
    pub ok: bool,
}

/// `{"error": {...}}`: the body of every refused HTTP request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// An error body's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// The contract: a code from the table in `docs/server.md`.
    pub code: String,
    /// For people; may change.
    pub message: String,
    /// What a client's sentence for the code needs (names, seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<serde_json::Value>,
}

/// One stream line as JSON text, with its newline.
pub fn to_line<T: Serialize>(value: &T) -> String {
    // Every field is a string, number, bool, list or map with string keys:
    // serialising cannot fail.
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// Reads one stream line: `None` for a keep-alive (an empty line).
pub fn parse_line<T: DeserializeOwned>(line: &str) -> Option<Result<T, serde_json::Error>> {
    let line = line.trim();
    (!line.is_empty()).then(|| serde_json::from_str(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(
        value: &T,
        text: &str,
    ) {
        let written = to_line(value);
        assert_eq!(written.trim_end(), text);
        let read: T = parse_line(&written).expect("a line").expect("valid");
        assert_eq!(&read, value);
    }

    fn player(name: &str, bot: bool) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            rating: Some(1500),
            bot,
        }
    }

    fn challenge() -> Challenge {
        Challenge {
            id: "c_1".into(),
            challenger: player("ana", false),
            dest: player("engine1", true),
            tc: "5+3".into(),
            rated: true,
            rules: "online".into(),
            color: ColorChoice::Random,
        }
    }

    fn state() -> StreamState {
        StreamState {
            moves: "h2e2 h9g7".into(),
            red_ms: 300_000,
            black_ms: 299_000,
            status: GameStatus::Started,
            result: None,
            reason: None,
            draw_offer: Some(Side::Black),
            takeback_offer: None,
        }
    }

    #[test]
    fn event_lines_round_trip() {
        round_trip(
            &BotEvent::Challenge {
                challenge: challenge(),
            },
            r#"{"type":"challenge","challenge":{"id":"c_1","challenger":{"name":"ana","rating":1500,"bot":false},"dest":{"name":"engine1","rating":1500,"bot":true},"tc":"5+3","rated":true,"rules":"online","color":"random"}}"#,
        );
        let declined = BotEvent::ChallengeDeclined {
            challenge: challenge(),
            reason: DeclineReason::Tc,
        };
        let text = to_line(&declined);
        assert!(text.starts_with(r#"{"type":"challenge_declined","#));
        assert!(text.trim_end().ends_with(r#""reason":"tc"}"#));
        assert_eq!(parse_line::<BotEvent>(&text).unwrap().unwrap(), declined);
        round_trip(
            &BotEvent::GameStart {
                game: GameRef {
                    id: "g_7".into(),
                    color: Side::Black,
                    opponent: player("ana", false),
                },
            },
            r#"{"type":"game_start","game":{"id":"g_7","color":"black","opponent":{"name":"ana","rating":1500,"bot":false}}}"#,
        );
        let canceled = BotEvent::ChallengeCanceled {
            challenge: challenge(),
        };
        round_trip(
            &canceled,
            r#"{"type":"challenge_canceled","challenge":{"id":"c_1","challenger":{"name":"ana","rating":1500,"bot":false},"dest":{"name":"engine1","rating":1500,"bot":true},"tc":"5+3","rated":true,"rules":"online","color":"random"}}"#,
        );
    }

    #[test]
    fn game_stream_lines_round_trip() {
        round_trip(
            &GameStreamLine::GameState(state()),
            r#"{"type":"game_state","moves":"h2e2 h9g7","red_ms":300000,"black_ms":299000,"status":"started","draw_offer":"black","takeback_offer":null}"#,
        );
        let ended = StreamState {
            status: GameStatus::Ended,
            result: Some("1-0".into()),
            reason: Some("checkmate".into()),
            draw_offer: None,
            ..state()
        };
        let line = to_line(&GameStreamLine::GameState(ended.clone()));
        assert!(line.contains(r#""status":"ended","result":"1-0","reason":"checkmate""#));
        assert_eq!(
            parse_line::<GameStreamLine>(&line).unwrap().unwrap(),
            GameStreamLine::GameState(ended)
        );
        let full = GameStreamLine::GameFull(Box::new(GameFull {
            id: "g_7".into(),
            rated: false,
            rules: "online".into(),
            tc: "1+0".into(),
            red: player("engine1", true),
            black: player("engine2", true),
            initial_fen: "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w".into(),
            state: state(),
        }));
        let line = to_line(&full);
        assert!(line.starts_with(r#"{"type":"game_full","id":"g_7","#));
        assert!(line.contains(r#""state":{"moves":"h2e2 h9g7","#));
        assert_eq!(parse_line::<GameStreamLine>(&line).unwrap().unwrap(), full);
        round_trip(
            &GameStreamLine::ChatLine(StreamChat {
                room: ChatChannel::Players,
                name: "ana".into(),
                text: "good luck".into(),
            }),
            r#"{"type":"chat_line","room":"players","name":"ana","text":"good luck"}"#,
        );
    }

    #[test]
    fn keep_alives_are_skipped_and_bad_lines_are_errors() {
        assert!(parse_line::<BotEvent>("").is_none());
        assert!(parse_line::<BotEvent>("  \r\n").is_none());
        assert!(parse_line::<BotEvent>(r#"{"type":"nonsense"}"#)
            .unwrap()
            .is_err());
    }

    #[test]
    fn request_bodies_take_their_defaults() {
        let request: ChallengeRequest = serde_json::from_str(r#"{"tc":"3+2"}"#).unwrap();
        assert_eq!(
            request,
            ChallengeRequest {
                tc: "3+2".into(),
                rated: false,
                rules: "online".into(),
                color: ColorChoice::Random,
            }
        );
        round_trip(
            &request,
            r#"{"tc":"3+2","rated":false,"rules":"online","color":"random"}"#,
        );
        let decline: DeclineRequest = serde_json::from_str("{}").unwrap();
        assert_eq!(decline.reason, DeclineReason::Generic);
        round_trip(
            &DeclineRequest {
                reason: DeclineReason::Later,
            },
            r#"{"reason":"later"}"#,
        );
        let chat: ChatRequest = serde_json::from_str(r#"{"text":"hi"}"#).unwrap();
        assert_eq!(chat.room, ChatChannel::Players);
        let token: TokenRequest = serde_json::from_str("{}").unwrap();
        assert_eq!(token.description, "");
    }

    #[test]
    fn answers_round_trip() {
        round_trip(
            &TokenCreated {
                id: "t_1".into(),
                token: "xqb_abc".into(),
                description: "my engine".into(),
                created_at: 1_700_000_000_000,
            },
            r#"{"id":"t_1","token":"xqb_abc","description":"my engine","created_at":1700000000000}"#,
        );
        round_trip(
            &TokenList {
                tokens: vec![TokenInfo {
                    id: "t_1".into(),
                    description: "x".into(),
                    created_at: 5,
                    last_used_at: None,
                }],
            },
            r#"{"tokens":[{"id":"t_1","description":"x","created_at":5,"last_used_at":null}]}"#,
        );
        round_trip(
            &OnlineBots {
                bots: vec![OnlineBot {
                    name: "engine1".into(),
                    rating: 1500,
                    games: 2,
                }],
            },
            r#"{"bots":[{"name":"engine1","rating":1500,"games":2}]}"#,
        );
        round_trip(
            &ChallengeCreated {
                challenge: challenge(),
            },
            r#"{"challenge":{"id":"c_1","challenger":{"name":"ana","rating":1500,"bot":false},"dest":{"name":"engine1","rating":1500,"bot":true},"tc":"5+3","rated":true,"rules":"online","color":"random"}}"#,
        );
        round_trip(&OkAnswer { ok: true }, r#"{"ok":true}"#);
        round_trip(
            &ErrorBody {
                error: ErrorDetail {
                    code: "bad_token".into(),
                    message: "no such token".into(),
                    args: None,
                },
            },
            r#"{"error":{"code":"bad_token","message":"no such token"}}"#,
        );
    }
}
