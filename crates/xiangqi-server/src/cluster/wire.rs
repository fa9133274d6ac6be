//! What crosses the bus about a game: the room's notation-free facts
//! (`EventOut`, `Snapshot`) in a serialisable form, turned back into the
//! same values on the receiving node, which renders them for its sockets.
//! Positions travel as FEN and moves as ICCS.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use xiangqi_adjudication::{Outcome, Reason};
use xiangqi_core::{Color, Move, Position};
use xiangqi_ecco::Opening;

use crate::game::view::{ClockView, EventKind, EventOut, GameFacts, ResultView, Seat, Snapshot};
use crate::time_control::parse_time_control;

/// A value from the bus that does not read back (a node of another version).
#[derive(Debug, thiserror::Error)]
#[error("a message from the bus does not read: {0}")]
pub struct WireError(String);

fn bad(what: impl std::fmt::Display) -> WireError {
    WireError(what.to_string())
}

fn position(fen: &str) -> Result<Position, WireError> {
    Position::from_fen(fen).map_err(bad)
}

fn mv(text: &str) -> Result<Move, WireError> {
    text.parse().map_err(|_| bad(format!("move {text:?}")))
}

/// [`Seat`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum WireSeat {
    /// A person.
    Player {
        /// Id.
        id: String,
        /// Name.
        name: String,
        /// Guest.
        guest: bool,
        /// Rating at the start.
        rating: Option<i32>,
        /// A bot account.
        #[serde(default)]
        bot: bool,
    },
    /// The engine.
    Engine {
        /// Level.
        level: u8,
    },
}

impl From<&Seat> for WireSeat {
    fn from(seat: &Seat) -> WireSeat {
        match seat.clone() {
            Seat::Player {
                id,
                name,
                guest,
                rating,
                bot,
            } => WireSeat::Player {
                id,
                name,
                guest,
                rating,
                bot,
            },
            Seat::Engine { level } => WireSeat::Engine { level },
        }
    }
}

impl From<WireSeat> for Seat {
    fn from(seat: WireSeat) -> Seat {
        match seat {
            WireSeat::Player {
                id,
                name,
                guest,
                rating,
                bot,
            } => Seat::Player {
                id,
                name,
                guest,
                rating,
                bot,
            },
            WireSeat::Engine { level } => Seat::Engine { level },
        }
    }
}

/// [`GameFacts`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireFacts {
    id: String,
    red: WireSeat,
    black: WireSeat,
    tc: String,
    rated: bool,
    rules: String,
    start: String,
    started_at: i64,
}

impl WireFacts {
    /// The wire form of `facts`.
    pub fn of(facts: &GameFacts) -> WireFacts {
        WireFacts {
            id: facts.id.clone(),
            red: (&facts.red).into(),
            black: (&facts.black).into(),
            tc: facts.tc_text.clone(),
            rated: facts.rated,
            rules: facts.rules.clone(),
            start: facts.start.to_fen(),
            started_at: facts.started_at,
        }
    }

    /// The facts again.
    pub fn read(self) -> Result<GameFacts, WireError> {
        Ok(GameFacts {
            tc: parse_time_control(&self.tc).map_err(bad)?,
            tc_text: self.tc,
            id: self.id,
            red: self.red.into(),
            black: self.black.into(),
            rated: self.rated,
            rules: self.rules,
            start: position(&self.start)?,
            started_at: self.started_at,
        })
    }
}

/// [`ClockView`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireClock {
    clocks: [u64; 2],
    running: Option<Color>,
    turn: Color,
    legal: Vec<String>,
    now: i64,
}

impl WireClock {
    fn of(clock: &ClockView) -> WireClock {
        WireClock {
            clocks: clock.clocks,
            running: clock.running,
            turn: clock.turn,
            legal: clock.legal.iter().map(Move::to_string).collect(),
            now: clock.now,
        }
    }

    fn read(self) -> Result<ClockView, WireError> {
        Ok(ClockView {
            clocks: self.clocks,
            running: self.running,
            turn: self.turn,
            legal: self.legal.iter().map(|m| mv(m)).collect::<Result<_, _>>()?,
            now: self.now,
        })
    }
}

