//! What a search tells its caller: a [`SearchInfo`] per completed
//! iteration and line, the [`SearchResult`] at the end with its [`PvLine`]s.

use std::time::Duration;

use xiangqi_core::Move;

use crate::score::Score;

/// Progress report sent to the info callback after every completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached (extensions and quiescence).
    pub seldepth: u32,
    /// Which line this is, 1 for the best (UCI `multipv`; always 1 unless
    /// [`Limits::multi_pv`] asks for more lines).
    pub multipv: usize,
    /// Score of this line for the side to move.
    pub score: Score,
    /// Nodes searched so far in this search (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Principal variation, first move first.
    pub pv: Vec<Move>,
    /// Transposition-table use in permille.
    pub hashfull: u32,
}

/// The outcome of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move
    /// (it has lost: R-END-MATE, R-END-STALEMATE) or every move was excluded.
    pub best_move: Option<Move>,
    /// The expected reply (second move of the PV), for pondering GUIs.
    pub ponder: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration (0 when no move was searched).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Total nodes searched.
    pub nodes: u64,
    /// Principal variation starting with `best_move`.
    pub pv: Vec<Move>,
    /// Wall-clock time used.
    pub time: Duration,
    /// The best lines with distinct first moves, best first, at most
    /// [`Limits::multi_pv`] (at least one when there is a move; the first is
    /// `score` and `pv`). Ordered by score; lines of an iteration cut short may
    /// have been searched one ply less deep than the first.
    pub lines: Vec<PvLine>,
}

/// One line of analysis: a root move's score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PvLine {
    /// Score for the side to move.
    pub score: Score,
    /// The line, first move first (never empty).
    pub pv: Vec<Move>,
}
