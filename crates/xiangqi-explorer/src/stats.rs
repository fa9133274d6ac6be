//! What a query answers: the moves played from a position with their
//! results, mean rating and example games.

use xiangqi_core::{Color, Move};

/// A game's result as the explorer counts it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GameOutcome {
    #[cfg_attr(feature = "serde", serde(rename = "1-0"))]
    RedWins,
    #[cfg_attr(feature = "serde", serde(rename = "1/2-1/2"))]
    Draw,
    #[cfg_attr(feature = "serde", serde(rename = "0-1"))]
    BlackWins,
}

impl GameOutcome {
    /// The PGN token: `1-0`, `1/2-1/2`, `0-1`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameOutcome::RedWins => "1-0",
            GameOutcome::Draw => "1/2-1/2",
            GameOutcome::BlackWins => "0-1",
        }
    }

    pub(crate) fn from_token(token: &str) -> Option<GameOutcome> {
        match token {
            "1-0" => Some(GameOutcome::RedWins),
            "1/2-1/2" => Some(GameOutcome::Draw),
            "0-1" => Some(GameOutcome::BlackWins),
            _ => None,
        }
    }
}

/// Games counted and how they ended. Games with no known result (neither
/// recorded nor decided by the rules) are in `games` only.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Results {
    pub games: u64,
    pub red_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
}

impl Results {
    /// Games whose result is known.
    pub fn decided(&self) -> u64 {
        self.red_wins + self.draws + self.black_wins
    }

    /// `side`'s score in percent over the games with a known result (a win
    /// 1, a draw ½); `None` without such games.
    pub fn score(&self, side: Color) -> Option<f64> {
        let decided = self.decided();
        if decided == 0 {
            return None;
        }
        let wins = match side {
            Color::Red => self.red_wins,
            Color::Black => self.black_wins,
        };
        Some(100.0 * (wins as f64 + self.draws as f64 / 2.0) / decided as f64)
    }

    pub(crate) fn add(&mut self, other: &Results) {
        self.games += other.games;
        self.red_wins += other.red_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
    }
}

/// A game shown as an example: where it is in the corpus and its headers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExampleGame {
    /// The game's number in the build, in input order (1-based).
    pub id: u64,
    /// The file it was read from, as the collection names it.
    pub file: String,
    /// Its 1-based number in that file.
    pub index: u64,
    pub red: Option<String>,
    pub black: Option<String>,
    pub red_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub event: Option<String>,
    pub date: Option<String>,
    /// The result counted: recorded, or the rules' verdict; `None`: unknown.
    pub result: Option<GameOutcome>,
}

/// One move played from the queried position.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoveStats {
    /// The move (ICCS when serialised).
    #[cfg_attr(feature = "serde", serde(serialize_with = "iccs"))]
    pub mv: Move,
    pub results: Results,
    /// The mean of both players' ratings over the games where the record
    /// has both.
    pub mean_rating: Option<f64>,
    /// Games that played it: the first ones in input order.
    pub examples: Vec<ExampleGame>,
}

#[cfg(feature = "serde")]
fn iccs<S: serde::Serializer>(mv: &Move, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(mv)
}

/// The moves played from a position, most played first (then by ICCS),
/// and their sum.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PositionStats {
    /// All the moves' games and results together.
    pub total: Results,
    pub moves: Vec<MoveStats>,
}
