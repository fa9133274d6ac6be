//! Scores the data's positions with a stronger engine (`--teacher`), on as
//! many engine processes as there are threads; the fit then blends those
//! scores into its targets (`xiangqi_search::tune::fit`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Score, SearchOptions};
use xiangqi_search::tune::{Sample, TEACHER_MATE_CP};

/// Longest a teacher may take over one position at a fixed depth.
const POSITION_TIMEOUT: Duration = Duration::from_secs(60);

/// Fills in `teacher_cp` of every sample: the teacher's score at `depth`,
/// Red's view. Calls `progress(done)` as positions are scored. Any engine
/// failure stops the labelling with an error naming the position.
pub fn label(
    samples: &mut [Sample],
    spec: &EngineSpec,
    depth: u32,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Result<()> {
    let done = AtomicUsize::new(0);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks_mut(chunk)
            .map(|part| {
                let (done, progress) = (&done, &progress);
                scope.spawn(move || -> Result<()> {
                    let mut engine = Engine::start(spec, None)
                        .with_context(|| format!("cannot start the teacher `{}`", spec.command))?;
                    let mut options = SearchOptions::new(Limit::Depth(depth));
                    options.timeout = Some(POSITION_TIMEOUT);
                    for sample in part {
                        let analysis =
                            engine
                                .search(&sample.position, &[], options)
                                .with_context(|| {
                                    format!("the teacher failed on {}", sample.position.to_fen())
                                })?;
                        let evaluation = analysis.evaluation().ok_or_else(|| {
                            anyhow!("the teacher gave no score for {}", sample.position.to_fen())
                        })?;
                        sample.teacher_cp = Some(match evaluation.for_red(analysis.turn).score {
                            Score::Cp(cp) => cp.clamp(-TEACHER_MATE_CP, TEACHER_MATE_CP),
                            Score::Mate(n) if n > 0 => TEACHER_MATE_CP,
                            Score::Mate(_) => -TEACHER_MATE_CP,
                        });
                        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    }
                    engine.quit();
                    Ok(())
                })
            })
            .collect();
        // The scope joins every thread anyway; the first error is the one reported.
        workers.into_iter().try_for_each(|w| {
            w.join()
                .unwrap_or_else(|_| Err(anyhow!("a teacher thread panicked")))
        })
    })
}
