//! The engine slots: how many searches run at once (`--engine-threads`),
//! and who gets the next free one. Each slot owns one engine (its hash
//! table), so the engine's memory is bounded by the slot count, not by the
//! number of games. Waiting searches are served round-robin by owner (the
//! player a search is for), so one player's searches never queue ahead of
//! another's; and while anyone waits, a running search is stopped once it
//! has had its [`SLICE`] (it plays the best move found so far), so a long
//! think cannot hold a slot from the others.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::time::Instant;
use xiangqi_search::{Engine, SearchRemote};

/// The transposition table of each slot's engine, in MiB: the whole
/// engine memory of the server is about this times the slot count.
pub const SLOT_HASH_MB: usize = 16;
/// How long a search may keep its slot while another search waits.
pub const SLICE: Duration = Duration::from_secs(1);

/// One search's stop switch, shared by its game's room (which cancels it
/// when the game ends) and the slots (which cut it short for a waiter).
#[derive(Debug, Default)]
pub struct SearchControl {
    state: Mutex<ControlState>,
}

#[derive(Debug, Default)]
struct ControlState {
    cancelled: bool,
    running: Option<SearchRemote>,
    /// The slots stopped the running search for a waiter.
    cut_short: bool,
}

impl SearchControl {
    fn lock(&self) -> MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The search is no longer wanted: it does not start, or stops now.
    pub fn cancel(&self) {
        let mut state = self.lock();
        state.cancelled = true;
        if let Some(stop) = &state.running {
            stop.stop();
        }
    }

    /// True once [`SearchControl::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.lock().cancelled
    }

    /// Stops the running search early (it answers with its best move so far).
    fn cut_short(&self) {
        let mut state = self.lock();
        if let Some(stop) = &state.running {
            stop.stop();
            state.cut_short = true;
        }
    }

    /// Whether the slots stopped the last search for a waiter (an analysis
    /// then queues again for the rest of its time).
    pub fn was_cut_short(&self) -> bool {
        self.lock().cut_short
    }

    /// The search of `stop` has started: false if it was cancelled (the
    /// caller then stops it).
    pub fn begin(&self, stop: SearchRemote) -> bool {
        let mut state = self.lock();
        if state.cancelled {
            return false;
        }
        state.running = Some(stop);
        state.cut_short = false;
        true
    }

    /// The search is over: nothing is left to stop (a stop reaches only
    /// the search running when it is sent, never the engine's next one).
    pub fn end(&self) {
        self.lock().running = None;
    }
}

struct Waiter {
    ticket: u64,
    control: Arc<SearchControl>,
    grant: oneshot::Sender<Slot>,
}

struct Running {
    owner: String,
    started: Instant,
    control: Arc<SearchControl>,
    cut_scheduled: bool,
}

#[derive(Default)]
struct Inner {
    idle: Vec<Engine>,
    running: HashMap<u64, Running>,
    /// Owners with waiting searches, in the order they are served.
    turn: VecDeque<String>,
    queues: HashMap<String, VecDeque<Waiter>>,
    next_ticket: u64,
    runtime: Option<Handle>,
}

/// The server's engine slots.
pub struct EngineSlots {
    inner: Mutex<Inner>,
    count: usize,
}

impl std::fmt::Debug for EngineSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineSlots")
            .field("count", &self.count)
            .field("running", &self.running())
            .finish_non_exhaustive()
    }
}

