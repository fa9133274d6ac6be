//! The notation-neutral reading of a move text ([`MoveText`]) and its
//! resolution against a position: the one place where file numbers,
//! front/rear markers and step counts are turned into squares (N-MOVE-SHAPE).

use xiangqi_core::{
    Color, File, Move, Piece, PieceKind, PlayError, Position, Rank, Square, SquareSet,
};

use crate::error::MoveTextError;
use crate::Notation;

/// Which way a described move goes (N-MOVE-SHAPE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards the opponent.
    Forward,
    /// Back towards one's own side.
    Backward,
    /// Along the rank.
    Sideways,
}

/// A front/rear style marker that stands for the origin file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Marker {
    /// The most advanced piece on the file (WXF `+`, `++`; 前; trước).
    Front,
    /// The rearmost piece on the file (WXF `-`, `--`; 后; sau).
    Rear,
    /// The middle one of three or five (official WXF `33`; 中; giữa).
    Middle,
    /// WXF letter + `+`: the front piece, or the second from the front when
    /// four or five soldiers share the file (N-WXF-PAWNS).
    WxfPlus,
    /// WXF letter + `-`: the rear piece, or the second from the rear when
    /// four or five soldiers share the file.
    WxfMinus,
    /// The n-th piece counted from the front, 1-based (N-WXF-FSF `13`, Chinese 二兵).
    Nth(u8),
}

/// How a move text names its piece's origin.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The file number as the mover counts it (N-FILES), 1-9.
    File(u8),
    /// A marker among the pieces of that kind on one file, with the file
    /// when the text gives it.
    Marked {
        /// Which piece on the file.
        marker: Marker,
        /// The file, when written (`3+`, 前三); otherwise the file holding two or more.
        file: Option<u8>,
    },
}

/// A described move (WXF, Chinese, Vietnamese) read from text, before it is
/// matched against a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Described {
    /// The piece kind.
    pub kind: PieceKind,
    /// A second possible kind, when the text cannot tell (Vietnamese
    /// `Tuong` without diacritics is general or elephant).
    pub alt_kind: Option<PieceKind>,
    /// Where the piece stands.
    pub origin: Origin,
    /// Which way it goes.
    pub direction: Direction,
    /// Steps (straight moves) or destination file (all other moves), 1-9.
    pub number: u8,
}

/// A syntactically valid move text in some notation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// ICCS coordinates.
    Coordinates(Move),
    /// A piece/file/direction/number description.
    Described {
        /// The notation it was read in.
        notation: Notation,
        /// The description.
        description: Described,
    },
}

impl MoveText {
    /// The notation the text was written in.
    pub fn notation(&self) -> Notation {
        match self {
            MoveText::Coordinates(_) => Notation::Iccs,
            MoveText::Described { notation, .. } => *notation,
        }
    }

    /// The legal move of `pos` this text names. `text` is only used in errors.
    pub fn resolve(&self, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        match self {
            MoveText::Coordinates(mv) => match legality(pos, *mv) {
                Ok(()) => Ok(*mv),
                Err(reason) => Err(MoveTextError::Illegal {
                    text: text.to_owned(),
                    mv: *mv,
                    reason,
                }),
            },
            MoveText::Described { description, .. } => description.resolve(pos, text),
        }
    }
}

/// Whether `mv` is legal (R-LEGAL-SELFCHECK, R-LEGAL-FACING), and why not.
///
/// The core's `is_legal` (one movement-table lookup and one attack test)
/// accepts the common, legal case; `check_legal`, which repeats the
/// movement test to name the reason, runs only for a rejected move and has
/// the last word. A unit test checks both agree on every pseudo-legal move
/// of many positions.
#[inline]
pub(crate) fn legality(pos: &Position, mv: Move) -> Result<(), PlayError> {
    if pos.is_legal(mv) {
        Ok(())
    } else {
        pos.check_legal(mv)
    }
}

/// The squares of each file as a bit set (bit = square index = rank * 9 + file).
const FILE_BITS: [u128; 9] = {
    let mut masks = [0u128; 9];
    let mut i = 0;
    while i < 90 {
        masks[i % 9] |= 1u128 << i;
        i += 1;
    }
    masks
};

/// The squares of `piece` on `file`, as bits.
fn on_file_bits(pos: &Position, piece: Piece, file: File) -> u128 {
    pos.squares_of(piece).0 & FILE_BITS[file.index() as usize]
}

