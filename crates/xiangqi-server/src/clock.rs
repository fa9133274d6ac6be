//! The server's time: a monotonic millisecond counter for game clocks and
//! deadlines, and the wall clock for timestamps. Injectable, so tests move
//! time by hand instead of sleeping 45 s.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::watch;
use tokio::time::Instant;

/// A future the clock resolves when its time has come.
pub type Sleep = Pin<Box<dyn Future<Output = ()> + Send>>;

/// Where the server reads time.
pub trait Clock: Send + Sync + 'static {
    /// Monotonic milliseconds since an arbitrary origin.
    fn now_ms(&self) -> u64;
    /// Wall-clock unix milliseconds (for timestamps only, never for deadlines).
    fn unix_ms(&self) -> i64;
    /// Resolves once [`Clock::now_ms`] has reached `ms`.
    fn sleep_until(&self, ms: u64) -> Sleep;
}

/// The real clock: tokio's monotonic time.
#[derive(Debug)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose monotonic origin is now.
    pub fn new() -> SystemClock {
        SystemClock {
            origin: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    fn unix_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }

    fn sleep_until(&self, ms: u64) -> Sleep {
        let deadline = self.origin + Duration::from_millis(ms);
        Box::pin(tokio::time::sleep_until(deadline))
    }
}

/// A clock that moves only when told to ([`ManualClock::advance`]); every
/// sleeper whose time has come wakes then. For tests and examples.
#[derive(Debug)]
pub struct ManualClock {
    now: watch::Sender<u64>,
    unix_origin: i64,
}

impl ManualClock {
    /// A clock at monotonic 0 and unix time `unix_origin` ms.
    pub fn new(unix_origin: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock {
            now: watch::Sender::new(0),
            unix_origin,
        })
    }

    /// Moves time forward by `ms` and wakes the sleepers that are due.
    pub fn advance(&self, ms: u64) {
        self.now.send_modify(|now| *now += ms);
    }
}

impl Clock for ManualClock {
    fn now_ms(&self) -> u64 {
        *self.now.borrow()
    }

    fn unix_ms(&self) -> i64 {
        self.unix_origin + self.now_ms() as i64
    }

    fn sleep_until(&self, ms: u64) -> Sleep {
        let mut rx = self.now.subscribe();
        Box::pin(async move {
            // The sender lives as long as the clock; if it is gone, never wake.
            if rx.wait_for(|now| *now >= ms).await.is_err() {
                std::future::pending::<()>().await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn manual_clock_wakes_sleepers_when_advanced_past_their_time() {
        let clock = ManualClock::new(1_000);
        let sleeper = tokio::spawn(clock.sleep_until(500));
        clock.advance(499);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        clock.advance(1);
        sleeper.await.unwrap();
        assert_eq!(clock.now_ms(), 500);
        assert_eq!(clock.unix_ms(), 1_500);
    }
}