impl EngineSlots {
    /// `count` slots (at least one), each with its engine.
    pub fn new(count: usize) -> Arc<EngineSlots> {
        let count = count.max(1);
        let idle = (0..count).map(|_| Engine::new(SLOT_HASH_MB)).collect();
        Arc::new(EngineSlots {
            inner: Mutex::new(Inner {
                idle,
                ..Inner::default()
            }),
            count,
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many slots there are.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Searches holding a slot now.
    pub fn running(&self) -> usize {
        self.lock().running.len()
    }

    /// Searches waiting for a slot now.
    pub fn waiting(&self) -> usize {
        self.lock().queues.values().map(VecDeque::len).sum()
    }

    /// Waits for a slot for a search of `owner`, behind the searches of
    /// owners served less recently. Dropping the future leaves the queue.
    /// `None` only if the slots went away meanwhile.
    pub async fn acquire(
        self: &Arc<Self>,
        owner: &str,
        control: Arc<SearchControl>,
    ) -> Option<Slot> {
        let (grant, granted) = oneshot::channel();
        let ticket = {
            let mut inner = self.lock();
            inner.runtime.get_or_insert_with(Handle::current);
            let ticket = inner.next_ticket;
            inner.next_ticket += 1;
            let queue = inner.queues.entry(owner.to_string()).or_default();
            queue.push_back(Waiter {
                ticket,
                control,
                grant,
            });
            if queue.len() == 1 {
                inner.turn.push_back(owner.to_string());
            }
            self.dispatch(&mut inner);
            ticket
        };
        let mut queued = Queued {
            slots: self,
            owner,
            ticket,
            done: false,
        };
        let slot = granted.await.ok();
        queued.done = true;
        slot
    }

    /// Hands idle engines to waiting searches, owner by owner; then gives
    /// each running search a deadline if anyone still waits.
    fn dispatch(self: &Arc<Self>, inner: &mut Inner) {
        while !inner.idle.is_empty() {
            let Some(owner) = inner.turn.pop_front() else {
                break;
            };
            let Some(queue) = inner.queues.get_mut(&owner) else {
                continue;
            };
            let Some(waiter) = queue.pop_front() else {
                inner.queues.remove(&owner);
                continue;
            };
            if queue.is_empty() {
                inner.queues.remove(&owner);
            } else {
                inner.turn.push_back(owner.clone());
            }
            let Some(engine) = inner.idle.pop() else {
                break;
            };
            let slot = Slot {
                slots: self.clone(),
                ticket: waiter.ticket,
                engine: Some(engine),
                released: false,
            };
            inner.running.insert(
                waiter.ticket,
                Running {
                    owner,
                    started: Instant::now(),
                    control: waiter.control,
                    cut_scheduled: false,
                },
            );
            if let Err(mut slot) = waiter.grant.send(slot) {
                // The waiter went away in the meantime: the engine is idle again.
                inner.running.remove(&slot.ticket);
                if let Some(engine) = slot.engine.take() {
                    inner.idle.push(engine);
                }
                slot.released = true;
            }
        }
        if inner.turn.is_empty() {
            return;
        }
        let Some(runtime) = inner.runtime.clone() else {
            return;
        };
        for running in inner.running.values_mut() {
            if running.cut_scheduled {
                continue;
            }
            running.cut_scheduled = true;
            let (control, due) = (running.control.clone(), running.started + SLICE);
            runtime.spawn(async move {
                tokio::time::sleep_until(due).await;
                control.cut_short();
            });
        }
    }

    fn release(self: &Arc<Self>, ticket: u64, engine: Option<Engine>) {
        let mut inner = self.lock();
        inner.running.remove(&ticket);
        // An engine lost to a panicking search is replaced, keeping the count.
        inner
            .idle
            .push(engine.unwrap_or_else(|| Engine::new(SLOT_HASH_MB)));
        self.dispatch(&mut inner);
    }

    fn leave_queue(&self, owner: &str, ticket: u64) {
        let mut inner = self.lock();
        if let Some(queue) = inner.queues.get_mut(owner) {
            queue.retain(|w| w.ticket != ticket);
            if queue.is_empty() {
                inner.queues.remove(owner);
                inner.turn.retain(|o| o != owner);
            }
        }
    }

    /// The owners of the running searches (for tests and logs).
    pub fn running_owners(&self) -> Vec<String> {
        self.lock()
            .running
            .values()
            .map(|r| r.owner.clone())
            .collect()
    }
}

/// A place in the queue; leaving it (the future dropped) takes the waiter out.
struct Queued<'a> {
    slots: &'a Arc<EngineSlots>,
    owner: &'a str,
    ticket: u64,
    done: bool,
}

impl Drop for Queued<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.slots.leave_queue(self.owner, self.ticket);
        }
    }
}

/// A slot held: its engine, given back when the slot is dropped.
pub struct Slot {
    slots: Arc<EngineSlots>,
    ticket: u64,
    engine: Option<Engine>,
    released: bool,
}

impl Slot {
    /// The slot's engine (taken out for a search, put back with [`Slot::put_back`]).
    pub fn take_engine(&mut self) -> Option<Engine> {
        self.engine.take()
    }

    /// Gives the engine back to the slot.
    pub fn put_back(&mut self, engine: Engine) {
        self.engine = Some(engine);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if !self.released {
            self.released = true;
            self.slots.release(self.ticket, self.engine.take());
        }
    }
}

