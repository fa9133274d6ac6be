//! The sequential probability ratio test over game pairs: after each pair
//! the log-likelihood ratio (LLR) of "the engine is `elo1` stronger" (H1)
//! against "it is `elo0` stronger" (H0) is compared with Wald's bounds
//! `ln(β/(1-α))` and `ln((1-β)/α)`; crossing one decides.
//!
//! The LLR is the generalised one (GSPRT) of the pentanomial counts, as
//! Fishtest computes it: with `f` the observed frequencies of the five pair
//! outcomes and `p0`, `p1` the most likely distributions under each
//! hypothesis ([`super::mle`]),
//!
//! ```text
//! LLR = N Σ fᵢ ln(p1ᵢ / p0ᵢ)
//! ```
//!
//! H0 and H1 fix the mean score `s = 1/(1 + 10^(-elo/400))` under
//! [`EloModel::Logistic`], and the t-value `(μ - ½)/σ = √2 · nelo · ln 10/800`
//! of a pair (σ its standard deviation; √2 σ is one game's) under
//! [`EloModel::Normalized`]. For many pairs it approaches the normal
//! approximation `N (s1 - s0)(2m - s0 - s1) / (2v)` (m, v the pairs' mean and
//! variance), which early in a test, with a variance estimated from a few
//! pairs, can swing past a bound on its own: two won pairs would accept H1.
//! The approximation remains only for settings where no distribution meets a
//! hypothesis, which the limits on `elo0`/`elo1` keep out of reach.

use std::fmt;
use std::str::FromStr;

use super::elo::{score_of_elo, NELO_PER_T};
use super::mle::{with_mean, with_t_value};
use super::pentanomial::{moments, Pentanomial};

/// The largest |elo0|, |elo1| of a logistic test: beyond it the expected
/// score is 1 or 0 to within rounding.
const LOGISTIC_LIMIT: f64 = 1000.0;
/// The largest |elo0|, |elo1| of a normalised test: a t-value of 0.8 per
/// pair; far beyond any engine change, and inside the range where the most
/// likely distribution is found for every count (checked in the tests).
const NORMALIZED_LIMIT: f64 = 200.0;

/// What the hypotheses' Elo numbers mean.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    /// The logistic Elo of the score (`[0, 5]`: a 50.7% score or better).
    /// How many games a test takes depends on the draw rate.
    Logistic,
    /// Normalised Elo, the score's distance from ½ in standard deviations:
    /// a test with the same bounds takes about the same number of games
    /// whatever the draw rate and time control. The default.
    #[default]
    Normalized,
}

impl EloModel {
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

impl fmt::Display for EloModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a test stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR fell to the lower bound: not `elo1` stronger.
    AcceptH0,
    /// The LLR reached the upper bound: `elo1` stronger rather than `elo0`.
    AcceptH1,
    /// Between the bounds: more pairs are needed.
    Continue,
}

