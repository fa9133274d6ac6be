//! A player's own changes to their account: a new password (the other
//! sessions end) and deletion, which keeps their games, ratings and chat
//! under a stable placeholder name and ends every session.

use sqlx::Row;

use super::{database, name_key, skeleton_key, Store, StoreError};
use crate::ids::token_hash;

/// The placeholder a deleted account is shown as: `deleted-` and ten hex
/// digits of a hash of its id, the same on every read and every server.
pub fn deleted_name(id: &str) -> String {
    let hash = token_hash(&format!("deleted account {id}"));
    format!("deleted-{}", &hash[..10])
}

impl Store {
    /// Sets account `id`'s password hash and ends its sessions but the one
    /// stored as `keep` (the session that asked), in one transaction.
    pub async fn change_password(
        &self,
        id: &str,
        password_hash: &str,
        keep: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut tx = self.writer.begin().await.map_err(database)?;
        let done = sqlx::query(
            "UPDATE players SET password_hash = $2 WHERE id = $1 AND guest = 0 \
             AND deleted_at IS NULL",
        )
        .bind(id)
        .bind(password_hash)
        .execute(&mut *tx)
        .await
        .map_err(database)?;
        super::expect_one(done.rows_affected(), "account", id)?;
        sqlx::query("DELETE FROM sessions WHERE player = $1 AND token_hash <> $2")
            .bind(id)
            .bind(keep.unwrap_or(""))
            .execute(&mut *tx)
            .await
            .map_err(database)?;
        tx.commit().await.map_err(database)
    }

    /// Deletes account `id` at `at` (unix ms): its name becomes
    /// [`deleted_name`] (the old one is free for anyone), its password and
    /// every session go; its games, rating changes, chat and reports stay.
    /// Returns the placeholder.
    pub async fn delete_account(&self, id: &str, at: i64) -> Result<String, StoreError> {
        let placeholder = deleted_name(id);
        let mut tx = self.writer.begin().await.map_err(database)?;
        let done = sqlx::query(
            "UPDATE players SET name = $2, name_key = $3, name_skeleton = $4, \
             password_hash = NULL, deleted_at = $5 WHERE id = $1 AND guest = 0 \
             AND deleted_at IS NULL",
        )
        .bind(id)
        .bind(&placeholder)
        .bind(name_key(&placeholder))
        .bind(skeleton_key(&placeholder))
        .bind(at)
        .execute(&mut *tx)
        .await
        .map_err(database)?;
        super::expect_one(done.rows_affected(), "account", id)?;
        sqlx::query("DELETE FROM sessions WHERE player = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(database)?;
        // A bot's API tokens go with the account.
        sqlx::query("DELETE FROM api_tokens WHERE player = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(database)?;
        tx.commit().await.map_err(database)?;
        Ok(placeholder)
    }

    /// Whether player `id` is a deleted account (false for an unknown id).
    pub async fn is_deleted(&self, id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT deleted_at FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.reader)
            .await
            .map_err(database)?;
        let at: Option<i64> = match row {
            Some(row) => row.try_get(0).map_err(database)?,
            None => None,
        };
        Ok(at.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_is_stable_and_differs_per_account() {
        assert_eq!(deleted_name("p_a"), deleted_name("p_a"));
        assert_ne!(deleted_name("p_a"), deleted_name("p_b"));
        assert!(deleted_name("p_a").starts_with("deleted-"));
        assert_eq!(deleted_name("p_a").len(), "deleted-".len() + 10);
    }
}
