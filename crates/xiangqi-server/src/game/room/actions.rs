//! A player's action as an adjudicator event, and the one place where the
//! adjudicator's answer becomes the protocol's: `OnlineGame` decides whether
//! an action is allowed (turn, legality, end, draw offers, abort), and its
//! errors are translated here into error codes and words.

use xiangqi_adjudication::{ClockError, ClockEvent, GameError};
use xiangqi_core::{Color, Move};

use crate::game::view::EventKind;
use xiangqi_server_protocol::echo::quoted;

/// Something a player does in a game (serialisable: a cluster's node
/// forwards it to the game's owner).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Play `mv` (ICCS text) with `ply` plies played.
    Move {
        /// Plies already played when the move was chosen.
        ply: u32,
        /// ICCS text.
        mv: String,
    },
    /// Resign.
    Resign,
    /// Call the game off before both sides have moved (unrated).
    Abort,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline the opponent's offer.
    DeclineDraw,
    /// Ask to take back one's last move.
    OfferTakeback,
    /// Agree to the opponent's takeback request.
    AcceptTakeback,
    /// Refuse the opponent's takeback request.
    DeclineTakeback,
}

/// A refused action: protocol code and words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// The protocol's error code.
    pub code: &'static str,
    /// For a person.
    pub message: String,
}

impl ActionError {
    pub(super) fn new(code: &'static str, message: impl Into<String>) -> ActionError {
        ActionError {
            code,
            message: message.into(),
        }
    }

    pub(super) fn internal() -> ActionError {
        ActionError::new("internal", "the server could not record this; try again")
    }
}

/// The event of `side`'s `action` (a move's text read as ICCS).
pub(super) fn event_of(side: Color, action: Action) -> Result<ClockEvent, ActionError> {
    Ok(match action {
        Action::Move { mv, .. } => {
            let mv: Move = mv.parse().map_err(|_| {
                ActionError::new(
                    "illegal_move",
                    format!("{} is not a move in coordinates such as h2e2", quoted(&mv)),
                )
            })?;
            ClockEvent::Move {
                side: Some(side),
                mv,
            }
        }
        Action::Resign => ClockEvent::Resign { side },
        Action::Abort => ClockEvent::Abort { side },
        Action::OfferDraw => ClockEvent::OfferDraw { side },
        Action::AcceptDraw => ClockEvent::AcceptDraw { side },
        Action::DeclineDraw => ClockEvent::DeclineDraw { side },
        Action::OfferTakeback => ClockEvent::OfferTakeback { side },
        Action::AcceptTakeback => ClockEvent::AcceptTakeback { side },
        Action::DeclineTakeback => ClockEvent::DeclineTakeback { side },
    })
}

/// The protocol's refusal for the adjudicator's `error` about `event`;
/// `None` for an error no player action explains (logged by the caller).
pub(super) fn refusal(error: &ClockError, event: &ClockEvent) -> Option<ActionError> {
    Some(match error {
        ClockError::NotYourTurn { to_move, .. } => {
            ActionError::new("not_your_turn", format!("it is {}'s turn", to_move.name()))
        }
        ClockError::Game(GameError::GameOver { .. }) => {
            ActionError::new("game_over", "the game is over")
        }
        ClockError::Game(GameError::IllegalMove { error, .. }) => {
            let words = match event {
                ClockEvent::Move { mv, .. } => format!("{mv} is illegal: {error}"),
                _ => error.to_string(),
            };
            ActionError::new("illegal_move", words)
        }
        ClockError::Game(forbidden @ GameError::ForbiddenRepetition { .. }) => {
            ActionError::new("illegal_move", forbidden.to_string())
        }
        ClockError::NoDrawOffer { .. } => {
            ActionError::new("no_draw_offer", "your opponent has not offered a draw")
        }
        ClockError::NotAbortable { .. } => ActionError::new("not_abortable", error.to_string()),
        ClockError::NoTakebackRequest { .. } => ActionError::new(
            "no_takeback_request",
            "your opponent has not asked for a takeback",
        ),
        ClockError::NothingToTakeBack { .. } => {
            ActionError::new("nothing_to_take_back", "you have no move to take back")
        }
        ClockError::TakebackPending { .. } => ActionError::new(
            "takeback_pending",
            "your opponent's takeback request waits for your answer",
        ),
        ClockError::TakebackTooSoon { plies_left, .. } => ActionError::new(
            "takeback_too_soon",
            format!(
                "your last takeback request was refused: ask again after {plies_left} more {}",
                if *plies_left == 1 { "ply" } else { "plies" }
            ),
        ),
        _ => return None,
    })
}

