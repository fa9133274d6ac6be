//! Using every core on a corpus: an ordered parallel map. Items are read on
//! the calling thread in batches of a few per worker, worked on by `jobs`
//! scoped threads and handed back in input order, so a command's output is
//! the same whatever `--jobs` says. Memory is bounded by the batch.

use std::thread;

use anyhow::{bail, Result};

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
    // Batches of a few items per worker: each worker takes every n-th item
    // of the batch; the batch is written in order before the next is read.
    let n = workers.len();
    let mut workers = workers;
    let work = &work;
    loop {
        let batch: Vec<T> = items.by_ref().take(IN_FLIGHT_PER_WORKER * n).collect();
        if batch.is_empty() {
            return Ok(());
        }
        let mut slots: Vec<Vec<(usize, T)>> = (0..n).map(|_| Vec::new()).collect();
        for (i, item) in batch.into_iter().enumerate() {
            slots[i % n].push((i, item));
        }
        let answers: Vec<Vec<(usize, R)>> = thread::scope(|scope| {
            let handles: Vec<_> = workers
                .iter_mut()
                .zip(slots)
                .map(|(state, slot)| {
                    scope.spawn(move || {
                        slot.into_iter()
                            .map(|(i, item)| (i, work(state, item)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join())
                .collect::<Result<_, _>>()
        })
        .map_err(|_| anyhow::anyhow!("a worker failed"))?;
        let mut ordered: Vec<(usize, R)> = answers.into_iter().flatten().collect();
        ordered.sort_by_key(|(i, _)| *i);
        for (_, answer) in ordered {
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
