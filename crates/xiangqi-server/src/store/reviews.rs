//! The engine's reviews of finished games: one row per game, the annotated
//! PGN or the reason the review failed.

use sqlx::Row;

use super::{database, Store, StoreError};

/// A stored review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRow {
    pub game: String,
    /// The annotated game as PGN, when the review succeeded.
    pub pgn: Option<String>,
    /// Why the review failed, when it did.
    pub error: Option<String>,
    /// The player who asked for it.
    pub requested_by: String,
    /// Unix milliseconds.
    pub finished_at: i64,
}

impl Store {
    /// The review of `game`, if one finished.
    pub async fn review(&self, game: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(
            "SELECT game, pgn, error, requested_by, finished_at FROM reviews WHERE game = $1",
        )
        .bind(game)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?;
        row.map(|row| -> Result<ReviewRow, sqlx::Error> {
            Ok(ReviewRow {
                game: row.try_get(0)?,
                pgn: row.try_get(1)?,
                error: row.try_get(2)?,
                requested_by: row.try_get(3)?,
                finished_at: row.try_get(4)?,
            })
        })
        .transpose()
        .map_err(database)
    }

    /// Stores `review`, replacing the game's earlier one.
    pub async fn save_review(&self, review: &ReviewRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO reviews (game, pgn, error, requested_by, finished_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (game) DO UPDATE SET pgn = excluded.pgn, error = excluded.error, \
             requested_by = excluded.requested_by, finished_at = excluded.finished_at",
        )
        .bind(&review.game)
        .bind(&review.pgn)
        .bind(&review.error)
        .bind(&review.requested_by)
        .bind(review.finished_at)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(())
    }
}
