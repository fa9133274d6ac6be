//! How well a model's chances match what happened: positions grouped by ply
//! band and score bucket, each group's observed win/draw/loss shares beside
//! the model's mean prediction (the data of the plot in `docs/engine.md`).

use super::{WdlSample, WinRateModel};

/// Ply bands: plies `[PLY_BANDS[i], PLY_BANDS[i + 1])`, the last open.
pub const PLY_BANDS: [u32; 3] = [0, 40, 100];

/// One group of positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Bucket {
    /// First ply of the band.
    pub ply_from: u32,
    /// End of the band (exclusive), `None` for the last.
    pub ply_to: Option<u32>,
    /// Lowest score of the bucket, centipawns (the bucket is
    /// `[cp_from, cp_from + width)`).
    pub cp_from: i32,
    /// Positions in it.
    pub positions: usize,
    /// Mean score of its positions.
    pub mean_cp: f64,
    /// Observed win, draw, loss shares (side to move).
    pub observed: [f64; 3],
    /// The model's mean win, draw, loss chances.
    pub predicted: [f64; 3],
    /// The mean of the `reference` curve (an expected score, 0-1).
    pub reference: f64,
}

impl Bucket {
    /// The observed expected score (wins plus half the draws).
    pub fn observed_score(&self) -> f64 {
        self.observed[0] + self.observed[1] / 2.0
    }

    /// The model's mean expected score.
    pub fn predicted_score(&self) -> f64 {
        self.predicted[0] + self.predicted[1] / 2.0
    }
}

/// Groups `samples` by [`PLY_BANDS`] and by `width`-centipawn score
/// buckets (groups of fewer than `min_positions` positions are left out) and
/// compares each with `model` and with an expected-score curve
/// `reference(cp, ply)`. Ordered by band, then score.
///
/// ```
/// use xiangqi_search::wdl::{calibration, Outcome, WdlSample, WinRateModel};
/// let sample = |cp, outcome| WdlSample { score_cp: cp, ply: 10, outcome };
/// let samples = [sample(10, Outcome::Win), sample(30, Outcome::Draw), sample(250, Outcome::Win)];
/// let rows = calibration(&samples, &WinRateModel::FITTED, |_, _| 0.5, 100, 1);
/// assert_eq!(rows.len(), 2);
/// assert_eq!((rows[0].cp_from, rows[0].positions), (0, 2));
/// assert_eq!(rows[0].observed, [0.5, 0.5, 0.0]);
/// assert_eq!(rows[1].cp_from, 200);
/// ```
pub fn calibration(
    samples: &[WdlSample],
    model: &WinRateModel,
    reference: impl Fn(i32, u32) -> f64,
    width: i32,
    min_positions: usize,
) -> Vec<Bucket> {
    let width = width.max(1);
    let band_of = |ply: u32| PLY_BANDS.iter().rposition(|&from| ply >= from).unwrap_or(0);
    let mut keys: Vec<(usize, i32, &WdlSample)> = samples
        .iter()
        .map(|s| (band_of(s.ply), s.score_cp.div_euclid(width), s))
        .collect();
    keys.sort_by_key(|&(band, bucket, _)| (band, bucket));
    keys.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1))
        .filter(|group| group.len() >= min_positions.max(1))
        .map(|group| {
            let (band, bucket, _) = group[0];
            let n = group.len() as f64;
            let mut row = Bucket {
                ply_from: PLY_BANDS[band],
                ply_to: PLY_BANDS.get(band + 1).copied(),
                cp_from: bucket * width,
                positions: group.len(),
                mean_cp: 0.0,
                observed: [0.0; 3],
                predicted: [0.0; 3],
                reference: 0.0,
            };
            for &(_, _, s) in group {
                row.mean_cp += f64::from(s.score_cp) / n;
                row.observed[s.outcome.index()] += 1.0 / n;
                let p = model.probabilities(f64::from(s.score_cp), s.ply);
                for (mean, chance) in row.predicted.iter_mut().zip(p) {
                    *mean += chance / n;
                }
                row.reference += reference(s.score_cp, s.ply) / n;
            }
            row
        })
        .collect()
}
