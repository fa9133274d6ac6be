//! Accounts deleted while the server runs: their sessions are gone from
//! the store, so no new request or socket is theirs, but a socket opened
//! before stays open; every frame it sends is refused from then on.

use std::collections::HashSet;
use std::sync::Mutex;

/// Deleted accounts' ids (only those deleted since the server started:
/// older ones have no socket left).
#[derive(Default)]
pub struct ClosedAccounts {
    ids: Mutex<HashSet<String>>,
}

impl ClosedAccounts {
    /// Notes that account `id` is deleted.
    pub fn close(&self, id: &str) {
        match self.ids.lock() {
            Ok(mut ids) => ids.insert(id.to_string()),
            Err(poisoned) => poisoned.into_inner().insert(id.to_string()),
        };
    }

    /// Whether account `id` was deleted.
    pub fn is_closed(&self, id: &str) -> bool {
        match self.ids.lock() {
            Ok(ids) => ids.contains(id),
            Err(poisoned) => poisoned.into_inner().contains(id),
        }
    }
}
