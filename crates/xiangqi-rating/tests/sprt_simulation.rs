//! The match statistics against known outcomes: matches of game pairs
//! simulated from a set Elo difference, with draws and a first-move
//! advantage, by a seeded generator. Many simulated SPRTs must accept H0
//! when the truth is `elo0` and H1 when it is `elo1` about as often as
//! alpha and beta promise, and the Elo intervals must cover the true Elo.

use xiangqi_core::SplitMix64;
use xiangqi_rating::match_stats::{
    score_of_elo, EloModel, Pentanomial, Sprt, SprtVerdict, NELO_PER_T, PAIR_SCORES,
};

/// Games in which one engine is `elo` stronger: a draw with probability
/// `draw`, and Red scores `red_edge` more than its share (Black as much
/// less), so a pair's two games differ as real ones do.
#[derive(Copy, Clone)]
struct Simulated {
    elo: f64,
    draw: f64,
    red_edge: f64,
}

impl Simulated {
    /// Probabilities of a win and a loss (the rest draws) for the engine
    /// playing Red (`red`) or Black.
    fn game(&self, red: bool) -> (f64, f64) {
        let edge = if red { self.red_edge } else { -self.red_edge };
        let score = score_of_elo(self.elo) + edge;
        let win = score - self.draw / 2.0;
        let loss = 1.0 - score - self.draw / 2.0;
        assert!(win > 0.0 && loss > 0.0, "the simulation's settings");
        (win, loss)
    }

    fn play(&self, rng: &mut SplitMix64, red: bool) -> i8 {
        let (win, loss) = self.game(red);
        let u = uniform(rng);
        if u < win {
            1
        } else if u < win + loss {
            -1
        } else {
            0
        }
    }

    fn pair(&self, rng: &mut SplitMix64) -> (i8, i8) {
        (self.play(rng, true), self.play(rng, false))
    }

    /// The true normalised Elo: the exact pentanomial distribution's mean
    /// and variance, `(m - ½) / √(2v) · 800/ln 10`.
    fn normalized_elo(&self) -> f64 {
        let (rw, rl) = self.game(true);
        let (bw, bl) = self.game(false);
        let red = [rl, 1.0 - rw - rl, rw];
        let black = [bl, 1.0 - bw - bl, bw];
        let mut p = [0.0; 5];
        for (i, r) in red.iter().enumerate() {
            for (j, b) in black.iter().enumerate() {
                p[i + j] += r * b;
            }
        }
        let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
        let variance: f64 = (0..5).map(|i| p[i] * (PAIR_SCORES[i] - mean).powi(2)).sum();
        (mean - 0.5) / (2.0 * variance).sqrt() * NELO_PER_T
    }
}

