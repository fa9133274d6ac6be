//! One module per protocol, all behind [`Dialect`]: what to send for the
//! handshake, a new game, a search, and how to read the answers. The
//! [`Engine`](crate::Engine) turns their raw answers into checked moves.

pub mod info;
pub mod ucci;
pub mod uci;
pub mod xboard;

use std::time::{Duration, Instant};

use xiangqi_core::{Move, Position};

use crate::error::EngineError;
use crate::process::Wire;
use crate::score::Evaluation;
use crate::spec::{EngineSpec, Limit, Protocol};

/// One search to run.
#[derive(Clone, Copy, Debug)]
pub struct SearchRequest<'a> {
    /// The game's start position.
    pub start: &'a Position,
    /// The moves played from `start` (all legal).
    pub moves: &'a [Move],
    pub limit: Limit,
    /// Lines wanted (1: best move only).
    pub multipv: u32,
    /// When the answer must be in.
    pub deadline: Instant,
}

/// One `info` report as the engine wrote it (moves still as text).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawInfo {
    /// 1-based line number (MultiPV).
    pub multipv: u32,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Side to move's view.
    pub evaluation: Option<Evaluation>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<Duration>,
    pub pv: Vec<String>,
}

/// What a protocol read back for one search.
#[derive(Clone, Debug, Default)]
pub struct RawAnswer {
    /// The move text the engine chose.
    pub best: String,
    pub ponder: Option<String>,
    /// Every report with a score, in the order received.
    pub infos: Vec<RawInfo>,
}

/// The protocol side of an engine. One implementation per protocol module.
pub trait Dialect: Send {
    fn protocol(&self) -> Protocol;

    /// Opens the conversation and applies `spec.options`; returns the
    /// engine's own name, if it said one. May set `wire.move_text`.
    fn handshake(
        &mut self,
        wire: &mut Wire,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<Option<String>, EngineError>;

    /// Sets one option (`value` empty for a button).
    fn configure(
        &mut self,
        wire: &mut Wire,
        name: &str,
        value: &str,
        deadline: Instant,
    ) -> Result<(), EngineError>;

    /// Prepares a new game from `start`, searched with `limit`.
    fn new_game(
        &mut self,
        wire: &mut Wire,
        start: &Position,
        limit: Limit,
        deadline: Instant,
    ) -> Result<(), EngineError>;

    /// Runs one search and reads its answer.
    fn search(
        &mut self,
        wire: &mut Wire,
        request: &SearchRequest<'_>,
    ) -> Result<RawAnswer, EngineError>;

    /// Tells the engine the game is over (most protocols need nothing).
    fn game_over(&mut self, _wire: &mut Wire, _result: &str, _why: &str) {}

    /// Whether a game may start from any position.
    fn can_set_up_positions(&self) -> bool {
        true
    }

    /// `Ok` when the protocol can express `limit`, else an
    /// [`EngineError::Unsupported`] naming the part it cannot.
    fn check_limit(&self, limit: Limit) -> Result<(), EngineError>;

    /// Whether `limit` can be searched.
    fn supports(&self, limit: Limit) -> bool {
        self.check_limit(limit).is_ok()
    }
}

/// `position startpos|fen … [moves …]` as UCI and UCCI write it.
pub(crate) fn position_line(wire: &Wire, start: &Position, moves: &[Move]) -> String {
    let fen = start.to_fen();
    let mut line = if fen == xiangqi_core::START_FEN {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    };
    if !moves.is_empty() {
        line.push_str(" moves");
        for &mv in moves {
            line.push(' ');
            line.push_str(&wire.move_text.write(mv));
        }
    }
    line
}

impl SearchRequest<'_> {
    /// The side to move in the searched position.
    pub fn mover(&self) -> xiangqi_core::Color {
        let first = self.start.side_to_move();
        if self.moves.len() % 2 == 0 {
            first
        } else {
            !first
        }
    }
}

/// `isready` … `readyok`.
pub(crate) fn sync_ready(wire: &mut Wire, deadline: Instant) -> Result<(), EngineError> {
    wire.send("isready")?;
    wire.read_until(deadline, "readyok", |_, line| {
        (line == "readyok").then_some(())
    })
}
