//! The messages between nodes and their subjects on the NATS bus.
//!
//! * `xq.node.{node}`: requests to one node (a forwarded action, a
//!   player's presence, a snapshot, a seek to take); answered by it.
//! * `xq.game.{game}`: the owner's events and snapshots of one game, for
//!   every node with a watcher of it.
//! * `xq.lobby`: each node's open seeks (every second, and on change) and
//!   the games in progress as they start and end.
//! * `xq.started`: a game started, for the players' sockets on every node.

use serde::{Deserialize, Serialize};
use xiangqi_server_protocol::server::{GameSummary, SeekView};
use xiangqi_server_protocol::ColorChoice;

use crate::cluster::wire::{WireEvent, WireSeat, WireSnapshot};
use crate::game::room::Action;

/// Requests to one node.
pub fn node_subject(node: &str) -> String {
    format!("xq.node.{node}")
}

/// One game's events.
pub fn game_subject(game: &str) -> String {
    format!("xq.game.{game}")
}

/// The lobby's changes.
pub const LOBBY: &str = "xq.lobby";
/// Games started.
pub const STARTED: &str = "xq.started";

/// A chat message, for the readers of its game on every node.
pub const CHAT: &str = "xq.chat";

/// A request to the node that owns a game (or holds a seek).
#[derive(Debug, Serialize, Deserialize)]
pub enum Request {
    /// A player's action, forwarded from the node of their socket.
    Act {
        /// Game.
        game: String,
        /// Who.
        player: String,
        /// What.
        action: Action,
    },
    /// A socket of a player of the game watches it on node `node`.
    Present {
        /// Game.
        game: String,
        /// The player.
        player: String,
        /// The socket's node.
        node: String,
        /// The socket there.
        conn: u64,
    },
    /// That socket stopped watching.
    Absent {
        /// Game.
        game: String,
        /// The socket's node.
        node: String,
        /// The socket there.
        conn: u64,
    },
    /// The game's full state now.
    Snapshot {
        /// Game.
        game: String,
    },
    /// `GET /api/games/{id}`'s summary, moves and FEN.
    Summary {
        /// Game.
        game: String,
    },
    /// A player on another node accepts open seek `id`.
    TakeSeek {
        /// Seek.
        id: String,
        /// Who accepts.
        player: String,
    },
}

/// A seek taken from the node where it was made.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireSeek {
    /// `s_…`.
    pub id: String,
    /// The seeker.
    pub seat: WireSeat,
    /// Clock, as the protocol writes it.
    pub tc: String,
    /// Rated.
    pub rated: bool,
    /// The seeker's colour.
    pub color: ColorChoice,
    /// Rule-set preset.
    pub rules: String,
}

/// The answer to a [`Request`].
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    /// Done, or refused with a protocol code and words.
    Done(Result<(), (String, String)>),
    /// The game's state.
    Snapshot(Box<WireSnapshot>),
    /// Summary, moves, FEN.
    Summary(Box<GameSummary>, Vec<String>, String),
    /// The seek, or why not.
    Seek(Result<WireSeek, (String, String)>),
    /// This node does not run that game (any more).
    NotOwner,
}

/// What the owner of a game publishes on its subject.
#[derive(Debug, Serialize, Deserialize)]
pub struct GameNews {
    /// The owner.
    pub node: String,
    /// What.
    pub news: News,
}

/// An event or a full state.
#[derive(Debug, Serialize, Deserialize)]
pub enum News {
    /// The next event.
    Event(WireEvent),
    /// The state (when the room starts on a node, and at its end).
    State(Box<WireSnapshot>),
}

/// The lobby as one node changes it.
#[derive(Debug, Serialize, Deserialize)]
pub struct LobbyNews {
    /// The node.
    pub node: String,
    /// What.
    pub change: LobbyChange,
}

/// One change of the lobby.
#[derive(Debug, Serialize, Deserialize)]
pub enum LobbyChange {
    /// The node's open seeks, all of them (also its heartbeat).
    Seeks(Vec<SeekView>),
    /// A game in progress.
    GameAdded(Box<GameSummary>),
    /// A game ended.
    GameRemoved(String),
}

/// A game started: the `started` frame for its players' sockets.
#[derive(Debug, Serialize, Deserialize)]
pub struct Started {
    /// The node that started it.
    pub node: String,
    /// The game.
    pub game: String,
    /// Its players.
    pub players: Vec<String>,
}

/// A chat message posted on `node`: the frame its readers get, and whom the
/// channel lets read it (the game's two players decide).
#[derive(Debug, Serialize, Deserialize)]
pub struct ChatNews {
    /// The node it was posted on.
    pub node: String,
    /// The game.
    pub game: String,
    /// Which chat.
    pub channel: xiangqi_server_protocol::ChatChannel,
    /// Red's player id.
    pub red: String,
    /// Black's.
    pub black: String,
    /// Whether the game had ended.
    pub over: bool,
    /// The `chat` frame.
    pub frame: String,
}

/// Encodes a message (our own types: cannot fail).
pub fn encode<T: Serialize>(message: &T) -> Vec<u8> {
    serde_json::to_vec(message).unwrap_or_default()
}

/// Decodes a message, logging what does not read.
pub fn decode<T: for<'de> Deserialize<'de>>(payload: &[u8]) -> Option<T> {
    match serde_json::from_slice(payload) {
        Ok(message) => Some(message),
        Err(error) => {
            tracing::warn!("a bus message does not read: {error}");
            None
        }
    }
}