/// The pieces of `piece` on `file`, from the front (nearest the opponent) back.
pub(crate) fn on_file_front_first(
    pos: &Position,
    piece: Piece,
    file: File,
) -> ([Square; 5], usize) {
    front_first(on_file_bits(pos, piece, file), piece.color)
}

/// The squares of `bits` (all on one file, at most five used), front first for `color`.
fn front_first(bits: u128, color: Color) -> ([Square; 5], usize) {
    let mut out = [Square::A0; 5];
    let mut n = 0;
    for sq in SquareSet(bits).iter().take(5) {
        out[n] = sq;
        n += 1;
    }
    // Square sets iterate in index (= rank) order, so Red's front is last.
    if color == Color::Red {
        out[..n].reverse();
    }
    (out, n)
}

/// Index (0-based, from the front) of the piece a marker picks among `n` on a file.
fn marker_index(marker: Marker, n: usize) -> Option<usize> {
    let i = match marker {
        Marker::Front => 0,
        Marker::Rear => n.checked_sub(1)?,
        Marker::Middle if n % 2 == 1 && n >= 3 => n / 2,
        Marker::Middle => return None,
        Marker::WxfPlus if n <= 3 => 0,
        Marker::WxfPlus => 1,
        Marker::WxfMinus if n <= 3 => n.checked_sub(1)?,
        Marker::WxfMinus => n - 2,
        Marker::Nth(k) => (k as usize).checked_sub(1)?,
    };
    (i < n).then_some(i)
}

/// The destination of a described move from `from`, or why there is none.
pub(crate) fn destination(
    color: Color,
    kind: PieceKind,
    from: Square,
    direction: Direction,
    number: u8,
) -> Result<Square, &'static str> {
    let file = from.file().index() as i8;
    let rank = from.rank().index() as i8;
    let forward: i8 = if color == Color::Red { 1 } else { -1 };
    let target_file = |n: u8| -> Result<i8, &'static str> {
        File::from_number(n, color)
            .map(|f| f.index() as i8)
            .ok_or("the file number must be 1-9")
    };
    let (to_file, to_rank) = match direction {
        Direction::Sideways => {
            let tf = target_file(number)?;
            if tf == file {
                return Err("a sideways move must change file");
            }
            (tf, rank)
        }
        Direction::Forward | Direction::Backward => {
            let sign = if direction == Direction::Forward {
                forward
            } else {
                -forward
            };
            match kind {
                PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse => {
                    let tf = target_file(number)?;
                    let df = (tf - file).abs();
                    let dr = match (kind, df) {
                        (PieceKind::Advisor, 1) => 1,
                        (PieceKind::Elephant, 2) => 2,
                        (PieceKind::Horse, 1) => 2,
                        (PieceKind::Horse, 2) => 1,
                        (PieceKind::Horse, _) => {
                            return Err("a horse moves to a file one or two away")
                        }
                        (PieceKind::Advisor, _) => {
                            return Err("an advisor moves to a neighbouring file")
                        }
                        _ => return Err("an elephant moves to a file two away"),
                    };
                    (tf, rank + sign * dr)
                }
                _ => (file, rank + sign * number as i8),
            }
        }
    };
    if !(0..=9).contains(&to_rank) {
        return Err("it would leave the board");
    }
    Ok(Square::new(
        File::new(to_file as u8).ok_or("it would leave the board")?,
        Rank::new(to_rank as u8).ok_or("it would leave the board")?,
    ))
}

