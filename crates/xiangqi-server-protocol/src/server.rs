//! The messages `xiangqi serve` sends (protocol version 1): one type per
//! frame kind, with the shared objects they carry (`Player`,
//! `PublicPlayer`, `Seek`, `GameSummary`, `Result`). The server builds its
//! frames only from these; clients and bots read them back with
//! [`ServerMessage`]'s `Deserialize`. Field order is the order on the wire.

use serde::{Deserialize, Serialize};

use crate::{ChatChannel, ColorChoice};

/// A side of the board, as the protocol writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Red, who moves first.
    Red,
    /// Black.
    Black,
}

/// One message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The answer to `hello`.
    Welcome {
        /// Protocol version.
        v: u32,
        /// The player of this socket.
        player: Player,
    },
    /// Keep-alive request; answer `pong`.
    Ping,
    /// The answer to the client's `ping`.
    Pong,
    /// A refused frame or request.
    Error(ErrorFrame),
    /// The answer to `lobby`: open seeks and games in progress.
    Lobby {
        /// Open seeks.
        seeks: Vec<SeekView>,
        /// Games in progress.
        games: Vec<GameSummary>,
    },
    /// The answer to `seek`: the seek as opened.
    SeekCreated {
        /// The seek.
        seek: SeekView,
    },
    /// To lobby followers: a seek opened.
    SeekAdded {
        /// The seek.
        seek: SeekView,
    },
    /// To lobby followers: a seek is gone.
    SeekRemoved {
        /// The seek's id.
        id: String,
    },
    /// To lobby followers: a game started or resumed.
    GameAdded {
        /// The game as it started.
        game: GameSummary,
    },
    /// To lobby followers: a game ended.
    GameRemoved {
        /// The game's id.
        id: String,
    },
    /// To every socket of both players: a game of theirs started.
    Started {
        /// The game's id.
        game: String,
    },
    /// The answer to `watch`: the game in full for one recipient.
    State(Box<GameState>),
    /// One numbered thing that happened in a game.
    Event(Box<GameEvent>),
    /// The answer to an accepted `move`.
    Ack {
        /// The game.
        game: String,
        /// The ply the move was for.
        ply: u32,
    },
    /// To every socket of a person: their challenge to a bot was declined,
    /// withdrawn or lapsed (added within version 1; `docs/server.md`, "Bots").
    ChallengeClosed {
        /// The challenge's id (`c_…`).
        id: String,
        /// `declined`, `canceled` or `lapsed`.
        why: String,
        /// The bot's reason when declined (`generic`, `later`, `tc`,
        /// `rated`, `casual`, `rules`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// To the readers of a game's chat: a message (added within version 1).
    Chat {
        /// The game.
        game: String,
        /// The message.
        message: ChatLine,
    },
}

impl ServerMessage {
    /// The frame's JSON text.
    pub fn to_text(&self) -> String {
        // Every field is a string, number, bool, list or map with string
        // keys: serialising cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// An `error` frame's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorFrame {
    /// The contract: a code from the table in `docs/server.md`.
    pub code: String,
    /// For people; may change.
    pub message: String,
    /// What the error is about; absent for errors about the frame itself.
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ErrorRef>,
}

/// What an error refers to: a seek, a game, or a move of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorRef {
    /// The seek's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seek: Option<String>,
    /// The game's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The move's ply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
}

impl ErrorRef {
    /// About seek `id`.
    pub fn seek(id: impl Into<String>) -> ErrorRef {
        ErrorRef {
            seek: Some(id.into()),
            ..ErrorRef::default()
        }
    }

    /// About game `id`.
    pub fn game(id: impl Into<String>) -> ErrorRef {
        ErrorRef {
            game: Some(id.into()),
            ..ErrorRef::default()
        }
    }

    /// About the move for `ply` in game `id`.
    pub fn game_move(id: impl Into<String>, ply: u32) -> ErrorRef {
        ErrorRef {
            game: Some(id.into()),
            ply: Some(ply),
            ..ErrorRef::default()
        }
    }
}

/// `Player`: a player as they see themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// `p_…`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// True for guests.
    pub guest: bool,
    /// `null` for guests.
    pub rating: Option<i32>,
    /// The notation setting's name.
    pub notation: String,
    /// The web client's language (a catalogue's code: `en`, `zh-Hans`, …),
    /// absent until the player chooses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The web client's piece set (`traditional`, `pictogram`), absent
    /// until the player chooses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pieces: Option<String>,
}

