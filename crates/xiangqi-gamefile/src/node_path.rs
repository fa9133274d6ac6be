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

/// How places moved when [`NodePath::reorder_children`] rebuilt a node's
/// children: [`ChildrenRemap::apply`] takes a place from before to after.
#[derive(Clone, Debug)]
pub struct ChildrenRemap {
    /// The node whose children moved.
    parent: NodePath,
    /// Its children before, in order.
    old: Vec<NodePath>,
    /// For each old child, its place among the new children (`None`: removed).
    new_position: Vec<Option<usize>>,
}

impl NodePath {
    /// A place in no tree: where a removed node's handle points.
    pub fn detached() -> NodePath {
        NodePath {
            line: vec![(usize::MAX, usize::MAX)],
            index: Some(usize::MAX),
        }
    }

    /// The steps from the main line to the node's line, and its index there
    /// (`None`: the root): a key that names the place.
    pub fn key(&self) -> (&[(usize, usize)], Option<usize>) {
        (&self.line, self.index)
    }

    /// Whether `self` is `child` or follows it, where `child` is a child of
    /// some node (its subtree: its line from it on, and the variations
    /// hanging after it; those hanging on `child` itself are its siblings).
    fn within(&self, child: &NodePath) -> Option<(usize, Vec<(usize, usize)>)> {
        let depth = child.line.len();
        let start = child.index?;
        if self.line.len() < depth || self.line[..depth] != child.line[..] {
            return None;
        }
        match self.line.get(depth) {
            None => {
                let index = self.index?;
                (index >= start).then(|| (index - start, Vec::new()))
            }
            Some(&(at, variation)) if at > start => {
                let mut rest = vec![(at - start, variation)];
                rest.extend_from_slice(&self.line[depth + 1..]);
                Some((usize::MAX, rest))
            }
            Some(_) => None,
        }
    }

    /// Puts this node's children in a new order: `order` lists the old
    /// children's indices (0: the main continuation) in their new order;
    /// children left out are removed with everything after them. The first
    /// becomes the main continuation (its comments before it join this
    /// node's comments, where they now stand), the others its alternatives,
    /// each a variation of the main continuation's first move, in order.
    /// `None` when the path is not in `mainline`'s tree, has no children, or
    /// `order` names a child twice or one that does not exist.
    pub fn reorder_children(&self, mainline: &mut Line, order: &[usize]) -> Option<ChildrenRemap> {
        let old = self.children(mainline);
        let mut seen = vec![false; old.len()];
        for &i in order {
            if std::mem::replace(seen.get_mut(i)?, true) {
                return None;
            }
        }
        if old.is_empty() {
            return None;
        }
        let next = self.index.map_or(0, |i| i + 1);
        let line = NodePath::resolve_mut(mainline, &self.line)?;
        // Every child as a line of its own, in the order `children` lists them.
        let mut rest = Line {
            comments: Vec::new(),
            moves: line.moves.split_off(next),
        };
        let mut hanging = std::mem::take(rest.moves[0].variations_mut());
        let mut lines = vec![rest];
        let mut empty = Vec::new();
        fn flatten(variations: &mut Vec<Line>, lines: &mut Vec<Line>, empty: &mut Vec<Line>) {
            for mut variation in variations.drain(..) {
                if variation.moves.is_empty() {
                    empty.push(variation);
                    continue;
                }
                let mut deeper = std::mem::take(variation.moves[0].variations_mut());
                lines.push(variation);
                flatten(&mut deeper, lines, empty);
            }
        }
        flatten(&mut hanging, &mut lines, &mut empty);
        debug_assert_eq!(lines.len(), old.len());
        let mut taken: Vec<Option<Line>> = lines.into_iter().map(Some).collect();
        let mut ordered = order.iter().filter_map(|&i| taken[i].take());
        if let Some(main) = ordered.next() {
            let comments = match next.checked_sub(1) {
                Some(before) => line.moves[before].comments_mut(),
                None => &mut line.comments,
            };
            comments.extend(main.comments);
            line.moves.extend(main.moves);
            let alternatives: Vec<Line> = ordered.chain(empty).collect();
            if !alternatives.is_empty() {
                *line.moves[next].variations_mut() = alternatives;
            }
        }
        let mut new_position = vec![None; old.len()];
        for (place, &i) in order.iter().enumerate() {
            new_position[i] = Some(place);
        }
        Some(ChildrenRemap {
            parent: self.clone(),
            old,
            new_position,
        })
    }
}

