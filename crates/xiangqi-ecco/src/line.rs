//! The opening as the classification reads it: the first ten moves of each
//! side in WXF text, seen from the side Red's first move came from.

use xiangqi_core::{Move, Position, Square};
use xiangqi_notation::{format_into, Notation, SidewaysSign, Style, WxfConvention, WxfStyle};

/// Plies the definitions look at: ten moves of each side.
pub(crate) const PLIES: usize = 20;

/// One move as four bytes of WXF text with `.` for sideways (`C2.5`).
/// A move written otherwise (tandem pieces, `R+.4`) matches no definition,
/// and neither does an absent move (four spaces).
type Word = [u8; 4];
const ABSENT: Word = *b"    ";

/// The first [`PLIES`] plies of a game from the initial position, mirrored
/// left to right when Red opened on the left half (files 6-9), so that
/// `C8.5` and `C2.5` are one opening, as the definitions are written.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    words: [Word; PLIES],
}

impl Line {
    /// `moves` played from the initial position; the index of the first
    /// illegal one among the first [`PLIES`] when one is.
    pub(crate) fn read(moves: &[Move]) -> Result<Line, usize> {
        let moves = &moves[..moves.len().min(PLIES)];
        let mirror = moves.first().is_some_and(|mv| {
            // Red's files are numbered from Red's right: file 9 is the a-file.
            mv.from().file().number_for(xiangqi_core::Color::Red) > 5
        });
        let style = Style {
            wxf: WxfStyle {
                convention: WxfConvention::default(),
                sideways: SidewaysSign::Dot,
                black_lowercase: false,
            },
            ..Style::default()
        };
        let mut position = Position::startpos();
        let mut words = [ABSENT; PLIES];
        let mut text = String::with_capacity(8);
        for (ply, (word, &mv)) in words.iter_mut().zip(moves).enumerate() {
            let mv = if mirror { mirrored(mv) } else { mv };
            text.clear();
            format_into(&position, mv, Notation::Wxf, &style, &mut text).map_err(|_| ply)?;
            position.play(mv).map_err(|_| ply)?;
            if let Ok(bytes) = <Word>::try_from(text.as_bytes()) {
                *word = bytes;
            } else {
                *word = *b"?   ";
            }
        }
        Ok(Line { words })
    }

    /// The same line cut after `plies` plies.
    pub(crate) fn cut(&self, plies: usize) -> Line {
        let mut words = self.words;
        for word in words.iter_mut().skip(plies) {
            *word = ABSENT;
        }
        Line { words }
    }

    /// How many plies are present.
    pub(crate) fn len(&self) -> usize {
        self.words.iter().take_while(|w| **w != ABSENT).count()
    }

    fn word(&self, ply: usize) -> &str {
        self.words
            .get(ply)
            .and_then(|w| std::str::from_utf8(w).ok())
            .unwrap_or("    ")
    }

    /// Red's move of round `round` (0 is the first move).
    pub(crate) fn red(&self, round: usize) -> &str {
        self.word(2 * round)
    }

    /// Black's move of round `round`.
    pub(crate) fn black(&self, round: usize) -> &str {
        self.word(2 * round + 1)
    }

    /// The move of `side` in round `round`.
    pub(crate) fn of(&self, side: Side, round: usize) -> &str {
        match side {
            Side::Red => self.red(round),
            Side::Black => self.black(round),
        }
    }

    /// The plies from `ply` on are `moves`, written one after another
    /// (`"C2+1R2-2B3+5"`).
    pub(crate) fn continues(&self, ply: usize, moves: &str) -> bool {
        moves
            .as_bytes()
            .chunks(4)
            .enumerate()
            .all(|(k, want)| self.words.get(ply + k).is_some_and(|w| w[..] == *want))
    }

    /// Each side's first moves are the ones `moves` gives that side, in any
    /// order: the definitions' rule for transposed move orders. `moves`
    /// alternates Red and Black from Red's first move.
    pub(crate) fn reaches(&self, moves: &str) -> bool {
        let words: Vec<&[u8]> = moves.as_bytes().chunks(4).collect();
        [Side::Red, Side::Black].into_iter().all(|side| {
            let wanted: Vec<&[u8]> = words
                .iter()
                .copied()
                .skip(side as usize)
                .step_by(2)
                .collect();
            let mut played: Vec<&[u8]> = (0..wanted.len())
                .map(|round| self.of(side, round).as_bytes())
                .collect();
            wanted.iter().all(|want| {
                if let Some(k) = played.iter().position(|p| p == want) {
                    played.swap_remove(k);
                    true
                } else {
                    false
                }
            })
        })
    }
}

/// Which side's moves a rule reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    Red = 0,
    Black = 1,
}

fn mirrored(mv: Move) -> Move {
    Move::new(flip(mv.from()), flip(mv.to()))
}

fn flip(square: Square) -> Square {
    square.flip_files()
}
