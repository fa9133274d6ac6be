//! Rematches: after the end, a player offers a new game with colours
//! swapped and the same time control, rated-ness and rules; the opponent
//! accepts or declines. The room judges who may do what; the new game is
//! started by the caller with the [`RematchPlan`] the room hands out once,
//! and announced in this room when it runs. Offers live only as long as
//! the room: an offer is withdrawn when its side's last socket leaves.

use xiangqi_core::Color;

use crate::game::room::{ActionError, Room};
use crate::game::view::{EventKind, GameFacts, Seat};
use xiangqi_adjudication::TimeControl;

/// How many times a side may offer a rematch after one game (an offer
/// withdrawn by leaving and made again counts again).
pub const MAX_REMATCH_OFFERS: u8 = 3;

/// A player's word on a rematch.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RematchAnswer {
    /// Offer one (accepts the opponent's offer if there is one).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// The new game to start: the old one's seats swapped.
#[derive(Clone, Debug)]
pub struct RematchPlan {
    /// Red's seat (Black's of the old game).
    pub red: Seat,
    /// Black's seat.
    pub black: Seat,
    /// The same time control.
    pub tc: TimeControl,
    /// Rated or casual, as before.
    pub rated: bool,
    /// The same rule set.
    pub rules: String,
}

impl RematchPlan {
    fn swapped(facts: &GameFacts) -> RematchPlan {
        RematchPlan {
            red: facts.black.clone(),
            black: facts.red.clone(),
            tc: facts.tc,
            rated: facts.rated,
            rules: facts.rules.clone(),
        }
    }
}

/// Where a finished game's rematch stands.
#[derive(Clone, Debug, Default)]
pub(super) struct Rematch {
    /// The side whose offer waits.
    offer: Option<Color>,
    /// Offers made per side.
    offers: [u8; 2],
    /// A side whose offer was declined offers no more.
    declined: [bool; 2],
    /// A plan was handed out and its game is being started.
    starting: bool,
    /// The rematch game, once started.
    started: Option<String>,
}

impl Rematch {
    pub(super) fn offer(&self) -> Option<Color> {
        self.offer
    }

    pub(super) fn started(&self) -> Option<&str> {
        self.started.as_deref()
    }
}

fn no_offer() -> ActionError {
    ActionError::new(
        "no_rematch_offer",
        "your opponent has not offered a rematch",
    )
}

impl Room {
    /// `player`'s word on a rematch: `Ok(Some(plan))` when the rematch is
    /// agreed and the caller is to start it (then [`Room::rematch_started`]
    /// or [`Room::rematch_failed`]), `Ok(None)` when it was only taken.
    pub(super) fn rematch(
        &mut self,
        player: &str,
        answer: RematchAnswer,
    ) -> Result<Option<RematchPlan>, ActionError> {
        let Some(side) = self.facts.side_of(player) else {
            return Err(ActionError::new(
                "not_your_game",
                "you do not play in this game",
            ));
        };
        if self.result.is_none() {
            return Err(ActionError::new(
                "game_not_over",
                "a rematch is offered once the game is over",
            ));
        }
        if let Some(game) = &self.rematch.started {
            return Err(ActionError::new(
                "rematch_started",
                format!("the rematch {game} has started"),
            ));
        }
        if self.rematch.starting {
            return Err(ActionError::new(
                "rematch_started",
                "the rematch is starting",
            ));
        }
        let engine_side = self.engine.as_ref().map(|seat| seat.side());
        match answer {
            RematchAnswer::Offer if self.rematch.offer == Some(!side) => self.agree(),
            RematchAnswer::Offer => {
                if self.rematch.offer == Some(side) {
                    return Ok(None);
                }
                if self.present[side.index()] == 0 {
                    return Err(ActionError::new(
                        "not_watching",
                        "watch the game to offer a rematch",
                    ));
                }
                if self.rematch.declined[side.index()] {
                    return Err(ActionError::new(
                        "rematch_declined",
                        "your opponent declined a rematch",
                    ));
                }
                if self.rematch.offers[side.index()] >= MAX_REMATCH_OFFERS {
                    return Err(ActionError::new(
                        "too_many_offers",
                        format!("at most {MAX_REMATCH_OFFERS} rematch offers after a game"),
                    ));
                }
                if engine_side == Some(!side) {
                    // The engine always takes a rematch.
                    return self.agree();
                }
                self.rematch.offers[side.index()] += 1;
                self.rematch.offer = Some(side);
                self.publish(EventKind::RematchOffer(side));
                Ok(None)
            }
            RematchAnswer::Accept if self.rematch.offer == Some(!side) => self.agree(),
            RematchAnswer::Decline if self.rematch.offer == Some(!side) => {
                self.rematch.offer = None;
                self.rematch.declined[(!side).index()] = true;
                self.publish(EventKind::RematchDeclined(side));
                Ok(None)
            }
            RematchAnswer::Accept | RematchAnswer::Decline => Err(no_offer()),
        }
    }

    fn agree(&mut self) -> Result<Option<RematchPlan>, ActionError> {
        self.rematch.offer = None;
        self.rematch.starting = true;
        Ok(Some(RematchPlan::swapped(&self.facts)))
    }

    /// The rematch game runs: everyone watching hears of it.
    pub(super) fn rematch_started(&mut self, game: String) {
        self.rematch.starting = false;
        self.rematch.started = Some(game.clone());
        self.publish(EventKind::Rematch(game));
    }

    /// The rematch game could not start: it may be offered again.
    pub(super) fn rematch_failed(&mut self) {
        self.rematch.starting = false;
    }

    /// `side`'s last socket left: its offer goes with it.
    pub(super) fn withdraw_rematch(&mut self, side: Color) {
        if self.rematch.offer == Some(side) {
            self.rematch.offer = None;
            self.publish(EventKind::RematchWithdrawn(side));
        }
    }
}
