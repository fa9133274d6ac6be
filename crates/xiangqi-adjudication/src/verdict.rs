//! [`Verdict`]: who won, why (the reason codes of section 4), when, and an
//! explanation a person can check.

use std::fmt;

use xiangqi_core::{Color, Piece, PieceKind, Square};

/// The state of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Outcome {
    /// Red has won.
    Red,
    /// Black has won.
    Black,
    /// Drawn.
    Draw,
    /// No result and not rated (R-END-CANCEL).
    Cancelled,
    /// Still in progress.
    Ongoing,
}

impl Outcome {
    /// The side that won this outcome.
    pub fn win_for(side: Color) -> Outcome {
        match side {
            Color::Red => Outcome::Red,
            Color::Black => Outcome::Black,
        }
    }

    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Red => Some(Color::Red),
            Outcome::Black => Some(Color::Black),
            _ => None,
        }
    }

    /// Red's score, 1, ½ or 0, once the game is decided; `None` while it
    /// goes on and when it is cancelled.
    pub fn red_score(self) -> Option<f64> {
        match self {
            Outcome::Red => Some(1.0),
            Outcome::Black => Some(0.0),
            Outcome::Draw => Some(0.5),
            Outcome::Cancelled | Outcome::Ongoing => None,
        }
    }

    /// The PGN result (N-PGN): `1-0`, `0-1`, `1/2-1/2`, or `*` when cancelled or ongoing.
    /// A game record's result tag (the game-file library's `GameResult`) is
    /// read from and written as this token: the one bridge between the two.
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Red => "1-0",
            Outcome::Black => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Cancelled | Outcome::Ongoing => "*",
        }
    }

    /// `"red"`, `"black"`, `"draw"`, `"cancelled"` or `"ongoing"`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Red => "red",
            Outcome::Black => "black",
            Outcome::Draw => "draw",
            Outcome::Cancelled => "cancelled",
            Outcome::Ongoing => "ongoing",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a game ended: the reason codes of section 4.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Reason {
    /// R-END-MATE.
    Checkmate,
    /// R-END-STALEMATE.
    Stalemate,
    /// R-END-REP without a perpetual offender.
    ThreefoldRepetition,
    /// R-REP-PERP-CHECK: the checking side loses.
    PerpetualCheck,
    /// R-REP-PERP-CHASE: the chasing side loses.
    PerpetualChase,
    /// Both sides check perpetually: draw.
    MutualPerpetualCheck,
    /// Both sides chase perpetually: draw.
    MutualPerpetualChase,
    /// R-END-NOCAPTURE.
    NoCaptureRule,
    /// R-END-MATERIAL.
    InsufficientMaterial,
    /// R-END-RESIGN.
    Resignation,
    /// R-END-TIMEOUT.
    Timeout,
    /// R-END-ABANDON.
    Abandonment,
    /// R-END-CANCEL.
    Cancelled,
    /// Called off by a side before both sides had moved: cancelled, not
    /// rated (a decision of this crate, docs/adjudication.md).
    Aborted,
    /// R-END-AGREE.
    Agreement,
}

impl Reason {
    /// The reason code, e.g. `"perpetual_chase"`.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::PerpetualChase => "perpetual_chase",
            Reason::MutualPerpetualCheck => "mutual_perpetual_check",
            Reason::MutualPerpetualChase => "mutual_perpetual_chase",
            Reason::NoCaptureRule => "no_capture_rule",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Abandonment => "abandonment",
            Reason::Cancelled => "cancelled",
            Reason::Aborted => "aborted",
            Reason::Agreement => "agreement",
        }
    }

    /// True for the five verdicts of a third occurrence (R-REP-VERDICT).
    ///
    /// ```
    /// use xiangqi_adjudication::Reason;
    /// assert!(Reason::PerpetualChase.is_repetition());
    /// assert!(!Reason::Checkmate.is_repetition());
    /// ```
    pub fn is_repetition(self) -> bool {
        matches!(
            self,
            Reason::ThreefoldRepetition
                | Reason::PerpetualCheck
                | Reason::PerpetualChase
                | Reason::MutualPerpetualCheck
                | Reason::MutualPerpetualChase
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A piece and where it stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlacedPiece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: PieceKind,
    /// Its point.
    pub square: Square,
}

impl PlacedPiece {
    /// `piece` on `square`.
    pub fn new(piece: Piece, square: Square) -> PlacedPiece {
        PlacedPiece {
            color: piece.color,
            kind: piece.kind,
            square,
        }
    }
}

impl fmt::Display for PlacedPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} on {}", self.color, self.kind, self.square)
    }
}

