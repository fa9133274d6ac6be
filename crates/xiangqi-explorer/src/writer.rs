//! Writing a new explorer file: the games as they are read, then the merged
//! tallies in key order, then the build's facts.

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection};

use crate::error::ExplorerError;
use crate::indexed_game::{Headers, Key};
use crate::schema::{APPLICATION_ID, CREATE, FORMAT_VERSION};
use crate::stats::GameOutcome;
use crate::tally::Tally;

/// SQLite's page cache while building, in KiB (part of the memory bound).
const CACHE_KIB: i64 = 32 * 1024;

pub(crate) struct Writer {
    path: PathBuf,
    connection: Connection,
}

impl Writer {
    /// Creates the database at `path` (which must not exist) inside one
    /// transaction: without a journal, since a build that fails removes the
    /// file anyway.
    pub fn create(path: &Path) -> Result<Writer, ExplorerError> {
        let sqlite = |e| ExplorerError::sqlite(path, e);
        let connection = Connection::open(path).map_err(sqlite)?;
        connection
            .execute_batch(&format!(
                "PRAGMA journal_mode = OFF;
                 PRAGMA synchronous = OFF;
                 PRAGMA locking_mode = EXCLUSIVE;
                 PRAGMA cache_size = -{CACHE_KIB};
                 PRAGMA application_id = {APPLICATION_ID};
                 PRAGMA user_version = {FORMAT_VERSION};
                 BEGIN;
                 {CREATE}"
            ))
            .map_err(sqlite)?;
        Ok(Writer {
            path: path.to_path_buf(),
            connection,
        })
    }

    fn sqlite(&self, e: rusqlite::Error) -> ExplorerError {
        ExplorerError::sqlite(&self.path, e)
    }

    pub fn add_file(&self, id: u64, name: &str) -> Result<(), ExplorerError> {
        self.connection
            .prepare_cached("INSERT INTO files (id, name) VALUES (?1, ?2)")
            .and_then(|mut s| s.execute(params![id, name]))
            .map(drop)
            .map_err(|e| self.sqlite(e))
    }

    pub fn add_game(
        &self,
        id: u32,
        file: u64,
        index: u64,
        headers: &Headers,
        outcome: Option<GameOutcome>,
    ) -> Result<(), ExplorerError> {
        self.connection
            .prepare_cached(
                "INSERT INTO games (id, file, game_index, red, black, red_elo, black_elo, event, date, result)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    id,
                    file,
                    index,
                    headers.red,
                    headers.black,
                    headers.red_elo,
                    headers.black_elo,
                    headers.event,
                    headers.date,
                    outcome.map(GameOutcome::as_str),
                ])
            })
            .map(drop)
            .map_err(|e| self.sqlite(e))
    }

    /// One row of `moves`; rows come in key order, so the table is appended to.
    pub fn add_move(&self, (position, mv): Key, tally: &Tally) -> Result<(), ExplorerError> {
        let examples: Vec<u8> = tally
            .examples()
            .iter()
            .flat_map(|id| id.to_le_bytes())
            .collect();
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        self.connection
            .prepare_cached(
                "INSERT INTO moves (position, move, games, red_wins, draws, black_wins, rating_sum, rated_games, examples)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    position,
                    mv,
                    count(tally.games),
                    count(tally.red_wins),
                    count(tally.draws),
                    count(tally.black_wins),
                    count(tally.rating_sum),
                    count(tally.rated),
                    examples,
                ])
            })
            .map(drop)
            .map_err(|e| self.sqlite(e))
    }

    /// Records the build's facts and commits.
    pub fn finish(self, facts: &[(&str, String)]) -> Result<(), ExplorerError> {
        for (key, value) in facts {
            self.connection
                .execute(
                    "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                    params![key, value],
                )
                .map_err(|e| self.sqlite(e))?;
        }
        self.connection
            .execute_batch("COMMIT")
            .map_err(|e| self.sqlite(e))?;
        self.connection
            .close()
            .map_err(|(_, e)| ExplorerError::sqlite(&self.path, e))
    }
}
