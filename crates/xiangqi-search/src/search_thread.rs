//! The non-blocking search: [`SearchThread`] runs [`Engine::search`] on a
//! thread of its own and answers `go`, `stop` and `ponderhit` the way a UCI
//! engine does, so every front end (the CLI's UCI and UCCI loops, Python,
//! the server's engine player and reviews) stops and ponders alike.
//!
//! What it guarantees, whoever drives it:
//! - `go` returns at once; the search reports each completed iteration and
//!   then its best move through the caller's `on_event`, on the search thread;
//! - a `stop` ends the running search within about a thousand nodes, and the
//!   best move found so far is still reported;
//! - an `infinite` or `ponder` search that finishes early (depth limit, a
//!   forced mate) holds its best move back until `stop` (or, pondering,
//!   `ponderhit`), as UCI asks;
//! - `ponderhit` turns a ponder search into a timed one whose clock starts then;
//! - `stop` and `ponderhit` only concern the search running when they come:
//!   sent while idle they do nothing, and they never reach the next search.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use xiangqi_core::Position;

use crate::engine::StopHandle;
use crate::time::PonderHandle;
use crate::{Engine, Limits, SearchInfo, SearchResult};

/// What a search tells its caller, in order: any number of `Info`, then
/// one `BestMove`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// One line of a completed iteration (several per iteration with MultiPV).
    Info(SearchInfo),
    /// The search is over: its result, `best_move` `None` when the side to
    /// move has no legal move (a loss in xiangqi) or every move was excluded.
    BestMove(SearchResult),
}

/// Why a search did not start or did not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// `go` while a search is still running.
    #[error("already searching; send stop first")]
    AlreadySearching,
    /// The system refused a thread, or the search thread panicked (the
    /// engine is then rebuilt with the same hash size and thread count).
    #[error("the search thread failed: {0}")]
    ThreadFailed(String),
}

/// The state `go`, `stop` and `ponderhit` share with the search thread.
#[derive(Debug, Default)]
struct State {
    /// From `go` until the best move is handed to the caller.
    running: bool,
    /// The running search may not answer before `stop` (`go infinite`).
    infinite: bool,
    /// The running search may not answer before `stop` or `ponderhit`.
    pondering: bool,
    /// `stop` came for the running search.
    stop_requested: bool,
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Signalled on `stop` and `ponderhit`, for a search holding its answer.
    changed: Condvar,
    /// The engine's own flags, polled inside the search.
    stop: StopHandle,
    ponder: PonderHandle,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // The state is a few flags: a panic elsewhere leaves them usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Stops the running search or signals `ponderhit` from anywhere (another
/// thread, a signal handler's poll, a server's room); cheap to clone.
#[derive(Clone, Debug)]
pub struct SearchRemote(Arc<Shared>);

impl SearchRemote {
    /// Ends the running search: it reports its best move so far promptly
    /// (also an infinite or ponder search). Nothing happens when no search runs.
    pub fn stop(&self) {
        let mut state = self.0.lock();
        if state.running {
            state.stop_requested = true;
            self.0.stop.stop();
            self.0.changed.notify_all();
        }
    }

    /// The move the ponder search expected was played: its time limits count
    /// from now (an early-finished ponder search answers at once). Nothing
    /// happens unless a ponder search runs.
    pub fn ponderhit(&self) {
        let mut state = self.0.lock();
        if state.running && state.pondering {
            state.pondering = false;
            self.0.ponder.hit();
            self.0.changed.notify_all();
        }
    }

    /// True from `go` until the best move has been handed over.
    pub fn is_searching(&self) -> bool {
        self.0.lock().running
    }
}

/// An [`Engine`] on its own search thread: `go` starts a search and returns,
/// `stop` and `ponderhit` act on it, and the reports come through the
/// callback given to `go` (a closure, or a channel's sender).
///
/// ```
/// use std::sync::mpsc;
/// use std::time::Duration;
/// use xiangqi_core::Position;
/// use xiangqi_search::{Engine, Limits, SearchEvent, SearchThread};
///
/// let mut thread = SearchThread::new(Engine::new(4));
/// let (tx, rx) = mpsc::channel();
/// let infinite = Limits { infinite: true, ..Limits::default() };
/// thread
///     .go(Position::startpos(), Vec::new(), infinite, move |event| {
///         let _ = tx.send(event);
///     })
///     .unwrap();
/// std::thread::sleep(Duration::from_millis(20));
/// thread.stop();
/// let best = rx.iter().find_map(|event| match event {
///     SearchEvent::BestMove(result) => Some(result),
///     SearchEvent::Info(_) => None,
/// });
/// assert!(best.unwrap().best_move.is_some());
/// ```
pub struct SearchThread {
    /// The engine while no search has it.
    engine: Option<Engine>,
    /// The thread of the last search: it gives the engine back.
    worker: Option<JoinHandle<(Engine, SearchResult)>>,
    remote: SearchRemote,
    /// Settings to rebuild the engine with, should a search thread panic.
    hash_mb: usize,
    threads: usize,
}

impl std::fmt::Debug for SearchThread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchThread")
            .field("engine", &self.engine)
            .field("searching", &self.is_searching())
            .finish_non_exhaustive()
    }
}

impl Default for SearchThread {
    fn default() -> SearchThread {
        SearchThread::new(Engine::default())
    }
}

impl SearchThread {
    /// Takes `engine` (with its settings: hash, threads, skill, weights).
    pub fn new(engine: Engine) -> SearchThread {
        let remote = SearchRemote(Arc::new(Shared {
            state: Mutex::new(State::default()),
            changed: Condvar::new(),
            stop: engine.stop_handle(),
            ponder: engine.ponder_handle(),
        }));
        SearchThread {
            hash_mb: engine.hash_size(),
            threads: engine.threads(),
            engine: Some(engine),
            worker: None,
            remote,
        }
    }

