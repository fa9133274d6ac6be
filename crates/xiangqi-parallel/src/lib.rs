//! The workspace's one worker pool: an ordered parallel map. Items are read
//! on the calling thread and queued; worker threads, each with its own
//! state (an engine process, a search, a file reader), take the next queued
//! item as soon as they are free (no worker waits for another), and the
//! calling thread hands the answers back in input order, so a front end's
//! output is the same whatever its `--jobs` says. Memory is bounded by a
//! window of items in flight past the last answer handed back.
//!
//! Every pool of the workspace is this map: the corpus commands use it
//! through `xiangqi_gamefile::corpus`; the CLI's collections, `analyze
//! --pgn` (an engine process per worker), `match` (a pair of engine
//! processes per worker) and the tuner's teacher (a run of positions per
//! teacher process) directly; the tuner's self-play through
//! `xiangqi_search::tune` (two searches per worker). It depends on no
//! workspace crate so that every crate may use it; "0 means one per core"
//! is decided here ([`worker_count`]) and nowhere else.
//!
//! ```
//! use xiangqi_parallel::{ordered_collect, PoolError};
//!
//! #[derive(Debug)]
//! enum Error {
//!     Odd(u32),
//!     Pool(PoolError),
//! }
//! impl From<PoolError> for Error {
//!     fn from(e: PoolError) -> Error {
//!         Error::Pool(e)
//!     }
//! }
//!
//! // Two workers, each counting the items it did; answers in input order.
//! let squares = ordered_collect(vec![0u32; 2], 0..100u32, |done, x| {
//!     *done += 1;
//!     Ok::<_, Error>(x * x)
//! }, |_, _| {});
//! assert_eq!(squares.unwrap()[9], 81);
//!
//! // The first error in input order, whichever worker met an error first.
//! let failed = ordered_collect(vec![(); 2], 0..100u32, |_, x| {
//!     if x % 2 == 1 { Err(Error::Odd(x)) } else { Ok(x) }
//! }, |_, _| {});
//! assert!(matches!(failed, Err(Error::Odd(1))));
//! ```

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// What goes wrong in the pool itself, whatever the work: callers' error
/// types convert from it (`E: From<PoolError>`), so the map returns the
/// caller's own error type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The map was given no worker state at all.
    #[error("no worker to do the work")]
    NoWorkers,
    /// A worker panicked: its answer will never come.
    #[error("a worker failed")]
    WorkerDied,
}

