//! The online clock and connection model of section 8 as a deterministic
//! event API: every time is passed in by the caller, in milliseconds; the
//! wall clock is never read.

use std::fmt;
use std::str::FromStr;

use xiangqi_core::{Color, Move, Position};

use crate::game::{Game, GameError};
use crate::material::is_bare;
use crate::rules::{ClockRules, RuleSet};
use crate::verdict::{Outcome, Reason, Verdict};

mod takeback;

pub use takeback::TAKEBACK_COOLDOWN_PLIES;

/// Base time and increment per move, in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimeControl {
    /// Each side's time at the start.
    pub base_ms: u64,
    /// Added to the mover's clock after each of its plies.
    pub increment_ms: u64,
}

/// Text that is not `BASE_MS` or `BASE_MS+INC_MS`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad time control {0:?}: expected BASE_MS or BASE_MS+INC_MS, e.g. 300000+2000")]
pub struct ParseTimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let bad = || ParseTimeControlError(s.to_string());
        let (base, inc) = match s.trim().split_once('+') {
            Some((b, i)) => (b, i),
            None => (s.trim(), "0"),
        };
        let base_ms: u64 = base.trim().parse().map_err(|_| bad())?;
        let increment_ms: u64 = inc.trim().parse().map_err(|_| bad())?;
        if base_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl {
            base_ms,
            increment_ms,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.base_ms, self.increment_ms)
    }
}

/// Why a clock or player event was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClockError {
    /// Events must come in time order (section 8).
    #[error("event at {at} ms comes before the previous event at {last} ms: events must be in time order")]
    OutOfOrder {
        /// The event's time.
        at: u64,
        /// The time of the event before it.
        last: u64,
    },
    /// R-CLOCK-MOVE: a move by the side not to move.
    #[error("ply {ply}: {side} cannot move, it is {to_move}'s turn (R-CLOCK-MOVE)")]
    NotYourTurn {
        /// The side that tried to move.
        side: Color,
        /// The side to move.
        to_move: Color,
        /// The ply it would have been.
        ply: u32,
    },
    /// R-CLOCK-DRAW: accepting a draw nobody offered.
    #[error("{side} cannot accept a draw at {at} ms: {} has no pending draw offer (R-CLOCK-DRAW)", .side.opposite())]
    NoDrawOffer {
        /// The side that tried to accept.
        side: Color,
        /// When.
        at: u64,
    },
    /// Abort (a decision of this crate, docs/adjudication.md): once both
    /// sides have moved, a game can no longer be aborted.
    #[error("{side} cannot abort at {at} ms: both sides have moved, so the game can only be resigned or drawn now")]
    NotAbortable {
        /// The side that tried to abort.
        side: Color,
        /// When.
        at: u64,
    },
    /// Accepting or declining a takeback nobody asked for.
    #[error("{side} cannot answer a takeback request at {at} ms: {} has not asked for one", .side.opposite())]
    NoTakebackRequest {
        /// The side that answered.
        side: Color,
        /// When.
        at: u64,
    },
    /// A takeback request by a side that has no move of its own to take back.
    #[error("{side} has no move to take back")]
    NothingToTakeBack {
        /// The side that asked.
        side: Color,
    },
    /// A takeback request while the opponent's request waits for an answer.
    #[error("{side} cannot ask for a takeback: {}'s request waits for an answer", .side.opposite())]
    TakebackPending {
        /// The side that asked.
        side: Color,
    },
    /// A takeback request again too soon after a declined one.
    #[error(
        "{side}'s takeback request was declined: it can ask again after {plies_left} more plies"
    )]
    TakebackTooSoon {
        /// The side that asked.
        side: Color,
        /// Plies still to be played before it may ask again.
        plies_left: u64,
    },
    /// The rule set has no clock model (section 11).
    #[error("the rule set has no clock model (section 11): use the online preset or set `clock`")]
    NoClockModel,
    /// The move or event is not possible in the game (illegal, or after the end).
    #[error(transparent)]
    Game(#[from] GameError),
}

