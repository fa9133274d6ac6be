//! The no-capture counter of section 6 (R-DRAW-NOCAPTURE and its options).

use xiangqi_core::Color;

use crate::rules::NoCaptureChecks;

/// Plies since the last capture, as the chosen rule counts them.
///
/// ```
/// use xiangqi_adjudication::{NoCaptureChecks, NoCaptureCounter};
/// use xiangqi_core::Color;
/// // EX-NC-1: the counter reaches 120 on the third ply.
/// let mut c = NoCaptureCounter::new(117, Some(120), NoCaptureChecks::CountAll);
/// c.push(Color::Red, false, false);
/// c.push(Color::Black, false, false);
/// assert!(!c.reached());
/// c.push(Color::Red, false, false);
/// assert!(c.reached());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoCaptureCounter {
    count: u32,
    limit: Option<u32>,
    mode: NoCaptureChecks,
    /// Checks per side in the current stretch (R-DRAW-NOCAPTURE-CHECKS).
    checks: [u32; 2],
    /// The previous ply was a void check (`CapTen`).
    previous_void_check: bool,
    /// Plies played since the start of the record (`Fairy`).
    plies: u32,
}

/// Checks a side may give in a stretch before they stop counting (Asian rule).
const CHECK_CAP: u32 = 10;

impl NoCaptureCounter {
    /// A counter starting at `start` (the FEN's field 5, N-FEN-COUNT; with
    /// `CapTen` it is the effective count).
    pub fn new(start: u32, limit: Option<u32>, mode: NoCaptureChecks) -> NoCaptureCounter {
        NoCaptureCounter {
            count: start,
            limit,
            mode,
            checks: [0; 2],
            previous_void_check: false,
            plies: 0,
        }
    }

    /// Counts one ply by `mover`.
    pub fn push(&mut self, mover: Color, captured: bool, gives_check: bool) {
        self.plies += 1;
        if captured {
            // EX-NC-2: a capture resets the count and the check counts.
            self.count = 0;
            self.checks = [0; 2];
            self.previous_void_check = false;
            return;
        }
        if gives_check {
            self.checks[mover.index()] += 1;
        }
        match self.mode {
            NoCaptureChecks::CountAll | NoCaptureChecks::Fairy => self.count += 1,
            NoCaptureChecks::CapTen => {
                let void_check = gives_check && self.checks[mover.index()] > CHECK_CAP;
                let void = void_check || self.previous_void_check;
                if !void {
                    self.count += 1;
                }
                self.previous_void_check = void_check;
            }
        }
    }

    /// The counter (effective plies without capture).
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The limit in force now (`Fairy` extends it for excess checks), if any.
    pub fn limit(&self) -> Option<u32> {
        let base = self.limit?;
        if self.mode == NoCaptureChecks::Fairy && self.plies >= 20 {
            let excess = self.checks[0].max(self.checks[1]).saturating_sub(CHECK_CAP);
            Some(base + 2 * excess)
        } else {
            Some(base)
        }
    }

    /// True when the counter has reached the limit (R-END-NOCAPTURE).
    pub fn reached(&self) -> bool {
        self.limit().is_some_and(|l| self.count >= l)
    }
}