/// [`ResultView`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireResult {
    outcome: Outcome,
    reason: Reason,
    ply: u32,
    last_move: Option<(String, String)>,
    ratings: Option<[(i32, i32); 2]>,
    aborted_by: Option<Color>,
}

impl WireResult {
    fn of(result: &ResultView) -> WireResult {
        WireResult {
            outcome: result.outcome,
            reason: result.reason,
            ply: result.ply,
            last_move: result
                .last_move
                .as_ref()
                .map(|(before, m)| (before.to_fen(), m.to_string())),
            ratings: result.ratings,
            aborted_by: result.aborted_by,
        }
    }

    fn read(self) -> Result<ResultView, WireError> {
        let last_move = match self.last_move {
            Some((before, m)) => Some((position(&before)?, mv(&m)?)),
            None => None,
        };
        Ok(ResultView {
            outcome: self.outcome,
            reason: self.reason,
            ply: self.ply,
            last_move,
            ratings: self.ratings,
            aborted_by: self.aborted_by,
        })
    }
}

/// [`EventKind`]; an opening travels as its code and settling ply.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum WireKind {
    /// A move.
    Move {
        /// Plies before it.
        ply: u32,
        /// FEN before it.
        before: String,
        /// ICCS.
        mv: String,
        /// FEN after it.
        fen: String,
        /// ECCO code and ply.
        opening: Option<(String, usize)>,
    },
    /// An offer.
    DrawOffer(Color),
    /// A decline.
    DrawDeclined(Color),
    /// Away.
    Away(Color),
    /// Back.
    Back(Color),
    /// The end.
    End(WireResult),
    /// A takeback request.
    TakebackOffer(Color),
    /// A takeback refused.
    TakebackDeclined(Color),
    /// A takeback made: plies now, FEN now, ECCO code and ply.
    Takeback {
        /// The side that asked.
        by: Color,
        /// Plies played now.
        ply: u32,
        /// FEN now.
        fen: String,
        /// ECCO code and ply of the moves that remain.
        opening: Option<(String, usize)>,
    },
    /// A rematch offer.
    RematchOffer(Color),
    /// A rematch declined.
    RematchDeclined(Color),
    /// A rematch offer withdrawn.
    RematchWithdrawn(Color),
    /// The rematch game.
    Rematch(String),
}

fn opening(code: &str, ply: usize) -> Option<Box<Opening>> {
    let named = xiangqi_ecco::code(code)?;
    Some(Box::new(Opening {
        code: named.code,
        name: named.name,
        name_traditional: named.name_traditional,
        name_en: named.name_en,
        ply,
    }))
}

/// [`EventOut`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireEvent {
    /// Version.
    pub v: u64,
    kind: WireKind,
    clock: WireClock,
}

impl WireEvent {
    /// The wire form of `event`.
    pub fn of(event: &EventOut) -> WireEvent {
        let kind = match &event.kind {
            EventKind::Move {
                ply,
                before,
                mv,
                fen,
                opening,
            } => WireKind::Move {
                ply: *ply,
                before: before.to_fen(),
                mv: mv.to_string(),
                fen: fen.clone(),
                opening: opening.as_ref().map(|o| (o.code.to_string(), o.ply)),
            },
            EventKind::DrawOffer(c) => WireKind::DrawOffer(*c),
            EventKind::DrawDeclined(c) => WireKind::DrawDeclined(*c),
            EventKind::Away(c) => WireKind::Away(*c),
            EventKind::Back(c) => WireKind::Back(*c),
            EventKind::End(result) => WireKind::End(WireResult::of(result)),
            EventKind::TakebackOffer(c) => WireKind::TakebackOffer(*c),
            EventKind::TakebackDeclined(c) => WireKind::TakebackDeclined(*c),
            EventKind::Takeback {
                by,
                ply,
                fen,
                opening,
            } => WireKind::Takeback {
                by: *by,
                ply: *ply,
                fen: fen.clone(),
                opening: opening.as_ref().map(|o| (o.code.to_string(), o.ply)),
            },
            EventKind::RematchOffer(c) => WireKind::RematchOffer(*c),
            EventKind::RematchDeclined(c) => WireKind::RematchDeclined(*c),
            EventKind::RematchWithdrawn(c) => WireKind::RematchWithdrawn(*c),
            EventKind::Rematch(game) => WireKind::Rematch(game.clone()),
        };
        WireEvent {
            v: event.v,
            kind,
            clock: WireClock::of(&event.clock),
        }
    }