/// One player or clock event (the JSON-lines format of `xiangqi adjudicate --events`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)
)]
pub enum ClockEvent {
    /// R-CLOCK-MOVE; `side` defaults to the side to move.
    Move {
        /// The mover (checked against the side to move when given).
        #[cfg_attr(feature = "serde", serde(default))]
        side: Option<Color>,
        /// The move (ICCS).
        #[cfg_attr(feature = "serde", serde(rename = "move"))]
        mv: Move,
    },
    /// R-CLOCK-RESIGN.
    Resign {
        /// Who resigns.
        side: Color,
    },
    /// Abort: before both sides have moved, either side may call the game
    /// off; it is cancelled and not rated (docs/adjudication.md).
    Abort {
        /// Who aborts.
        side: Color,
    },
    /// R-CLOCK-DRAW: an offer.
    OfferDraw {
        /// Who offers.
        side: Color,
    },
    /// R-CLOCK-DRAW: accepting the opponent's offer.
    AcceptDraw {
        /// Who accepts.
        side: Color,
    },
    /// R-CLOCK-DRAW: declining the opponent's offer.
    DeclineDraw {
        /// Who declines.
        side: Color,
    },
    /// Takeback: `side` asks to take back its last move (and the
    /// opponent's reply, if any; see [`OnlineGame::offer_takeback`]).
    OfferTakeback {
        /// Who asks.
        side: Color,
    },
    /// Takeback: `side` agrees to the opponent's request.
    AcceptTakeback {
        /// Who agrees.
        side: Color,
    },
    /// Takeback: `side` refuses the opponent's request.
    DeclineTakeback {
        /// Who refuses.
        side: Color,
    },
    /// R-CLOCK-ABANDON: a player leaves the board or disconnects.
    Leave {
        /// Who leaves.
        side: Color,
    },
    /// R-CLOCK-ABANDON: the player is back.
    Return {
        /// Who returns.
        side: Color,
    },
    /// R-CLOCK-POLL: apply the deadlines due by now.
    Poll,
}

/// A [`ClockEvent`] with its time in milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TimedEvent {
    /// When it happened, in ms since the start of the game.
    pub at: u64,
    /// What happened.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub event: ClockEvent,
}

/// A deadline that can end the game between plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Deadline {
    Flag(Color),
    FirstMove(Color),
    Abandon(Color),
    BothAbandon,
}

/// A game with clocks and players (R-CLOCK-STATE).
///
/// ```
/// use xiangqi_adjudication::{OnlineGame, Outcome, Reason, RuleSet, TimeControl};
/// use xiangqi_core::{Color, Position};
/// let tc = TimeControl { base_ms: 60_000, increment_ms: 0 };
/// let mut game = OnlineGame::new(Position::startpos(), RuleSet::default(), tc, 0).unwrap();
/// game.play(Color::Red, "h2e2".parse().unwrap(), 3_000).unwrap();
/// game.play(Color::Black, "h9g7".parse().unwrap(), 4_000).unwrap();
/// game.leave(Color::Black, 10_000).unwrap();
/// // EX-CLOCK-4 style: 45 000 ms away is still allowed, 45 001 ms is not.
/// assert_eq!(game.poll(55_000).unwrap().outcome, Outcome::Ongoing);
/// let v = game.poll(55_001).unwrap();
/// assert_eq!((v.outcome, v.reason), (Outcome::Red, Some(Reason::Abandonment)));
/// // Red's clock ran from 4 000 ms to 55 001 ms; Black's stopped at 59 000 ms.
/// assert_eq!(game.clocks(), [5_999, 59_000]);
/// ```
#[derive(Clone, Debug)]
pub struct OnlineGame {
    game: Game,
    rules: ClockRules,
    control: TimeControl,
    /// Remaining time per side at `turn_started` (the waiting side's clock is stopped).
    remaining: [u64; 2],
    turn_started: u64,
    last_event: u64,
    /// When the game ended by an event or deadline (clocks stop there).
    ended_at: Option<u64>,
    has_moved: [bool; 2],
    away_since: [Option<u64>; 2],
    draw_offer: [bool; 2],
    aborted_by: Option<Color>,
    /// Pending takeback requests (at most one side's at a time).
    takeback_request: [bool; 2],
    /// Plies ever played, taken back ones included (the takeback cooldown's measure).
    plies_played: u64,
    /// The `plies_played` from which each side may ask for a takeback again.
    takeback_allowed_from: [u64; 2],
}

