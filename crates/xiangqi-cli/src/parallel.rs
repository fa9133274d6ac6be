//! Using every core on a corpus: an ordered parallel map. Items are read on
//! the calling thread and queued; `jobs` scoped threads each take the next
//! queued item as soon as they are free (no worker waits for another), and
//! the calling thread hands the answers back in input order, so a
//! command's output is the same whatever `--jobs` says. Memory is bounded
//! by a window of items in flight past the last answer handed back.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

use anyhow::{anyhow, bail, Result};

/// The help of every corpus command's `--jobs` flag.
pub const JOBS_HELP: &str =
    "Games worked on at once, one thread each; output stays in input order (0: one per core)";

/// Threads for `--jobs N`: `N`, or one per core for 0.
pub fn worker_count(jobs: usize) -> usize {
    match jobs {
        0 => thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// Items in flight per worker: enough to keep every worker busy while the
/// next answer in order is late, few enough to bound memory.
const IN_FLIGHT_PER_WORKER: usize = 64;

/// Calls `work` on every item of `items` on `worker_count(jobs)` threads and
/// `sink` on the answers in input order. With one worker everything runs
/// on the calling thread. An error of `sink` stops the map (the items not
/// yet read stay unread) and is returned.
pub fn ordered_map<T, R>(
    jobs: usize,
    items: impl Iterator<Item = T>,
    work: impl Fn(T) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<()>
where
    T: Send,
    R: Send,
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
pub fn ordered_map_with<W, T, R>(
    workers: Vec<W>,
    mut items: impl Iterator<Item = T>,
    work: impl Fn(&mut W, T) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<()>,
) -> Result<()>
where
    W: Send,
    T: Send,
    R: Send,
{
    if workers.len() <= 1 {
        let mut state = workers.into_iter().next();
        for item in items {
            let answer = match state.as_mut() {
                Some(state) => work(state, item),
                None => bail!("no worker to do the work"),
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
            Ok(()) if died => Err(anyhow!("a worker failed")),
            outcome => outcome,
        }
    })
}

/// The calling thread's part: fills the queue with items up to `window`
/// past the next answer due, then waits until the next answer and the one
/// half a window further are in (a wake-up per half window, not per item)
/// and hands the answers to `sink` in order.
fn feed_and_sink<T, R>(
    shared: &Shared<T, R>,
    window: usize,
    items: &mut impl Iterator<Item = T>,
    sink: &mut impl FnMut(R) -> Result<()>,
) -> Result<()> {
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
            // The next answer too: the half-window one may come before it.
            while let Some(missing) = [awaited, next]
                .into_iter()
                .find(|i| !queue.done.contains_key(i))
            {
                if queue.stop {
                    break;
                }
                queue.awaited = Some(missing);
                queue = shared
                    .to_caller
                    .wait(queue)
                    .unwrap_or_else(|e| e.into_inner());
            }
            queue.awaited = None;
            if queue.stop {
                bail!("a worker failed");
            }
            std::iter::from_fn(|| queue.done.remove(&next).inspect(|_| next += 1)).collect()
        };
        for answer in ready {
            sink(answer)?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                Ok(())
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
                    bail!("stop at {x}");
                }
                Ok(())
            },
        );
        assert_eq!(outcome.unwrap_err().to_string(), "stop at 10");
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
                Ok(())
            },
        );
        assert_eq!(outcome.unwrap_err().to_string(), "a worker failed");
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
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(total, 300);
    }
}