impl Described {
    /// The legal move of `pos` this description names.
    pub fn resolve(&self, pos: &Position, text: &str) -> Result<Move, MoveTextError> {
        if self.alt_kind.is_none() {
            return self
                .resolve_kind(pos, text, self.kind)
                .map_err(|e| match e {
                    MoveTextError::Ambiguous {
                        text,
                        mut candidates,
                    } => {
                        candidates.sort_by_key(|m| m.to_string());
                        MoveTextError::Ambiguous { text, candidates }
                    }
                    other => other,
                });
        }
        let mut first_error: Option<MoveTextError> = None;
        let mut found: Option<Move> = None;
        let mut extra = Vec::new();
        for kind in std::iter::once(self.kind).chain(self.alt_kind) {
            let r = self.resolve_kind(pos, text, kind);
            match r {
                Ok(mv) => {
                    if found.is_some() {
                        extra.push(mv);
                    } else {
                        found = Some(mv);
                    }
                }
                Err(MoveTextError::Ambiguous { candidates, .. }) => extra.extend(candidates),
                Err(e) => {
                    // Prefer the most specific error: a concrete move over a missing piece.
                    if matches!(first_error, None | Some(MoveTextError::NoSuchPiece { .. })) {
                        first_error = Some(e);
                    }
                }
            }
        }
        match (found, extra.is_empty()) {
            (Some(mv), true) => Ok(mv),
            (found, _) if !extra.is_empty() => {
                let mut candidates: Vec<Move> = found.into_iter().chain(extra).collect();
                candidates.sort_by_key(|m| m.to_string());
                Err(MoveTextError::Ambiguous {
                    text: text.to_owned(),
                    candidates,
                })
            }
            _ => Err(first_error.expect("at least one kind was tried")),
        }
    }

    /// The legal move this description names when it names exactly one,
    /// without wording an error otherwise (the game-file readers' common case).
    pub fn resolve_quietly(&self, pos: &Position) -> Option<Move> {
        if self.alt_kind.is_some() {
            return self.resolve(pos, "").ok();
        }
        let piece = Piece::new(pos.side_to_move(), self.kind);
        if let Some(from) = self.single_origin(pos, piece) {
            // `resolution`'s one-origin case without building its verdict:
            // the destination by arithmetic, then one legality test.
            let to = destination(piece.color, self.kind, from, self.direction, self.number).ok()?;
            let mv = Move::new(from, to);
            return pos.is_legal(mv).then_some(mv);
        }
        match self.resolution(pos, self.kind) {
            Resolution::Found(mv) => Some(mv),
            _ => None,
        }
    }

    fn resolve_kind(
        &self,
        pos: &Position,
        text: &str,
        kind: PieceKind,
    ) -> Result<Move, MoveTextError> {
        let side = pos.side_to_move();
        match self.resolution(pos, kind) {
            Resolution::Found(mv) => Ok(mv),
            Resolution::NoPiece { bad_file } => Err(MoveTextError::NoSuchPiece {
                text: text.to_owned(),
                side,
                kind,
                where_: self.where_words(bad_file),
            }),
            Resolution::Impossible(reason) => Err(MoveTextError::Impossible {
                text: text.to_owned(),
                side,
                kind,
                reason,
            }),
            Resolution::Illegal(mv, reason) => Err(MoveTextError::Illegal {
                text: text.to_owned(),
                mv,
                reason,
            }),
            Resolution::Ambiguous(legal, n) => Err(MoveTextError::Ambiguous {
                text: text.to_owned(),
                candidates: legal[..n].to_vec(),
            }),
        }
    }

    /// Where a missing piece was looked for, in words.
    fn where_words(&self, bad_file: bool) -> String {
        match self.origin {
            Origin::File(number) => format!("on file {number}"),
            Origin::Marked {
                file: Some(number), ..
            } if bad_file => format!("on file {number}"),
            Origin::Marked {
                marker,
                file: Some(number),
            } => format!("{} on file {number}", marker_words(marker)),
            Origin::Marked { marker, file: None } => {
                format!("{} on a file holding two or more", marker_words(marker))
            }
        }
    }

    /// The square of the only `piece` on the file the text names, if the
    /// text names a file and exactly one such piece stands there.
    #[inline]
    fn single_origin(&self, pos: &Position, piece: Piece) -> Option<Square> {
        let Origin::File(number) = self.origin else {
            return None;
        };
        let bits = on_file_bits(pos, piece, File::from_number(number, piece.color)?);
        (bits.count_ones() == 1).then(|| SquareSet(bits).first())?
    }

