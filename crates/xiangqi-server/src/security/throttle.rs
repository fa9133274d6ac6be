//! A keyed rate limit (`governor`'s GCRA) that says how long to wait.

use std::hash::Hash;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::DefaultKeyedRateLimiter;

use crate::security::Rate;

/// At most a [`Rate`] per key.
pub struct Throttle<K: Hash + Eq + Clone> {
    limiter: DefaultKeyedRateLimiter<K>,
    clock: DefaultClock,
}

impl<K: Hash + Eq + Clone> Throttle<K> {
    /// A limit of `rate` per key.
    pub fn new(rate: Rate) -> Throttle<K> {
        Throttle {
            limiter: DefaultKeyedRateLimiter::keyed(rate.quota()),
            clock: DefaultClock::default(),
        }
    }

    /// Takes one for `key`, or says how long until one is free.
    pub fn check(&self, key: &K) -> Result<(), Duration> {
        self.limiter
            .check_key(key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }

    /// Keys tracked now.
    pub fn len(&self) -> usize {
        self.limiter.len()
    }

    /// Whether no key is tracked.
    pub fn is_empty(&self) -> bool {
        self.limiter.is_empty()
    }

    /// Forgets the keys that are back to a full burst.
    pub fn forget_idle(&self) {
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_gets_its_burst_then_a_wait() {
        let throttle = Throttle::new("3/h".parse().unwrap());
        for _ in 0..3 {
            assert_eq!(throttle.check(&"a"), Ok(()));
        }
        let wait = throttle.check(&"a").unwrap_err();
        assert!(wait > Duration::from_secs(1_100) && wait <= Duration::from_secs(1_200));
        assert_eq!(throttle.check(&"b"), Ok(()));
        assert_eq!(throttle.len(), 2);
    }
}
