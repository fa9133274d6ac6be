//! The store's side of the guards: names' confusable keys, when a guest
//! was last seen, and the sweep of guests nobody uses.

use std::collections::HashSet;

use sqlx::Row;

use super::{database, rows, skeleton_key, PlayerRow, Store, StoreError, PLAYER_COLUMNS};

/// Players whose names are keyed, or guests expired, per statement.
const BATCH: i64 = 500;

impl Store {
    /// Keys the names of players stored before names had keys.
    pub(super) async fn fill_name_skeletons(&self) -> Result<(), StoreError> {
        loop {
            let rows =
                sqlx::query("SELECT id, name FROM players WHERE name_skeleton IS NULL LIMIT $1")
                    .bind(BATCH)
                    .fetch_all(&self.writer)
                    .await
                    .map_err(database)?;
            if rows.is_empty() {
                return Ok(());
            }
            for row in rows {
                let id: String = row.try_get(0).map_err(database)?;
                let name: String = row.try_get(1).map_err(database)?;
                sqlx::query("UPDATE players SET name_skeleton = $2 WHERE id = $1")
                    .bind(&id)
                    .bind(skeleton_key(&name))
                    .execute(&self.writer)
                    .await
                    .map_err(database)?;
            }
        }
    }

    /// The name of a player other than `id` whose name is confusable with
    /// `name`, if there is one.
    pub async fn confusable_with(
        &self,
        name: &str,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        let row =
            sqlx::query("SELECT name FROM players WHERE name_skeleton = $1 AND id <> $2 LIMIT 1")
                .bind(skeleton_key(name))
                .bind(id)
                .fetch_optional(&self.reader)
                .await
                .map_err(database)?;
        row.map(|row| row.try_get(0).map_err(database)).transpose()
    }

    /// The player of a session and when it was last seen (unix ms; `None`
    /// before it ever was).
    pub async fn session_player_seen(
        &self,
        token_hash: &str,
    ) -> Result<Option<(PlayerRow, Option<i64>)>, StoreError> {
        let columns: Vec<String> = PLAYER_COLUMNS
            .split(", ")
            .map(|c| format!("p.{c}"))
            .collect();
        let row = sqlx::query(&format!(
            "SELECT {}, p.last_seen FROM sessions s JOIN players p ON p.id = s.player \
             WHERE s.token_hash = $1",
            columns.join(", ")
        ))
        .bind(token_hash)
        .fetch_optional(&self.reader)
        .await
        .map_err(database)?;
        let Some(row) = row else {
            return Ok(None);
        };
        let seen: Option<i64> = row.try_get(columns.len()).map_err(database)?;
        Ok(Some((rows::player(&row)?, seen)))
    }

    /// Notes that player `id` was seen at `at` (unix ms).
    pub async fn touch_player(&self, id: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE players SET last_seen = $2 WHERE id = $1")
            .bind(id)
            .bind(at)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// Deletes, with their sessions, the guests last seen before `before`
    /// (unix ms) who have no game and are not in `online`; how many.
    pub async fn expire_guests(
        &self,
        before: i64,
        online: &HashSet<String>,
    ) -> Result<usize, StoreError> {
        let mut expired = 0;
        let mut skipped: i64 = 0;
        loop {
            let rows = sqlx::query(
                "SELECT p.id FROM players p WHERE p.guest = 1 \
                 AND COALESCE(p.last_seen, p.created_at) < $1 \
                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.red = p.id OR g.black = p.id) \
                 ORDER BY p.id LIMIT $2 OFFSET $3",
            )
            .bind(before)
            .bind(BATCH)
            .bind(skipped)
            .fetch_all(&self.reader)
            .await
            .map_err(database)?;
            let found = rows.len();
            let ids: Vec<String> = rows
                .iter()
                .map(|row| row.try_get::<String, _>(0).map_err(database))
                .collect::<Result<_, _>>()?;
            let (online_ids, gone): (Vec<String>, Vec<String>) =
                ids.into_iter().partition(|id| online.contains(id));
            skipped += online_ids.len() as i64;
            if !gone.is_empty() {
                // Sessions go with their player (`ON DELETE CASCADE`); the
                // time is checked again for a guest seen since the select.
                let places: Vec<String> = (2..gone.len() + 2).map(|i| format!("${i}")).collect();
                let sql = format!(
                    "DELETE FROM players WHERE id IN ({}) AND guest = 1 \
                     AND COALESCE(last_seen, created_at) < $1",
                    places.join(", ")
                );
                let mut query = sqlx::query(&sql).bind(before);
                for id in &gone {
                    query = query.bind(id);
                }
                let done = query.execute(&self.writer).await.map_err(database)?;
                expired += done.rows_affected() as usize;
            }
            if (found as i64) < BATCH {
                return Ok(expired);
            }
        }
    }
}