    /// What this description names for the side to move's pieces of `kind`.
    fn resolution(&self, pos: &Position, kind: PieceKind) -> Resolution {
        let side = pos.side_to_move();
        let piece = Piece::new(side, kind);
        // Origins to try, with whether the official middle-soldier rule applies.
        if let Some(from) = self.single_origin(pos, piece) {
            // The usual case, the general path below for one origin.
            return match destination(side, kind, from, self.direction, self.number) {
                Err(reason) => Resolution::Impossible(reason),
                Ok(to) => {
                    let mv = Move::new(from, to);
                    match legality(pos, mv) {
                        Ok(()) => Resolution::Found(mv),
                        Err(reason) => Resolution::Illegal(mv, reason),
                    }
                }
            };
        }
        let mut origins: [Square; 9] = [Square::A0; 9];
        let mut n_origins = 0;
        let mut middle: Option<Square> = None;
        match self.origin {
            Origin::File(number) => {
                let Some(file) = File::from_number(number, side) else {
                    return Resolution::NoPiece { bad_file: true };
                };
                let (list, n) = on_file_front_first(pos, piece, file);
                if n == 0 {
                    return Resolution::NoPiece { bad_file: false };
                }
                origins[..n].copy_from_slice(&list[..n]);
                n_origins = n;
                // N-WXF-PAWNS: P3 names the middle of three or five soldiers.
                if kind == PieceKind::Soldier && n % 2 == 1 && n >= 3 {
                    middle = Some(list[n / 2]);
                }
            }
            Origin::Marked { marker, file } => {
                let wanted = match file {
                    Some(number) => match File::from_number(number, side) {
                        Some(f) => Some(f),
                        None => return Resolution::NoPiece { bad_file: true },
                    },
                    None => None,
                };
                for f in File::ALL {
                    if wanted.is_some_and(|w| w != f) {
                        continue;
                    }
                    let bits = on_file_bits(pos, piece, f);
                    if bits.count_ones() < 2 {
                        continue;
                    }
                    let (list, n) = front_first(bits, side);
                    if let Some(i) = marker_index(marker, n) {
                        origins[n_origins] = list[i];
                        n_origins += 1;
                    }
                }
                if n_origins == 0 {
                    return Resolution::NoPiece { bad_file: false };
                }
            }
        }
        let mut legal: [Move; 9] = [Move::new(Square::A0, Square::A1); 9];
        let mut n_legal = 0;
        let mut first_illegal: Option<(Move, PlayError)> = None;
        let mut impossible: Option<&'static str> = None;
        for &from in &origins[..n_origins] {
            match destination(side, kind, from, self.direction, self.number) {
                Err(reason) => impossible = impossible.or(Some(reason)),
                Ok(to) => {
                    let mv = Move::new(from, to);
                    match legality(pos, mv) {
                        Ok(()) => {
                            legal[n_legal] = mv;
                            n_legal += 1;
                        }
                        Err(e) => {
                            if first_illegal.is_none() {
                                first_illegal = Some((mv, e));
                            }
                        }
                    }
                }
            }
        }
        match n_legal {
            1 => Resolution::Found(legal[0]),
            0 => match (first_illegal, impossible) {
                (Some((mv, reason)), _) => Resolution::Illegal(mv, reason),
                (None, reason) => Resolution::Impossible(reason.unwrap_or("no such move")),
            },
            _ => {
                if let Some(m) = middle {
                    if let Some(mv) = legal[..n_legal].iter().find(|mv| mv.from() == m) {
                        return Resolution::Found(*mv);
                    }
                }
                Resolution::Ambiguous(legal, n_legal)
            }
        }
    }
}

/// What a description names in a position, before it is worded as an error.
enum Resolution {
    /// Exactly one legal move.
    Found(Move),
    /// No piece where the text says; `bad_file`: the file number is not 1-9.
    NoPiece { bad_file: bool },
    /// The piece cannot move that way at all.
    Impossible(&'static str),
    /// The move exists but is illegal here.
    Illegal(Move, PlayError),
    /// Several legal moves fit (the first `n`).
    Ambiguous([Move; 9], usize),
}

fn marker_words(marker: Marker) -> String {
    match marker {
        Marker::Front => "front piece".into(),
        Marker::Rear => "rear piece".into(),
        Marker::Middle => "middle piece".into(),
        Marker::WxfPlus => "piece marked +".into(),
        Marker::WxfMinus => "piece marked -".into(),
        Marker::Nth(k) => format!("piece number {k} from the front"),
    }
}

/// Everything a writer needs to know about a legal move (N-MOVE-SHAPE).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Situation {
    pub color: Color,
    pub kind: PieceKind,
    /// Origin file number as the mover counts it.
    pub file: u8,
    /// Pieces of the same kind and side on the origin file (1-5).
    pub on_file: u8,
    /// 0-based index of the mover among them, from the front.
    pub index: u8,
    /// Files holding two or more soldiers of the mover (soldiers only, else 0).
    pub doubled_files: u8,
    /// N-WXF-FSF (2): the other piece on the file could make the same displacement.
    pub other_could_mirror: bool,
    pub direction: Direction,
    pub number: u8,
}