    /// The event again.
    pub fn read(self) -> Result<EventOut, WireError> {
        let kind = match self.kind {
            WireKind::Move {
                ply,
                before,
                mv: m,
                fen,
                opening: named,
            } => EventKind::Move {
                ply,
                before: Box::new(position(&before)?),
                mv: mv(&m)?,
                fen,
                opening: named.and_then(|(code, ply)| opening(&code, ply)),
            },
            WireKind::DrawOffer(c) => EventKind::DrawOffer(c),
            WireKind::DrawDeclined(c) => EventKind::DrawDeclined(c),
            WireKind::Away(c) => EventKind::Away(c),
            WireKind::Back(c) => EventKind::Back(c),
            WireKind::End(result) => EventKind::End(Arc::new(result.read()?)),
            WireKind::TakebackOffer(c) => EventKind::TakebackOffer(c),
            WireKind::TakebackDeclined(c) => EventKind::TakebackDeclined(c),
            WireKind::Takeback {
                by,
                ply,
                fen,
                opening: named,
            } => EventKind::Takeback {
                by,
                ply,
                fen,
                opening: named.and_then(|(code, ply)| opening(&code, ply)),
            },
            WireKind::RematchOffer(c) => EventKind::RematchOffer(c),
            WireKind::RematchDeclined(c) => EventKind::RematchDeclined(c),
            WireKind::RematchWithdrawn(c) => EventKind::RematchWithdrawn(c),
            WireKind::Rematch(game) => EventKind::Rematch(game),
        };
        Ok(EventOut {
            v: self.v,
            kind,
            clock: self.clock.read()?,
        })
    }
}

/// [`Snapshot`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireSnapshot {
    /// Version.
    pub v: u64,
    facts: WireFacts,
    moves: Vec<String>,
    fen: String,
    clock: WireClock,
    draw_offer: Option<Color>,
    takeback_offer: Option<Color>,
    rematch_offer: Option<Color>,
    rematch: Option<String>,
    away: [Option<u64>; 2],
    result: Option<WireResult>,
}

impl WireSnapshot {
    /// The wire form of `snapshot`.
    pub fn of(snapshot: &Snapshot) -> WireSnapshot {
        WireSnapshot {
            v: snapshot.v,
            facts: WireFacts::of(&snapshot.facts),
            moves: snapshot.moves.iter().map(Move::to_string).collect(),
            fen: snapshot.fen.clone(),
            clock: WireClock::of(&snapshot.clock),
            draw_offer: snapshot.draw_offer,
            takeback_offer: snapshot.takeback_offer,
            rematch_offer: snapshot.rematch_offer,
            rematch: snapshot.rematch.clone(),
            away: snapshot.away,
            result: snapshot.result.as_deref().map(WireResult::of),
        }
    }

    /// The snapshot again, with `facts` when the receiver has them already.
    pub fn read(self, facts: Option<Arc<GameFacts>>) -> Result<Snapshot, WireError> {
        let facts = match facts {
            Some(facts) => facts,
            None => Arc::new(self.facts.read()?),
        };
        Ok(Snapshot {
            v: self.v,
            facts,
            moves: self.moves.iter().map(|m| mv(m)).collect::<Result<_, _>>()?,
            fen: self.fen,
            clock: self.clock.read()?,
            draw_offer: self.draw_offer,
            takeback_offer: self.takeback_offer,
            rematch_offer: self.rematch_offer,
            rematch: self.rematch,
            away: self.away,
            result: match self.result {
                Some(result) => Some(Arc::new(result.read()?)),
                None => None,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_comes_back_with_its_names() {
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let found = crate::game::view::opening_of(&Position::startpos(), &moves).unwrap();
        let back = opening(found.code, found.ply).unwrap();
        assert_eq!(*back, found);
    }
}