impl OnlineGame {
    /// A game from `start` whose clock starts at `start_at` ms (Red's clock
    /// runs from then, R-CLOCK-STATE). `rules.clock` must be set.
    pub fn new(
        start: Position,
        rules: RuleSet,
        control: TimeControl,
        start_at: u64,
    ) -> Result<OnlineGame, ClockError> {
        let clock = rules.clock.ok_or(ClockError::NoClockModel)?;
        let game = Game::new(start, rules);
        let ended_at = game.is_over().then_some(start_at);
        Ok(OnlineGame {
            game,
            rules: clock,
            control,
            remaining: [control.base_ms; 2],
            turn_started: start_at,
            last_event: start_at,
            ended_at,
            has_moved: [false; 2],
            away_since: [None; 2],
            draw_offer: [false; 2],
            aborted_by: None,
            takeback_request: [false; 2],
            plies_played: 0,
            takeback_allowed_from: [0; 2],
        })
    }

    /// The board game inside.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The verdict so far.
    pub fn verdict(&self) -> &Verdict {
        self.game.verdict()
    }

    /// R-CLOCK-RATED: see [`Verdict::rated`].
    pub fn rated(&self) -> Option<bool> {
        self.verdict().rated()
    }

    /// The time of the last event processed.
    pub fn now(&self) -> u64 {
        self.last_event
    }

    /// Remaining time of Red and Black, in ms, as of the last event (or of
    /// the end of the game).
    pub fn clocks(&self) -> [u64; 2] {
        let now = self.ended_at.unwrap_or(self.last_event);
        let mut clocks = self.remaining;
        let s = self.game.position().side_to_move().index();
        clocks[s] = clocks[s].saturating_sub(now.saturating_sub(self.turn_started));
        clocks
    }

    /// Whether `side` has made its first move.
    pub fn has_moved(&self, side: Color) -> bool {
        self.has_moved[side.index()]
    }

    /// Whether the game runs and a side has not made its first move yet: then
    /// either side may [`abort`](OnlineGame::abort) it.
    pub fn abortable(&self) -> bool {
        let both_moved = self.has_moved[0] && self.has_moved[1];
        !self.game.is_over() && !both_moved
    }

    /// The side that aborted the game, if it was aborted.
    pub fn aborted_by(&self) -> Option<Color> {
        self.aborted_by
    }

    /// Whether `side` has a pending draw offer.
    pub fn has_draw_offer(&self, side: Color) -> bool {
        self.draw_offer[side.index()]
    }

    /// Since when `side` has been away, if it is.
    pub fn away_since(&self, side: Color) -> Option<u64> {
        self.away_since[side.index()]
    }

    /// The earliest deadline, with its ordering key: a flag due at `t` has key
    /// 2t; an abandonment is due strictly after its limit, so key 2t+1.
    fn next_deadline(&self) -> Option<(u128, u64, Deadline)> {
        let to_move = self.game.position().side_to_move();
        let mut best: Option<(u128, u64, Deadline)> = None;
        let mut consider = |key: u128, time: u64, d: Deadline| {
            let better = match best {
                None => true,
                Some((k, _, prev)) => {
                    if key == k {
                        if let (Deadline::Abandon(_), Deadline::Abandon(_)) = (prev, d) {
                            best = Some((key, time, Deadline::BothAbandon));
                        }
                        false
                    } else {
                        key < k
                    }
                }
            };
            if better {
                best = Some((key, time, d));
            }
        };
        let flag = self
            .turn_started
            .saturating_add(self.remaining[to_move.index()]);
        consider(2 * u128::from(flag), flag, Deadline::Flag(to_move));
        if let Some(limit) = self.rules.first_move_deadline_ms {
            if !self.has_moved[to_move.index()] {
                let t = self.turn_started.saturating_add(limit);
                consider(2 * u128::from(t), t, Deadline::FirstMove(to_move));
            }
        }
        for side in Color::ALL {
            if let Some(since) = self.away_since[side.index()] {
                let t = since.saturating_add(self.rules.abandon_after_ms);
                consider(
                    2 * u128::from(t) + 1,
                    t.saturating_add(1),
                    Deadline::Abandon(side),
                );
            }
        }
        best
    }

    /// Applies every deadline due at or before `now`, earliest first (R-CLOCK-POLL).
    fn advance(&mut self, now: u64) {
        while !self.game.is_over() {
            let Some((key, time, deadline)) = self.next_deadline() else {
                return;
            };
            // A flag at t is due at now >= t; an abandonment at now > limit.
            if key > 2 * u128::from(now) {
                return;
            }
            self.apply_deadline(deadline, time);
        }
    }

