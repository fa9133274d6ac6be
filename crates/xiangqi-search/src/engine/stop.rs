//! The stop flag a running search polls, shared with whoever may stop it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Raises the stop flag of a running (or the next) search from another
/// thread; [`crate::SearchRemote::stop`] is its public face.
///
/// The flag is an `Arc<AtomicBool>`; [`crate::Engine::search`] lowers it when it returns.
#[derive(Clone, Debug)]
pub(crate) struct StopHandle(pub(super) Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop as soon as possible (within about a thousand nodes).
    /// It still returns the best move found so far.
    pub(crate) fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lowers the flag (done by [`Engine::search`] on return).
    pub(crate) fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// The underlying flag, for callers that share their own.
    pub(crate) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}