/// A uniform number in [0, 1) from the top 53 bits.
fn uniform(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// Plays pairs until the test decides (or a cap far beyond its expected
/// length, counted as undecided).
fn run_sprt(sprt: &Sprt, truth: Simulated, rng: &mut SplitMix64) -> SprtVerdict {
    let mut pairs = Pentanomial::default();
    for _ in 0..200_000 {
        let (first, second) = truth.pair(rng);
        pairs.add_pair(first, second);
        let verdict = sprt.verdict(&pairs);
        if verdict != SprtVerdict::Continue {
            return verdict;
        }
    }
    SprtVerdict::Continue
}

/// How often each verdict came in `runs` simulated tests: (H0, H1).
fn verdict_rates(sprt: &Sprt, truth: Simulated, runs: u32, seed: u64) -> (f64, f64) {
    let mut rng = SplitMix64::new(seed);
    let (mut h0, mut h1) = (0, 0);
    for _ in 0..runs {
        match run_sprt(sprt, truth, &mut rng) {
            SprtVerdict::AcceptH0 => h0 += 1,
            SprtVerdict::AcceptH1 => h1 += 1,
            SprtVerdict::Continue => {}
        }
    }
    (
        f64::from(h0) / f64::from(runs),
        f64::from(h1) / f64::from(runs),
    )
}

const RUNS: u32 = 200;
/// Below 1 - alpha = 0.95 by three standard errors of a rate over 200 runs
/// (√(0.05·0.95/200) = 0.0154): a test that keeps its promise passes, one
/// that errs twice as often as promised (0.90 or less) fails about half the
/// time, and one three times as often almost always. (With the normal
/// approximation of the LLR, a [0, 20] logistic test accepted H0 in only 70%
/// of 300 runs at 0 Elo, mostly after a few lucky pairs: why the LLR is the
/// exact one.)
const AT_LEAST: f64 = 0.90;

fn drawish(elo: f64) -> Simulated {
    Simulated {
        elo,
        draw: 0.4,
        red_edge: 0.05,
    }
}

#[test]
fn logistic_sprt_keeps_its_error_rates() {
    let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05, EloModel::Logistic).unwrap();
    let (h0, _) = verdict_rates(&sprt, drawish(0.0), RUNS, 1);
    eprintln!("logistic: H0 accepted in {h0} at elo0");
    assert!(h0 >= AT_LEAST, "H0 accepted in {h0} of runs at elo0");
    let (_, h1) = verdict_rates(&sprt, drawish(40.0), RUNS, 2);
    eprintln!("logistic: H1 accepted in {h1} at elo1");
    assert!(h1 >= AT_LEAST, "H1 accepted in {h1} of runs at elo1");
    // Far outside the bounds the answer is (almost) always the right one.
    let (h0, _) = verdict_rates(&sprt, drawish(-40.0), 100, 3);
    assert!(h0 >= 0.99, "H0 accepted in {h0} of runs at -40");
}

#[test]
fn normalized_sprt_keeps_its_error_rates() {
    // The truths' normalised Elo, computed from their exact distribution.
    let (at_zero, at_forty) = (drawish(0.0), drawish(40.0));
    assert!(at_zero.normalized_elo().abs() < 1e-9);
    let nelo1 = at_forty.normalized_elo();
    // Draws and the colour edge make normalised Elo larger than logistic.
    assert!(nelo1 > 40.0 && nelo1 < 80.0, "{nelo1}");
    let sprt = Sprt::new(0.0, nelo1, 0.05, 0.05, EloModel::Normalized).unwrap();
    let (h0, _) = verdict_rates(&sprt, at_zero, RUNS, 4);
    eprintln!("normalized: H0 accepted in {h0} at nelo0");
    assert!(h0 >= AT_LEAST, "H0 accepted in {h0} of runs at nelo0");
    let (_, h1) = verdict_rates(&sprt, at_forty, RUNS, 5);
    eprintln!("normalized: H1 accepted in {h1} at nelo1 = {nelo1:.2}");
    assert!(h1 >= AT_LEAST, "H1 accepted in {h1} of runs at nelo1");
}

#[test]
fn elo_intervals_cover_the_true_elo() {
    let truth = Simulated {
        elo: 50.0,
        draw: 0.3,
        red_edge: 0.08,
    };
    let true_nelo = truth.normalized_elo();
    let mut rng = SplitMix64::new(6);
    let (mut elo_covered, mut nelo_covered) = (0, 0);
    for _ in 0..RUNS {
        let mut pairs = Pentanomial::default();
        for _ in 0..200 {
            let (first, second) = truth.pair(&mut rng);
            pairs.add_pair(first, second);
        }
        let (elo, error) = (pairs.elo().unwrap(), pairs.elo_error().unwrap());
        if (elo - truth.elo).abs() <= error {
            elo_covered += 1;
        }
        let (nelo, nerror) = (
            pairs.normalized_elo().unwrap(),
            pairs.normalized_elo_error().unwrap(),
        );
        if (nelo - true_nelo).abs() <= nerror {
            nelo_covered += 1;
        }
    }
    let elo_rate = f64::from(elo_covered) / f64::from(RUNS);
    let nelo_rate = f64::from(nelo_covered) / f64::from(RUNS);
    eprintln!("intervals covered the truth: Elo {elo_rate}, nElo {nelo_rate}");
    // 95% intervals: covered in at least 90% of 200 matches.
    assert!(elo_rate >= AT_LEAST, "Elo interval covered {elo_rate}");
    assert!(nelo_rate >= AT_LEAST, "nElo interval covered {nelo_rate}");
}
