//! [`Engine`]: one external engine process, whatever its protocol, with
//! answers checked against the rules and typed.

use std::time::{Duration, Instant};

use xiangqi_core::{Color, Move, Position};

use crate::error::EngineError;
use crate::process::{TrafficLog, Wire};
use crate::protocol::ucci::Ucci;
use crate::protocol::uci::Uci;
use crate::protocol::xboard::Xboard;
use crate::protocol::{Dialect, RawInfo, SearchRequest};
use crate::score::Evaluation;
use crate::spec::{EngineSpec, Limit, Protocol};

/// Extra time an engine gets beyond a move time before it counts as hung.
pub const DEFAULT_MARGIN: Duration = Duration::from_millis(500);
/// How long a depth- or node-limited search may take.
pub const DEFAULT_SEARCH_TIMEOUT: Duration = Duration::from_secs(60);

/// One line of analysis, from the side to move's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Info {
    /// 1-based line number (1: the best line).
    pub multipv: u32,
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// The side to move's view.
    pub evaluation: Option<Evaluation>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<Duration>,
    /// The principal variation up to its first unreadable or illegal move.
    pub pv: Vec<Move>,
}

/// What one search found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Analysis {
    /// The engine's move, legal in the searched position.
    pub best_move: Move,
    /// The move as the engine wrote it.
    pub best_text: String,
    pub ponder: Option<Move>,
    /// The last report of each line, best line first (may be empty, and
    /// shorter than the lines asked for: the engine decides).
    pub lines: Vec<Info>,
    /// The side to move in the searched position.
    pub turn: Color,
    /// Wall-clock time from the request to the answer.
    pub elapsed: Duration,
}

impl Analysis {
    /// The best line's evaluation (side to move's view), if reported.
    pub fn evaluation(&self) -> Option<Evaluation> {
        self.lines.first().and_then(|l| l.evaluation)
    }

    /// The best line's depth, if reported.
    pub fn depth(&self) -> Option<u32> {
        self.lines.first().and_then(|l| l.depth)
    }
}

/// How to run one search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    pub limit: Limit,
    /// Lines wanted.
    pub multipv: u32,
    /// The whole time the engine gets to answer; `None`: the move time (or
    /// the time left on its clock) plus [`DEFAULT_MARGIN`], or
    /// [`DEFAULT_SEARCH_TIMEOUT`] for depth and nodes.
    pub timeout: Option<Duration>,
}

impl SearchOptions {
    /// One line within `limit`, default timeout.
    pub fn new(limit: Limit) -> SearchOptions {
        SearchOptions {
            limit,
            multipv: 1,
            timeout: None,
        }
    }

    /// The time `mover`'s engine gets to answer.
    fn timeout(&self, mover: Color) -> Duration {
        // Past its clock the engine has lost; the margin only tells a slow
        // answer from a hung process. The first time limit reached ends it.
        let times = [
            self.limit.move_time,
            self.limit.clock.map(|c| c.left(mover)),
        ];
        self.timeout.unwrap_or(
            times
                .into_iter()
                .flatten()
                .min()
                .map_or(DEFAULT_SEARCH_TIMEOUT, |t| t + DEFAULT_MARGIN),
        )
    }
}

/// A running external engine.
///
/// Every wait has a deadline; an engine that misses one, dies, or answers
/// with a move that is unreadable or illegal gives an [`EngineError`], and
/// after a fatal one ([`EngineError::is_fatal`]) the process is gone.
pub struct Engine {
    spec: EngineSpec,
    wire: Wire,
    dialect: Box<dyn Dialect>,
    name: String,
}

impl Engine {
    /// Starts the engine of `spec` and completes the handshake.
    pub fn start(spec: &EngineSpec, log: Option<&TrafficLog>) -> Result<Engine, EngineError> {
        let mut wire = Wire::spawn(spec, log)?;
        let mut dialect: Box<dyn Dialect> = match spec.protocol {
            Protocol::Uci => Box::new(Uci::new()),
            Protocol::Ucci => Box::new(Ucci),
            Protocol::Xboard => Box::new(Xboard::new()),
        };
        let deadline = Instant::now() + spec.handshake_timeout;
        let own_name = dialect
            .handshake(&mut wire, spec, deadline)
            .map_err(|e| match e {
                EngineError::Timeout { waiting_for, .. } => EngineError::Timeout {
                    waiting_for,
                    after: spec.handshake_timeout,
                },
                e => e,
            })?;
        let name = spec.name.clone().or(own_name).unwrap_or_else(|| {
            spec.argv[0]
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string()
        });
        Ok(Engine {
            spec: spec.clone(),
            wire,
            dialect,
            name,
        })
    }

