//! The game record: tags, a tree of moves with comments, NAGs and variations, and the result.

use std::fmt;
use std::str::FromStr;

use xiangqi_core::{FenError, Move, PlayError, Position};

use crate::Notation;

/// The result of a game (N-PGN `Result`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    RedWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unknown, unfinished or cancelled.
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a text that is no PGN result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown result {0:?}: expected 1-0, 0-1, 1/2-1/2 or *")]
pub struct UnknownResult(pub String);

impl FromStr for GameResult {
    type Err = UnknownResult;
    fn from_str(s: &str) -> Result<GameResult, UnknownResult> {
        match s.trim() {
            "1-0" => Ok(GameResult::RedWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(UnknownResult(s.to_owned())),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<GameResult, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// One move of a line with what is written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Node {
    /// The move (legal in the position before it).
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: Move,
    /// Numeric annotation glyphs (`$1`; `!` `?` `!!` `??` `!?` `?!` are read as `$1`-`$6`).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub nags: Vec<u8>,
    /// Comments after the move, in order (trimmed; `{…}` and `;…` alike).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub comments: Vec<String>,
    /// Alternatives to this move, each played from the position before it.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub variations: Vec<Line>,
}

impl Node {
    /// A move with nothing attached.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// A sequence of moves: the main line or a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Line {
    /// Comments before the first move of the line.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub comments: Vec<String>,
    /// The moves.
    pub moves: Vec<Node>,
}

impl Line {
    /// Moves in this line and all its variations.
    pub fn count_moves(&self) -> usize {
        self.moves
            .iter()
            .map(|n| 1 + n.variations.iter().map(Line::count_moves).sum::<usize>())
            .sum()
    }
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Game {
    /// Tag pairs in file order. The `Format` tag is not kept here: it is
    /// [`Game::notation`], and the writer emits it.
    pub tags: Vec<(String, String)>,
    /// The notation the move text was written in (from the `Format` tag or
    /// detected); ICCS for a game without moves.
    pub notation: Notation,
    /// The main line.
    pub mainline: Line,
    /// The termination marker at the end of the move text, `None` when the
    /// file had none.
    pub result: Option<GameResult>,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            tags: Vec::new(),
            notation: Notation::Iccs,
            mainline: Line::default(),
            result: None,
        }
    }
}

impl Game {
    /// The value of tag `name` (case-sensitive, as PGN is).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an existing value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some((_, v)) => *v = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// The start position: the `FEN` tag, or the standard start.
    pub fn start_position(&self) -> Result<Position, FenError> {
        match self.tag("FEN") {
            Some(fen) if !fen.trim().is_empty() => Position::from_fen(fen),
            _ => Ok(Position::startpos()),
        }
    }

    /// The main-line moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.mainline.moves.iter().map(|n| n.mv)
    }

    /// Number of plies in the main line.
    pub fn plies(&self) -> usize {
        self.mainline.moves.len()
    }

    /// The result: the termination marker, else the `Result` tag, else `*`.
    pub fn outcome(&self) -> GameResult {
        self.result
            .or_else(|| self.tag("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(GameResult::Unknown)
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Result<Position, ReplayError> {
        let mut pos = self.start_position()?;
        for (i, mv) in self.moves().enumerate() {
            // Moves of a game read by the reader are legal; a hand-built game may not be.
            pos.play(mv)
                .map_err(|error| ReplayError::Illegal { ply: i + 1, error })?;
        }
        Ok(pos)
    }
}

/// Why a game's moves cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The `FEN` tag is invalid.
    #[error("invalid FEN tag: {0}")]
    Fen(#[from] FenError),
    /// A move is illegal.
    #[error("ply {ply}: {error}")]
    Illegal {
        /// 1-based ply of the line.
        ply: usize,
        /// Why.
        error: PlayError,
    },
}
