//! The game record: tags, a tree of moves with comments, NAGs and variations, and the result.

use std::fmt;
use std::str::FromStr;

use xiangqi_core::{Color, Diagram, FenError, Move, Position, ReplayError};

use xiangqi_notation::Notation;

use crate::GameFileError;

/// The tags in which an engine review records Red's and Black's accuracy,
/// 0 to 100 with one decimal (docs/engine-client.md defines it).
pub const ACCURACY_TAGS: [&str; 2] = ["RedAccuracy", "BlackAccuracy"];

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

/// One move of a line with what is written after it: NAGs, comments and
/// variations, read and changed through [`Node::nags`], [`Node::comments_mut`]
/// and the like.
///
/// Most moves have none of these, so they live in one optional box: a node
/// is 16 bytes, not 80, and a game's moves are written and dropped in a
/// fraction of the time (the PGN reader's every move builds one).
///
/// ```
/// use xiangqi_gamefile::Node;
///
/// let mut node = Node::new("h2e2".parse().unwrap());
/// assert!(node.comments().is_empty());
/// node.comments_mut().push("the central cannon".to_owned());
/// node.nags_mut().push(1);
/// assert_eq!(node.comments(), ["the central cannon"]);
/// assert_eq!(node.nags(), [1]);
/// ```
#[derive(Clone, Debug)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "NodeFields", into = "NodeFields")
)]
pub struct Node {
    /// The move (legal in the position before it).
    pub mv: Move,
    annotations: Option<Box<Annotations>>,
}

/// What a node may carry besides its move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Annotations {
    nags: Vec<u8>,
    comments: Vec<String>,
    variations: Vec<Line>,
}

impl Node {
    /// A move with nothing attached.
    pub fn new(mv: Move) -> Node {
        Node {
            mv,
            annotations: None,
        }
    }

    /// Numeric annotation glyphs (`$1`; `!` `?` `!!` `??` `!?` `?!` are read as `$1`-`$6`).
    pub fn nags(&self) -> &[u8] {
        self.annotations.as_ref().map_or(&[], |a| &a.nags)
    }

    /// Comments after the move, in order (trimmed; `{…}` and `;…` alike).
    pub fn comments(&self) -> &[String] {
        self.annotations.as_ref().map_or(&[], |a| &a.comments)
    }

    /// Alternatives to this move, each played from the position before it.
    pub fn variations(&self) -> &[Line] {
        self.annotations.as_ref().map_or(&[], |a| &a.variations)
    }

    /// The NAGs, to change.
    pub fn nags_mut(&mut self) -> &mut Vec<u8> {
        &mut self.annotations_mut().nags
    }

    /// The comments, to change.
    pub fn comments_mut(&mut self) -> &mut Vec<String> {
        &mut self.annotations_mut().comments
    }

    /// The variations, to change.
    pub fn variations_mut(&mut self) -> &mut Vec<Line> {
        &mut self.annotations_mut().variations
    }

    fn annotations_mut(&mut self) -> &mut Annotations {
        self.annotations.get_or_insert_with(Box::default)
    }
}

/// Nodes are equal when their moves and everything attached are: a node
/// whose box was opened and left empty equals one that never had it.
impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.mv == other.mv
            && self.nags() == other.nags()
            && self.comments() == other.comments()
            && self.variations() == other.variations()
    }
}

impl Eq for Node {}

/// The serialised form of a [`Node`]: its move and the non-empty lists.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
struct NodeFields {
    #[serde(rename = "move")]
    mv: Move,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nags: Vec<u8>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    variations: Vec<Line>,
}

#[cfg(feature = "serde")]
impl From<NodeFields> for Node {
    fn from(f: NodeFields) -> Node {
        let empty = f.nags.is_empty() && f.comments.is_empty() && f.variations.is_empty();
        Node {
            mv: f.mv,
            annotations: (!empty).then(|| {
                Box::new(Annotations {
                    nags: f.nags,
                    comments: f.comments,
                    variations: f.variations,
                })
            }),
        }
    }
}