#[cfg(test)]
mod tests {
    use xiangqi_core::Position;
    use xiangqi_search::{Limits, SearchThread};

    use super::*;

    fn control() -> Arc<SearchControl> {
        Arc::new(SearchControl::default())
    }

    #[tokio::test]
    async fn waiting_searches_are_served_round_robin_by_owner() {
        let slots = EngineSlots::new(1);
        let held = slots.acquire("x", control()).await.expect("a slot");
        let (order_tx, mut order) = tokio::sync::mpsc::unbounded_channel();
        // Player a queues three searches before player b queues one.
        for owner in ["a", "a", "a", "b"] {
            let (slots, order_tx) = (slots.clone(), order_tx.clone());
            tokio::spawn(async move {
                let slot = slots.acquire(owner, control()).await;
                let _ = order_tx.send(owner);
                drop(slot);
            });
            tokio::task::yield_now().await;
        }
        assert_eq!(slots.waiting(), 4);
        drop(held);
        let mut served = Vec::new();
        for _ in 0..4 {
            served.push(order.recv().await.expect("served"));
        }
        assert_eq!(served, ["a", "b", "a", "a"]);
        assert_eq!((slots.running(), slots.waiting()), (0, 0));
    }

    /// An infinite search on `thread`: it answers only when stopped.
    fn search_until_stopped(thread: &mut SearchThread) -> SearchRemote {
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        thread
            .go(Position::startpos(), Vec::new(), infinite, |_| {})
            .expect("an idle engine");
        thread.remote()
    }

    /// Waits (real time, as the searches run) until the search of `remote`
    /// has stopped, for at most a generous bound; whether it did.
    async fn stopped_within(remote: &SearchRemote, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while remote.is_searching() && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        !remote.is_searching()
    }

    #[tokio::test]
    async fn a_search_is_cut_short_after_its_slice_only_while_another_waits() {
        let slots = EngineSlots::new(1);
        let mut thread = SearchThread::new(Engine::new(1));
        let long = control();
        let mut slot = slots.acquire("greedy", long.clone()).await.expect("slot");
        assert!(slot.take_engine().is_some());
        let remote = search_until_stopped(&mut thread);
        assert!(long.begin(remote.clone()));
        // Nobody waits: the search may think as long as its clock allows.
        assert!(!stopped_within(&remote, SLICE + SLICE / 2).await);
        // Someone waits: the search's slice (from its start) is over.
        let waiter = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.acquire("victim", control()).await.is_some() })
        };
        assert!(stopped_within(&remote, SLICE * 20).await);
        long.end();
        let next = thread
            .search(Position::startpos(), Vec::new(), Limits::depth(3), |_| {})
            .unwrap();
        assert_eq!(next.depth, 3, "the next search starts clean");
        drop(slot);
        assert!(waiter.await.unwrap());
        assert_eq!(slots.running_owners(), Vec::<String>::new());
    }

    #[tokio::test]
    async fn a_search_that_stops_waiting_leaves_the_queue() {
        let slots = EngineSlots::new(1);
        let held = slots.acquire("x", control()).await.expect("a slot");
        let waiting = {
            let slots = slots.clone();
            tokio::spawn(async move { slots.acquire("y", control()).await.is_some() })
        };
        tokio::task::yield_now().await;
        assert_eq!(slots.waiting(), 1);
        waiting.abort();
        let _ = waiting.await;
        assert_eq!(slots.waiting(), 0);
        drop(held);
        assert_eq!(slots.running(), 0);
        // The engine came back: the next search gets the slot at once.
        assert!(slots.acquire("z", control()).await.is_some());
    }

    #[test]
    fn a_cancelled_search_never_starts_and_a_running_one_stops() {
        let mut thread = SearchThread::new(Engine::new(1));
        let cancelled = SearchControl::default();
        cancelled.cancel();
        assert!(!cancelled.begin(thread.remote()));
        let running = SearchControl::default();
        let remote = search_until_stopped(&mut thread);
        assert!(running.begin(remote.clone()));
        running.cancel();
        assert!(running.is_cancelled());
        // An infinite search answers only when stopped.
        let answer = thread.wait().unwrap().expect("the stopped search's answer");
        assert!(answer.best_move.is_some() && !remote.is_searching());
    }
}