/// How one side behaved over a repetition span (R-REP-PERP-CHECK, R-REP-PERP-CHASE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Conduct {
    /// Checked on every one of its plies.
    PerpetualCheck,
    /// Chased the same piece(s) on every one of its plies, never checking.
    PerpetualChase,
    /// Neither.
    None,
}

/// One side's part in a repetition, with the pieces that did it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideReport {
    /// The side.
    pub side: Color,
    /// Perpetual check, perpetual chase or neither.
    pub conduct: Conduct,
    /// Its plies in the span.
    pub plies: u32,
    /// How many of them were checks (R-REP-CHECK).
    pub checks: u32,
    /// How many were chases (R-REP-CHASE).
    pub chases: u32,
    /// The checking or chasing pieces, where they stand at the end of the span.
    pub pieces: Vec<PlacedPiece>,
    /// The checked general, or the pieces chased on every ply, at the end of the span.
    pub targets: Vec<PlacedPiece>,
    /// Every opponent piece this side chased on at least one of its plies
    /// (R-REP-CHASE), where it stands at the end of the span; also when the
    /// chases were of different pieces in turn and so no offence.
    pub chased: Vec<PlacedPiece>,
}

/// Why a repetition ended as it did (R-REP-SPAN, R-REP-VERDICT).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RepetitionInfo {
    /// The plies after which the repeated position stood (first, second, third occurrence;
    /// 0 is the start position).
    pub occurrences: Vec<u32>,
    /// Red's conduct over the span.
    pub red: SideReport,
    /// Black's conduct over the span.
    pub black: SideReport,
}

impl RepetitionInfo {
    /// The report of `side`.
    pub fn side(&self, side: Color) -> &SideReport {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

/// The state of a game: outcome, reason, the ply at which it arose, a
/// human explanation and, for repetitions, the evidence.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Verdict {
    /// Who won, draw, cancelled or ongoing.
    pub outcome: Outcome,
    /// The reason code, `None` while the game goes on.
    pub reason: Option<Reason>,
    /// The number of plies played when the verdict arose (the current ply while ongoing).
    pub ply: u32,
    /// An explanation naming the side, pieces and targets involved.
    pub detail: String,
    /// For the repetition reasons: each side's conduct in the span.
    pub repetition: Option<RepetitionInfo>,
}

impl Verdict {
    /// An ongoing game at `ply`.
    pub fn ongoing(ply: u32) -> Verdict {
        Verdict {
            outcome: Outcome::Ongoing,
            reason: None,
            ply,
            detail: format!("the game goes on after ply {ply}"),
            repetition: None,
        }
    }

    /// A finished game.
    pub fn ended(outcome: Outcome, reason: Reason, ply: u32, detail: String) -> Verdict {
        Verdict {
            outcome,
            reason: Some(reason),
            ply,
            detail,
            repetition: None,
        }
    }

    /// True unless the game is still in progress.
    pub fn is_over(&self) -> bool {
        self.outcome != Outcome::Ongoing
    }

    /// The PGN result string.
    pub fn result(&self) -> &'static str {
        self.outcome.result()
    }

    /// R-CLOCK-RATED: `Some(true)` for a finished game, `Some(false)` for a
    /// cancelled one, `None` while it goes on.
    pub fn rated(&self) -> Option<bool> {
        match self.outcome {
            Outcome::Ongoing => None,
            Outcome::Cancelled => Some(false),
            _ => Some(true),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason {
            Some(r) => write!(
                f,
                "{} ({}) at ply {}: {}",
                self.result(),
                r,
                self.ply,
                self.detail
            ),
            None => write!(f, "* ongoing at ply {}", self.ply),
        }
    }
}
