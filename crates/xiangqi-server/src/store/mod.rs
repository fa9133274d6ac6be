//! Storage of players, sessions, games (facts, every event, the ending) and
//! rating changes, on SQLite (the embedded default) or PostgreSQL.
//!
//! One implementation on sqlx's `Any` driver: the same SQL text (with `$N`
//! parameters, which both databases read) and the same numbered migrations
//! run on both, so there is one code path to test and nothing to keep in
//! step. SQLite gets one writer connection (SQLite allows one writer at a
//! time; queueing in the pool is cheaper than lock retries) and a few
//! readers, in WAL mode so readers never wait for the writer. Ids are made
//! by the server (random text), times are unix milliseconds (i64).

use serde::{Deserialize, Serialize};

mod account_changes;
mod accounts;
mod bots;
mod connect;
mod events;
mod game_filters;
mod leases;
mod migrations;
mod openings;
mod puzzles;
mod replay;
mod reviews;
mod social;
pub use bots::{RatingPool, TokenRow};

pub use account_changes::deleted_name;
pub use game_filters::{GameFilter, ResultFilter};
pub use reviews::ReviewRow;
pub use social::{ChatRow, GameSides, NewReport, ReportRow};
mod rows;

pub use openings::CodePrefix;
pub use puzzles::{PuzzleAttemptRow, PuzzlePlayerRow};

