//! Helpers shared by the fuzz targets: a tiny deterministic random source
//! driven by the fuzzer's bytes, and random legal positions and games built
//! from it. The targets themselves are in `fuzz_targets/`; see
//! `docs/robustness.md` for what each one checks.

use xiangqi_core::{Move, MoveList, Position, SplitMix64};

/// Reads the fuzzer's bytes as a stream of choices; once they run out it
/// keeps going with a SplitMix64 sequence seeded from what was read, so
/// every input decodes to a complete scenario.
pub struct Bytes<'a> {
    data: &'a [u8],
    state: u64,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes {
            data,
            state: 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Whether any fuzzer byte is left.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                self.state = self.state.rotate_left(8) ^ u64::from(b);
                b
            }
            None => {
                // Past the input the bytes go on as a seeded sequence.
                self.state = SplitMix64::new(self.state).next_u64();
                (self.state >> 56) as u8
            }
        }
    }

    /// The next eight bytes as a number.
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |acc, _| (acc << 8) | u64::from(self.byte()))
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let wide = u32::from(self.byte()) << 8 | u32::from(self.byte());
        wide as usize % n
    }

    /// The fuzzer bytes not read yet (none are generated).
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

/// A random playout of up to `max_plies` legal plies from the start
/// position; returns the moves and the position reached.
pub fn random_playout(bytes: &mut Bytes<'_>, max_plies: usize) -> (Vec<Move>, Position) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..max_plies {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[bytes.below(list.len())];
        pos.play(mv).expect("generated moves are legal");
        moves.push(mv);
    }
    (moves, pos)
}

/// Checks that `moves` are legal one after the other from `start`.
pub fn assert_legal_sequence(start: &Position, moves: impl IntoIterator<Item = Move>) -> Position {
    let mut pos = start.clone();
    for (i, mv) in moves.into_iter().enumerate() {
        if let Err(e) = pos.play(mv) {
            panic!("move {} ({mv}) is illegal in {}: {e}", i + 1, pos.to_fen());
        }
    }
    pos
}

/// The game-file readers' limits for a fuzz input whose first byte is
/// `mode`: the defaults (even bytes) or tiny ones that every input can
/// reach (odd bytes).
pub fn reader_limits(mode: u8) -> xiangqi_notation::pgn::Limits {
    if mode & 1 == 0 {
        xiangqi_notation::pgn::Limits::default()
    } else {
        xiangqi_notation::pgn::Limits {
            max_line_len: 80,
            max_comment_len: 24,
            max_variation_depth: 2,
            max_moves_per_game: 12,
            max_tags_per_game: 4,
        }
    }
}
