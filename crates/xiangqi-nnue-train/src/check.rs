//! Cheap checks of an evaluation against scored data, without a match:
//! how well a static evaluation (a net, or the classical one) agrees with
//! the search's scores of the same positions. A net that agrees less with
//! the search than the classical evaluation does cannot play better than
//! it; a net whose scale differs from the search's makes every margin of
//! the search (tuned on the classical scale) wrong.

use xiangqi_core::{Position, Score};
use xiangqi_search::wdl::WinRateModel;

use crate::data::Record;

/// Search scores beyond this many centipawns are left out of the checks:
/// a won position's exact score says little, and a few would dominate
/// the correlation.
pub const CHECK_BOUND_CP: i32 = 2_000;

/// Search scores at least this large count in [`Agreement::sign_agreement`].
pub const SIGN_MARGIN_CP: i32 = 100;

/// How an evaluation agrees with the search's scores on quiet positions.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions compared: quiet (not in check, the search's move no
    /// capture), a centipawn score within ±[`CHECK_BOUND_CP`].
    pub positions: usize,
    /// Pearson correlation of the evaluation and the search's score.
    pub correlation: f64,
    /// The least-squares factor `k` of `search ≈ k · eval + c`: above 1,
    /// the evaluation's scale is smaller than the search's.
    pub slope: f64,
    /// Share of positions whose search score is at least
    /// [`SIGN_MARGIN_CP`] from 0 where the evaluation has the same sign.
    pub sign_agreement: f64,
    /// Mean absolute difference, centipawns.
    pub mean_abs_cp: f64,
    /// Mean squared difference of the expected scores the win-rate model
    /// gives the two at the position's ply (the trainer's loss with the
    /// search's score alone as the target).
    pub expected_score_mse: f64,
    /// Mean absolute evaluation, centipawns (its size).
    pub mean_abs_eval: f64,
    /// Mean absolute search score, centipawns.
    pub mean_abs_search: f64,
}

/// True for the records the checks use (see [`Agreement::positions`]).
pub fn checked(record: &Record) -> bool {
    !record.in_check
        && !record.best_move_captures()
        && matches!(record.score, Score::Cp(cp) if cp.abs() <= CHECK_BOUND_CP)
}

/// The position a record holds.
pub fn record_position(record: &Record) -> Position {
    Position::from_fen(&record.fen()).expect("a record read from a data file is a position")
}

/// The agreement of `evaluate` (centipawns for the side to move) with the
/// search's scores of the `records` that [`checked`] keeps.
pub fn agreement(records: &[Record], mut evaluate: impl FnMut(&Position) -> i32) -> Agreement {
    let model = WinRateModel::default();
    let pairs: Vec<(f64, f64, u32)> = records
        .iter()
        .filter(|r| checked(r))
        .map(|r| {
            let Score::Cp(search) = r.score else {
                unreachable!("checked keeps centipawn scores")
            };
            let eval = evaluate(&record_position(r));
            (f64::from(eval), f64::from(search), u32::from(r.ply))
        })
        .collect();
    let n = pairs.len();
    if n == 0 {
        return Agreement::default();
    }
    let nf = n as f64;
    let mean = |f: &dyn Fn(&(f64, f64, u32)) -> f64| pairs.iter().map(f).sum::<f64>() / nf;
    let (me, ms) = (mean(&|p| p.0), mean(&|p| p.1));
    let cov = mean(&|p| (p.0 - me) * (p.1 - ms));
    let var_e = mean(&|p| (p.0 - me).powi(2));
    let var_s = mean(&|p| (p.1 - ms).powi(2));
    let signed: Vec<_> = pairs
        .iter()
        .filter(|p| p.1.abs() >= f64::from(SIGN_MARGIN_CP))
        .collect();
    let same_sign = signed.iter().filter(|p| p.0 * p.1 > 0.0).count();
    let expected = |cp: f64, ply: u32| model.expected_score(Score::Cp(cp.round() as i32), ply);
    Agreement {
        positions: n,
        correlation: cov / (var_e * var_s).sqrt().max(1e-12),
        slope: cov / var_e.max(1e-12),
        sign_agreement: same_sign as f64 / signed.len().max(1) as f64,
        mean_abs_cp: mean(&|p| (p.0 - p.1).abs()),
        expected_score_mse: mean(&|p| (expected(p.0, p.2) - expected(p.1, p.2)).powi(2)),
        mean_abs_eval: mean(&|p| p.0.abs()),
        mean_abs_search: mean(&|p| p.1.abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::PackedBoard;
    use xiangqi_search::wdl::Outcome;

    fn record(fen: &str, cp: i32) -> Record {
        let pos = Position::from_fen(fen).unwrap();
        Record {
            board: PackedBoard::of(&pos),
            side_to_move: pos.side_to_move(),
            score: Score::Cp(cp),
            result: Outcome::Draw,
            ply: 20,
            best_move: None,
            game: 0,
            last_of_game: false,
            in_check: false,
        }
    }

    #[test]
    fn a_perfect_evaluation_at_half_scale_has_slope_two() {
        let fens = [
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        ];
        let scores = [10, -40, 0, 800];
        let records: Vec<Record> = fens.iter().zip(scores).map(|(f, s)| record(f, s)).collect();
        let score_of = |pos: &Position| {
            records
                .iter()
                .find(|r| r.board == PackedBoard::of(pos) && r.side_to_move == pos.side_to_move())
                .map(|r| match r.score {
                    Score::Cp(cp) => cp,
                    Score::Mate(_) => 0,
                })
                .unwrap()
        };
        let half = agreement(&records, |pos| score_of(pos) / 2);
        assert_eq!(half.positions, 4);
        assert!((half.correlation - 1.0).abs() < 1e-9);
        assert!((half.slope - 2.0).abs() < 1e-9);
        assert_eq!(half.sign_agreement, 1.0);
        let flipped = agreement(&records, |pos| -score_of(pos));
        assert!((flipped.correlation + 1.0).abs() < 1e-9);
        assert_eq!(flipped.sign_agreement, 0.0);
        // A position in check, a capture and a mate score are not compared.
        let mut noisy = records.clone();
        noisy[0].in_check = true;
        noisy[1].score = Score::Mate(3);
        noisy[2].best_move = Some("d8d9".parse().unwrap());
        assert_eq!(agreement(&noisy, |_| 0).positions, 1);
    }
}