/// Squares each kind may ever stand on, for the N-WXF-FSF displacement test.
fn may_stand(color: Color, kind: PieceKind, sq: Square) -> bool {
    match kind {
        PieceKind::General | PieceKind::Advisor => sq.in_palace(color),
        PieceKind::Elephant => sq.rank().is_own_half(color),
        _ => true,
    }
}

impl Situation {
    /// Describes `mv`, which must be pseudo-legal in `pos` (a piece of the side to move on its origin).
    pub(crate) fn of(pos: &Position, mv: Move) -> Option<Situation> {
        let piece = pos.piece_at(mv.from())?;
        let color = piece.color;
        let kind = piece.kind;
        let from = mv.from();
        let to = mv.to();
        let (list, n) = on_file_front_first(pos, piece, from.file());
        let index = list[..n].iter().position(|&s| s == from)? as u8;
        let doubled_files = if kind == PieceKind::Soldier && n >= 2 {
            let all = pos.squares_of(piece).0;
            FILE_BITS
                .iter()
                .filter(|&&file| (all & file).count_ones() >= 2)
                .count() as u8
        } else {
            0
        };
        let df = to.file().index() as i8 - from.file().index() as i8;
        let dr = to.rank().index() as i8 - from.rank().index() as i8;
        let other_could_mirror = n == 2 && {
            let other = list[1 - index as usize];
            let f = other.file().index() as i8 + df;
            let r = other.rank().index() as i8 + dr;
            Square::from_coords(f as u8, r as u8)
                .filter(|_| (0..9).contains(&f) && (0..10).contains(&r))
                .is_some_and(|sq| may_stand(color, kind, sq))
        };
        let forward = if color == Color::Red { dr } else { -dr };
        let (direction, number) = if dr == 0 {
            (Direction::Sideways, to.file().number_for(color))
        } else {
            let direction = if forward > 0 {
                Direction::Forward
            } else {
                Direction::Backward
            };
            if df == 0 {
                (direction, dr.unsigned_abs())
            } else {
                (direction, to.file().number_for(color))
            }
        };
        Some(Situation {
            color,
            kind,
            file: from.file().number_for(color),
            on_file: n as u8,
            index,
            doubled_files,
            other_could_mirror,
            direction,
            number,
        })
    }

    pub(crate) fn is_front(&self) -> bool {
        self.index == 0
    }

    pub(crate) fn is_rear(&self) -> bool {
        self.index + 1 == self.on_file
    }
}

/// The legal move `mv` of `pos` described, or why it cannot be written.
pub(crate) fn situation(pos: &Position, mv: Move) -> Result<Situation, MoveTextError> {
    if let Err(reason) = legality(pos, mv) {
        return Err(MoveTextError::Illegal {
            text: mv.to_string(),
            mv,
            reason,
        });
    }
    Ok(Situation::of(pos, mv).expect("a legal move has a piece of the side to move"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::MoveList;

    /// `legality` agrees with the core's `is_legal` on every pseudo-legal move
    /// (and on moves of the wrong side) of positions from random playouts.
    #[test]
    fn legality_agrees_with_core_is_legal() {
        let mut checked = 0;
        for seed in 0..20 {
            xiangqi_core::random_game(seed, 120, |pos, _| {
                let mut pseudo = MoveList::new();
                pos.pseudo_legal_moves(&mut pseudo);
                for &mv in pseudo.iter() {
                    assert_eq!(
                        legality(pos, mv).is_ok(),
                        pos.is_legal(mv),
                        "{} {mv}",
                        pos.to_fen()
                    );
                    checked += 1;
                }
                let mut theirs = pos.clone();
                theirs.make_null_move();
                let mut other = MoveList::new();
                theirs.pseudo_legal_moves(&mut other);
                for &mv in other.iter() {
                    assert!(
                        legality(pos, mv).is_err(),
                        "{} {mv} moves the wrong side",
                        pos.to_fen()
                    );
                }
            });
        }
        assert!(checked > 50_000);
    }
}
