//! One analysis's life: it waits for an engine slot as a search of its
//! player, searches on the slot's engine until its time is up, and when
//! the slots cut it short for a waiting search (after their slice) it
//! queues again for the rest of its time, so a long analysis takes turns
//! with games and reviews. Reports go out at most every
//! [`REPORT_EVERY`](super::REPORT_EVERY).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use xiangqi_search::{Limits, SearchThread};

use super::frame::{report, Progress};
use super::position::Checked;
use super::{Analyses, REPORT_EVERY, TIME_CAP};
use crate::engine_slots::{SearchControl, Slot};

/// What one analysis needs.
pub struct Job {
    pub(super) analyses: Arc<Analyses>,
    pub(super) player: String,
    pub(super) id: String,
    pub(super) checked: Checked,
    pub(super) lines: usize,
    pub(super) control: Arc<SearchControl>,
}

impl Job {
    fn send(&self, progress: &Progress, done: bool) {
        let notation = self.analyses.hub.notation_of(&self.player);
        let frame = report(&self.id, &self.checked.end, progress, notation, done);
        if done {
            self.analyses.finished(&self.player, &self.id, frame);
        } else {
            self.analyses.report(&self.player, &self.id, frame);
        }
    }
}

/// Runs `job` until its time is up, its search ends, or it is cancelled
/// (then it sends nothing more: whoever cancelled it said why).
pub async fn run(job: Job) {
    let progress = Arc::new(Mutex::new(Progress::default()));
    let mut spent = Duration::ZERO;
    let mut sent_version = 0;
    while spent < TIME_CAP {
        let slots = job.analyses.slots.clone();
        let Some(slot) = slots.acquire(&job.player, job.control.clone()).await else {
            return;
        };
        if job.control.is_cancelled() {
            return;
        }
        let search = {
            let (checked, control, progress) =
                (job.checked.clone(), job.control.clone(), progress.clone());
            let (lines, time) = (job.lines, TIME_CAP - spent);
            tokio::task::spawn_blocking(move || {
                search(slot, &checked, lines, time, &control, &progress)
            })
        };
        tokio::pin!(search);
        let mut tick = tokio::time::interval(REPORT_EVERY);
        let outcome = loop {
            tokio::select! {
                outcome = &mut search => break outcome,
                _ = tick.tick() => {
                    let news = {
                        let progress = lock(&progress);
                        (progress.version != sent_version).then(|| progress.clone())
                    };
                    if let Some(news) = news {
                        sent_version = news.version;
                        job.send(&news, false);
                    }
                }
            }
        };
        let Ok(outcome) = outcome else {
            tracing::error!("analysis {}: the search failed", job.id);
            break;
        };
        spent += outcome.took;
        if job.control.is_cancelled() {
            return;
        }
        if !outcome.cut_short {
            break;
        }
    }
    let last = lock(&progress).clone();
    job.send(&last, true);
}

fn lock(progress: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    progress.lock().unwrap_or_else(|p| p.into_inner())
}

/// How one search on a slot went.
struct Outcome {
    took: Duration,
    /// The slots stopped it for a waiter before its time was up.
    cut_short: bool,
}

/// One search on `slot`'s engine for at most `time`, on a blocking thread;
/// its iterations go into `progress`.
fn search(
    mut slot: Slot,
    checked: &Checked,
    lines: usize,
    time: Duration,
    control: &SearchControl,
    progress: &Arc<Mutex<Progress>>,
) -> Outcome {
    let began = Instant::now();
    let not_run = Outcome {
        took: Duration::ZERO,
        cut_short: false,
    };
    let Some(mut engine) = slot.take_engine() else {
        return not_run;
    };
    // A slot's engine serves games at any level too: analysis is at full strength.
    engine.set_skill(None);
    let limits = Limits {
        move_time: Some(time),
        move_overhead: Some(Duration::ZERO),
        multi_pv: lines,
        ..Limits::default()
    };
    let wanted = lines.clamp(
        1,
        crate::analysis::position::legal_moves(&checked.end)
            .len()
            .max(1),
    );
    let mut thread = SearchThread::new(engine);
    let sink = progress.clone();
    let started = thread.go(
        checked.end.clone(),
        checked.history.clone(),
        limits,
        move |event| {
            if let xiangqi_search::SearchEvent::Info(info) = event {
                sink.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .add(&info, wanted);
            }
        },
    );
    if started.is_err() {
        slot.put_back(thread.into_engine());
        return not_run;
    }
    if !control.begin(thread.remote()) {
        thread.stop();
    }
    let _ = thread.wait();
    control.end();
    let cut_short = control.was_cut_short() && !control.is_cancelled();
    slot.put_back(thread.into_engine());
    lock(progress).search_ended();
    Outcome {
        took: began.elapsed(),
        cut_short,
    }
}