/// Threads for `--jobs N` (or `jobs=N`): `N`, or one per core for 0.
pub fn worker_count(jobs: usize) -> usize {
    match jobs {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Items in flight per worker: enough to keep every worker busy while the
/// next answer in order is late, few enough to bound memory.
const IN_FLIGHT_PER_WORKER: usize = 64;

/// How long an answer that is next in order may wait for the half window
/// the caller batches: fast items are handed over a half window at a time,
/// slow ones (a match's games, minutes each) one by one as they come.
const HAND_OVER_LATENCY: Duration = Duration::from_millis(100);

/// Calls `work` on every item of `items` on `worker_count(jobs)` threads and
/// `sink` on the answers in input order. With one worker everything runs
/// on the calling thread. An error of `sink` stops the map (the items not
/// yet read stay unread) and is returned.
pub fn ordered_map<T, R, E>(
    jobs: usize,
    items: impl Iterator<Item = T>,
    work: impl Fn(T) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    R: Send,
    E: From<PoolError>,
{
    let workers = vec![(); worker_count(jobs)];
    ordered_map_with(workers, items, |_, item| work(item), sink)
}

/// What the calling thread and the workers share.
struct Queue<T, R> {
    /// Items read and not yet taken, with their index in the input.
    pending: VecDeque<(usize, T)>,
    /// Answers not yet handed to the sink, by index.
    done: BTreeMap<usize, R>,
    /// The index of the answer the calling thread waits for, while it waits.
    awaited: Option<usize>,
    /// Workers waiting for an item.
    idle: usize,
    /// No item will come any more.
    closed: bool,
    /// The sink failed or a worker died: everyone stops.
    stop: bool,
}

/// The queue and the signals of its changes: to the workers (an item, or
/// the end) and to the calling thread (the awaited answer, or a death).
struct Shared<T, R> {
    queue: Mutex<Queue<T, R>>,
    to_workers: Condvar,
    to_caller: Condvar,
}

impl<T, R> Shared<T, R> {
    fn lock(&self) -> MutexGuard<'_, Queue<T, R>> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Ends the map for everyone (a sink error, a worker's death).
    fn stop(&self) {
        self.lock().stop = true;
        self.to_workers.notify_all();
        self.to_caller.notify_all();
    }
}

/// Stops everyone when a worker dies (a panic), so that nobody waits for
/// the answer it held.
struct StopOnPanic<'a, T, R>(&'a Shared<T, R>);

impl<T, R> Drop for StopOnPanic<'_, T, R> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

/// [`ordered_map`] with one state per worker (an engine process, a
/// buffer): `workers.len()` threads, each calling `work` with its own state.
/// With one worker everything runs on the calling thread; with none the
/// map fails with [`PoolError::NoWorkers`]. A worker that panics stops the
/// map with [`PoolError::WorkerDied`].
pub fn ordered_map_with<W, T, R, E>(
    workers: Vec<W>,
    mut items: impl Iterator<Item = T>,
    work: impl Fn(&mut W, T) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    W: Send,
    T: Send,
    R: Send,
    E: From<PoolError>,
{
    if workers.len() <= 1 {
        let mut state = workers.into_iter().next();
        for item in items {
            let answer = match state.as_mut() {
                Some(state) => work(state, item),
                None => return Err(PoolError::NoWorkers.into()),
            };
            sink(answer)?;
        }
        return Ok(());
    }
    let window = IN_FLIGHT_PER_WORKER * workers.len();
    let shared = Shared {
        queue: Mutex::new(Queue {
            pending: VecDeque::new(),
            done: BTreeMap::new(),
            awaited: None,
            idle: 0,
            closed: false,
            stop: false,
        }),
        to_workers: Condvar::new(),
        to_caller: Condvar::new(),
    };
    let (shared, work) = (&shared, &work);
    let worker = move |state: &mut W| {
        let _stop_on_panic = StopOnPanic(shared);
        loop {
            let (index, item) = {
                let mut queue = shared.lock();
                loop {
                    if queue.stop {
                        return;
                    }
                    if let Some(next) = queue.pending.pop_front() {
                        break next;
                    }
                    if queue.closed {
                        return;
                    }
                    queue.idle += 1;
                    queue = shared
                        .to_workers
                        .wait(queue)
                        .unwrap_or_else(|e| e.into_inner());
                    queue.idle -= 1;
                }
            };
            let answer = work(state, item);
            let mut queue = shared.lock();
            queue.done.insert(index, answer);
            if queue.awaited == Some(index) {
                shared.to_caller.notify_one();
            }
        }
    };
    thread::scope(|scope| {
        let handles: Vec<_> = workers
            .into_iter()
            .map(|mut state| scope.spawn(move || worker(&mut state)))
            .collect();
        let outcome = feed_and_sink(shared, window, &mut items, &mut sink);
        if outcome.is_err() {
            shared.stop();
        } else {
            shared.lock().closed = true;
            shared.to_workers.notify_all();
        }
        let died = handles.into_iter().any(|h| h.join().is_err());
        match outcome {
            Ok(()) if died => Err(PoolError::WorkerDied.into()),
            outcome => outcome,
        }
    })
}

/// The calling thread's part: fills the queue with items up to `window`
/// past the next answer due, then waits until the next answer and the one
/// half a window further are in (a wake-up per half window, not per item),
/// or until the next answer has waited [`HAND_OVER_LATENCY`], and hands
/// the answers ready in order to `sink`.
fn feed_and_sink<T, R, E: From<PoolError>>(
    shared: &Shared<T, R>,
    window: usize,
    items: &mut impl Iterator<Item = T>,
    sink: &mut impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let (mut read, mut next) = (0, 0);
    let mut exhausted = false;
    loop {
        while !exhausted && read - next < window {
            match items.next() {
                Some(item) => {
                    let mut queue = shared.lock();
                    queue.pending.push_back((read, item));
                    if queue.idle > 0 {
                        shared.to_workers.notify_one();
                    }
                    read += 1;
                }
                None => {
                    exhausted = true;
                    shared.lock().closed = true;
                    shared.to_workers.notify_all();
                }
            }
        }
        if next == read {
            return Ok(());
        }
        let ready: Vec<R> = {
            let awaited = read.min(next + window / 2) - 1;
            let mut queue = shared.lock();
            let mut next_since: Option<Instant> = None;
            // The next answer too: the half-window one may come before it.
            while let Some(missing) = [awaited, next]
                .into_iter()
                .find(|i| !queue.done.contains_key(i))
            {
                if queue.stop {
                    break;
                }
                if queue.done.contains_key(&next) {
                    let since = *next_since.get_or_insert_with(Instant::now);
                    if since.elapsed() >= HAND_OVER_LATENCY {
                        break;
                    }
                }
                queue.awaited = Some(missing);
                queue = shared
                    .to_caller
                    .wait_timeout(queue, HAND_OVER_LATENCY)
                    .map_or_else(|e| e.into_inner().0, |(queue, _)| queue);
            }
            queue.awaited = None;
            if queue.stop {
                return Err(PoolError::WorkerDied.into());
            }
            std::iter::from_fn(|| queue.done.remove(&next).inspect(|_| next += 1)).collect()
        };
        for answer in ready {
            sink(answer)?;
        }
    }
}

/// [`ordered_map_with`] for work that can fail, collecting the answers: the
/// answers in input order, or the first error in input order (the items
/// after it are not started once it is seen; those in flight are dropped).
/// `progress(done, answer)` sees each answer in input order as it is kept.
pub fn ordered_collect<W, T, R, E>(
    workers: Vec<W>,
    items: impl Iterator<Item = T>,
    work: impl Fn(&mut W, T) -> Result<R, E> + Sync,
    mut progress: impl FnMut(usize, &R),
) -> Result<Vec<R>, E>
where
    W: Send,
    T: Send,
    R: Send,
    E: Send + From<PoolError>,
{
    let mut answers = Vec::new();
    ordered_map_with(workers, items, work, |answer| -> Result<(), E> {
        let answer = answer?;
        progress(answers.len() + 1, &answer);
        answers.push(answer);
        Ok(())
    })?;
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tests' error: a message, as a caller's own error type would be.
    #[derive(Debug, PartialEq)]
    struct Failed(String);

    impl From<PoolError> for Failed {
        fn from(e: PoolError) -> Failed {
            Failed(e.to_string())
        }
    }

    fn squares(jobs: usize, n: u64) -> Vec<u64> {
        let mut out = Vec::new();
        ordered_map(
            jobs,
            0..n,
            |x| {
                // Uneven work, so answers come back out of order.
                if x % 7 == 0 {
                    thread::sleep(std::time::Duration::from_millis(2));
                }
                x * x
            },
            |y| {
                out.push(y);
                Ok::<(), Failed>(())
            },
        )
        .unwrap();
        out
    }

    #[test]
    fn answers_come_in_input_order_for_any_job_count() {
        let expected: Vec<u64> = (0..500).map(|x| x * x).collect();
        for jobs in [1, 2, 3, 8] {
            assert_eq!(squares(jobs, 500), expected, "jobs {jobs}");
        }
        assert!(squares(4, 0).is_empty());
    }

    #[test]
    fn a_sink_error_stops_the_map() {
        let mut seen = 0;
        let outcome = ordered_map(
            2,
            0..10_000u32,
            |x| x,
            |x| {
                seen += 1;
                if x == 10 {
                    return Err(Failed(format!("stop at {x}")));
                }
                Ok(())
            },
        );
        assert_eq!(outcome.unwrap_err(), Failed("stop at 10".into()));
        assert_eq!(seen, 11);
    }

    #[test]
    fn a_worker_that_dies_fails_the_map() {
        let mut seen = 0;
        let outcome = ordered_map(
            2,
            0..10_000u32,
            |x| {
                assert!(x != 300, "the worker dies on {x}");
                x
            },
            |_| {
                seen += 1;
                Ok::<(), Failed>(())
            },
        );
        assert_eq!(outcome.unwrap_err(), Failed("a worker failed".into()));
        assert!(seen <= 300, "{seen} answers sunk");
    }

    #[test]
    fn each_worker_keeps_its_state() {
        let mut total = 0;
        ordered_map_with(
            vec![0u32; 3],
            0..300u32,
            |count, _| {
                *count += 1;
                *count
            },
            |n| {
                total += usize::from(n >= 1);
                Ok::<(), Failed>(())
            },
        )
        .unwrap();
        assert_eq!(total, 300);
    }

    #[test]
    fn the_first_error_in_input_order_wins() {
        // Item 40 fails at once, item 3 only late: 3 is still the one reported.
        for jobs in [1, 2, 4] {
            let outcome = ordered_collect(
                vec![(); jobs],
                0..1_000u32,
                |_, x| match x {
                    3 => {
                        thread::sleep(std::time::Duration::from_millis(30));
                        Err(Failed(format!("item {x}")))
                    }
                    40 => Err(Failed(format!("item {x}"))),
                    x => Ok(x),
                },
                |_, _| {},
            );
            assert_eq!(outcome, Err(Failed("item 3".into())), "jobs {jobs}");
        }
    }

    #[test]
    fn collect_keeps_order_and_reports_progress_in_order() {
        let mut seen = Vec::new();
        let answers = ordered_collect(
            vec![(); 3],
            0..200u32,
            |_, x| Ok::<_, Failed>(x + 1),
            |done, &answer| seen.push((done, answer)),
        )
        .unwrap();
        assert_eq!(answers, (1..=200).collect::<Vec<_>>());
        assert_eq!(seen, (1..=200).map(|n| (n as usize, n)).collect::<Vec<_>>());
    }

    #[test]
    fn slow_answers_are_handed_over_as_they_come_not_a_half_window_at_a_time() {
        // Items from 10 on wait for the sink to have had answer 0; a map
        // that held answers back for a half window (64 a worker) would
        // leave them waiting. The timeout only keeps a broken map from
        // hanging the test.
        let sunk = (Mutex::new(false), Condvar::new());
        let waited_in_vain = std::sync::atomic::AtomicBool::new(false);
        ordered_map(
            2,
            0..20u32,
            |x| {
                if x >= 10 {
                    let (flag, changed) = &sunk;
                    let flag = flag.lock().unwrap();
                    let (_flag, wait) = changed
                        .wait_timeout_while(flag, Duration::from_secs(30), |sunk| !*sunk)
                        .unwrap();
                    if wait.timed_out() {
                        waited_in_vain.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
                x
            },
            |x| {
                if x == 0 {
                    *sunk.0.lock().unwrap() = true;
                    sunk.1.notify_all();
                }
                Ok::<(), Failed>(())
            },
        )
        .unwrap();
        assert!(!waited_in_vain.load(std::sync::atomic::Ordering::Relaxed));
    }

    #[test]
    fn no_worker_is_an_error() {
        let outcome = ordered_collect(
            Vec::<()>::new(),
            0..3u32,
            |_, x| Ok::<_, Failed>(x),
            |_, _| {},
        );
        assert_eq!(outcome, Err(Failed("no worker to do the work".into())));
    }

    #[test]
    fn zero_jobs_means_one_per_core() {
        assert!(worker_count(0) >= 1);
        assert_eq!(worker_count(3), 3);
    }
}
