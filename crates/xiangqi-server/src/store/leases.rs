//! Leases of games to the nodes of a cluster (`game_owners`): the one node
//! that runs a game's room holds its lease and renews it; a lease past its
//! expiry may be taken by any node. Times are unix ms of the nodes' clocks.

use sqlx::Row;

use super::{database, Store, StoreError};

impl Store {
    /// Takes (or renews) the lease of `game` for `node` until `until`,
    /// unless another node holds it past `now`; true when `node` holds it.
    /// One statement, so two nodes racing for a lease never both win.
    pub async fn claim_lease(
        &self,
        game: &str,
        node: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query(
            "INSERT INTO game_owners (game, node, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game) DO UPDATE SET node = excluded.node, expires_at = excluded.expires_at \
             WHERE game_owners.expires_at < $4 OR game_owners.node = excluded.node \
             RETURNING node",
        )
        .bind(game)
        .bind(node)
        .bind(until)
        .bind(now)
        .fetch_optional(&self.writer)
        .await
        .map_err(database)?;
        Ok(row.is_some())
    }

    /// Extends every lease `node` holds to `until`; the games it still holds.
    pub async fn renew_leases(&self, node: &str, until: i64) -> Result<Vec<String>, StoreError> {
        let rows =
            sqlx::query("UPDATE game_owners SET expires_at = $2 WHERE node = $1 RETURNING game")
                .bind(node)
                .bind(until)
                .fetch_all(&self.writer)
                .await
                .map_err(database)?;
        rows.iter()
            .map(|row| row.try_get::<String, _>(0).map_err(database))
            .collect()
    }

    /// Gives up the lease of `game` (its game is over).
    pub async fn release_lease(&self, game: &str, node: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM game_owners WHERE game = $1 AND node = $2")
            .bind(game)
            .bind(node)
            .execute(&self.writer)
            .await
            .map_err(database)?;
        Ok(())
    }

    /// The node holding a live lease on `game` at `now`, if any.
    pub async fn lease_holder(&self, game: &str, now: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT node FROM game_owners WHERE game = $1 AND expires_at >= $2")
            .bind(game)
            .bind(now)
            .fetch_optional(&self.writer)
            .await
            .map_err(database)?;
        row.map(|row| row.try_get::<String, _>(0).map_err(database))
            .transpose()
    }

    /// Unfinished games nobody runs at `now`: their lease has expired, or
    /// (games from before the cluster, or whose creator died before leasing
    /// them) they have none and started before `unleased_before`.
    pub async fn orphaned_games(
        &self,
        now: i64,
        unleased_before: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g \
             LEFT JOIN endings e ON e.game = g.id \
             LEFT JOIN game_owners o ON o.game = g.id \
             WHERE e.game IS NULL \
               AND ((o.game IS NULL AND g.started_at < $2) OR o.expires_at < $1) \
             ORDER BY g.started_at, g.id",
        )
        .bind(now)
        .bind(unleased_before)
        .fetch_all(&self.writer)
        .await
        .map_err(database)?;
        rows.iter()
            .map(|row| row.try_get::<String, _>(0).map_err(database))
            .collect()
    }
}
