//! Bots in the store: API tokens (by their hash), the bot flag, and the bot
//! pool's ratings.

use sqlx::Row;

use super::{database, expect_one, RatingChangeRow, Store, StoreError};

/// One API token as stored (the secret's hash, never the secret).
#[derive(Debug, Clone, PartialEq)]
pub struct TokenRow {
    pub id: String,
    pub player: String,
    pub description: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

/// Which pool of ratings a rated game changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RatingPool {
    /// Games between people.
    Normal,
    /// Games with a bot on either side.
    Bot,
}

impl RatingPool {
    /// The pool's table of changes and the players' column of its rating.
    pub(super) fn table_and_column(self) -> (&'static str, &'static str) {
        match self {
            RatingPool::Normal => ("rating_changes", "rating"),
            RatingPool::Bot => ("bot_rating_changes", "bot_rating"),
        }
    }
}

const TOKEN_COLUMNS: &str = "id, player, description, created_at, last_used_at";

fn token_row(row: &sqlx::any::AnyRow) -> Result<TokenRow, StoreError> {
    let get = |i: usize| -> Result<String, StoreError> {
        row.try_get(i)
            .map_err(|e| StoreError::Invalid(format!("token column {i}: {e}")))
    };
    Ok(TokenRow {
        id: get(0)?,
        player: get(1)?,
        description: get(2)?,
        created_at: row
            .try_get(3)
            .map_err(|e| StoreError::Invalid(format!("token created_at: {e}")))?,
        last_used_at: row
            .try_get(4)
            .map_err(|e| StoreError::Invalid(format!("token last_used_at: {e}")))?,
    })
}

impl Store {
    /// Stores a token for `token.player` unless they hold `max` already
    /// (`Ok(false)`; counted in the same statement).
    pub async fn insert_token(
        &self,
        token: &TokenRow,
        token_hash: &str,
        max: usize,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO api_tokens (id, player, token_hash, description, created_at) \
             SELECT $1, $2, $3, $4, $5 WHERE \
             (SELECT COUNT(*) FROM api_tokens WHERE player = $2) < $6",
        )
        .bind(&token.id)
        .bind(&token.player)
        .bind(token_hash)
        .bind(&token.description)
        .bind(token.created_at)
        .bind(max as i64)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(done.rows_affected() == 1)
    }

    /// A player's tokens, newest first.
    pub async fn tokens_of(&self, player: &str) -> Result<Vec<TokenRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE player = $1 \
             ORDER BY created_at DESC, id DESC"
        ))
        .bind(player)
        .fetch_all(&self.reader)
        .await
        .map_err(database)?
        .iter()
        .map(token_row)
        .collect()
    }

    /// Deletes `player`'s token `id` (`NotFound` for another's or none).
    pub async fn delete_token(&self, player: &str, id: &str) -> Result<(), StoreError> {
        let done = sqlx::query("DELETE FROM api_tokens WHERE id = $1 AND player = $2")
            .bind(id)
            .bind(player)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        expect_one(done.rows_affected(), "token", id)
    }

    /// The token of this hash, if it exists.
    pub async fn token_by_hash(&self, token_hash: &str) -> Result<Option<TokenRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {TOKEN_COLUMNS} FROM api_tokens WHERE token_hash = $1"
        ))
        .bind(token_hash)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?
        .map(|row| token_row(&row))
        .transpose()
    }

    /// Whether token `id` still exists (a stream ends when it is revoked).
    pub async fn token_exists(&self, id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query("SELECT 1 FROM api_tokens WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await
            .map_err(database)?
            .is_some())
    }

    /// Notes a token's use.
    pub async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1")
            .bind(id)
            .bind(at)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// Makes account `player` a bot unless it has played any game
    /// (`Ok(false)`; checked in the same statement).
    pub async fn make_bot(&self, player: &str) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE players SET bot = 1 WHERE id = $1 AND guest = 0 AND NOT EXISTS \
             (SELECT 1 FROM games WHERE red = $1 OR black = $1)",
        )
        .bind(player)
        .execute(&self.writer)
        .await
        .map_err(database)?;
        Ok(done.rows_affected() == 1)
    }

    /// Whether game `id` is a bot game (`None` for no such game).
    pub async fn is_bot_game(&self, id: &str) -> Result<Option<bool>, StoreError> {
        let row = sqlx::query("SELECT bot FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await
            .map_err(database)?;
        row.map(|row| {
            row.try_get::<i64, _>(0)
                .map(|flag| flag == 1)
                .map_err(|e| StoreError::Invalid(format!("games.bot: {e}")))
        })
        .transpose()
    }

    /// A player's bot-pool rating changes, newest first.
    pub async fn bot_rating_history(
        &self,
        player: &str,
    ) -> Result<Vec<RatingChangeRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT player, game, rating_before, rating_after, at_ms FROM bot_rating_changes \
             WHERE player = $1 ORDER BY at_ms DESC, game DESC",
        )
        .bind(player)
        .fetch_all(&self.reader)
        .await
        .map_err(database)?;
        rows.iter()
            .map(|row| {
                let int = |i: usize| -> Result<i64, StoreError> {
                    row.try_get(i)
                        .map_err(|e| StoreError::Invalid(format!("bot rating column {i}: {e}")))
                };
                Ok(RatingChangeRow {
                    player: row
                        .try_get(0)
                        .map_err(|e| StoreError::Invalid(e.to_string()))?,
                    game: row
                        .try_get(1)
                        .map_err(|e| StoreError::Invalid(e.to_string()))?,
                    before: i32::try_from(int(2)?).unwrap_or_default(),
                    after: i32::try_from(int(3)?).unwrap_or_default(),
                    at: int(4)?,
                })
            })
            .collect()
    }
}