/// What a store call can fail with.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The name is already registered.
    #[error("the name {0:?} is taken")]
    NameTaken(String),
    /// The name is confusable with one in use (`a1ice` for `alice`).
    #[error("the name {name:?} is too like {existing:?}")]
    NameConfusable { name: String, existing: String },
    /// A row the caller named does not exist.
    #[error("no {what} {id:?}")]
    NotFound { what: &'static str, id: String },
    /// The database refused or failed.
    #[error("database: {0}")]
    Database(String),
    /// Stored data that cannot be read back (a row no code of ours writes).
    #[error("stored data is invalid: {0}")]
    Invalid(String),
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
    /// The web client's language (`en`, `zh-Hans`, …); `None` until chosen.
    pub language: Option<String>,
    /// The web client's piece set (`traditional`, `pictogram`); `None` until chosen.
    pub pieces: Option<String>,
    /// A bot account (played through the bot API only; for good).
    pub bot: bool,
    /// The bot pool's rating; `None` before the first rated bot game.
    pub bot_rating: Option<i32>,
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
    /// The ECCO code of the game's moves (`C23`), `None` for a game
    /// without one (no move, or a set-up start).
    pub ecco: Option<String>,
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

/// The store. Cheap to clone (pools inside).
#[derive(Clone, Debug)]
pub struct Store {
    /// Every write goes here (on SQLite: one connection).
    writer: sqlx::AnyPool,
    /// Reads (on PostgreSQL, the same pool as `writer`).
    reader: sqlx::AnyPool,
}

/// Columns of `players`, in the order [`rows::player`] reads them.
const PLAYER_COLUMNS: &str =
    "id, name, guest, password_hash, rating, notation, created_at, language, pieces, bot, bot_rating";

/// Columns of a game and its ending (left-joined as `e`), in the order
/// [`rows::game_with_ending`] reads them.
const GAME_COLUMNS: &str = "g.id, g.red, g.black, g.time_control, g.rated, g.rules, g.start_fen, \
     g.started_at, e.status, e.result, e.reason, e.ply, e.red_clock, e.black_clock, e.ended_at, e.ecco";

/// Events are fetched for at most this many games per statement (far below
/// both databases' limits on parameters).
const GAMES_PER_EVENT_QUERY: usize = 500;

impl Store {
    /// Opens (creating when missing) `url`: `sqlite://PATH?mode=rwc` or
    /// `postgres://…`, and runs the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let (writer, reader) = connect::pools(url).await?;
        let store = Store { writer, reader };
        store.fill_name_skeletons().await?;
        store.fill_ending_openings().await?;
        Ok(store)
    }

    pub async fn insert_player(&self, player: &PlayerRow) -> Result<(), StoreError> {
        let result = sqlx::query(
            "INSERT INTO players (id, name, name_key, guest, password_hash, rating, notation, \
             created_at, name_skeleton, last_seen, language, pieces) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8, $10, $11)",
        )
        .bind(&player.id)
        .bind(&player.name)
        .bind(name_key(&player.name))
        .bind(i64::from(player.guest))
        .bind(player.password_hash.as_deref())
        .bind(player.rating.map(i64::from))
        .bind(&player.notation)
        .bind(player.created_at)
        .bind(skeleton_key(&player.name))
        .bind(player.language.as_deref())
        .bind(player.pieces.as_deref())
        .execute(&self.writer)
        .await;
        match result {
            Ok(_) => Ok(()),
            Err(e) => Err(self.name_conflict(e, &player.name).await),
        }
    }

    /// Turns a guest into an account (name, password, starting rating),
    /// unless another player's name is confusable with `name`
    /// ([`StoreError::NameConfusable`]; checked in the same statement).
    pub async fn register_guest(
        &self,
        id: &str,
        name: &str,
        password_hash: &str,
        rating: i32,
    ) -> Result<PlayerRow, StoreError> {
        let result = sqlx::query(&format!(
            "UPDATE players SET name = $2, name_key = $3, guest = 0, password_hash = $4, rating = $5, \
             name_skeleton = $6 WHERE id = $1 AND guest = 1 AND NOT EXISTS \
             (SELECT 1 FROM players other WHERE other.name_skeleton = $6 AND other.id <> $1) \
             RETURNING {PLAYER_COLUMNS}"
        ))
        .bind(id)
        .bind(name)
        .bind(name_key(name))
        .bind(password_hash)
        .bind(i64::from(rating))
        .bind(skeleton_key(name))
        .fetch_optional(&self.writer)
        .await;
        match result {
            Ok(Some(row)) => rows::player(&row),
            Ok(None) if self.player_by_name(name).await?.is_some_and(|p| p.id != id) => {
                Err(StoreError::NameTaken(name.to_string()))
            }
            Ok(None) => match self.confusable_with(name, id).await? {
                Some(existing) => Err(StoreError::NameConfusable {
                    name: name.to_string(),
                    existing,
                }),
                None => Err(StoreError::NotFound {
                    what: "guest",
                    id: id.to_string(),
                }),
            },
            Err(e) => Err(self.name_conflict(e, name).await),
        }
    }

    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?
        .map(|row| rows::player(&row))
        .transpose()
    }

    /// The player of this name, ignoring case (names are unique that way).
    pub async fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {PLAYER_COLUMNS} FROM players WHERE name_key = $1"
        ))
        .bind(name_key(name))
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?
        .map(|row| rows::player(&row))
        .transpose()
    }

    pub async fn set_notation(&self, id: &str, notation: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE players SET notation = $2 WHERE id = $1")
            .bind(id)
            .bind(notation)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        expect_one(done.rows_affected(), "player", id)
    }

    /// Stores the web client's language and piece set (`None` leaves one as it is).
    pub async fn set_display(
        &self,
        id: &str,
        language: Option<&str>,
        pieces: Option<&str>,
    ) -> Result<(), StoreError> {
        let done = sqlx::query(
            "UPDATE players SET language = COALESCE($2, language), \
             pieces = COALESCE($3, pieces) WHERE id = $1",
        )
        .bind(id)
        .bind(language)
        .bind(pieces)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        expect_one(done.rows_affected(), "player", id)
    }

    /// Sessions are stored by the token's hash (hex SHA-256 or similar), never the token.
    pub async fn insert_session(
        &self,
        token_hash: &str,
        player: &str,
        at: i64,
    ) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO sessions (token_hash, player, created_at) VALUES ($1, $2, $3)")
            .bind(token_hash)
            .bind(player)
            .bind(at)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(())
    }

    pub async fn session_player(&self, token_hash: &str) -> Result<Option<PlayerRow>, StoreError> {
        Ok(self
            .session_player_seen(token_hash)
            .await?
            .map(|(player, _)| player))
    }

    /// Deletes the session (deleting an unknown one is not an error: logging
    /// out twice is harmless).
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(())
    }

    pub async fn insert_game(&self, game: &GameRow) -> Result<(), StoreError> {
        sqlx::query(
            // A game with a bot on either side is a bot game, for good
            // (a player's bot flag never changes once they have played).
            "INSERT INTO games (id, red, black, time_control, rated, rules, start_fen, started_at, bot) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, CASE WHEN EXISTS \
             (SELECT 1 FROM players WHERE id IN ($2, $3) AND bot = 1) THEN 1 ELSE 0 END)",
        )
        .bind(&game.id)
        .bind(&game.red)
        .bind(&game.black)
        .bind(&game.time_control)
        .bind(i64::from(game.rated))
        .bind(&game.rules)
        .bind(&game.start_fen)
        .bind(game.started_at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Appends one event; durable when this returns (one statement, its own
    /// transaction: on SQLite in WAL mode a commit is one append to the log).
    pub async fn append_event(&self, game: &str, event: &EventRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO events (game, seq, kind, side, mv, at_ms) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game)
        .bind(event.seq)
        .bind(&event.kind)
        .bind(event.side.as_deref())
        .bind(event.mv.as_deref())
        .bind(event.at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Writes the ending and the rating changes (updating the players'
    /// ratings) in one transaction: both or neither. A change for a player
    /// who is not a rated account fails the whole call.
    pub async fn finish_game(
        &self,
        game: &str,
        ending: &Ending,
        changes: &[RatingChangeRow],
    ) -> Result<(), StoreError> {
        self.finish_game_in(game, ending, changes, RatingPool::Normal)
            .await
    }

    /// [`Store::finish_game`] with the changes in `pool`: a bot game's go
    /// to the bot pool (`bot_rating_changes`, `players.bot_rating`) and
    /// never touch the normal rating.
    pub async fn finish_game_in(
        &self,
        game: &str,
        ending: &Ending,
        changes: &[RatingChangeRow],
        pool: RatingPool,
    ) -> Result<(), StoreError> {
        let (table, column) = pool.table_and_column();
        let mut tx = self.writer.begin().await.map_err(database)?;
        sqlx::query(
            "INSERT INTO endings (game, status, result, reason, ply, red_clock, black_clock, ended_at, ecco) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game)
        .bind(&ending.status)
        .bind(&ending.result)
        .bind(&ending.reason)
        .bind(i64::from(ending.ply))
        .bind(ending.red_clock)
        .bind(ending.black_clock)
        .bind(ending.ended_at)
        .bind(ending.ecco.as_deref().unwrap_or_default())
        .execute(&mut *tx)
        .await
        .map_err(database)?;
        for change in changes {
            sqlx::query(&format!(
                "INSERT INTO {table} (player, game, rating_before, rating_after, at_ms) \
                 VALUES ($1, $2, $3, $4, $5)"
            ))
            .bind(&change.player)
            .bind(&change.game)
            .bind(i64::from(change.before))
            .bind(i64::from(change.after))
            .bind(change.at)
            .execute(&mut *tx)
            .await
            .map_err(database)?;
            let done = sqlx::query(&format!(
                "UPDATE players SET {column} = $2 WHERE id = $1 AND guest = 0"
            ))
            .bind(&change.player)
            .bind(i64::from(change.after))
            .execute(&mut *tx)
            .await
            .map_err(database)?;
            expect_one(done.rows_affected(), "rated player", &change.player)?;
        }
        // Dropping `tx` on any error above rolls everything back.
        tx.commit().await.map_err(database)
    }

    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g LEFT JOIN endings e ON e.game = g.id WHERE g.id = $1"
        ))
        .bind(id)
        .fetch_all(&self.reader)
        .await
        .map_err(database)?;
        Ok(self.with_events(rows).await?.pop())
    }

    /// Games without an ending, for the restart (oldest first).
    pub async fn unfinished_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g LEFT JOIN endings e ON e.game = g.id \
             WHERE e.game IS NULL ORDER BY g.started_at, g.id"
        ))
        .fetch_all(&self.reader)
        .await
        .map_err(database)?;
        self.with_events(rows).await
    }

    /// A player's games, newest first: at most `limit`, and with `ecco`
    /// only those whose code starts with it (a game in progress by the
    /// code of its moves so far).
    pub async fn games_of(
        &self,
        player: &str,
        limit: i64,
        ecco: Option<&CodePrefix>,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let filter = GameFilter {
            ecco: ecco.cloned(),
            ..GameFilter::default()
        };
        self.games_filtered(player, &filter, limit, 0).await
    }

    /// A player's rating changes, newest first.
    pub async fn rating_history(&self, player: &str) -> Result<Vec<RatingChangeRow>, StoreError> {
        sqlx::query(
            "SELECT player, game, rating_before, rating_after, at_ms FROM rating_changes \
             WHERE player = $1 ORDER BY at_ms DESC, game DESC",
        )
        .bind(player)
        .fetch_all(&self.reader)
        .await
        .map_err(database)?
        .iter()
        .map(rows::rating_change)
        .collect()
    }

    /// The games of `rows` (selected with [`GAME_COLUMNS`]) with their
    /// events, in the order of `rows`: one more statement per
    /// [`GAMES_PER_EVENT_QUERY`] games, not one per game.
    async fn with_events(
        &self,
        rows: Vec<sqlx::any::AnyRow>,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let mut games = rows
            .iter()
            .map(rows::game_with_ending)
            .collect::<Result<Vec<StoredGame>, StoreError>>()?;
        let index: std::collections::HashMap<String, usize> = games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.game.id.clone(), i))
            .collect();
        let ids: Vec<String> = index.keys().cloned().collect();
        for chunk in ids.chunks(GAMES_PER_EVENT_QUERY) {
            let placeholders: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
            let sql = format!(
                "SELECT game, seq, kind, side, mv, at_ms FROM events WHERE game IN ({}) ORDER BY game, seq",
                placeholders.join(", ")
            );
            let mut query = sqlx::query(&sql);
            for id in chunk {
                query = query.bind(id);
            }
            for row in query.fetch_all(&self.reader).await.map_err(database)? {
                let (game, event) = rows::event(&row)?;
                if let Some(&i) = index.get(&game) {
                    games[i].events.push(event);
                }
            }
        }
        Ok(games)
    }

    /// `error` from writing `name`: [`StoreError::NameTaken`] when it broke a
    /// uniqueness rule and the name is in use.
    async fn name_conflict(&self, error: sqlx::Error, name: &str) -> StoreError {
        let unique = matches!(&error, sqlx::Error::Database(e) if e.is_unique_violation());
        if unique {
            if let Ok(Some(_)) = self.player_by_name(name).await {
                return StoreError::NameTaken(name.to_string());
            }
        }
        database(error)
    }
}

use crate::security::names::skeleton_key;

/// Names are unique regardless of case: the key they are compared by.
fn name_key(name: &str) -> String {
    name.to_lowercase()
}

fn expect_one(rows_affected: u64, what: &'static str, id: &str) -> Result<(), StoreError> {
    match rows_affected {
        0 => Err(StoreError::NotFound {
            what,
            id: id.to_string(),
        }),
        _ => Ok(()),
    }
}

fn database(error: sqlx::Error) -> StoreError {
    StoreError::Database(error.to_string())
}
