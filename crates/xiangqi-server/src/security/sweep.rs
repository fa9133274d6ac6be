//! What the server tidies while it runs: guests nobody uses (with their
//! sessions) and the limiters' memory of addresses and names gone quiet.
//!
//! A guest is a player row and a session made by any visit without a
//! cookie; one that has played no game and whose session was not used for
//! [`GUEST_IDLE_LIMIT_MS`] (7 days) is deleted, so a flood of cookie-less
//! visits leaves nothing behind for long. Guests with games stay: their
//! games name them.

use std::time::Duration;

use crate::state::AppState;
use crate::store::StoreError;

/// A guest without games unused this long is deleted: 7 days.
pub const GUEST_IDLE_LIMIT_MS: u64 = 7 * 24 * 3_600 * 1_000;
/// A guest's last use is written at most this often: an hour.
pub const TOUCH_EVERY_MS: i64 = 3_600 * 1_000;
/// The sweep of guests runs this often.
const SWEEP_EVERY: Duration = Duration::from_secs(3_600);
/// The limiters forget quiet keys this often.
const FORGET_EVERY: Duration = Duration::from_secs(60);

/// Deletes the guests unused for [`GUEST_IDLE_LIMIT_MS`] who have no game
/// and no socket open; how many.
pub async fn expire_guests(state: &AppState) -> Result<usize, StoreError> {
    let before = state.clock.unix_ms() - GUEST_IDLE_LIMIT_MS as i64;
    state.store.expire_guests(before, &state.hub.online()).await
}

/// Runs the sweeps until the server stops (a task of `run_until`).
pub async fn run(state: AppState) {
    let mut forget = tokio::time::interval(FORGET_EVERY);
    let mut sweep = tokio::time::interval(SWEEP_EVERY);
    loop {
        tokio::select! {
            _ = forget.tick() => {
                state.guards.forget_idle();
                state.social.forget_idle();
                state.puzzles.throttle.forget_idle();
                state.analyses.checks.forget_idle();
            }
            _ = sweep.tick() => match expire_guests(&state).await {
                Ok(0) => {}
                Ok(n) => tracing::info!("{n} idle guests expired"),
                Err(error) => tracing::error!("expiring idle guests: {error}"),
            },
        }
    }
}
