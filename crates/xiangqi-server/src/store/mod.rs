//! CONTRACT SKELETON written by the coordinator: the store helper replaces
//! every body (and may split this file into submodules); the server helper
//! calls only what is declared here. Signatures change only by agreement.
//!
//! One store for both databases: sqlx's `Any` driver, the same SQL text on
//! SQLite (the embedded default) and PostgreSQL. Ids are made by the
//! server (random text), times are unix milliseconds (i64).

use serde::{Deserialize, Serialize};

/// What a store call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The name is already registered.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// A row the caller named does not exist.
    #[error("no {what} {id:?}")]
    NotFound { what: &'static str, id: String },
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(String),
}

/// A player as stored: accounts and guests alike (guests have no password
/// and no rating).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct PlayerRow {
    pub id: String,
    pub name: String,
    pub guest: bool,
    /// Argon2 PHC string; `None` for guests.
    pub password_hash: Option<String>,
    /// Current Elo; `None` for guests.
    pub rating: Option<i32>,
    /// The notation setting's name as the protocol spells it ("coordinate", …).
    pub notation: String,
    pub created_at: i64,
}

/// A game's fixed facts, written when it starts.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    pub id: String,
    /// Player id, or `engine-N` for the built-in engine at level N.
    pub red: String,
    pub black: String,
    /// "5+3" as in the protocol.
    pub time_control: String,
    pub rated: bool,
    /// Rule-set preset name ("online").
    pub rules: String,
    pub start_fen: String,
    pub started_at: i64,
}

/// One thing that happened in a game, in order: the game is rebuilt by
/// replaying these through `OnlineGame`. `kind` is "move" (with `mv`),
/// "resign", "offer_draw", "accept_draw", "decline_draw", "leave",
/// "return", "poll"; `side` is "red"/"black" where the kind has one;
/// `at` is the game clock's millisecond (time since the game started, on
/// the server's monotonic clock).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EventRow {
    pub seq: i64,
    pub kind: String,
    pub side: Option<String>,
    pub mv: Option<String>,
    pub at: i64,
}

/// How a finished or cancelled game ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Ending {
    /// "finished" or "cancelled".
    pub status: String,
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    /// Reason code ("checkmate", …).
    pub reason: String,
    /// Plies played.
    pub ply: i32,
    /// Remaining clock of each side at the end, ms.
    pub red_clock: i64,
    pub black_clock: i64,
    pub ended_at: i64,
}

/// A rating change written with the ending it came from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RatingChangeRow {
    pub player: String,
    pub game: String,
    pub before: i32,
    pub after: i32,
    pub at: i64,
}

/// A stored game: facts, events and, when over, its ending.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StoredGame {
    pub game: GameRow,
    pub events: Vec<EventRow>,
    pub ending: Option<Ending>,
}

/// The store. Cheap to clone (a pool inside).
#[derive(Clone, Debug)]
pub struct Store {}

impl Store {
    /// Opens (creating when missing) `url`: `sqlite://PATH?mode=rwc` or
    /// `postgres://…`, and runs the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        todo!("{url}")
    }
    pub async fn insert_player(&self, player: &PlayerRow) -> Result<(), StoreError> {
        todo!("{player:?}")
    }
    /// Turns a guest into an account (name, password, starting rating).
    pub async fn register_guest(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
        rating: i32,
    ) -> Result<PlayerRow, StoreError> {
        todo!("{id}{name}{password_hash}{rating}")
    }
    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        todo!("{id}")
    }
    pub async fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        todo!("{name}")
    }
    pub async fn set_notation(&self, id: &str, notation: &str) -> Result<(), StoreError> {
        todo!("{id}{notation}")
    }
    /// Sessions are stored by the token's hash (hex SHA-256 or similar), never the token.
    pub async fn insert_session(
        &self,
        token_hash: &str,
        player: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        todo!("{token_hash}{player}{at}")
    }
    pub async fn session_player(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        todo!("{token_hash}")
    }
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        todo!("{token_hash}")
    }
    pub async fn insert_game(&self, game: &GameRow) -> Result<(), StoreError> {
        todo!("{game:?}")
    }
    /// Appends one event; durable when this returns.
    pub async fn append_event(&self, game: &str, event: &EventRow) -> Result<(), StoreError> {
        todo!("{game}{event:?}")
    }
    /// Writes the ending and the rating changes (updating the players'
    /// ratings) in one transaction: both or neither.
    pub async fn finish_game(
        &self,
        game: &str,
        ending: &Ending,
        changes: &[RatingChangeRow],
    ) -> Result<(), StoreError> {
        todo!("{game}{ending:?}{changes:?}")
    }
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        todo!("{id}")
    }
    /// Games without an ending, for the restart.
    pub async fn unfinished_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        todo!()
    }
    /// A player's games, newest first.
    pub async fn games_of(&self, player: &str, limit: i64) -> Result<Vec<StoredGame>, StoreError> {
        todo!("{player}{limit}")
    }
    /// A player's rating changes, newest first.
    pub async fn rating_history(&self, player: &str) -> Result<Vec<RatingChangeRow>, StoreError> {
        todo!("{player}")
    }
}
