//! Accumulators kept up to date through a search: a stack with one entry
//! per move made, each computed lazily from its parent when evaluated.
//!
//! A move changes at most three inputs per perspective: the moving piece
//! leaves its point and arrives on another, and a captured piece leaves.
//! The features are not relative to the general's point, so a general's
//! move is a move like the others and nothing ever forces a full refresh
//! below the root. A null move changes no input (the side to move only
//! chooses which accumulator the output reads first) and pushes nothing.

use xiangqi_core::{Color, Move, Piece, Position, Square};

use crate::features::{active_features, piece_feature, MAX_ACTIVE};
use crate::network::Network;
use crate::simd::Simd;

/// The two perspectives' accumulators of one position: Red's then Black's, `H` values each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

impl Accumulator {
    /// The accumulators of `pos` computed from scratch.
    pub fn refresh(network: &Network, pos: &Position, simd: Simd) -> Accumulator {
        let mut acc = Accumulator {
            values: vec![0; 2 * network.hidden()],
        };
        acc.refresh_in_place(network, pos, simd);
        acc
    }

    fn refresh_in_place(&mut self, network: &Network, pos: &Position, simd: Simd) {
        let h = network.hidden();
        for perspective in Color::ALL {
            let mut rows: [&[i16]; MAX_ACTIVE] = [&[]; MAX_ACTIVE];
            let mut n = 0;
            for feature in active_features(pos, perspective) {
                // More than 32 pieces cannot be on a board built by the core's rules.
                if n == MAX_ACTIVE {
                    break;
                }
                rows[n] = network.ft_row(feature);
                n += 1;
            }
            let dst = &mut self.values[perspective.index() * h..(perspective.index() + 1) * h];
            simd.update(dst, network.ft_bias(), &rows[..n], &[]);
        }
    }

    /// The accumulator of `perspective`.
    pub fn perspective(&self, perspective: Color) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[perspective.index() * h..(perspective.index() + 1) * h]
    }

    /// The evaluation in centipawns for `side_to_move`.
    pub fn evaluate(&self, network: &Network, side_to_move: Color, simd: Simd) -> i32 {
        let h = network.hidden();
        let (w_ours, w_theirs) = network.out_weights().split_at(h);
        let sum = simd.screlu_dot(self.perspective(side_to_move), w_ours)
            + simd.screlu_dot(self.perspective(side_to_move.opposite()), w_theirs);
        network.finish(sum)
    }
}

/// What a move changes on the board: enough to update the accumulators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveDelta {
    /// The piece that moved.
    pub moved: Piece,
    /// Where it came from.
    pub from: Square,
    /// Where it went.
    pub to: Square,
    /// The piece taken on `to`, if any.
    pub captured: Option<Piece>,
}

impl MoveDelta {
    /// The change `mv` makes, read from the position before it is played;
    /// `None` when no piece stands on its origin.
    pub fn of_move(before: &Position, mv: Move) -> Option<MoveDelta> {
        Some(MoveDelta {
            moved: before.piece_at(mv.from())?,
            from: mv.from(),
            to: mv.to(),
            captured: before.piece_at(mv.to()),
        })
    }
}

struct Entry {
    acc: Accumulator,
    /// The move from the entry below (unused at the root).
    delta: Option<MoveDelta>,
    computed: bool,
}

/// The accumulators along the search path: [`AccumulatorStack::reset`] at
/// the root, [`push`](AccumulatorStack::push) after each move made,
/// [`pop`](AccumulatorStack::pop) after each unmade. Entries are computed
/// only when a position is evaluated, from the nearest computed entry
/// below, so moves whose positions are never evaluated cost nothing.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    len: usize,
    simd: Simd,
}

impl AccumulatorStack {
    /// An empty stack using `simd`'s kernels ([`Simd::detect`] for the best).
    pub fn new(simd: Simd) -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::new(),
            len: 0,
            simd,
        }
    }

    /// The kernels in use.
    pub fn simd(&self) -> Simd {
        self.simd
    }

    /// Starts again from `root`, computed from scratch.
    pub fn reset(&mut self, network: &Network, root: &Position) {
        self.len = 0;
        self.grow(network);
        let entry = &mut self.entries[0];
        entry.acc.refresh_in_place(network, root, self.simd);
        entry.delta = None;
        entry.computed = true;
        self.len = 1;
    }

    /// Makes room for one more entry sized for `network`.
    fn grow(&mut self, network: &Network) {
        let size = 2 * network.hidden();
        if self.entries.len() == self.len {
            self.entries.push(Entry {
                acc: Accumulator {
                    values: vec![0; size],
                },
                delta: None,
                computed: false,
            });
        } else if self.entries[self.len].acc.values.len() != size {
            self.entries[self.len].acc.values = vec![0; size];
        }
    }

    /// Records a move made from the top position (`delta` from [`MoveDelta::of_move`]).
    pub fn push(&mut self, network: &Network, delta: MoveDelta) {
        self.grow(network);
        let entry = &mut self.entries[self.len];
        entry.delta = Some(delta);
        entry.computed = false;
        self.len += 1;
    }

    /// Forgets the top move (after it is unmade).
    pub fn pop(&mut self) {
        debug_assert!(self.len > 1, "pop below the root");
        self.len = self.len.saturating_sub(1).max(1);
    }

    /// Entries: the root and one per move pushed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first [`reset`](AccumulatorStack::reset).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The top position's accumulators, brought up to date.
    pub fn current(&mut self, network: &Network) -> &Accumulator {
        let top = self.len - 1;
        let mut base = top;
        while !self.entries[base].computed {
            base -= 1;
        }
        for i in base + 1..=top {
            let (below, above) = self.entries.split_at_mut(i);
            let parent = &below[i - 1].acc;
            let entry = &mut above[0];
            let delta = entry.delta.expect("every entry above the root has a move");
            apply(network, self.simd, parent, &mut entry.acc, delta);
            entry.computed = true;
        }
        &self.entries[top].acc
    }

    /// The top position's evaluation in centipawns for `side_to_move`.
    pub fn evaluate(&mut self, network: &Network, side_to_move: Color) -> i32 {
        let simd = self.simd;
        self.current(network).evaluate(network, side_to_move, simd)
    }
}

/// `child = parent` changed by `delta`, both perspectives.
fn apply(
    network: &Network,
    simd: Simd,
    parent: &Accumulator,
    child: &mut Accumulator,
    delta: MoveDelta,
) {
    let h = network.hidden();
    for perspective in Color::ALL {
        let added = [network.ft_row(piece_feature(perspective, delta.moved, delta.to))];
        let from = network.ft_row(piece_feature(perspective, delta.moved, delta.from));
        let removed_capture;
        let removed: &[&[i16]] = match delta.captured {
            Some(captured) => {
                removed_capture = [
                    from,
                    network.ft_row(piece_feature(perspective, captured, delta.to)),
                ];
                &removed_capture
            }
            None => std::slice::from_ref(&from),
        };
        let range = perspective.index() * h..(perspective.index() + 1) * h;
        simd.update(
            &mut child.values[range.clone()],
            &parent.values[range],
            &added,
            removed,
        );
    }
}

impl Network {
    /// The evaluation of `pos` in centipawns from the side to move's view,
    /// from scratch on the best kernels of this processor (equal to
    /// [`Network::evaluate_scalar`]).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let simd = Simd::detect();
        Accumulator::refresh(self, pos, simd).evaluate(self, pos.side_to_move(), simd)
    }
}
