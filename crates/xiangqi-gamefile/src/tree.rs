//! The move trees of the binary formats: records in pre-order, each saying
//! whether a next move and an alternative follow, turned into the
//! [`Line`]s of a [`Game`](crate::Game), every move checked
//! for legality on the way. XQF and CBR share this; the lines of any game
//! (for comparisons and `Game.lines()`) are listed here too.

use crate::{Game, GameFileError, Limits, Line, Node};
use xiangqi_core::{Move, Position};

use crate::bytes::ByteError;
use crate::error::ErrorKind;

/// One move record as the binary formats store it.
#[derive(Clone, Debug)]
pub(crate) struct MoveRecord {
    /// File offset of the record, for errors.
    pub offset: u64,
    pub mv: Move,
    /// The next record is this move's first reply.
    pub has_next: bool,
    /// After this move's subtree comes an alternative to this move.
    pub has_alternative: bool,
    pub comment: Option<String>,
}

/// A node of the tree while it is built: links by index.
struct TreeNode {
    mv: Move,
    comment: Option<String>,
    first_reply: Option<usize>,
    next_alternative: Option<usize>,
}

/// A place in the tree that the next record fills.
#[derive(Clone)]
struct Pending {
    /// The record belongs under a move that could not be played: it is
    /// read past, never played.
    dropped: bool,
    /// Index of the parent node (`None`: the root).
    parent: Option<usize>,
    /// The alternative this one follows (`None`: the parent's first reply).
    previous: Option<usize>,
    /// The position before the move.
    position: Position,
    /// 1-based ply of the move along its line.
    ply: usize,
    /// Variation nesting depth of the move (0: the main line).
    depth: usize,
}

/// A game's move tree as read: its main line, and the moves that could not
/// be played, each of which cut its line.
#[derive(Default)]
pub(crate) struct Tree {
    pub line: Line,
    /// One error per move that could not be played (`IllegalMove`, at the
    /// record's offset): that move and the moves after it on its line are
    /// not in `line`; its alternatives are.
    pub cuts: Vec<ByteError>,
}

impl Tree {
    /// Puts the tree into `game`: its moves after the line's opening
    /// comments, and as the game's errors `notes` (from the header) then the
    /// cuts, numbered as game 1 (a library renumbers them).
    pub(crate) fn into_game(self, game: &mut Game, notes: Vec<ByteError>) {
        game.mainline.moves = self.line.moves;
        game.errors.extend(
            notes
                .into_iter()
                .chain(self.cuts)
                .map(|(offset, kind)| GameFileError::at_byte(1, offset, kind)),
        );
    }
}

