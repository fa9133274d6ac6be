//! A rate as `serve` options spell it: `N/UNIT` (`30/h`, `5/min`, `100/s`,
//! `2/d`), at most N at once and N per UNIT after that, and its quota for
//! the limiter.

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;
use std::time::Duration;

use governor::Quota;

/// At most `count` at once, refilled at `count` per `per`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// The burst and the number per period.
    pub count: NonZeroU32,
    /// The period.
    pub per: Duration,
}

const UNITS: [(&str, u64); 4] = [("s", 1), ("min", 60), ("h", 3_600), ("d", 86_400)];

/// Text that is not a rate.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad rate {0:?}: expected N/UNIT with N from 1 and UNIT one of s, min, h, d (as in 30/h)")]
pub struct ParseRateError(pub String);

impl Rate {
    /// `count` per `per`.
    pub const fn new(count: NonZeroU32, per: Duration) -> Rate {
        Rate { count, per }
    }

    /// The limiter's quota: a burst of `count`, one more every `per / count`.
    pub fn quota(&self) -> Quota {
        let every = (self.per / self.count.get()).max(Duration::from_nanos(1));
        Quota::with_period(every)
            .unwrap_or_else(|| Quota::per_second(self.count))
            .allow_burst(self.count)
    }
}

impl FromStr for Rate {
    type Err = ParseRateError;

    fn from_str(text: &str) -> Result<Rate, ParseRateError> {
        let bad = || ParseRateError(text.chars().take(32).collect());
        let (count, unit) = text.split_once('/').ok_or_else(bad)?;
        if !count.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let count: NonZeroU32 = count.parse().map_err(|_| bad())?;
        let seconds = UNITS
            .iter()
            .find(|(name, _)| *name == unit)
            .map(|(_, s)| *s)
            .ok_or_else(bad)?;
        Ok(Rate::new(count, Duration::from_secs(seconds)))
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.per.as_secs();
        match UNITS.iter().find(|(_, s)| *s == seconds) {
            Some((unit, _)) => write!(f, "{}/{unit}", self.count),
            None => write!(f, "{} per {seconds} s", self.count),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_rates() {
        for text in ["30/h", "5/min", "100/s", "2/d"] {
            assert_eq!(text.parse::<Rate>().unwrap().to_string(), text);
        }
        let rate: Rate = "30/h".parse().unwrap();
        assert_eq!(rate.per, Duration::from_secs(3_600));
        assert_eq!(rate.quota().burst_size().get(), 30);
        assert_eq!(rate.quota().replenish_interval(), Duration::from_secs(120));
        for bad in ["", "30", "0/h", "-1/h", "30/week", "x/h", "30/H", "+3/h"] {
            assert!(bad.parse::<Rate>().is_err(), "{bad}");
        }
    }
}
