//! Time management: turns [`Limits`] into a soft target (do not start a new
//! iteration after it) and a hard deadline (abort the running iteration).

use std::time::{Duration, Instant};

use crate::Limits;

/// Kept back on every move for the protocol round trip and process scheduling.
const MOVE_OVERHEAD: Duration = Duration::from_millis(5);
/// Assumed number of moves left when the clock has no `movestogo`.
const DEFAULT_MOVES_TO_GO: u32 = 28;

#[derive(Clone, Debug)]
pub(crate) struct TimeBudget {
    start: Instant,
    /// Stop iterating once this much time has gone.
    soft: Option<Duration>,
    /// The time is fixed (`movetime`): use all of it, a cut-short iteration
    /// still contributes its best root move.
    fixed: bool,
    /// Abort the search when this much time has gone.
    hard: Option<Duration>,
}

impl TimeBudget {
    pub(crate) fn new(limits: &Limits, start: Instant) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(mt) = limits.move_time {
            let t = mt
                .saturating_sub(MOVE_OVERHEAD)
                .max(Duration::from_millis(1));
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(left) = limits.time_left {
            let inc = limits.increment.unwrap_or_default();
            let mtg = limits
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, DEFAULT_MOVES_TO_GO);
            let usable = left.saturating_sub(MOVE_OVERHEAD);
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
            soft,
            hard,
            fixed: limits.move_time.is_some() && limits.time_left.is_none(),
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// True when the running iteration must be abandoned.
    pub(crate) fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// True when no new iteration should start. An iteration usually costs a few
    /// times the previous one, so stop early rather than start one that cannot finish.
    pub(crate) fn soft_exceeded(&self, scale: f64) -> bool {
        let scale = if self.fixed { 1.0 } else { scale };
        self.soft
            .is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * scale)
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
        let b = TimeBudget::new(&limits, Instant::now());
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
        let b = TimeBudget::new(&limits, Instant::now());
        assert!(b.hard.unwrap() < Duration::from_millis(30));
    }

    #[test]
    fn infinite_has_no_deadline() {
        let limits = Limits {
            infinite: true,
            move_time: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(!TimeBudget::new(&limits, Instant::now()).is_limited());
    }
}