/// `PublicPlayer` or, with `engine_level`, `EnginePlayer`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PublicPlayer {
    /// `p_…` or `engine-N`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// True for guests.
    pub guest: bool,
    /// The rating, `null` for guests and the engine.
    pub rating: Option<i32>,
    /// The engine's level (the engine only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_level: Option<u8>,
    /// True for a bot account (added within version 1: absent when false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bot: bool,
}

fn is_false(flag: &bool) -> bool {
    !*flag
}

/// `Seek`: an open seek.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeekView {
    /// `s_…`.
    pub id: String,
    /// The seeker.
    pub player: PublicPlayer,
    /// `MIN+INC`.
    pub tc: String,
    /// Rated or casual.
    pub rated: bool,
    /// The colour the seeker wants.
    pub color: ColorChoice,
    /// The rule set's preset name.
    pub rules: String,
}

/// `GameSummary`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// `g_…`.
    pub id: String,
    /// Red's player.
    pub red: PublicPlayer,
    /// Black's player.
    pub black: PublicPlayer,
    /// `MIN+INC`.
    pub tc: String,
    /// Rated or casual.
    pub rated: bool,
    /// The rule set's preset name.
    pub rules: String,
    /// `playing`, `finished` or `cancelled`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The reason code, `null` while playing.
    pub reason: Option<String>,
    /// Unix ms.
    pub started_at: i64,
    /// Plies played.
    pub ply: u32,
    /// A game with a bot on either side, rated in the bot pool (added
    /// within version 1: absent when false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub bot: bool,
}

/// `ChatLine`: one message of a game's chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChatLine {
    /// `m_…`, what a report names.
    pub id: String,
    /// Which chat.
    pub channel: ChatChannel,
    /// The author's player id (what a client mutes by).
    pub author: String,
    /// The author's name.
    pub name: String,
    /// Plain text: never to be read as HTML.
    pub text: String,
    /// Unix ms.
    pub at: i64,
}

/// A move in ICCS and in the recipient's notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveText {
    /// ICCS.
    pub iccs: String,
    /// The recipient's notation.
    pub text: String,
}

/// A game's opening in the ECCO classification, named for the recipient.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningName {
    /// The code, `A00` to `E99`.
    pub code: String,
    /// Its name in the recipient's language: simplified or traditional
    /// Chinese for a reader of Chinese moves, English otherwise.
    pub name: String,
}

/// A number for each side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BySide<T> {
    /// Red's.
    pub red: T,
    /// Black's.
    pub black: T,
}

/// A rating before and after a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChange {
    /// Before the game.
    pub before: i32,
    /// After it.
    pub after: i32,
}

/// `Result`: how a game ended, for one recipient.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// `finished` or `cancelled`.
    pub status: String,
    /// The reason code.
    pub reason: String,
    /// A sentence in the recipient's notation (English; a client writes its
    /// own from `result`, `reason`, `move` and `aborted_by`).
    pub text: String,
    /// The rating changes of a rated game.
    pub ratings: Option<BySide<RatingChange>>,
    /// The move that ended the game, in the recipient's notation, when the
    /// sentence names it (checkmate, no legal move, repetition, perpetual
    /// check or chase, the no-capture and material draws).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub r#move: Option<String>,
    /// The side that aborted the game (`red`/`black`), when it was aborted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aborted_by: Option<String>,
}

/// The `state` frame's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The game's id.
    pub game: String,
    /// The last event version.
    pub v: u64,
    /// The game's summary.
    pub summary: GameSummary,
    /// The start position.
    pub start_fen: String,
    /// The position now.
    pub fen: String,
    /// The moves played.
    pub moves: Vec<MoveText>,
    /// Remaining ms as of `now`.
    pub clocks: BySide<u64>,
    /// The side to move.
    pub turn: Side,
    /// The side whose clock runs, `null` when over.
    pub running: Option<Side>,
    /// The side with a pending draw offer.
    pub draw_offer: Option<Side>,
    /// How long each side has been away, ms.
    pub away: BySide<Option<u64>>,
    /// The recipient's side.
    pub you: Option<Side>,
    /// The recipient's legal moves (ICCS) on their turn.
    pub legal: Vec<String>,
    /// The end, when over.
    pub result: Option<GameResult>,
    /// The side whose takeback request waits for an answer (added within
    /// version 1: absent from older servers' frames).
    #[serde(default)]
    pub takeback_offer: Option<Side>,
    /// After the end: the side whose rematch offer waits for an answer
    /// (added within version 1).
    #[serde(default)]
    pub rematch_offer: Option<Side>,
    /// After the end: the rematch game, once it started (added within
    /// version 1).
    #[serde(default)]
    pub rematch: Option<String>,
    /// Unix ms.
    pub now: i64,
    /// The opening of the moves played, `null` before the first move and
    /// for a game from a set-up position (added within version 1: absent
    /// from older servers' frames).
    #[serde(default)]
    pub opening: Option<OpeningName>,
}