    /// A handle for `stop` and `ponderhit` from other threads.
    pub fn remote(&self) -> SearchRemote {
        self.remote.clone()
    }

    /// True from `go` until the best move has been handed over.
    pub fn is_searching(&self) -> bool {
        self.remote.is_searching()
    }

    /// Starts searching `root` (after the game `history`, oldest first, as
    /// [`Engine::search`] takes them) within `limits`, and returns at once.
    /// `on_event` gets every [`SearchEvent::Info`], then the
    /// [`SearchEvent::BestMove`], on the search thread. A search that has
    /// answered but whose callback is still running is waited for; one still
    /// searching is an error.
    pub fn go(
        &mut self,
        root: Position,
        history: Vec<Position>,
        limits: Limits,
        mut on_event: impl FnMut(SearchEvent) + Send + 'static,
    ) -> Result<(), SearchError> {
        if self.is_searching() {
            return Err(SearchError::AlreadySearching);
        }
        // A failed last search is reported by `wait`; this one starts afresh.
        let _ = self.join();
        let mut engine = self.take_engine();
        self.hash_mb = engine.hash_size();
        self.threads = engine.threads();
        // Always the remote's flags, even on an engine replaced through `engine()`.
        engine.share_flags(&self.remote.0.stop, &self.remote.0.ponder);
        {
            let mut state = self.remote.0.lock();
            // Flags left over from the last search (a stop or hit that came
            // after it had answered) must not reach this one.
            self.remote.0.stop.reset();
            self.remote.0.ponder.reset();
            *state = State {
                running: true,
                infinite: limits.infinite,
                pondering: limits.ponder,
                stop_requested: false,
            };
        }
        let shared = Arc::clone(&self.remote.0);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let result = engine.search(&root, &history, &limits, |info| {
                    on_event(SearchEvent::Info(info.clone()));
                });
                {
                    let mut state = shared.lock();
                    while (state.infinite || state.pondering) && !state.stop_requested {
                        state = shared
                            .changed
                            .wait(state)
                            .unwrap_or_else(|p| p.into_inner());
                    }
                    // Not searching any more before the answer goes out: a
                    // caller may `go` again the moment it reads it.
                    state.running = false;
                }
                on_event(SearchEvent::BestMove(result.clone()));
                (engine, result)
            });
        match spawned {
            Ok(worker) => {
                self.worker = Some(worker);
                Ok(())
            }
            Err(e) => {
                // The engine went with the closure that could not run.
                self.remote.0.lock().running = false;
                self.engine = Some(self.fresh_engine());
                Err(SearchError::ThreadFailed(format!(
                    "cannot start the search thread: {e}"
                )))
            }
        }
    }

    /// Ends the running search (see [`SearchRemote::stop`]).
    pub fn stop(&self) {
        self.remote.stop();
    }

    /// `ponderhit` (see [`SearchRemote::ponderhit`]).
    pub fn ponderhit(&self) {
        self.remote.ponderhit();
    }

    /// Waits until the last search has answered and its callback returned,
    /// and gives its result (`Ok(None)` when there was no search since the
    /// last wait). An infinite or ponder search waits for `stop` from elsewhere.
    pub fn wait(&mut self) -> Result<Option<SearchResult>, SearchError> {
        self.join()
    }

    fn join(&mut self) -> Result<Option<SearchResult>, SearchError> {
        let Some(worker) = self.worker.take() else {
            return Ok(None);
        };
        match worker.join() {
            Ok((engine, result)) => {
                self.engine = Some(engine);
                Ok(Some(result))
            }
            Err(_) => {
                self.remote.0.lock().running = false;
                self.engine = Some(self.fresh_engine());
                Err(SearchError::ThreadFailed("the search panicked".into()))
            }
        }
    }

    /// Searches and waits: [`go`](SearchThread::go) then
    /// [`wait`](SearchThread::wait), with `on_info` called on the caller's
    /// thread (so it may borrow). [`SearchRemote::stop`] from elsewhere ends
    /// it early.
    pub fn search(
        &mut self,
        root: Position,
        history: Vec<Position>,
        limits: Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> Result<SearchResult, SearchError> {
        let (sender, receiver) = std::sync::mpsc::channel();
        self.go(root, history, limits, move |event| {
            // The receiver lives until the answer came.
            let _ = sender.send(event);
        })?;
        for event in receiver {
            if let SearchEvent::Info(info) = event {
                on_info(&info);
            }
        }
        // The channel closes when the thread ends, answered or panicked.
        self.join()?
            .ok_or_else(|| SearchError::ThreadFailed("the search did not answer".into()))
    }

    /// The idle engine, for its settings: stops a running search and waits for it.
    pub fn engine(&mut self) -> &mut Engine {
        self.stop();
        // A failed search has been replaced by a fresh engine: that is the one.
        let _ = self.join();
        let engine = self.take_engine();
        self.engine.insert(engine)
    }

    /// Stops any search and gives the engine back.
    pub fn into_engine(mut self) -> Engine {
        self.stop();
        let _ = self.join();
        self.take_engine()
    }

    fn take_engine(&mut self) -> Engine {
        self.engine.take().unwrap_or_else(|| self.fresh_engine())
    }

    fn fresh_engine(&self) -> Engine {
        let mut engine = Engine::new(self.hash_mb);
        engine.set_threads(self.threads);
        engine
    }
}

impl Drop for SearchThread {
    fn drop(&mut self) {
        self.stop();
        let _ = self.join();
    }
}
