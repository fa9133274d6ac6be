//! The lease keeper: every second a node renews the leases of its games,
//! notices a lease it lost, and takes over the games whose lease has lapsed
//! (their node died). After its own trouble with the store (an error, or a
//! renewal slow enough to show its pool was waiting) it waits two lease
//! periods first, so that the live owners renew before anyone takes their
//! games.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::cluster::{locked, Node};

/// How long a lease lasts unless renewed, in ms: a dead node's games are
/// taken over between this and this plus [`RENEW_EVERY`] after its last
/// renewal.
pub const LEASE_MS: i64 = 3_000;
/// How often leases are renewed and lapsed ones looked for.
const RENEW_EVERY: Duration = Duration::from_millis(1_000);
/// A renewal slower than this means trouble with the store even when it
/// succeeds: the pool waited for a connection (PostgreSQL restarting), and
/// the other nodes' pools may still be waiting, their leases lapsing.
const SLOW_RENEWAL_MS: i64 = 1_000;
/// After trouble with the store, lapsed leases are left alone this long, so
/// that live owners whose pools reconnect later than ours (8.6 s was seen
/// after a restart) renew first: two lease periods.
const CALM_AFTER_TROUBLE_MS: i64 = 2 * LEASE_MS;
/// A game without a lease row is taken only this long after it started (its
/// creator leases it at once; this covers games from before the cluster and
/// a creator that died in between).
const UNLEASED_GRACE_MS: i64 = 30_000;

pub(super) fn start_keeper(node: Arc<Node>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(RENEW_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // Until then, lapsed leases are left alone.
        let mut calm_from = node.now();
        loop {
            tick.tick().await;
            let asked = node.now();
            // No lease is claimed meanwhile, so none is taken for lost.
            let taking = node.taking.lock().await;
            let renewed = node.store.renew_leases(&node.id, asked + LEASE_MS).await;
            let now = node.now();
            match renewed {
                Ok(held) => {
                    if !node.store_up.swap(true, Ordering::Relaxed) {
                        tracing::info!("node {}: the database is back", node.id);
                        calm_from = now + CALM_AFTER_TROUBLE_MS;
                    } else if now - asked > SLOW_RENEWAL_MS {
                        tracing::warn!(
                            "node {}: renewing the leases took {} ms: no game is taken over \
                             for {} s",
                            node.id,
                            now - asked,
                            CALM_AFTER_TROUBLE_MS / 1_000
                        );
                        calm_from = now + CALM_AFTER_TROUBLE_MS;
                    }
                    lost_leases(&node, held.into_iter().collect());
                    drop(taking);
                }
                Err(error) => {
                    if node.store_up.swap(false, Ordering::Relaxed) {
                        tracing::error!(
                            "node {}: the database is unreachable ({error}): no move can be \
                             stored, no game started or taken over until it is back",
                            node.id
                        );
                    }
                    continue;
                }
            }
            if now < calm_from {
                continue;
            }
            let orphans = match node
                .store
                .orphaned_games(now, now - UNLEASED_GRACE_MS)
                .await
            {
                Ok(orphans) => orphans,
                Err(error) => {
                    tracing::warn!("node {}: looking for lapsed leases: {error}", node.id);
                    continue;
                }
            };
            for game in orphans {
                if let Err(error) = node.take_over(&game).await {
                    tracing::error!("node {}: taking over game {game}: {error}", node.id);
                }
            }
        }
    });
}

/// Rooms this node runs whose lease another node holds now (this node was
/// cut off longer than a lease): they are no longer this node's to answer
/// for. The room itself cannot write any more (the other node's events
/// take its next numbers), so it is only forgotten here.
fn lost_leases(node: &Node, held: HashSet<String>) {
    let mut owned = locked(&node.owned);
    let lost: Vec<String> = owned
        .keys()
        .filter(|game| !held.contains(*game))
        .cloned()
        .collect();
    for game in lost {
        tracing::error!("node {}: lost the lease of game {game}", node.id);
        if let Some(room) = owned.remove(&game) {
            node.rooms.remove(&room);
        }
    }
}
