//! Puzzle ratings, streaks and attempts (migration 0008, docs/puzzles.md).
//! An attempt moves only by compare-and-set on its ply and open outcome, so
//! two requests racing on one attempt cannot both count.

use std::collections::{HashMap, HashSet};

use sqlx::Row;
use xiangqi_rating::Glicko2;

use super::{database, Store, StoreError};

/// A player's puzzle record.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzlePlayerRow {
    pub player: String,
    pub rating: Glicko2,
    pub streak: i64,
    pub best_streak: i64,
    pub solved: i64,
    pub failed: i64,
}

impl PuzzlePlayerRow {
    /// A player who never played a puzzle.
    pub fn new(player: &str) -> PuzzlePlayerRow {
        PuzzlePlayerRow {
            player: player.to_string(),
            rating: Glicko2::new(1500.0),
            streak: 0,
            best_streak: 0,
            solved: 0,
            failed: 0,
        }
    }
}

/// A puzzle served to a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAttemptRow {
    pub id: String,
    pub player: String,
    pub puzzle: String,
    pub served_at: i64,
    /// Plies of the solution played so far.
    pub ply: i64,
    /// `None` while open; "solved", "failed", "shown" or "skipped".
    pub outcome: Option<String>,
    /// The player's first attempt at this puzzle: it moves the streak and,
    /// for an account, the ratings.
    pub counts: bool,
    pub finished_at: Option<i64>,
}

const ATTEMPT_COLUMNS: &str = "id, player, puzzle, served_at, ply, outcome, counts, finished_at";

fn milli(value: f64) -> i64 {
    (value * 1000.0).round() as i64
}

fn micro(value: f64) -> i64 {
    (value * 1_000_000.0).round() as i64
}

fn glicko(row: &sqlx::any::AnyRow, first: usize) -> Result<Glicko2, sqlx::Error> {
    Ok(Glicko2 {
        rating: row.try_get::<i64, _>(first)? as f64 / 1000.0,
        deviation: row.try_get::<i64, _>(first + 1)? as f64 / 1000.0,
        volatility: row.try_get::<i64, _>(first + 2)? as f64 / 1_000_000.0,
    })
}

fn attempt(row: &sqlx::any::AnyRow) -> Result<PuzzleAttemptRow, sqlx::Error> {
    Ok(PuzzleAttemptRow {
        id: row.try_get(0)?,
        player: row.try_get(1)?,
        puzzle: row.try_get(2)?,
        served_at: row.try_get(3)?,
        ply: row.try_get(4)?,
        outcome: row.try_get(5)?,
        counts: row.try_get::<i64, _>(6)? != 0,
        finished_at: row.try_get(7)?,
    })
}

impl Store {
    /// A player's puzzle record, if they ever played one.
    pub async fn puzzle_player(&self, player: &str) -> Result<Option<PuzzlePlayerRow>, StoreError> {
        let row = sqlx::query(
            "SELECT player, rating_milli, deviation_milli, volatility_micro, streak, best_streak, \
             solved, failed FROM puzzle_players WHERE player = $1",
        )
        .bind(player)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?;
        row.map(|row| -> Result<PuzzlePlayerRow, sqlx::Error> {
            Ok(PuzzlePlayerRow {
                player: row.try_get(0)?,
                rating: glicko(&row, 1)?,
                streak: row.try_get(4)?,
                best_streak: row.try_get(5)?,
                solved: row.try_get(6)?,
                failed: row.try_get(7)?,
            })
        })
        .transpose()
        .map_err(database)
    }

