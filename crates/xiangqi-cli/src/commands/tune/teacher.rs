//! Scores the data's positions with a stronger engine (`--teacher`), on as
//! many engine processes as there are threads (`xiangqi_parallel`'s ordered
//! map); the fit then blends those scores into its targets
//! (`xiangqi_search::tune::fit`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Score, SearchOptions};
use xiangqi_search::tune::{Sample, TEACHER_MATE_CP};

/// Longest a teacher may take over one position at a fixed depth.
const POSITION_TIMEOUT: Duration = Duration::from_secs(60);

/// A teacher process, asked to quit when its run of positions is over,
/// however it ends.
struct Teacher(Option<Engine>);

impl Teacher {
    fn engine(&mut self) -> &mut Engine {
        self.0
            .as_mut()
            .expect("a teacher's engine is there until it is dropped")
    }
}

impl Drop for Teacher {
    fn drop(&mut self) {
        if let Some(engine) = self.0.take() {
            engine.quit();
        }
    }
}

/// The teacher's score of `sample`'s position at `options`, Red's view,
/// mates as ±[`TEACHER_MATE_CP`].
fn score(engine: &mut Engine, sample: &Sample, options: SearchOptions) -> Result<i32> {
    let analysis = engine
        .search(&sample.position, &[], options)
        .with_context(|| format!("the teacher failed on {}", sample.position.to_fen()))?;
    let evaluation = analysis
        .evaluation()
        .ok_or_else(|| anyhow!("the teacher gave no score for {}", sample.position.to_fen()))?;
    Ok(match evaluation.for_red(analysis.turn).score {
        Score::Cp(cp) => cp.clamp(-TEACHER_MATE_CP, TEACHER_MATE_CP),
        Score::Mate(n) if n > 0 => TEACHER_MATE_CP,
        Score::Mate(_) => -TEACHER_MATE_CP,
    })
}

/// Fills in `teacher_cp` of every sample: the teacher's score at `depth`,
/// Red's view. Calls `progress(done)` as positions are scored. Any engine
/// failure stops the labelling with an error naming the position (the
/// first such position in input order).
///
/// The samples are cut into one run of positions per thread, each scored
/// in order by a teacher of its own: a teacher's scores depend on what it
/// searched before (its hash table), so a run is never split between two.
pub fn label(
    samples: &mut [Sample],
    spec: &EngineSpec,
    depth: u32,
    threads: usize,
    progress: impl Fn(usize) + Sync,
) -> Result<()> {
    let mut options = SearchOptions::new(Limit::depth(depth));
    options.timeout = Some(POSITION_TIMEOUT);
    let done = AtomicUsize::new(0);
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let runs = samples.chunks_mut(chunk);
    let workers = vec![(); runs.len()];
    xiangqi_parallel::ordered_map_with(
        workers,
        runs,
        |_, run| -> Result<()> {
            let engine = Engine::start(spec, None)
                .with_context(|| format!("cannot start the teacher `{}`", spec.command))?;
            let mut teacher = Teacher(Some(engine));
            for sample in run {
                sample.teacher_cp = Some(score(teacher.engine(), sample, options)?);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
            }
            Ok(())
        },
        |scored| scored,
    )
}
