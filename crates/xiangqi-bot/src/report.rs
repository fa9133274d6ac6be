//! What the bot tells its owner as it goes: one [`Report`] per thing that
//! happened, shown by the CLI as a line on stderr or, with `--json`, as a
//! stable JSON line on stdout (docs/cli.md, `xiangqi bot`).

use std::fmt;

use serde::Serialize;

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Report {
    /// The event stream is open.
    Connected { server: String, engine: String },
    /// A stream failed; the next attempt is in `retry_ms`.
    Reconnecting {
        stream: String,
        error: String,
        retry_ms: u64,
    },
    /// A challenge came and was answered.
    Challenge {
        id: String,
        from: String,
        tc: String,
        rated: bool,
        rules: String,
        accepted: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        decline_reason: Option<String>,
    },
    /// The bot challenged another player.
    ChallengeSent {
        id: String,
        to: String,
        tc: String,
        rated: bool,
    },
    /// A challenge of the bot's was declined or lapsed.
    ChallengeRefused {
        id: String,
        to: String,
        reason: String,
    },
    /// A game started (or was resumed after a restart).
    GameStart {
        game: String,
        color: String,
        opponent: String,
    },
    /// The bot played a move.
    Move {
        game: String,
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
        think_ms: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        score_cp: Option<i32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        mate: Option<i32>,
    },
    /// The opponent offered a draw or asked to take back, and the bot answered.
    Offer {
        game: String,
        kind: String,
        accepted: bool,
    },
    /// A game ended.
    GameFinish {
        game: String,
        result: String,
        reason: String,
    },
    /// Something went wrong that the bot got over (a bad line skipped, a
    /// refused move, an engine restarted).
    Warning {
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        message: String,
    },
    /// The bot stopped.
    Stopped { reason: String, games: usize },
}

impl Report {
    /// The JSON line of `--json`.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Report::Connected { server, engine } => {
                write!(f, "connected to {server} as a bot playing {engine}")
            }
            Report::Reconnecting {
                stream,
                error,
                retry_ms,
            } => write!(
                f,
                "{stream}: {error}; trying again in {:.1} s",
                *retry_ms as f64 / 1000.0
            ),
            Report::Challenge {
                id,
                from,
                tc,
                rated,
                rules,
                accepted,
                decline_reason,
            } => {
                let kind = if *rated { "rated" } else { "casual" };
                match (accepted, decline_reason) {
                    (true, _) => write!(
                        f,
                        "challenge {id} from {from} ({tc} {kind} {rules}): accepted"
                    ),
                    (false, reason) => write!(
                        f,
                        "challenge {id} from {from} ({tc} {kind} {rules}): declined ({})",
                        reason.as_deref().unwrap_or("generic")
                    ),
                }
            }
            Report::ChallengeSent { id, to, tc, rated } => {
                let kind = if *rated { "rated" } else { "casual" };
                write!(f, "challenged {to} to a {tc} {kind} game ({id})")
            }
            Report::ChallengeRefused { id, to, reason } => {
                write!(f, "challenge {id} to {to}: {reason}")
            }
            Report::GameStart {
                game,
                color,
                opponent,
            } => write!(f, "game {game}: playing {color} against {opponent}"),
            Report::Move {
                game,
                ply,
                mv,
                think_ms,
                score_cp,
                mate,
            } => {
                write!(f, "game {game}: ply {ply} {mv} ({think_ms} ms")?;
                match (score_cp, mate) {
                    (_, Some(m)) => write!(f, ", mate {m})"),
                    (Some(cp), None) => write!(f, ", {cp:+} cp)"),
                    (None, None) => write!(f, ")"),
                }
            }
            Report::Offer {
                game,
                kind,
                accepted,
            } => {
                let answer = if *accepted { "accepted" } else { "declined" };
                write!(f, "game {game}: {kind} offer {answer}")
            }
            Report::GameFinish {
                game,
                result,
                reason,
            } => write!(f, "game {game}: over, {result} ({reason})"),
            Report::Warning { game, message } => match game {
                Some(game) => write!(f, "warning: game {game}: {message}"),
                None => write!(f, "warning: {message}"),
            },
            Report::Stopped { reason, games } => {
                write!(f, "stopped ({reason}) after {games} game(s)")
            }
        }
    }
}