    /// Stores a player's puzzle record.
    pub async fn save_puzzle_player(&self, row: &PuzzlePlayerRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO puzzle_players (player, rating_milli, deviation_milli, volatility_micro, \
             streak, best_streak, solved, failed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (player) DO UPDATE SET rating_milli = excluded.rating_milli, \
             deviation_milli = excluded.deviation_milli, volatility_micro = excluded.volatility_micro, \
             streak = excluded.streak, best_streak = excluded.best_streak, \
             solved = excluded.solved, failed = excluded.failed",
        )
        .bind(&row.player)
        .bind(milli(row.rating.rating))
        .bind(milli(row.rating.deviation))
        .bind(micro(row.rating.volatility))
        .bind(row.streak)
        .bind(row.best_streak)
        .bind(row.solved)
        .bind(row.failed)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// Every stored puzzle rating, with its number of rated plays.
    pub async fn puzzle_ratings(&self) -> Result<HashMap<String, (Glicko2, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle, rating_milli, deviation_milli, volatility_micro, plays FROM puzzle_ratings",
        )
        .fetch_all(&self.reader)
        .await
        .map_err(database)?;
        rows.iter()
            .map(|row| -> Result<(String, (Glicko2, i64)), sqlx::Error> {
                Ok((row.try_get(0)?, (glicko(row, 1)?, row.try_get(4)?)))
            })
            .collect::<Result<_, _>>()
            .map_err(database)
    }

    /// Stores a puzzle's rating.
    pub async fn save_puzzle_rating(
        &self,
        puzzle: &str,
        rating: &Glicko2,
        plays: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO puzzle_ratings (puzzle, rating_milli, deviation_milli, volatility_micro, plays) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (puzzle) DO UPDATE SET \
             rating_milli = excluded.rating_milli, deviation_milli = excluded.deviation_milli, \
             volatility_micro = excluded.volatility_micro, plays = excluded.plays",
        )
        .bind(puzzle)
        .bind(milli(rating.rating))
        .bind(milli(rating.deviation))
        .bind(micro(rating.volatility))
        .bind(plays)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// The puzzles a player was ever served.
    pub async fn attempted_puzzles(&self, player: &str) -> Result<HashSet<String>, StoreError> {
        let rows = sqlx::query("SELECT DISTINCT puzzle FROM puzzle_attempts WHERE player = $1")
            .bind(player)
            .fetch_all(&self.reader)
            .await
            .map_err(database)?;
        rows.iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(database)
    }

    /// Stores a new attempt.
    pub async fn insert_puzzle_attempt(&self, row: &PuzzleAttemptRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO puzzle_attempts ({ATTEMPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .bind(&row.id)
        .bind(&row.player)
        .bind(&row.puzzle)
        .bind(row.served_at)
        .bind(row.ply)
        .bind(row.outcome.as_deref())
        .bind(i64::from(row.counts))
        .bind(row.finished_at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }

    /// An attempt by its id.
    pub async fn puzzle_attempt(&self, id: &str) -> Result<Option<PuzzleAttemptRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.writer)
        .await
        .map_err(database)?;
        row.map(|row| attempt(&row)).transpose().map_err(database)
    }

    /// A player's open attempts.
    pub async fn open_puzzle_attempts(
        &self,
        player: &str,
    ) -> Result<Vec<PuzzleAttemptRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE player = $1 AND outcome IS NULL"
        ))
        .bind(player)
        .fetch_all(&self.writer)
        .await
        .map_err(database)?;
        rows.iter()
            .map(attempt)
            .collect::<Result<_, _>>()
            .map_err(database)
    }

    /// Moves an open attempt from ply `from` to `to`; false when it is no
    /// longer open at `from` (another request moved it first).
    pub async fn advance_puzzle_attempt(
        &self,
        id: &str,
        from: i64,
        to: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE puzzle_attempts SET ply = $3 WHERE id = $1 AND ply = $2 AND outcome IS NULL",
        )
        .bind(id)
        .bind(from)
        .bind(to)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(done.rows_affected() == 1)
    }

    /// Ends an open attempt at ply `from` with `outcome` (the ply becomes
    /// `to`); false when it is no longer open at `from`.
    pub async fn finish_puzzle_attempt(
        &self,
        id: &str,
        from: i64,
        to: i64,
        outcome: &str,
        at: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE puzzle_attempts SET ply = $3, outcome = $4, finished_at = $5 \
             WHERE id = $1 AND ply = $2 AND outcome IS NULL",
        )
        .bind(id)
        .bind(from)
        .bind(to)
        .bind(outcome)
        .bind(at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(done.rows_affected() == 1)
    }
}