/// The `event` frame's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEvent {
    /// The game's id.
    pub game: String,
    /// The event's version.
    pub v: u64,
    /// What happened.
    pub event: EventBody,
    /// Remaining ms right after it.
    pub clocks: BySide<u64>,
    /// The side whose clock runs from `now` on.
    pub running: Option<Side>,
    /// Unix ms.
    pub now: i64,
    /// The recipient's legal moves (ICCS) on their turn.
    pub legal: Vec<String>,
}

/// The kinds of `event`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventBody {
    /// A move; `ply` plies were played before it.
    Move {
        /// Plies before it.
        ply: u32,
        /// The position after it.
        fen: String,
        /// The move.
        #[serde(rename = "move")]
        mv: MoveText,
        /// The opening of the moves up to this one, `null` for a game from
        /// a set-up position (absent from older servers' frames).
        #[serde(default)]
        opening: Option<OpeningName>,
    },
    /// A side offered a draw.
    DrawOffer {
        /// The side.
        by: Side,
    },
    /// The side offered a draw declined it, or let it lapse by moving.
    DrawDeclined {
        /// The side.
        by: Side,
    },
    /// A side's last socket left the room.
    Away {
        /// The side.
        side: Side,
    },
    /// A side is back.
    Back {
        /// The side.
        side: Side,
    },
    /// The game is over.
    End {
        /// How.
        result: GameResult,
    },
    /// A side asks to take back its last move (and the reply to it).
    TakebackOffer {
        /// The side asking.
        by: Side,
    },
    /// The side asked refused the takeback (a move ends a request too,
    /// without this event).
    TakebackDeclined {
        /// The side that refused.
        by: Side,
    },
    /// A takeback was agreed: the game is back at `ply` plies.
    Takeback {
        /// The side that asked.
        by: Side,
        /// Plies played now; moves from this ply on are gone.
        ply: u32,
        /// The position now.
        fen: String,
        /// The opening of the moves that remain, as in `move`.
        #[serde(default)]
        opening: Option<OpeningName>,
    },
    /// After the end: a side offers a rematch.
    RematchOffer {
        /// The side offering.
        by: Side,
    },
    /// The side offered a rematch declined it.
    RematchDeclined {
        /// The side that declined.
        by: Side,
    },
    /// The offering side left the room: its rematch offer is gone.
    RematchWithdrawn {
        /// The side that offered.
        by: Side,
    },
    /// The rematch started: colours swapped, same time control, rating and
    /// rules.
    Rematch {
        /// The new game's id.
        game: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_put_the_type_first_and_leave_out_an_absent_ref() {
        let ack = ServerMessage::Ack {
            game: "g_1".into(),
            ply: 4,
        };
        assert_eq!(ack.to_text(), r#"{"t":"ack","game":"g_1","ply":4}"#);
        let error = ServerMessage::Error(ErrorFrame {
            code: "flood".into(),
            message: "slow down".into(),
            reference: None,
        });
        assert_eq!(
            error.to_text(),
            r#"{"t":"error","code":"flood","message":"slow down"}"#
        );
        let error = ServerMessage::Error(ErrorFrame {
            code: "stale_ply".into(),
            message: "m".into(),
            reference: Some(ErrorRef::game_move("g_1", 3)),
        });
        assert_eq!(
            error.to_text(),
            r#"{"t":"error","code":"stale_ply","message":"m","ref":{"game":"g_1","ply":3}}"#
        );
        assert_eq!(ServerMessage::Ping.to_text(), r#"{"t":"ping"}"#);
    }
}