/// Builds the main line from `records`, played from `start`; `root_has_next`
/// says whether the game has any move. Records left over after the tree is
/// complete are ignored (files pad their last block); `records` returning
/// `None` ends the tree early.
///
/// A move that cannot be played (kill manuals and compositions hold a few)
/// ends its line: the records of its replies are read past, and its
/// alternatives take its place (the first one becomes the line's
/// continuation). Each such move is one entry of [`Tree::cuts`].
pub(crate) fn build_line(
    start: &Position,
    root_has_next: bool,
    mut records: impl FnMut() -> Result<Option<MoveRecord>, ByteError>,
    limits: &Limits,
) -> Result<Tree, ByteError> {
    let mut nodes: Vec<TreeNode> = Vec::new();
    let mut root_reply = None;
    let mut pending = Vec::new();
    let mut cuts = Vec::new();
    let mut records_read = 0usize;
    if root_has_next {
        pending.push(Pending {
            dropped: false,
            parent: None,
            previous: None,
            position: start.clone(),
            ply: 1,
            depth: 0,
        });
    }
    while let Some(slot) = pending.pop() {
        let Some(record) = records()? else {
            // The records end (CBR's terminator) where the flags promised
            // more: the tree ends there, as CCBridge itself reads it.
            break;
        };
        records_read += 1;
        if records_read > limits.max_moves_per_game {
            return Err((
                record.offset,
                ErrorKind::TooManyMoves(limits.max_moves_per_game),
            ));
        }
        if slot.dropped {
            // Under a cut move: its whole subtree is read past.
            for has_more in [record.has_alternative, record.has_next] {
                if has_more {
                    pending.push(Pending {
                        dropped: true,
                        ..slot.clone()
                    });
                }
            }
            continue;
        }
        let mut after = slot.position.clone();
        if let Err(error) = after.play(record.mv) {
            cuts.push((
                record.offset,
                ErrorKind::IllegalMove {
                    ply: slot.ply,
                    error,
                },
            ));
            if record.has_alternative {
                // The alternative stands where the cut move stood.
                pending.push(slot.clone());
            }
            if record.has_next {
                // Pushed last: the replies' records come first.
                pending.push(Pending {
                    dropped: true,
                    ..slot
                });
            }
            continue;
        }
        let id = nodes.len();
        nodes.push(TreeNode {
            mv: record.mv,
            comment: record.comment,
            first_reply: None,
            next_alternative: None,
        });
        match (slot.previous, slot.parent) {
            (Some(previous), _) => nodes[previous].next_alternative = Some(id),
            (None, Some(parent)) => nodes[parent].first_reply = Some(id),
            (None, None) => root_reply = Some(id),
        }
        if record.has_alternative {
            // The alternatives to a first reply are one level deeper; the
            // alternatives after them are on that same level.
            let depth = slot.depth + usize::from(slot.previous.is_none());
            if depth > limits.max_variation_depth {
                return Err((
                    record.offset,
                    ErrorKind::VariationTooDeep(limits.max_variation_depth),
                ));
            }
            pending.push(Pending {
                dropped: false,
                parent: slot.parent,
                previous: Some(id),
                position: slot.position,
                ply: slot.ply,
                depth,
            });
        }
        if record.has_next {
            // Pushed last: the reply's subtree comes before the alternative.
            pending.push(Pending {
                dropped: false,
                parent: Some(id),
                previous: None,
                position: after,
                ply: slot.ply + 1,
                depth: slot.depth,
            });
        }
    }
    let line = root_reply.map_or_else(Line::default, |first| line_from(&nodes, first, true));
    Ok(Tree { line, cuts })
}

/// The line that starts with node `first` and follows first replies; the
/// alternatives of each move become its variations (those of `first` only
/// when `with_first_alternatives`: a variation's own first move has its
/// alternatives listed beside it, in the line above). Recursion is bounded
/// by the variation depth limit checked while building.
fn line_from(nodes: &[TreeNode], first: usize, with_first_alternatives: bool) -> Line {
    let mut line = Line::default();
    let mut current = Some(first);
    while let Some(id) = current {
        let tree_node = &nodes[id];
        let mut node = Node::new(tree_node.mv);
        if let Some(comment) = &tree_node.comment {
            node.comments_mut().push(comment.clone());
        }
        if id != first || with_first_alternatives {
            let mut alternative = tree_node.next_alternative;
            while let Some(alt) = alternative {
                node.variations_mut().push(line_from(nodes, alt, false));
                alternative = nodes[alt].next_alternative;
            }
        }
        line.moves.push(node);
        current = tree_node.first_reply;
    }
    line
}

/// Every line of a game as moves from the start: the main line first, then
/// one per variation (each continued to its own end), in the order a tree
/// file (XQF, CBR) stores them, which is the order cchess lists them: a
/// depth-first walk that finishes a move's continuation before its
/// alternatives, so variations branching later come first.
pub fn lines(mainline: &Line) -> Vec<Vec<Move>> {
    let mut out = Vec::new();
    collect_lines(mainline, &[], &mut out);
    out
}

fn collect_lines(line: &Line, prefix: &[Move], out: &mut Vec<Vec<Move>>) {
    let mut full = prefix.to_vec();
    full.extend(line.moves.iter().map(|n| n.mv));
    out.push(full.clone());
    for (i, node) in line.moves.iter().enumerate().rev() {
        for variation in node.variations() {
            collect_lines(variation, &full[..prefix.len() + i], out);
        }
    }
}
