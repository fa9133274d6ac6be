//! Weaker play on purpose (UCI `Skill Level`, `UCI_LimitStrength` with
//! `UCI_Elo`): Stockfish's method. A search limited to a shallow depth
//! reports the best few lines, and the move is a weighted random pick among
//! them that favours worse moves more the lower the level. Level
//! [`MAX_SKILL_LEVEL`] is full strength. [`Skill::from_elo`] maps an Elo
//! to a level through [`ELO_TABLE`], measured with `xiangqi match`, on an
//! absolute scale anchored to a fixed reference engine ([`REFERENCE_ELO`];
//! see `docs/engine.md`, "Skill levels").

use xiangqi_core::{Move, SplitMix64};

use crate::engine::PvLine;
use crate::score::ordinal;

/// Full strength; lower levels play worse.
pub const MAX_SKILL_LEVEL: u8 = 20;
/// Lines a weakened search considers (Stockfish's choice).
const SKILL_LINES: usize = 4;
/// A pawn in centipawns: the largest spread between the lines that counts.
const PAWN: i32 = 100;

/// The `UCI_Elo` scale's anchor: Debian's Fairy-Stockfish 11.1 (the
/// `fairy-stockfish` package, `UCI_Variant xiangqi`, one thread, its
/// default hash) at 100 ms a move is rated 2000 by definition, as a rating
/// list fixes one engine's rating. No published rating list of xiangqi
/// engines exists to tie it to, so the scale is ours: differences on it are
/// measured, its zero point is this convention.
pub const REFERENCE_ELO: i32 = 2000;
/// The classical evaluation at full strength against the reference at
/// 100 ms a move: 135 / 4 / 61 over 200 games, +135 ± 52 Elo
/// (docs/engine-experiments.md, the 100 ms run of `cargo xtask bench
/// strength --games 200 --tc 100 --seed 3`). The levels below full
/// strength are measured against it: weakened play evaluates classically.
pub const CLASSICAL_VS_REFERENCE: i32 = 135;
/// The classical evaluation at full strength on the `UCI_Elo` scale: the
/// base of [`ELO_TABLE`].
pub const CLASSICAL_ELO: i32 = REFERENCE_ELO + CLASSICAL_VS_REFERENCE;
/// Full strength, the embedded net, against the reference at 100 ms a
/// move: 179 / 4 / 17 over 200 games, +391.6 ± 84.3 Elo (docs/engine.md,
/// "The second net").
pub const FULL_STRENGTH_VS_REFERENCE: i32 = 392;
/// Full strength on the `UCI_Elo` scale: `UCI_Elo`'s maximum and default.
pub const FULL_STRENGTH_ELO: i32 = REFERENCE_ELO + FULL_STRENGTH_VS_REFERENCE;

/// Elo of the levels against the classical evaluation at full strength
/// ([`CLASSICAL_ELO`] plus these is their `UCI_Elo`), measured with
/// `xiangqi match`, 40 games a level at 100 ms/move (docs/engine.md, "Skill
/// levels"). Levels 5-19 are each a match against full strength; levels 0
/// and 2 lost every game to the next level up (0 against 2, 2 against 5),
/// so theirs are the one-sided 95 % bounds of a 0/40 score (444 Elo per
/// step), chained from level 5. Level [`MAX_SKILL_LEVEL`] is full strength
/// with the net. Between two entries the level is interpolated; the table's
/// range, shifted by [`CLASSICAL_ELO`], is `UCI_Elo`'s.
pub const ELO_TABLE: &[(u8, i32)] = &[
    (0, -1647),
    (2, -1203),
    (5, -759),
    (10, -564),
    (15, -269),
    (19, -269),
    (
        MAX_SKILL_LEVEL,
        FULL_STRENGTH_VS_REFERENCE - CLASSICAL_VS_REFERENCE,
    ),
];

/// A weakened engine's setting.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    /// 0 to [`MAX_SKILL_LEVEL`], fractional from [`Skill::from_elo`].
    level: f64,
}

impl Skill {
    /// `Skill Level` (clamped to 0..=[`MAX_SKILL_LEVEL`]); `None` at full strength.
    pub fn level(level: u8) -> Option<Skill> {
        (level < MAX_SKILL_LEVEL).then_some(Skill {
            level: f64::from(level),
        })
    }