    /// The spec's name, else the engine's own (`id name`, `myname`), else the program.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    pub fn protocol(&self) -> Protocol {
        self.dialect.protocol()
    }

    /// Whether the engine writes ranks 1-10.
    pub fn ranks_from_one(&self) -> bool {
        self.wire.move_text.ranks_from_one
    }

    /// Whether a game may start from any position (all but xboard engines
    /// without `setboard`).
    pub fn can_set_up_positions(&self) -> bool {
        self.dialect.can_set_up_positions()
    }

    /// Whether the engine can search within `limit`.
    pub fn supports(&self, limit: Limit) -> bool {
        self.dialect.supports(limit)
    }

    /// False once the process died or was killed after a failure.
    pub fn is_alive(&self) -> bool {
        self.wire.is_alive()
    }

    /// Sets an option (`value` empty for a button) and waits until the
    /// engine has taken it.
    pub fn configure(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.spec.handshake_timeout;
        self.dialect
            .configure(&mut self.wire, name, value, deadline)
    }

    /// Prepares a new game from `start` (clears the engine's hash tables).
    pub fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.spec.handshake_timeout;
        self.dialect
            .new_game(&mut self.wire, start, limit, deadline)
    }

    /// Searches the position after `moves` from `start`. The moves must be
    /// legal (an illegal one is [`EngineError::Unsupported`]; the engine is
    /// not asked).
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        let mut position = start.clone();
        for &mv in moves {
            position
                .play(mv)
                .map_err(|e| EngineError::Unsupported(format!("cannot search after {mv}: {e}")))?;
        }
        self.dialect.check_limit(options.limit)?;
        let timeout = options.timeout(position.side_to_move());
        let asked = Instant::now();
        let request = SearchRequest {
            start,
            moves,
            limit: options.limit,
            multipv: options.multipv.max(1),
            deadline: asked + timeout,
        };
        let raw = self
            .dialect
            .search(&mut self.wire, &request)
            .map_err(|e| match e {
                // The engine had the whole timeout, not just the time of the last read.
                EngineError::Timeout { waiting_for, .. } => EngineError::Timeout {
                    waiting_for,
                    after: timeout,
                },
                e => e,
            })?;
        let elapsed = asked.elapsed();
        if matches!(raw.best.as_str(), "" | "(none)" | "0000" | "none") {
            return Err(EngineError::NoMove {
                line: format!("bestmove {}", raw.best),
            });
        }
        let Some(best_move) = self.wire.move_text.read(&raw.best) else {
            self.wire.kill();
            return Err(EngineError::UnreadableMove { text: raw.best });
        };
        if position.check_legal(best_move).is_err() {
            self.wire.kill();
            return Err(EngineError::IllegalMove { text: raw.best });
        }
        let ponder = raw.ponder.as_deref().and_then(|p| {
            let mv = self.wire.move_text.read(p)?;
            let after = position.after(best_move).ok()?;
            after.check_legal(mv).ok().map(|()| mv)
        });
        let lines = self.last_lines(&position, raw.infos);
        Ok(Analysis {
            best_move,
            best_text: raw.best,
            ponder,
            lines,
            turn: position.side_to_move(),
            elapsed,
        })
    }

    /// The last report of each line, moves checked.
    fn last_lines(&self, position: &Position, infos: Vec<RawInfo>) -> Vec<Info> {
        let mut lines: Vec<Info> = Vec::new();
        for raw in infos {
            let info = Info {
                multipv: raw.multipv,
                depth: raw.depth,
                seldepth: raw.seldepth,
                evaluation: raw.evaluation,
                nodes: raw.nodes,
                nps: raw.nps,
                time: raw.time,
                pv: self.legal_prefix(position, &raw.pv),
            };
            match lines.iter_mut().find(|l| l.multipv == info.multipv) {
                Some(slot) => *slot = info,
                None => lines.push(info),
            }
        }
        lines.sort_by_key(|l| l.multipv);
        lines
    }

    fn legal_prefix(&self, position: &Position, pv: &[String]) -> Vec<Move> {
        let mut position = position.clone();
        let mut out = Vec::new();
        for text in pv {
            match self.wire.move_text.read(text) {
                Some(mv) if position.play(mv).is_ok() => out.push(mv),
                _ => break,
            }
        }
        out
    }

    /// Tells the engine the game is over (xboard needs it; others ignore it).
    pub fn game_over(&mut self, result: &str, why: &str) {
        self.dialect.game_over(&mut self.wire, result, why);
    }

    /// Asks the engine to quit, then kills it if it lingers.
    pub fn quit(mut self) {
        self.wire.quit("quit");
    }
}
