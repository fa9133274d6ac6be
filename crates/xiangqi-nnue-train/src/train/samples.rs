//! The records as the trainer reads them: each position's active features
//! for both perspectives (the side to move's first), its target and ply.

use xiangqi_core::Square;
use xiangqi_nnue::features::piece_feature;
use xiangqi_search::wdl::WinRateModel;

use crate::data::Record;

/// Positions ready for training, stored flat.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Samples {
    /// For sample `i`, `features[starts[i]..starts[i + 1]]`: the side to
    /// move's features, then as many of the other side's.
    features: Vec<u16>,
    starts: Vec<u32>,
    /// The expected game score the network is fitted to.
    targets: Vec<f32>,
    /// The win-rate model's ply.
    plies: Vec<u16>,
}

/// Which records train and how their target is made.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Labelling {
    /// Weight of the search's score in the target; the game's result has the rest.
    pub score_weight: f64,
    /// Leave out positions in check and those whose best move captures.
    pub skip_noisy: bool,
    /// Add each position's left-right mirror image as a sample of its own.
    pub mirror: bool,
}

impl Samples {
    pub(crate) fn new() -> Samples {
        Samples {
            starts: vec![0],
            ..Samples::default()
        }
    }

    /// Adds `record` (and, when the labelling mirrors, its mirror image)
    /// unless the labelling leaves it out; true when added.
    pub(crate) fn push(
        &mut self,
        record: &Record,
        labelling: &Labelling,
        model: &WinRateModel,
    ) -> bool {
        if labelling.skip_noisy && (record.in_check || record.best_move_captures()) {
            return false;
        }
        let ply = u32::from(record.ply);
        let searched = model.expected_score(record.score, ply);
        let target = labelling.score_weight * searched
            + (1.0 - labelling.score_weight) * record.result.score();
        let placements: &[fn(Square) -> Square] = if labelling.mirror {
            &[|square| square, Square::flip_files]
        } else {
            &[|square| square]
        };
        for place in placements {
            self.push_features(record, *place);
            self.targets.push(target as f32);
            self.plies.push(record.ply);
        }
        true
    }

    /// The features of `record`'s pieces, each on `place(square)`: the side
    /// to move's perspective, then the other's.
    fn push_features(&mut self, record: &Record, place: fn(Square) -> Square) {
        let us = record.side_to_move;
        for perspective in [us, us.opposite()] {
            self.features.extend(
                record
                    .board
                    .pieces()
                    .map(|(square, piece)| piece_feature(perspective, piece, place(square)) as u16),
            );
        }
        self.starts.push(self.features.len() as u32);
    }

    /// Number of samples.
    pub(crate) fn len(&self) -> usize {
        self.targets.len()
    }

    /// Sample `i`: (the side to move's features, the other side's, target, ply).
    pub(crate) fn get(&self, i: usize) -> (&[u16], &[u16], f32, u32) {
        let all = &self.features[self.starts[i] as usize..self.starts[i + 1] as usize];
        let (ours, theirs) = all.split_at(all.len() / 2);
        (ours, theirs, self.targets[i], u32::from(self.plies[i]))
    }

    /// Mean squared error of always answering one half (a draw's score): what
    /// the network must beat.
    pub(crate) fn constant_loss(&self) -> f64 {
        let n = self.len().max(1) as f64;
        self.targets
            .iter()
            .map(|&t| (f64::from(t) - 0.5).powi(2))
            .sum::<f64>()
            / n
    }
}
