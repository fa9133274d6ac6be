//! What the store keeps for one position and move: counts merged on write.

use crate::stats::GameOutcome;

/// Example games kept for each position and move: the first ones in input
/// order.
pub const EXAMPLES_PER_MOVE: usize = 3;

/// Games, results, ratings and the first example games of one position and
/// move, over some of the corpus. Two tallies of consecutive parts of the
/// corpus merge into the tally of both ([`Tally::merge`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub games: u64,
    pub red_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Both players' ratings added up, over the `rated` games.
    pub rating_sum: u64,
    pub rated: u64,
    /// Game ids; the first `example_count` are used.
    pub examples: [u32; EXAMPLES_PER_MOVE],
    pub example_count: u8,
}

impl Tally {
    /// Counts game `id`.
    pub fn add_game(&mut self, id: u32, outcome: Option<GameOutcome>, rating_sum: Option<u64>) {
        self.games += 1;
        match outcome {
            Some(GameOutcome::RedWins) => self.red_wins += 1,
            Some(GameOutcome::Draw) => self.draws += 1,
            Some(GameOutcome::BlackWins) => self.black_wins += 1,
            None => {}
        }
        if let Some(sum) = rating_sum {
            self.rating_sum += sum;
            self.rated += 1;
        }
        self.push_example(id);
    }

    /// Adds `later`, the tally of games that come after this one's in input
    /// order: its examples go after these.
    pub fn merge(&mut self, later: &Tally) {
        self.games += later.games;
        self.red_wins += later.red_wins;
        self.draws += later.draws;
        self.black_wins += later.black_wins;
        self.rating_sum += later.rating_sum;
        self.rated += later.rated;
        for &id in later.examples() {
            self.push_example(id);
        }
    }

    pub fn examples(&self) -> &[u32] {
        &self.examples[..usize::from(self.example_count)]
    }

    fn push_example(&mut self, id: u32) {
        let count = usize::from(self.example_count);
        if count < EXAMPLES_PER_MOVE {
            self.examples[count] = id;
            self.example_count += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_keeps_the_first_examples_in_input_order() {
        let mut first = Tally::default();
        first.add_game(1, Some(GameOutcome::RedWins), Some(4000));
        first.add_game(2, None, None);
        let mut later = Tally::default();
        later.add_game(5, Some(GameOutcome::Draw), None);
        later.add_game(6, Some(GameOutcome::BlackWins), Some(3000));
        first.merge(&later);
        assert_eq!(first.examples(), [1, 2, 5]);
        assert_eq!(
            (first.games, first.red_wins, first.draws, first.black_wins),
            (4, 1, 1, 1)
        );
        assert_eq!((first.rating_sum, first.rated), (7000, 2));
    }
}
