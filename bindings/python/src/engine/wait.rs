//! Waiting for an engine with the GIL released, but still answering
//! signals: the job runs on a helper thread while the calling thread wakes
//! every few milliseconds to run Python's signal handlers. After a
//! `KeyboardInterrupt` (or any exception a handler raises) every poll sends
//! `stop` through the built-in search's [`SearchRemote`], so the running
//! search (and each one after it in a game review) ends within a poll, and
//! the exception is re-raised when the job returns.
//! An external engine cannot be stopped mid-search: its wait ends at its
//! limit or deadline.

use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use xiangqi_search::SearchRemote;

/// How often the waiting thread checks for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `job` off the GIL; `stop` is raised once a signal handler fails.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    stop: Option<&SearchRemote>,
    job: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (tx, rx) = mpsc::channel();
    // A Mutex makes the receiver shareable with the GIL-free closure below.
    let rx = Mutex::new(rx);
    let mut interrupted = None;
    let outcome = std::thread::scope(|scope| {
        scope.spawn(move || {
            // The receiver outlives the scope; a send cannot fail.
            let _ = tx.send(job());
        });
        loop {
            let received = py.detach(|| {
                rx.lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .recv_timeout(SIGNAL_POLL)
            });
            match received {
                Ok(value) => return Some(value),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if interrupted.is_none() {
                        interrupted = py.check_signals().err();
                    }
                    // Sent again at every poll: a search started after
                    // the last one returned is stopped too.
                    if let (Some(_), Some(stop)) = (&interrupted, stop) {
                        stop.stop();
                    }
                }
            }
        }
    });
    match (interrupted, outcome) {
        (Some(error), _) => Err(error),
        (None, Some(value)) => Ok(value),
        (None, None) => Err(PyRuntimeError::new_err(
            "the engine's thread ended without a result",
        )),
    }
}
