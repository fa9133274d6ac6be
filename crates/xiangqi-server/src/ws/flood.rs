//! The flood limit: a token bucket per socket. A client may send
//! [`BURST`] frames at once and [`FRAMES_PER_SECOND`] on average; past that
//! it is told why and disconnected, so one client cannot take the server's
//! time from everyone else.

/// Frames per second a socket may send on average.
pub const FRAMES_PER_SECOND: f64 = 50.0;
/// Frames a socket may send at once.
pub const BURST: f64 = 100.0;

/// One socket's bucket.
#[derive(Debug, Clone)]
pub struct FloodGate {
    tokens: f64,
    last_ms: u64,
}

impl FloodGate {
    /// A full bucket at monotonic time `now_ms`.
    pub fn new(now_ms: u64) -> FloodGate {
        FloodGate {
            tokens: BURST,
            last_ms: now_ms,
        }
    }

    /// Takes a token for a frame at `now_ms`; false when the client floods.
    pub fn admit(&mut self, now_ms: u64) -> bool {
        let elapsed = now_ms.saturating_sub(self.last_ms) as f64 / 1_000.0;
        self.last_ms = now_ms.max(self.last_ms);
        self.tokens = (self.tokens + elapsed * FRAMES_PER_SECOND).min(BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_and_a_flood_does_not() {
        let mut gate = FloodGate::new(0);
        assert!((0..BURST as usize).all(|_| gate.admit(0)));
        assert!(!gate.admit(0));
        // One second refills FRAMES_PER_SECOND tokens.
        assert!((0..FRAMES_PER_SECOND as usize).all(|_| gate.admit(1_000)));
        assert!(!gate.admit(1_000));
    }
}