#[cfg(feature = "serde")]
impl From<Node> for NodeFields {
    fn from(n: Node) -> NodeFields {
        let a = n.annotations.map(|a| *a).unwrap_or_default();
        NodeFields {
            mv: n.mv,
            nags: a.nags,
            comments: a.comments,
            variations: a.variations,
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
            .map(|n| 1 + n.variations().iter().map(Line::count_moves).sum::<usize>())
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
    /// What was wrong with the record where the reader could still return
    /// the game: a move that cannot be played cuts its line before it (the
    /// rest of that line is dropped, the other lines are kept), a diagram's
    /// side to move corrected. Empty for a clean game. Not part of the
    /// record itself: not serialised, not written to files.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub errors: Vec<GameFileError>,
}

impl Default for Game {
    fn default() -> Game {
        Game {
            tags: Vec::new(),
            notation: Notation::Iccs,
            mainline: Line::default(),
            result: None,
            errors: Vec::new(),
        }
    }
}

impl Game {
    /// A game from the start position whose main line is `moves`, without
    /// tags, comments or result (moves are not checked here; the writers
    /// check them).
    ///
    /// ```
    /// use xiangqi_gamefile::Game;
    /// let game = Game::from_moves(["h2e2".parse().unwrap(), "h9g7".parse().unwrap()]);
    /// assert_eq!(game.plies(), 2);
    /// ```
    pub fn from_moves(moves: impl IntoIterator<Item = Move>) -> Game {
        let mut game = Game::default();
        game.mainline.moves.extend(moves.into_iter().map(Node::new));
        game
    }

    /// The value of tag `name` (case-sensitive, as PGN is).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// `side`'s accuracy as its [`ACCURACY_TAGS`] tag records it; `None`
    /// without the tag or when it is not a number from 0 to 100.
    ///
    /// ```
    /// use xiangqi_core::Color;
    /// let mut game = xiangqi_gamefile::Game::default();
    /// game.set_tag("RedAccuracy", "87.5");
    /// game.set_tag("BlackAccuracy", "lots");
    /// assert_eq!(game.recorded_accuracy(Color::Red), Some(87.5));
    /// assert_eq!(game.recorded_accuracy(Color::Black), None);
    /// ```
    pub fn recorded_accuracy(&self, side: Color) -> Option<f64> {
        let tag = match side {
            Color::Red => ACCURACY_TAGS[0],
            Color::Black => ACCURACY_TAGS[1],
        };
        self.tag(tag)?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| (0.0..=100.0).contains(v))
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

    /// The start as a board to show: the `FEN` tag read for its shape only
    /// ([`Diagram::from_fen`]), or the standard start. A game read from a
    /// diagram no game can reach (an
    /// [`ErrorKind::InvalidDiagram`](crate::ErrorKind::InvalidDiagram) among
    /// its errors) has this and no [`start_position`](Game::start_position),
    /// so nothing plays or searches from it; [`Diagram::problems`] says what
    /// is wrong.
    pub fn start_diagram(&self) -> Result<Diagram, FenError> {
        match self.tag("FEN") {
            Some(fen) if !fen.trim().is_empty() => Diagram::from_fen(fen),
            _ => Ok(Diagram::from(&Position::startpos())),
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

    /// This game as strict reading takes it
    /// ([`ReaderOptions::strict`](crate::ReaderOptions::strict)): its first
    /// error if reading found any, else the game.
    pub fn into_strict(mut self) -> Result<Game, GameFileError> {
        match self.errors.is_empty() {
            true => Ok(self),
            false => Err(self.errors.swap_remove(0)),
        }
    }

    /// The position after the main line.
    pub fn final_position(&self) -> Result<Position, MainLineError> {
        // Moves of a game read by the reader are legal; a hand-built game may not be.
        Ok(self.start_position()?.after_moves(self.moves())?)
    }
}

/// Why a game's main line cannot be replayed: its start, or one of its moves.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MainLineError {
    /// The `FEN` tag is invalid.
    #[error("FEN tag: {0}")]
    Fen(FenError),
    /// A move is illegal.
    #[error(transparent)]
    Illegal(#[from] ReplayError),
}

impl From<FenError> for MainLineError {
    fn from(error: FenError) -> Self {
        MainLineError::Fen(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_with_an_emptied_box_equals_a_plain_one() {
        let mv: Move = "h2e2".parse().unwrap();
        let mut node = Node::new(mv);
        node.comments_mut().push("x".to_owned());
        assert_ne!(node, Node::new(mv));
        node.comments_mut().clear();
        assert_eq!(node, Node::new(mv));
        assert_eq!(std::mem::size_of::<Node>(), 16);
    }
}
