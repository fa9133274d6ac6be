//! Places in a game tree, the way python-chess walks one (`GameNode`): the
//! root before the first move, or one move; its parent, its children (the
//! main continuation first, then the alternatives to it in file order), and
//! a new variation added below it.
//!
//! ```
//! use xiangqi_gamefile::NodePath;
//! use xiangqi_gamefile::pgn::read_str;
//!
//! let mut game = read_str("1. h2e2 h9g7 (1... b9c7) *").next().unwrap().unwrap();
//! let first = &NodePath::root().children(&game.mainline)[0];
//! let replies = first.children(&game.mainline);
//! assert_eq!(replies.len(), 2); // h9g7 and the alternative b9c7
//! assert_eq!(replies[1].node(&game.mainline).unwrap().mv.to_string(), "b9c7");
//! assert_eq!(replies[1].parent().as_ref(), Some(first));
//! let added = replies[1].add_variation(&mut game.mainline, "h0g2".parse().unwrap()).unwrap();
//! let moves: Vec<String> = added.moves(&game.mainline).unwrap().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["h2e2", "b9c7", "h0g2"]);
//! assert!(first.is_mainline() && !replies[1].is_mainline());
//! let mut commented = read_str("1. h2e2 ({the cannon elsewhere} 1. b2e2) *").next().unwrap().unwrap();
//! let other = &NodePath::root().children(&commented.mainline)[1];
//! assert_eq!(other.starting_comments(&commented.mainline).unwrap(), &["the cannon elsewhere"]);
//! other.starting_comments_mut(&mut commented.mainline).unwrap().clear();
//! assert!(first.starting_comments(&game.mainline).is_none());
//! ```

use crate::{Line, Node};
use xiangqi_core::Move;

/// A place in a game tree, valid for the tree it was taken from (adding
/// variations keeps every place valid: nothing moves).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct NodePath {
    /// From the main line to the line holding the node: at each step, the
    /// index of a move and the index of one of its variations.
    line: Vec<(usize, usize)>,
    /// The node's index in that line; `None`: the root.
    index: Option<usize>,
}

impl NodePath {
    /// The root: the start position, before any move.
    pub fn root() -> NodePath {
        NodePath::default()
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.index.is_none()
    }

    /// Whether the node is on the main line (the root is).
    pub fn is_mainline(&self) -> bool {
        self.line.is_empty()
    }

    /// The comments before the node when it starts a variation (python-chess's
    /// `starting_comment`); `None` for any other node, whose comments before
    /// it belong to the move before.
    pub fn starting_comments<'a>(&self, mainline: &'a Line) -> Option<&'a Vec<String>> {
        if self.line.is_empty() || self.index != Some(0) {
            return None;
        }
        Some(&NodePath::resolve(mainline, &self.line)?.comments)
    }

    /// The comments before the node, to change (see [`NodePath::starting_comments`]).
    pub fn starting_comments_mut<'a>(&self, mainline: &'a mut Line) -> Option<&'a mut Vec<String>> {
        if self.line.is_empty() || self.index != Some(0) {
            return None;
        }
        Some(&mut NodePath::resolve_mut(mainline, &self.line)?.comments)
    }

    fn resolve<'a>(line: &'a Line, steps: &[(usize, usize)]) -> Option<&'a Line> {
        steps.iter().try_fold(line, |line, &(at, variation)| {
            line.moves.get(at)?.variations().get(variation)
        })
    }

    fn resolve_mut<'a>(line: &'a mut Line, steps: &[(usize, usize)]) -> Option<&'a mut Line> {
        steps.iter().try_fold(line, |line, &(at, variation)| {
            line.moves.get_mut(at)?.variations_mut().get_mut(variation)
        })
    }

    /// The move node here (`None` at the root or for a path not in `mainline`'s tree).
    pub fn node<'a>(&self, mainline: &'a Line) -> Option<&'a Node> {
        NodePath::resolve(mainline, &self.line)?
            .moves
            .get(self.index?)
    }

    /// The move node here, to change.
    pub fn node_mut<'a>(&self, mainline: &'a mut Line) -> Option<&'a mut Node> {
        NodePath::resolve_mut(mainline, &self.line)?
            .moves
            .get_mut(self.index?)
    }

    /// The node at `index` of the line at `line` and the alternatives to it:
    /// each variation's first move, then that move's own variations.
    fn with_alternatives(
        line: &[(usize, usize)],
        index: usize,
        within: &Line,
        out: &mut Vec<NodePath>,
    ) {
        out.push(NodePath {
            line: line.to_vec(),
            index: Some(index),
        });
        let Some(node) = within.moves.get(index) else {
            return;
        };
        for (v, variation) in node.variations().iter().enumerate() {
            if variation.moves.is_empty() {
                continue;
            }
            let mut deeper = line.to_vec();
            deeper.push((index, v));
            NodePath::with_alternatives(&deeper, 0, variation, out);
        }
    }

    /// The moves that may follow: the main continuation first, then the
    /// alternatives to it. Empty at the end of a line.
    pub fn children(&self, mainline: &Line) -> Vec<NodePath> {
        let mut out = Vec::new();
        let Some(line) = NodePath::resolve(mainline, &self.line) else {
            return out;
        };
        let next = self.index.map_or(0, |i| i + 1);
        if next < line.moves.len() {
            NodePath::with_alternatives(&self.line, next, line, &mut out);
        }
        out
    }

    /// The node before this one (`None` at the root).
    pub fn parent(&self) -> Option<NodePath> {
        let index = self.index?;
        if index > 0 {
            return Some(NodePath {
                line: self.line.clone(),
                index: Some(index - 1),
            });
        }
        // The first move of a variation: an alternative to the move it
        // hangs on, so it has that move's parent.
        let mut line = self.line.clone();
        match line.pop() {
            None => Some(NodePath::root()),
            Some((at, _)) => NodePath {
                line,
                index: Some(at),
            }
            .parent(),
        }
    }

    /// The moves from the start position up to and including this one
    /// (`None` for a path not in `mainline`'s tree).
    pub fn moves(&self, mainline: &Line) -> Option<Vec<Move>> {
        let mut moves = Vec::new();
        let mut line = mainline;
        for &(at, variation) in &self.line {
            moves.extend(line.moves.get(..at)?.iter().map(|n| n.mv));
            line = line.moves.get(at)?.variations().get(variation)?;
        }
        if let Some(index) = self.index {
            moves.extend(line.moves.get(..=index)?.iter().map(|n| n.mv));
        }
        Some(moves)
    }

    /// Adds `mv` after this node: as the main continuation when there is
    /// none, else as a new variation (the last alternative). Returns the
    /// new node's place; `None` for a path not in `mainline`'s tree. The
    /// caller checks that the move is legal.
    pub fn add_variation(&self, mainline: &mut Line, mv: Move) -> Option<NodePath> {
        let line = NodePath::resolve_mut(mainline, &self.line)?;
        let next = self.index.map_or(0, |i| i + 1);
        if next > line.moves.len() {
            return None;
        }
        if next == line.moves.len() {
            line.moves.push(Node::new(mv));
            return Some(NodePath {
                line: self.line.clone(),
                index: Some(next),
            });
        }
        let variations = line.moves[next].variations_mut();
        variations.push(Line {
            comments: Vec::new(),
            moves: vec![Node::new(mv)],
        });
        let mut deeper = self.line.clone();
        deeper.push((next, variations.len() - 1));
        Some(NodePath {
            line: deeper,
            index: Some(0),
        })
    }
}