impl ChildrenRemap {
    /// Where the node that was at `path` is now: the same place for a node
    /// outside the reordered children, `None` for a removed one.
    pub fn apply(&self, path: &NodePath) -> Option<NodePath> {
        for (i, child) in self.old.iter().enumerate() {
            let Some((offset, rest)) = path.within(child) else {
                continue;
            };
            let place = self.new_position[i]?;
            let next = self.parent.index.map_or(0, |i| i + 1);
            let (mut line, start) = if place == 0 {
                (self.parent.line.clone(), next)
            } else {
                let mut line = self.parent.line.clone();
                line.push((next, place - 1));
                (line, 0)
            };
            return Some(match rest.split_first() {
                None => NodePath {
                    line,
                    index: Some(start + offset),
                },
                Some((&(at, variation), deeper)) => {
                    line.push((start + at, variation));
                    line.extend_from_slice(deeper);
                    NodePath {
                        line,
                        index: path.index,
                    }
                }
            });
        }
        Some(path.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_str;

    fn texts(line: &Line, path: &NodePath) -> Vec<String> {
        path.children(line)
            .iter()
            .map(|c| c.node(line).unwrap().mv.to_string())
            .collect()
    }

    fn every_place(line: &Line, from: &NodePath, out: &mut Vec<NodePath>) {
        for child in from.children(line) {
            out.push(child.clone());
            every_place(line, &child, out);
        }
    }

    #[test]
    fn reordering_children_moves_whole_lines_and_remaps_every_place() {
        let text = "1. h2e2 {c} h9g7 (1... {other} b9c7 2. h0g2 (2. b0c2) i9i8) (1... c6c5) 2. h0g2 i9h9 *";
        let mut game = read_str(text).next().unwrap().unwrap();
        let first = NodePath::root().children(&game.mainline)[0].clone();
        assert_eq!(texts(&game.mainline, &first), ["h9g7", "b9c7", "c6c5"]);
        let mut before = Vec::new();
        every_place(&game.mainline, &NodePath::root(), &mut before);
        let moves_before: Vec<Vec<Move>> = before
            .iter()
            .map(|p| p.moves(&game.mainline).unwrap())
            .collect();
        // b9c7 to the main line, c6c5 removed, h9g7 second.
        let remap = first.reorder_children(&mut game.mainline, &[1, 0]).unwrap();
        assert_eq!(texts(&game.mainline, &first), ["b9c7", "h9g7"]);
        let main: Vec<String> = game.moves().map(|m| m.to_string()).collect();
        assert_eq!(main, ["h2e2", "b9c7", "h0g2", "i9i8"]);
        // The variation's comment before b9c7 now follows h2e2.
        assert_eq!(
            first.node(&game.mainline).unwrap().comments(),
            ["c", "other"]
        );
        for (path, moves) in before.iter().zip(&moves_before) {
            match remap.apply(path) {
                Some(now) => assert_eq!(now.moves(&game.mainline).as_ref(), Some(moves)),
                None => assert_eq!(moves[1].to_string(), "c6c5"),
            }
        }
        assert!(first
            .reorder_children(&mut game.mainline, &[0, 0])
            .is_none());
        assert!(first.reorder_children(&mut game.mainline, &[2]).is_none());
        // Removing every child ends the line here.
        first.reorder_children(&mut game.mainline, &[]).unwrap();
        assert!(first.children(&game.mainline).is_empty());
        assert!(NodePath::detached().node(&game.mainline).is_none());
    }
}
