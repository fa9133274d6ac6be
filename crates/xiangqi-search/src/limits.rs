//! What bounds a search: depth, nodes, time, or nothing (`infinite`).

use std::time::Duration;

use xiangqi_core::Move;

/// Limits of one search, as a GUI's `go` command gives them. Several may be
/// combined; the search stops at the first one reached, or when the stop
/// handle is raised. With no limit at all the search runs until stopped
/// (or until the maximum depth).
///
/// ```
/// use std::time::Duration;
/// use xiangqi_search::Limits;
/// let fixed = Limits::depth(6);
/// assert_eq!(fixed.depth, Some(6));
/// let clock = Limits { time_left: Some(Duration::from_secs(60)), increment: Some(Duration::from_secs(1)), ..Limits::default() };
/// assert!(clock.is_timed());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies (extensions and quiescence go deeper).
    pub depth: Option<u32>,
    /// Maximum node count, a hard cap: checked at every node (so results are
    /// deterministic), even in the first iteration. When it cuts depth 1
    /// short, the best move is the best root move searched so far, or the
    /// first legal (permitted) root move when none was finished.
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub move_time: Option<Duration>,
    /// Time left on the clock of the side to move.
    pub time_left: Option<Duration>,
    /// Increment per move of the side to move.
    pub increment: Option<Duration>,
    /// Moves until the next time control (`movestogo`), if the clock has one.
    pub moves_to_go: Option<u32>,
    /// Search until stopped; time and depth hints are ignored.
    pub infinite: bool,
    /// A ponder search (UCI `go ponder`): no time limit applies until
    /// [`PonderHandle::hit`](crate::PonderHandle::hit), from which the clock
    /// limits count as if the search had started then.
    pub ponder: bool,
    /// Kept back from every time allotment for the protocol round trip
    /// (UCI `Move Overhead`); `None`: [`DEFAULT_MOVE_OVERHEAD`](crate::DEFAULT_MOVE_OVERHEAD).
    pub move_overhead: Option<Duration>,
    /// Only these root moves are searched (UCI `searchmoves`); empty: all.
    pub search_moves: Vec<Move>,
    /// Root moves never played (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
    /// How many best lines to report (UCI `MultiPV`); 0 and 1 both mean one.
    /// Clamped to the number of root moves.
    pub multi_pv: usize,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn move_time(time: Duration) -> Limits {
        Limits {
            move_time: Some(time),
            ..Limits::default()
        }
    }

    /// True when a clock bounds the search.
    pub fn is_timed(&self) -> bool {
        !self.infinite && (self.move_time.is_some() || self.time_left.is_some())
    }
}
