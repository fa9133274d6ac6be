//! Game pairs and the SPRT of `match --sprt`: games 2i+1 and 2i+2 share an
//! opening with colours swapped; a pair counts once both its games are over
//! (whatever order they end in), into `xiangqi_rating`'s pentanomial counts
//! and, with `--sprt`, the test's LLR after every pair.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use xiangqi_rating::match_stats::{Pentanomial, Sprt, SprtVerdict};

use super::elo::{finite, format_elo_and_error};

/// Pairs whose two games are over, counted; the others wait for their
/// partner.
#[derive(Default)]
pub struct PairCounts {
    pub counts: Pentanomial,
    /// Pair number → the first engine's result of the game already over
    /// (index 0: the pair's first game), `None` in a slot not over yet.
    waiting: BTreeMap<usize, [Option<Option<i8>>; 2]>,
}

impl PairCounts {
    /// Takes the result of round `round` (from 1), +1/0/-1 for the first
    /// engine or `None` for a game without result; true when it completed a
    /// pair that was counted (a pair with a game without result is not).
    pub fn add_game(&mut self, round: usize, result: Option<i8>) -> bool {
        let (pair, slot) = ((round - 1) / 2, (round - 1) % 2);
        let games = self.waiting.entry(pair).or_default();
        games[slot] = Some(result);
        let [Some(first), Some(second)] = *games else {
            return false;
        };
        self.waiting.remove(&pair);
        match (first, second) {
            (Some(first), Some(second)) => {
                self.counts.add_pair(first, second);
                true
            }
            _ => false,
        }
    }

    /// `1, 2, 5, 3, 1`.
    pub fn describe(&self) -> String {
        let counts: Vec<String> = self.counts.counts.iter().map(u32::to_string).collect();
        counts.join(", ")
    }

    pub fn to_json(&self) -> Value {
        let c = &self.counts;
        json!({
            "pairs": c.pairs(),
            "counts": c.counts,
            "elo": finite(c.elo()),
            "elo_error": finite(c.elo_error()),
            "nelo": finite(c.normalized_elo()),
            "nelo_error": finite(c.normalized_elo_error()),
        })
    }

    /// `Elo +12.3 ± 20.1, nElo +15.0 ± 25.0`.
    pub fn describe_elo(&self) -> String {
        let c = &self.counts;
        format!(
            "Elo {}, nElo {}",
            format_elo_and_error(c.elo(), c.elo_error()),
            format_elo_and_error(c.normalized_elo(), c.normalized_elo_error())
        )
    }
}

/// A running test: its settings and the LLR after each counted pair.
pub struct SprtRun {
    pub sprt: Sprt,
    /// (pairs, LLR) after each counted pair.
    pub history: Vec<(u32, f64)>,
    pub verdict: SprtVerdict,
}

impl SprtRun {
    pub fn new(sprt: Sprt) -> SprtRun {
        SprtRun {
            sprt,
            history: Vec::new(),
            verdict: SprtVerdict::Continue,
        }
    }

    /// The test after one more counted pair.
    pub fn update(&mut self, pairs: &PairCounts) {
        let llr = self.sprt.llr(&pairs.counts);
        self.history.push((pairs.counts.pairs(), llr));
        self.verdict = self.sprt.verdict_of(llr);
    }

    pub fn llr(&self) -> f64 {
        self.history.last().map_or(0.0, |&(_, llr)| llr)
    }

    /// `LLR 1.23 (-2.94, 2.94) [0.00, 5.00]`.
    pub fn describe_llr(&self) -> String {
        let (lower, upper) = self.sprt.bounds();
        // Rounded first, so a tiny negative LLR reads 0.00, not -0.00
        // (adding +0.0 turns a negative zero positive).
        let llr = (self.llr() * 100.0).round() / 100.0 + 0.0;
        format!(
            "LLR {llr:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
            self.sprt.elo0(),
            self.sprt.elo1()
        )
    }

    /// The line printed after each pair.
    pub fn progress_line(&self, pairs: &PairCounts) -> String {
        format!(
            "pair {}: {}; Ptnml(0-2) {}; {}",
            pairs.counts.pairs(),
            self.describe_llr(),
            pairs.describe(),
            pairs.describe_elo()
        )
    }

    /// `H1 accepted`, `H0 accepted`, `inconclusive`.
    pub fn verdict_text(&self) -> &'static str {
        match self.verdict {
            SprtVerdict::AcceptH1 => "H1 accepted",
            SprtVerdict::AcceptH0 => "H0 accepted",
            SprtVerdict::Continue => "inconclusive",
        }
    }

    pub fn to_json(&self) -> Value {
        let (lower, upper) = self.sprt.bounds();
        let s = &self.sprt;
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        let history: Vec<Value> = self
            .history
            .iter()
            .map(|&(pairs, llr)| json!({"pairs": pairs, "llr": round(llr)}))
            .collect();
        json!({
            "elo0": s.elo0(),
            "elo1": s.elo1(),
            "alpha": s.alpha(),
            "beta": s.beta(),
            "model": s.model().name(),
            "lower": round(lower),
            "upper": round(upper),
            "llr": round(self.llr()),
            "verdict": match self.verdict {
                SprtVerdict::AcceptH1 => "H1",
                SprtVerdict::AcceptH0 => "H0",
                SprtVerdict::Continue => "inconclusive",
            },
            "history": history,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_counts_when_both_games_are_over_in_any_order() {
        let mut pairs = PairCounts::default();
        // Round 4 (pair 2's second game) before round 3, pair 1 in between.
        assert!(!pairs.add_game(4, Some(-1)));
        assert!(!pairs.add_game(1, Some(1)));
        assert!(pairs.add_game(2, Some(0)));
        assert_eq!(pairs.counts.counts, [0, 0, 0, 1, 0]);
        assert!(pairs.add_game(3, Some(1)));
        assert_eq!(pairs.counts.counts, [0, 0, 1, 1, 0]);
        // A game without result leaves its pair out.
        assert!(!pairs.add_game(5, None));
        assert!(!pairs.add_game(6, Some(1)));
        assert_eq!(pairs.counts.pairs(), 2);
        assert_eq!(pairs.describe(), "0, 0, 1, 1, 0");
    }

    #[test]
    fn the_llr_line() {
        let mut pairs = PairCounts::default();
        pairs.add_game(1, Some(1));
        pairs.add_game(2, Some(0));
        let mut run = SprtRun::new("elo0=0 elo1=5 model=logistic".parse().unwrap());
        run.update(&pairs);
        let line = run.progress_line(&pairs);
        assert!(line.starts_with("pair 1: LLR "), "{line}");
        assert!(
            line.contains(" (-2.94, 2.94) [0.00, 5.00]; Ptnml(0-2) 0, 0, 0, 1, 0; Elo +"),
            "{line}"
        );
        assert_eq!(run.verdict_text(), "inconclusive");
    }
}