/// What is wrong with a test's settings.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("{0:?} is not KEY=VALUE (keys: elo0, elo1, alpha, beta, model)")]
    NotKeyValue(String),
    #[error("unknown key {0:?} (keys: elo0, elo1, alpha, beta, model)")]
    UnknownKey(String),
    #[error("{0} is given twice")]
    Repeated(String),
    #[error("{0} is required")]
    Missing(&'static str),
    #[error("{key}={value:?} is not a finite number")]
    NotANumber { key: &'static str, value: String },
    #[error("model={0:?} is neither logistic nor normalized")]
    UnknownModel(String),
    #[error("{key}={value} must be between 0 and 1 (exclusive)")]
    NotAProbability { key: &'static str, value: f64 },
    #[error("alpha + beta must be below 1, got {0}")]
    ErrorsTooLarge(f64),
    #[error("elo0 must be below elo1, got elo0={elo0} elo1={elo1}")]
    EloOrder { elo0: f64, elo1: f64 },
    #[error("{key}={value} is beyond ±{limit} ({model} Elo)")]
    EloOutOfRange {
        key: &'static str,
        value: f64,
        limit: f64,
        model: EloModel,
    },
}

/// A test: H0 "`elo0`" against H1 "`elo1`" with false-positive rate `alpha`
/// (H1 accepted though H0 holds) and false-negative rate `beta`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
}

impl Sprt {
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, SprtError> {
        for (key, value) in [("alpha", alpha), ("beta", beta)] {
            if !(0.0..1.0).contains(&value) || value == 0.0 {
                return Err(SprtError::NotAProbability { key, value });
            }
        }
        if alpha + beta >= 1.0 {
            return Err(SprtError::ErrorsTooLarge(alpha + beta));
        }
        // Finite numbers are checked by the parser; a NaN fails here too.
        let ordered = elo0.is_finite() && elo1.is_finite() && elo0 < elo1;
        if !ordered {
            return Err(SprtError::EloOrder { elo0, elo1 });
        }
        let limit = match model {
            EloModel::Logistic => LOGISTIC_LIMIT,
            EloModel::Normalized => NORMALIZED_LIMIT,
        };
        for (key, value) in [("elo0", elo0), ("elo1", elo1)] {
            if value.abs() > limit {
                return Err(SprtError::EloOutOfRange {
                    key,
                    value,
                    limit,
                    model,
                });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    pub fn elo0(&self) -> f64 {
        self.elo0
    }
    pub fn elo1(&self) -> f64 {
        self.elo1
    }
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    pub fn beta(&self) -> f64 {
        self.beta
    }
    pub fn model(&self) -> EloModel {
        self.model
    }

    /// Wald's bounds `(ln(β/(1-α)), ln((1-β)/α))`: ±2.94 at α = β = 0.05.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these pairs (the
    /// module's formula, with unseen outcomes regularised); 0 before the
    /// first pair.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        let Some(f) = pairs.regularized_frequencies() else {
            return 0.0;
        };
        let most_likely = |elo: f64| match self.model {
            EloModel::Logistic => with_mean(&f, score_of_elo(elo)),
            EloModel::Normalized => with_t_value(&f, std::f64::consts::SQRT_2 * elo / NELO_PER_T),
        };
        match (most_likely(self.elo0), most_likely(self.elo1)) {
            (Some(p0), Some(p1)) => {
                let per_pair: f64 = (0..5).map(|i| f[i] * (p1[i] / p0[i]).ln()).sum();
                f64::from(pairs.pairs()) * per_pair
            }
            _ => self.approximate_llr(pairs.pairs(), &f),
        }
    }

    /// The normal approximation of the LLR for `n` pairs of frequencies `f`.
    fn approximate_llr(&self, n: u32, f: &[f64; 5]) -> f64 {
        let (mean, variance) = moments(f);
        let (s0, s1) = match self.model {
            EloModel::Logistic => (score_of_elo(self.elo0), score_of_elo(self.elo1)),
            EloModel::Normalized => {
                let game_sd = (2.0 * variance).sqrt();
                let score = |nelo: f64| 0.5 + nelo / NELO_PER_T * game_sd;
                (score(self.elo0), score(self.elo1))
            }
        };
        f64::from(n) * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict of an LLR.
    pub fn verdict_of(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }

    /// The verdict after these pairs.
    pub fn verdict(&self, pairs: &Pentanomial) -> SprtVerdict {
        self.verdict_of(self.llr(pairs))
    }
}

/// `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`: words separated
/// by white space or commas, in any order; `elo0` and `elo1` are required,
/// `alpha` and `beta` default to 0.05, `model` to normalized.
impl FromStr for Sprt {
    type Err = SprtError;

    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        const NUMBERS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        let mut numbers: [Option<f64>; 4] = [None; 4];
        let mut model = None;
        for word in text.split(|c: char| c.is_whitespace() || c == ',') {
            if word.is_empty() {
                continue;
            }
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(word.to_string()))?;
            let key = key.trim().to_ascii_lowercase();
            if key == "model" {
                if model.is_some() {
                    return Err(SprtError::Repeated(key));
                }
                model = Some(match value.to_ascii_lowercase().as_str() {
                    "logistic" => EloModel::Logistic,
                    "normalized" | "normalised" => EloModel::Normalized,
                    _ => return Err(SprtError::UnknownModel(value.to_string())),
                });
                continue;
            }
            let slot = NUMBERS
                .iter()
                .position(|k| *k == key)
                .ok_or_else(|| SprtError::UnknownKey(key.clone()))?;
            if numbers[slot].is_some() {
                return Err(SprtError::Repeated(key));
            }
            let number = value
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| SprtError::NotANumber {
                    key: NUMBERS[slot],
                    value: value.to_string(),
                })?;
            numbers[slot] = Some(number);
        }
        let [elo0, elo1, alpha, beta] = numbers;
        Sprt::new(
            elo0.ok_or(SprtError::Missing("elo0"))?,
            elo1.ok_or(SprtError::Missing("elo1"))?,
            alpha.unwrap_or(0.05),
            beta.unwrap_or(0.05),
            model.unwrap_or_default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(text: &str) -> Sprt {
        text.parse().unwrap()
    }

    #[test]
    fn bounds_at_five_percent() {
        let (lower, upper) = test("elo0=0 elo1=5").bounds();
        // ln(0.05/0.95) = -2.944439.
        assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
        let (lower, upper) = test("elo0=0,elo1=5,alpha=0.1,beta=0.2").bounds();
        assert!((lower - (0.2f64 / 0.9).ln()).abs() < 1e-12);
        assert!((upper - (0.8f64 / 0.1).ln()).abs() < 1e-12);
    }

    /// Counts [1, 1, 4, 3, 1]: N = 10 pairs, frequencies f = (0.1, 0.1, 0.4,
    /// 0.3, 0.1), mean m = 0.55, per-pair variance v = 0.0725 (see the
    /// pentanomial worked example).
    const COUNTS: Pentanomial = Pentanomial {
        counts: [1, 1, 4, 3, 1],
    };

    #[test]
    fn hand_computed_approximate_llr() {
        let f = COUNTS.regularized_frequencies().unwrap();
        // Logistic [0, 5]: s0 = ½, s1 = 1/(1 + 10^(-5/400)) = 0.5071951;
        // LLR = 10 · 0.0071951 · (1.1 - 0.5 - 0.5071951) / (2 · 0.0725)
        //     = 10 · 0.0071951 · 0.0928049 / 0.145 = 0.046051.
        let logistic = test("elo0=0 elo1=5 model=logistic");
        assert!((logistic.approximate_llr(10, &f) - 0.046_051).abs() < 1e-6);
        // Normalised [0, 5]: one game's sd √(2v) = 0.380789, t1 = 5 ln10/800
        // = 0.0143911, s1 = ½ + 0.0143911 · 0.380789 = 0.5054800;
        // LLR = 10 · 0.0054800 · (1.1 - 1.0054800) / 0.145 = 0.035722.
        let normalized = test("elo0=0 elo1=5");
        assert!((normalized.approximate_llr(10, &f) - 0.035_722).abs() < 1e-6);
    }

    #[test]
    fn llr_of_small_counts_computed_independently() {
        // The same counts by a separate program (Python, floating point):
        // each hypothesis's most likely distribution by bisection on the
        // secular equation of the mle module (for the t-value, 100 rounds of
        // the fixed point from the uniform distribution), then
        // 10 · Σ fᵢ ln(p1ᵢ/p0ᵢ). Logistic [0, 5]: p0 = (0.146164, 0.118753,
        // 0.4, 0.259086, 0.075997), mean ½; p1 = (0.138513, 0.116414,
        // 0.401584, 0.264759, 0.078730); LLR 0.042461148. Normalised [0, 5]:
        // 0.034123942. Both within 10% of the normal approximation above.
        let logistic = test("elo0=0 elo1=5 model=logistic");
        assert!((logistic.llr(&COUNTS) - 0.042_461_148).abs() < 1e-8);
        let normalized = test("elo0=0 elo1=5");
        assert_eq!(normalized.model(), EloModel::Normalized);
        assert!((normalized.llr(&COUNTS) - 0.034_123_942).abs() < 1e-8);
        assert_eq!(normalized.verdict(&COUNTS), SprtVerdict::Continue);
        assert_eq!(normalized.llr(&Pentanomial::default()), 0.0);
        // Two won pairs, regularised: 0.028546427 and 0.040216446 by the
        // same program, far from a bound (the approximation says 7.6).
        let two_wins = Pentanomial {
            counts: [0, 0, 0, 0, 2],
        };
        assert!((logistic.llr(&two_wins) - 0.028_546_427).abs() < 1e-8);
        assert!((normalized.llr(&two_wins) - 0.040_216_446).abs() < 1e-8);
        let f = two_wins.regularized_frequencies().unwrap();
        assert!(logistic.approximate_llr(2, &f) > 7.0);
    }

    #[test]
    fn many_pairs_agree_with_the_normal_approximation() {
        let pairs = Pentanomial {
            counts: [300, 1200, 3000, 1400, 350],
        };
        let f = pairs.regularized_frequencies().unwrap();
        for text in ["elo0=0 elo1=5", "elo0=-3 elo1=2 model=logistic"] {
            let sprt = test(text);
            let (exact, approximate) = (sprt.llr(&pairs), sprt.approximate_llr(pairs.pairs(), &f));
            assert!(
                (exact - approximate).abs() < 0.02 * approximate.abs(),
                "{text}: {exact} {approximate}"
            );
        }
    }

    #[test]
    fn every_count_has_a_most_likely_distribution_within_the_limits() {
        // Lopsided and mixed counts at the hypotheses' limits: the exact
        // LLR is found (no fallback).
        let mut rng = xiangqi_core::SplitMix64::new(7);
        let choices = [0, 0, 1, 2, 5, 20, 100];
        for round in 0..300 {
            let counts: [u32; 5] = if round < 5 {
                std::array::from_fn(|i| if i == round { 9 } else { 0 })
            } else {
                std::array::from_fn(|_| choices[rng.below(choices.len())])
            };
            let pairs = Pentanomial { counts };
            let Some(f) = pairs.regularized_frequencies() else {
                continue;
            };
            for nelo in [-200.0, -20.0, 0.0, 5.0, 100.0, 200.0] {
                let t = std::f64::consts::SQRT_2 * nelo / NELO_PER_T;
                assert!(with_t_value(&f, t).is_some(), "{counts:?} {nelo}");
            }
            for elo in [-1000.0, -5.0, 0.0, 1000.0] {
                assert!(
                    with_mean(&f, score_of_elo(elo)).is_some(),
                    "{counts:?} {elo}"
                );
            }
        }
    }

    #[test]
    fn lopsided_runs_decide_at_the_pace_of_the_hypotheses() {
        // The hypotheses are about the mean score alone: a distribution of
        // mean ½ can put half its weight on won pairs, so each won pair
        // weighs only about ln(p1/p0) ≈ ln(0.507/0.5) = 0.014 towards
        // [0, 5] logistic. Eight won pairs are far from a bound; 250 cross it.
        let all = |index: usize, n: u32| Pentanomial {
            counts: std::array::from_fn(|i| if i == index { n } else { 0 }),
        };
        for text in ["elo0=0 elo1=5", "elo0=0 elo1=5 model=logistic"] {
            assert_eq!(
                test(text).verdict(&all(4, 8)),
                SprtVerdict::Continue,
                "{text}"
            );
            assert_eq!(
                test(text).verdict(&all(4, 250)),
                SprtVerdict::AcceptH1,
                "{text}"
            );
            assert_eq!(
                test(text).verdict(&all(0, 250)),
                SprtVerdict::AcceptH0,
                "{text}"
            );
        }
        // A test for a large gap decides sooner: [0, 200] logistic takes 8
        // won pairs (LLR 3.35) or 5 lost ones (-3.66) by the program above.
        let wide = test("elo0=0 elo1=200 model=logistic");
        assert_eq!(wide.verdict(&all(4, 7)), SprtVerdict::Continue);
        assert_eq!(wide.verdict(&all(4, 8)), SprtVerdict::AcceptH1);
        assert_eq!(wide.verdict(&all(0, 4)), SprtVerdict::Continue);
        assert_eq!(wide.verdict(&all(0, 5)), SprtVerdict::AcceptH0);
    }

    #[test]
    fn bad_settings_are_named() {
        let cases: [(&str, SprtError); 10] = [
            ("elo1=5", SprtError::Missing("elo0")),
            (
                "elo0=0 elo1=5 gamma=1",
                SprtError::UnknownKey("gamma".into()),
            ),
            ("elo0=0 elo1", SprtError::NotKeyValue("elo1".into())),
            ("elo0=0 elo0=1 elo1=5", SprtError::Repeated("elo0".into())),
            (
                "elo0=x elo1=5",
                SprtError::NotANumber {
                    key: "elo0",
                    value: "x".into(),
                },
            ),
            (
                "elo0=0 elo1=inf",
                SprtError::NotANumber {
                    key: "elo1",
                    value: "inf".into(),
                },
            ),
            (
                "elo0=0 elo1=5 alpha=0",
                SprtError::NotAProbability {
                    key: "alpha",
                    value: 0.0,
                },
            ),
            (
                "elo0=5 elo1=5",
                SprtError::EloOrder {
                    elo0: 5.0,
                    elo1: 5.0,
                },
            ),
            (
                "elo0=0 elo1=5 model=bayes",
                SprtError::UnknownModel("bayes".into()),
            ),
            (
                "elo0=0 elo1=300",
                SprtError::EloOutOfRange {
                    key: "elo1",
                    value: 300.0,
                    limit: 200.0,
                    model: EloModel::Normalized,
                },
            ),
        ];
        for (text, error) in cases {
            assert_eq!(text.parse::<Sprt>(), Err(error), "{text}");
        }
        assert_eq!(
            "elo0=0 elo1=5 alpha=0.5 beta=0.5".parse::<Sprt>(),
            Err(SprtError::ErrorsTooLarge(1.0))
        );
    }
}
