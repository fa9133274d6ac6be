//! What one adjudicator event changed, as the protocol's events.

use xiangqi_adjudication::{ClockError, OnlineGame, TimedEvent};
use xiangqi_core::Color;

use crate::game::view::{opening_of, EventKind};

/// Applies `event` to `game` and says what changed: the protocol events
/// (all but the end) and whether the game ended with it. On an error the
/// game may have advanced its clock: apply to a copy when that matters.
pub fn apply(
    game: &mut OnlineGame,
    event: &TimedEvent,
) -> Result<(Vec<EventKind>, bool), ClockError> {
    let before = Box::new(game.game().position().clone());
    let ply = game.game().ply();
    let was_over = game.game().is_over();
    let offers = Color::ALL.map(|c| game.has_draw_offer(c));
    let away = Color::ALL.map(|c| game.away_since(c).is_some());
    let takeback_request = game.takeback_request();
    game.apply(event)?;
    let over = game.game().is_over();
    let mut out = Vec::new();
    if game.game().ply() > ply {
        if let Some(&mv) = game.game().moves().last() {
            let fen = game.game().position().to_fen();
            let opening = opening_of(game.game().start(), game.game().moves()).map(Box::new);
            out.push(EventKind::Move {
                ply,
                before,
                mv,
                fen,
                opening,
            });
        }
    }
    if game.game().ply() < ply {
        if let Some(by) = takeback_request {
            out.push(EventKind::Takeback {
                by,
                ply: game.game().ply(),
                fen: game.game().position().to_fen(),
                opening: opening_of(game.game().start(), game.game().moves()).map(Box::new),
            });
        }
    }
    if !over && game.game().ply() == ply {
        // A move ends a request without a word; a takeback is told above.
        match (takeback_request, game.takeback_request()) {
            (None, Some(by)) => out.push(EventKind::TakebackOffer(by)),
            (Some(by), None) => out.push(EventKind::TakebackDeclined(by.opposite())),
            _ => {}
        }
    }
    if !over {
        for side in Color::ALL {
            let now_offered = game.has_draw_offer(side);
            if offers[side.index()] && !now_offered {
                out.push(EventKind::DrawDeclined(side.opposite()));
            }
            if !offers[side.index()] && now_offered {
                out.push(EventKind::DrawOffer(side));
            }
            let now_away = game.away_since(side).is_some();
            if away[side.index()] && !now_away {
                out.push(EventKind::Back(side));
            }
            if !away[side.index()] && now_away {
                out.push(EventKind::Away(side));
            }
        }
    }
    Ok((out, over && !was_over))
}