    fn cancel(&mut self, at: u64, detail: String) {
        let ply = self.game.ply();
        self.game.finish(Verdict::ended(
            Outcome::Cancelled,
            Reason::Cancelled,
            ply,
            detail,
        ));
        self.stop(at);
    }

    /// R-CLOCK-CANCEL: `side` ran out of time before its first move.
    fn cancel_unmoved(&mut self, side: Color, at: u64, what: &str) {
        self.cancel(
            at,
            format!(
                "{side}'s {what} at {at} ms before it made its first move: the game is \
                 cancelled and not rated (R-CLOCK-CANCEL)"
            ),
        );
    }

    fn stop(&mut self, at: u64) {
        let s = self.game.position().side_to_move().index();
        let used = at.saturating_sub(self.turn_started);
        self.remaining[s] = self.remaining[s].saturating_sub(used);
        self.turn_started = at;
        self.ended_at = Some(at);
        self.draw_offer = [false; 2];
        self.takeback_request = [false; 2];
    }

    fn apply_deadline(&mut self, deadline: Deadline, at: u64) {
        let ply = self.game.ply();
        match deadline {
            Deadline::FirstMove(side) => {
                self.cancel_unmoved(side, at, "first-move deadline passed")
            }
            Deadline::Flag(side) if !self.has_moved[side.index()] => {
                self.cancel_unmoved(side, at, "clock ran out")
            }
            Deadline::Flag(side) => {
                let bare = is_bare(self.game.position(), !side);
                let verdict = if self.rules.timeout_draw_on_bare_material && bare {
                    Verdict::ended(
                        Outcome::Draw,
                        Reason::Timeout,
                        ply,
                        format!(
                            "{side}'s clock ran out at {at} ms, but {} has only general, advisors \
                             and elephants: draw (R-DRAW-MATERIAL-TIMEOUT)",
                            !side
                        ),
                    )
                } else {
                    Verdict::ended(
                        Outcome::win_for(!side),
                        Reason::Timeout,
                        ply,
                        format!(
                            "{side}'s clock ran out at {at} ms: {} wins on time (R-CLOCK-FLAG)",
                            !side
                        ),
                    )
                };
                self.game.finish(verdict);
                self.stop(at);
            }
            Deadline::Abandon(side) => {
                let since = self.away_since[side.index()].unwrap_or_default();
                if !self.has_moved[side.index()] {
                    self.cancel(
                        at,
                        format!(
                            "{side} has been away since {since} ms, more than {} ms, before making \
                             its first move: the game is cancelled and not rated (R-CLOCK-ABANDON, \
                             R-CLOCK-CANCEL)",
                            self.rules.abandon_after_ms
                        ),
                    );
                } else {
                    self.game.finish(Verdict::ended(
                        Outcome::win_for(!side),
                        Reason::Abandonment,
                        ply,
                        format!(
                            "{side} has been away from the board since {since} ms, more than {} ms: \
                             {} wins (R-CLOCK-ABANDON)",
                            self.rules.abandon_after_ms, !side
                        ),
                    ));
                    self.stop(at);
                }
            }
            Deadline::BothAbandon => self.cancel(
                at,
                format!(
                    "both players have been away for more than {} ms, with the same deadline: \
                     the game is cancelled (R-CLOCK-ABANDON)",
                    self.rules.abandon_after_ms
                ),
            ),
        }
    }

    /// Time order, then the deadlines due by `at`.
    fn begin(&mut self, at: u64) -> Result<(), ClockError> {
        if at < self.last_event {
            return Err(ClockError::OutOfOrder {
                at,
                last: self.last_event,
            });
        }
        self.last_event = at;
        self.advance(at);
        Ok(())
    }