/// What an event the adjudicator took amounts to, from what it changed: a
/// decline with no offer to decline is refused, and an offer already made
/// changes nothing, so it is neither stored nor told.
pub(super) fn effect(
    event: &ClockEvent,
    changes: &[EventKind],
    ended: bool,
) -> Result<Effect, ActionError> {
    let changed = ended || !changes.is_empty();
    match event {
        ClockEvent::DeclineDraw { .. }
            if !ended
                && !changes
                    .iter()
                    .any(|c| matches!(c, EventKind::DrawDeclined(_))) =>
        {
            Err(ActionError::new(
                "no_draw_offer",
                "your opponent has not offered a draw",
            ))
        }
        ClockEvent::OfferDraw { .. } | ClockEvent::OfferTakeback { .. } if !changed => {
            Ok(Effect::Nothing)
        }
        _ => Ok(Effect::Changed),
    }
}

/// Whether an event is worth storing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Effect {
    /// It changed the game: store and tell it.
    Changed,
    /// It changed nothing (a repeated draw offer or takeback request).
    Nothing,
}

#[cfg(test)]
mod tests {
    use xiangqi_adjudication::{OnlineGame, TimedEvent};
    use xiangqi_core::Position;

    use super::*;
    use crate::rules::game_rules;
    use crate::time_control::parse_time_control;

    fn new_game() -> OnlineGame {
        let rules = game_rules("online").unwrap();
        let tc = parse_time_control("5+0").unwrap();
        OnlineGame::new(Position::startpos(), rules, tc, 0).unwrap()
    }

    /// The protocol's refusal of `side`'s `action` at `at` ms, if any.
    fn answer(game: &mut OnlineGame, side: Color, action: Action, at: u64) -> Option<ActionError> {
        let event = match event_of(side, action) {
            Ok(event) => event,
            Err(refused) => return Some(refused),
        };
        let timed = TimedEvent { at, event };
        let applied = crate::game::changes::apply(game, &timed);
        match applied {
            Ok((changes, ended)) => effect(&timed.event, &changes, ended).err(),
            Err(error) => Some(refusal(&error, &timed.event).expect("a player's error")),
        }
    }

    fn play(mv: &str) -> Action {
        Action::Move {
            ply: 0,
            mv: mv.into(),
        }
    }

    #[test]
    fn the_adjudicators_errors_become_the_protocols_codes_and_words() {
        let mut game = new_game();
        let refused = answer(&mut game, Color::Black, play("h9g7"), 10).unwrap();
        assert_eq!(refused.code, "not_your_turn");
        assert_eq!(refused.message, "it is red's turn");
        let refused = answer(&mut game, Color::Red, play("h2"), 20).unwrap();
        assert_eq!(refused.code, "illegal_move");
        assert_eq!(answer(&mut game, Color::Red, play("h2e2"), 30), None);
        // The example of docs/server.md.
        let refused = answer(&mut game, Color::Black, play("h9h5"), 40).unwrap();
        assert_eq!(refused.code, "illegal_move");
        assert_eq!(
            refused.message,
            "h9h5 is illegal: illegal move h9h5: the horse on h9 cannot move to h5"
        );
        let refused = answer(&mut game, Color::Black, Action::AcceptDraw, 50).unwrap();
        assert_eq!(refused.code, "no_draw_offer");
        let refused = answer(&mut game, Color::Black, Action::DeclineDraw, 60).unwrap();
        assert_eq!(refused.code, "no_draw_offer");
        assert_eq!(answer(&mut game, Color::Black, play("h9g7"), 70), None);
        let refused = answer(&mut game, Color::Red, Action::Abort, 80).unwrap();
        assert_eq!(refused.code, "not_abortable");
        assert_eq!(answer(&mut game, Color::Red, Action::Resign, 90), None);
        let refused = answer(&mut game, Color::Black, Action::OfferDraw, 100).unwrap();
        assert_eq!(refused.code, "game_over");
        assert_eq!(refused.message, "the game is over");
    }

    #[test]
    fn an_offer_made_again_changes_nothing_and_is_not_stored() {
        let mut game = new_game();
        let offer = |game: &mut OnlineGame, at| {
            let timed = TimedEvent {
                at,
                event: ClockEvent::OfferDraw { side: Color::Red },
            };
            let (changes, ended) = crate::game::changes::apply(game, &timed).unwrap();
            effect(&timed.event, &changes, ended).unwrap()
        };
        assert_eq!(offer(&mut game, 10), Effect::Changed);
        assert_eq!(offer(&mut game, 20), Effect::Nothing);
    }
}
