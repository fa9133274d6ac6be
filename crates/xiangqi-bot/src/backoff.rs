//! How long to wait before reconnecting: doubling from a first delay up to
//! a ceiling, back to the first after a connection that worked, and never
//! shorter than what the server asked for (`Retry-After`).

use std::time::Duration;

/// The waits between reconnection attempts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait after a failure.
    pub first: Duration,
    /// The longest wait.
    pub max: Duration,
    next: Duration,
}

impl Backoff {
    /// Waits from `first`, doubling, up to `max`.
    pub fn new(first: Duration, max: Duration) -> Backoff {
        let first = first.max(Duration::from_millis(1));
        Backoff {
            first,
            max: max.max(first),
            next: first,
        }
    }

    /// The wait before the next attempt (at least `asked`, the server's
    /// `Retry-After`, but never over [`Backoff::max`] twice over), and the
    /// one after it doubled.
    pub fn next_wait(&mut self, asked: Option<Duration>) -> Duration {
        let wait = self.next.max(asked.unwrap_or_default().min(self.max * 2));
        self.next = (self.next * 2).min(self.max);
        wait
    }

    /// A connection worked: the next failure waits [`Backoff::first`] again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

impl Default for Backoff {
    /// 1 s, doubling up to a minute.
    fn default() -> Backoff {
        Backoff::new(Duration::from_secs(1), Duration::from_secs(60))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_up_to_the_ceiling_and_resets() {
        let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(5));
        let waits: Vec<u64> = (0..5).map(|_| backoff.next_wait(None).as_secs()).collect();
        assert_eq!(waits, [1, 2, 4, 5, 5]);
        backoff.reset();
        assert_eq!(backoff.next_wait(None), Duration::from_secs(1));
        assert_eq!(
            backoff.next_wait(Some(Duration::from_secs(7))),
            Duration::from_secs(7)
        );
        assert_eq!(
            backoff.next_wait(Some(Duration::from_secs(3600))),
            Duration::from_secs(10),
            "a hostile Retry-After cannot park the bot for an hour"
        );
    }
}