    /// R-CLOCK-MOVE: `side` plays `mv` at `at` ms. A flag or abandonment due
    /// by then (ties go to the deadline) is applied first and the move is
    /// then an error, as is any move after the end.
    pub fn play(&mut self, side: Color, mv: Move, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("move {mv} by {side} at {at} ms"))?;
        let to_move = self.game.position().side_to_move();
        if side != to_move {
            return Err(ClockError::NotYourTurn {
                side,
                to_move,
                ply: self.game.ply() + 1,
            });
        }
        self.game.push(mv)?;
        let s = side.index();
        let used = at - self.turn_started;
        self.remaining[s] = (self.remaining[s] - used).saturating_add(self.control.increment_ms);
        self.turn_started = at;
        self.has_moved[s] = true;
        // Moving shows the player is at the board (decision, docs/adjudication.md).
        self.away_since[s] = None;
        // The receiver's move declines the opponent's offer (R-CLOCK-DRAW).
        self.draw_offer[(!side).index()] = false;
        self.plies_played += 1;
        self.takeback_moved_on(side);
        if self.game.is_over() {
            self.ended_at = Some(at);
            self.draw_offer = [false; 2];
            self.takeback_request = [false; 2];
        }
        Ok(self.game.verdict())
    }

    /// R-CLOCK-RESIGN.
    pub fn resign(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game.resign(side)?;
        self.stop(at);
        Ok(self.game.verdict())
    }

    /// Abort: `side` calls the game off before both sides have moved; the
    /// game is cancelled ([`Reason::Aborted`]) and not rated. A deadline due
    /// by `at` comes first (as for a move); once both sides have moved it is
    /// [`ClockError::NotAbortable`].
    pub fn abort(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("abort by {side} at {at} ms"))?;
        if !self.abortable() {
            return Err(ClockError::NotAbortable { side, at });
        }
        let ply = self.game.ply();
        self.aborted_by = Some(side);
        self.game.finish(Verdict::ended(
            Outcome::Cancelled,
            Reason::Aborted,
            ply,
            format!(
                "{side} aborted the game at {at} ms, before both sides had moved: it is \
                 cancelled and not rated"
            ),
        ));
        self.stop(at);
        Ok(self.game.verdict())
    }

    /// R-CLOCK-DRAW: `side` offers a draw (repeating an offer is a no-op).
    pub fn offer_draw(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("draw offer by {side} at {at} ms"))?;
        self.draw_offer[side.index()] = true;
        Ok(self.game.verdict())
    }

    /// R-CLOCK-DRAW: `side` accepts the opponent's pending offer.
    pub fn accept_draw(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("draw acceptance by {side} at {at} ms"))?;
        if !self.draw_offer[(!side).index()] {
            return Err(ClockError::NoDrawOffer { side, at });
        }
        self.game.agree_draw()?;
        self.stop(at);
        Ok(self.game.verdict())
    }

    /// R-CLOCK-DRAW: `side` declines the opponent's offer.
    pub fn decline_draw(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("draw decline by {side} at {at} ms"))?;
        self.draw_offer[(!side).index()] = false;
        Ok(self.game.verdict())
    }

    /// R-CLOCK-ABANDON: `side` leaves the board (leaving again while away keeps
    /// the first time).
    pub fn leave(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("leave by {side} at {at} ms"))?;
        self.away_since[side.index()].get_or_insert(at);
        Ok(self.game.verdict())
    }

    /// R-CLOCK-ABANDON: `side` is back (a no-op when it was not away).
    pub fn return_to_board(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("return by {side} at {at} ms"))?;
        self.away_since[side.index()] = None;
        Ok(self.game.verdict())
    }

    /// R-CLOCK-POLL: applies the deadlines due at or before `now`.
    pub fn poll(&mut self, now: u64) -> Result<&Verdict, ClockError> {
        self.begin(now)?;
        Ok(self.game.verdict())
    }

    /// Applies one event.
    pub fn apply(&mut self, event: &TimedEvent) -> Result<&Verdict, ClockError> {
        let at = event.at;
        match event.event {
            ClockEvent::Move { side, mv } => {
                let side = side.unwrap_or_else(|| self.game.position().side_to_move());
                self.play(side, mv, at)
            }
            ClockEvent::Resign { side } => self.resign(side, at),
            ClockEvent::Abort { side } => self.abort(side, at),
            ClockEvent::OfferDraw { side } => self.offer_draw(side, at),
            ClockEvent::AcceptDraw { side } => self.accept_draw(side, at),
            ClockEvent::DeclineDraw { side } => self.decline_draw(side, at),
            ClockEvent::OfferTakeback { side } => self.offer_takeback(side, at),
            ClockEvent::AcceptTakeback { side } => self.accept_takeback(side, at),
            ClockEvent::DeclineTakeback { side } => self.decline_takeback(side, at),
            ClockEvent::Leave { side } => self.leave(side, at),
            ClockEvent::Return { side } => self.return_to_board(side, at),
            ClockEvent::Poll => self.poll(at),
        }
    }
}
