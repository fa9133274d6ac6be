//! Time management: turns [`Limits`] into a soft target (do not start a new
//! iteration after it) and a hard deadline (abort the running iteration).
//! While a ponder search runs ([`Limits::ponder`]) neither applies; the clock
//! starts at [`PonderHandle::hit`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Limits;

/// Kept back on every move for the protocol round trip and process
/// scheduling when [`Limits::move_overhead`] is not set (UCI `Move Overhead`;
/// Pikafish and Stockfish default to 10 ms too).
pub const DEFAULT_MOVE_OVERHEAD: Duration = Duration::from_millis(10);
/// Largest `Move Overhead` accepted.
pub const MAX_MOVE_OVERHEAD: Duration = Duration::from_millis(5000);
/// Assumed number of moves left when the clock has no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 28;
/// Turns a running ponder search into a normal timed one (UCI `ponderhit`),
/// from another thread; see [`Engine::ponder_handle`](crate::Engine::ponder_handle).
/// A hit before the search started counts from the start; [`Engine::search`](crate::Engine::search)
/// clears the hit when it returns, and a caller that may see a late hit (after
/// the search answered) clears it with [`PonderHandle::reset`] before the next one.
#[derive(Clone, Debug)]
pub struct PonderHandle {
    /// When the handle was made: the origin of `hit_at`.
    epoch: Instant,
    /// Microseconds from `epoch` to the hit, plus one; 0: no hit.
    hit_at: Arc<AtomicU64>,
}

impl PonderHandle {
    pub(crate) fn new() -> PonderHandle {
        PonderHandle {
            epoch: Instant::now(),
            hit_at: Arc::new(AtomicU64::new(0)),
        }
    }

    /// The opponent played the predicted move: the search's time limits
    /// apply from now on, as if the search had started now.
    pub fn hit(&self) {
        let micros = self
            .epoch
            .elapsed()
            .as_micros()
            .min(u128::from(u64::MAX - 1)) as u64;
        let _ = self
            .hit_at
            .compare_exchange(0, micros + 1, Ordering::SeqCst, Ordering::SeqCst);
    }

    /// Forgets a hit.
    pub fn reset(&self) {
        self.hit_at.store(0, Ordering::SeqCst);
    }

    /// When the hit came, if it did.
    fn hit_time(&self) -> Option<Instant> {
        match self.hit_at.load(Ordering::Relaxed) {
            0 => None,
            n => Some(self.epoch + Duration::from_micros(n - 1)),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct TimeBudget {
    start: Instant,
    /// Set for a ponder search: the limits count from its hit.
    ponder: Option<PonderHandle>,
    /// Stop iterating once this much time has gone.
    soft: Option<Duration>,
    /// The time is fixed (`movetime`): use all of it, a cut-short iteration
    /// still contributes its best root move.
    fixed: bool,
    /// Abort the search when this much time has gone.
    hard: Option<Duration>,
}

impl TimeBudget {
    pub(crate) fn new(limits: &Limits, start: Instant, ponder: PonderHandle) -> TimeBudget {
        let ponder = limits.ponder.then_some(ponder);
        let overhead = limits
            .move_overhead
            .unwrap_or(DEFAULT_MOVE_OVERHEAD)
            .min(MAX_MOVE_OVERHEAD);
        if limits.infinite {
            return TimeBudget {
                start,
                ponder,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(mt) = limits.move_time {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(left) = limits.time_left {
            let inc = limits.increment.unwrap_or_default();
            let mtg = limits
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, DEFAULT_MOVES_TO_GO);
            let usable = left.saturating_sub(overhead);
            // Never plan to use more than what is on the clock, keeping a reserve
            // unless this is the last move before the control.
            let cap = if mtg == 1 {
                usable.mul_f64(0.9)
            } else {
                usable.mul_f64(0.45)
            };
            let target = (usable / mtg + inc.mul_f64(0.8)).min(cap);
            let max = (target * 4).min(cap);
            let target = target.max(Duration::from_millis(1));
            soft = Some(soft.map_or(target, |s| s.min(target)));
            hard = Some(hard.map_or(max, |h| h.min(max)));
        }
        TimeBudget {
            start,
            ponder,
            soft,
            hard,
            fixed: limits.move_time.is_some() && limits.time_left.is_none(),
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time charged to the limits: since the start, or since the ponder
    /// hit; `None` while pondering (no limit applies).
    fn charged(&self) -> Option<Duration> {
        match &self.ponder {
            None => Some(self.elapsed()),
            Some(handle) => {
                let from = handle.hit_time()?.max(self.start);
                Some(from.elapsed())
            }
        }
    }

    /// True when the running iteration must be abandoned.
    pub(crate) fn hard_exceeded(&self) -> bool {
        self.hard
            .is_some_and(|h| self.charged().is_some_and(|t| t >= h))
    }

    /// True when no new iteration should start. An iteration usually costs a few
    /// times the previous one, so stop early rather than start one that cannot finish.
    pub(crate) fn soft_exceeded(&self, scale: f64) -> bool {
        let scale = if self.fixed { 1.0 } else { scale };
        self.soft.is_some_and(|s| {
            self.charged()
                .is_some_and(|t| t.as_secs_f64() >= s.as_secs_f64() * scale)
        })
    }

    pub(crate) fn is_limited(&self) -> bool {
        self.hard.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budget_is_a_fraction_of_the_clock() {
        let limits = Limits {
            time_left: Some(Duration::from_secs(60)),
            increment: Some(Duration::from_secs(1)),
            ..Limits::default()
        };
        let b = TimeBudget::new(&limits, Instant::now(), PonderHandle::new());
        let soft = b.soft.unwrap();
        let hard = b.hard.unwrap();
        assert!(
            soft > Duration::from_secs(2) && soft < Duration::from_secs(4),
            "{soft:?}"
        );
        assert!(hard >= soft && hard <= Duration::from_secs(27), "{hard:?}");
    }

    #[test]
    fn tiny_clock_never_overdraws() {
        let limits = Limits {
            time_left: Some(Duration::from_millis(30)),
            ..Limits::default()
        };
        let b = TimeBudget::new(&limits, Instant::now(), PonderHandle::new());
        assert!(b.hard.unwrap() < Duration::from_millis(30));
    }

    #[test]
    fn move_overhead_is_kept_back() {
        let limits = Limits {
            move_time: Some(Duration::from_millis(500)),
            move_overhead: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let b = TimeBudget::new(&limits, Instant::now(), PonderHandle::new());
        assert_eq!(b.hard, Some(Duration::from_millis(300)));
    }

    #[test]
    fn pondering_has_no_deadline_until_the_hit() {
        let limits = Limits {
            move_time: Some(Duration::from_millis(1)),
            ponder: true,
            ..Limits::default()
        };
        let ponder = PonderHandle::new();
        let b = TimeBudget::new(&limits, Instant::now(), ponder.clone());
        std::thread::sleep(Duration::from_millis(5));
        assert!(!b.hard_exceeded() && !b.soft_exceeded(1.0));
        ponder.hit();
        assert!(!b.hard_exceeded(), "the clock starts at the hit");
        std::thread::sleep(Duration::from_millis(5));
        assert!(b.hard_exceeded());
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = Limits {
            infinite: true,
            move_time: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(!TimeBudget::new(&limits, Instant::now(), PonderHandle::new()).is_limited());
    }
}