    /// The level whose measured strength is `elo` on the `UCI_Elo` scale
    /// ([`REFERENCE_ELO`]; clamped to [`Skill::elo_range`]); `None` at full strength.
    pub fn from_elo(elo: i32) -> Option<Skill> {
        let (first, last) = (ELO_TABLE[0], ELO_TABLE[ELO_TABLE.len() - 1]);
        // The table is relative to the classical full strength.
        let elo = (elo.saturating_sub(CLASSICAL_ELO)).clamp(first.1, last.1);
        let level = ELO_TABLE
            .windows(2)
            .find(|w| elo <= w[1].1)
            .map_or(f64::from(last.0), |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                let t = f64::from(elo - e0) / f64::from((e1 - e0).max(1));
                f64::from(l0) + t * f64::from(l1 - l0)
            });
        (level < f64::from(MAX_SKILL_LEVEL)).then_some(Skill { level })
    }

    /// The lowest and highest `UCI_Elo`: [`ELO_TABLE`]'s range on the
    /// anchored scale (the highest is full strength, [`FULL_STRENGTH_ELO`]).
    pub fn elo_range() -> (i32, i32) {
        (
            CLASSICAL_ELO + ELO_TABLE[0].1,
            CLASSICAL_ELO + ELO_TABLE[ELO_TABLE.len() - 1].1,
        )
    }

    /// The `UCI_Elo` of `level` on the anchored scale (interpolated in [`ELO_TABLE`]).
    pub fn elo_of_level(level: u8) -> i32 {
        let level = level.min(MAX_SKILL_LEVEL);
        let relative = ELO_TABLE
            .windows(2)
            .find(|w| level <= w[1].0)
            .map_or(0, |w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                let t = f64::from(level - l0) / f64::from((l1 - l0).max(1));
                (f64::from(e0) + t * f64::from(e1 - e0)).round() as i32
            });
        CLASSICAL_ELO + relative
    }

    /// The level, 0 to [`MAX_SKILL_LEVEL`].
    pub fn value(self) -> f64 {
        self.level
    }

    /// The search depth of this level: one ply more per level.
    pub fn depth(self) -> u32 {
        1 + self.level as u32
    }

    /// How many lines the search must report for [`Skill::pick`].
    pub fn lines(self) -> usize {
        SKILL_LINES
    }

    /// Picks among `lines` (best first, as a search reports them): each
    /// line's score gets a bonus that grows with its distance from the best
    /// and a random part, both larger the lower the level. `None` only for
    /// no lines.
    pub fn pick(self, lines: &[PvLine], rng: &mut SplitMix64) -> Option<usize> {
        let top = ordinal(lines.first()?.score);
        let last = ordinal(lines.last()?.score);
        let delta = (top - last).min(PAWN) as f64;
        let weakness = 120.0 - 2.0 * self.level;
        let mut best = None;
        let mut max = f64::NEG_INFINITY;
        for (i, line) in lines.iter().enumerate() {
            let score = f64::from(ordinal(line.score));
            let random = (rng.next_u64() % weakness.max(1.0) as u64) as f64;
            let push = (weakness * (f64::from(top) - score) + delta * random) / 128.0;
            if score + push >= max {
                max = score + push;
                best = Some(i);
            }
        }
        best
    }
}

/// The move of the picked line.
pub(crate) fn picked_move(lines: &[PvLine], index: usize) -> Option<Move> {
    lines.get(index).and_then(|l| l.pv.first().copied())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Score;

    fn lines(scores: &[i32]) -> Vec<PvLine> {
        let moves = ["h2e2", "b2e2", "h0g2", "c3c4"];
        scores
            .iter()
            .zip(moves)
            .map(|(&s, m)| PvLine {
                score: Score::Cp(s),
                pv: vec![m.parse().unwrap()],
            })
            .collect()
    }

    #[test]
    fn full_strength_is_no_skill() {
        assert_eq!(Skill::level(MAX_SKILL_LEVEL), None);
        assert_eq!(Skill::from_elo(FULL_STRENGTH_ELO), None);
        assert_eq!(Skill::from_elo(i32::MAX), None);
        assert_eq!(Skill::elo_range().1, FULL_STRENGTH_ELO);
        assert!(Skill::level(0).is_some());
    }

    #[test]
    fn elo_maps_through_the_table() {
        let (low, high) = Skill::elo_range();
        assert_eq!(Skill::from_elo(low).unwrap().value(), 0.0);
        assert_eq!(Skill::from_elo(low - 500).unwrap().value(), 0.0);
        assert_eq!(Skill::from_elo(i32::MIN).unwrap().value(), 0.0);
        let (l, e) = ELO_TABLE[1];
        assert_eq!(
            Skill::from_elo(CLASSICAL_ELO + e).unwrap().value(),
            f64::from(l)
        );
        let mid = CLASSICAL_ELO + (ELO_TABLE[1].1 + ELO_TABLE[2].1) / 2;
        let v = Skill::from_elo(mid).unwrap().value();
        assert!(v > f64::from(ELO_TABLE[1].0) && v < f64::from(ELO_TABLE[2].0));
        assert!(high >= mid);
    }

    #[test]
    fn the_scale_is_anchored_to_the_reference() {
        // The classical evaluation measured +135 against the reference
        // rated 2000, the net +392; the levels are the classical one's.
        assert_eq!(Skill::elo_range(), (2135 - 1647, 2392));
        assert_eq!(Skill::elo_of_level(MAX_SKILL_LEVEL), 2392);
        assert_eq!(Skill::elo_of_level(5), 2135 - 759);
        assert_eq!(Skill::elo_of_level(19), 2135 - 269);
        // Between table entries the level interpolates both ways alike.
        let elo = Skill::elo_of_level(7);
        assert!((Skill::from_elo(elo).unwrap().value() - 7.0).abs() < 0.01);
    }

    #[test]
    fn low_levels_pick_worse_moves_more_often() {
        let lines = lines(&[50, 20, -10, -60]);
        let not_best = |level: u8| {
            let skill = Skill::level(level).unwrap();
            let mut rng = SplitMix64::new(7);
            (0..2000)
                .filter(|_| skill.pick(&lines, &mut rng) != Some(0))
                .count()
        };
        let (weak, strong) = (not_best(0), not_best(19));
        assert!(weak > strong, "level 0: {weak}, level 19: {strong}");
        assert!(weak > 500, "level 0 mostly varies: {weak}");
    }

    #[test]
    fn a_mate_beats_every_random_push() {
        let mut lines = lines(&[0, -20, -40, -60]);
        lines[0].score = Score::Mate(1);
        let skill = Skill::level(0).unwrap();
        let mut rng = SplitMix64::new(1);
        for _ in 0..200 {
            assert_eq!(skill.pick(&lines, &mut rng), Some(0));
        }
    }
}
