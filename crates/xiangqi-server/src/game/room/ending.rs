//! A game's end: its result as the protocol shows it, the rating changes
//! of a rated game, and the ending stored with them in one step before it
//! is announced.

use std::sync::Arc;

use xiangqi_adjudication::{Outcome, Reason};
use xiangqi_core::Color;

use crate::game::room::Room;
use crate::game::view::{opening_of, reason_code, EventKind, ResultView};
use crate::store::{Ending, RatingChangeRow, RatingPool, StoreError};

impl Room {
    /// The result of the game as it stands (over), with `ratings`.
    pub(super) fn result_view(&self, ratings: Option<[(i32, i32); 2]>) -> ResultView {
        let verdict = self.game.verdict();
        let reason = verdict.reason.unwrap_or(Reason::Cancelled);
        let by_move = !matches!(
            reason,
            Reason::Resignation
                | Reason::Timeout
                | Reason::Abandonment
                | Reason::Agreement
                | Reason::Cancelled
                | Reason::Aborted
        );
        let moves = self.game.game().moves();
        let last_move = match moves.split_last() {
            Some((&last, earlier)) if by_move => {
                let mut before = self.facts.start.clone();
                for &mv in earlier {
                    before.make_move(mv);
                }
                Some((before, last))
            }
            _ => None,
        };
        ResultView {
            outcome: verdict.outcome,
            reason,
            ply: self.game.game().ply(),
            last_move,
            ratings,
            aborted_by: self.game.aborted_by(),
        }
    }

    /// The rating changes a finished rated game made (from the store).
    pub(super) async fn stored_ratings(&self) -> Result<Option<[(i32, i32); 2]>, StoreError> {
        if !self.facts.rated {
            return Ok(None);
        }
        let mut pair = [(0, 0); 2];
        for side in Color::ALL {
            let id = self.facts.seat(side).id();
            let history = match self.pool() {
                RatingPool::Normal => self.ports.store.rating_history(&id).await?,
                RatingPool::Bot => self.ports.store.bot_rating_history(&id).await?,
            };
            let Some(change) = history.iter().find(|c| c.game == self.facts.id) else {
                return Ok(None);
            };
            pair[side.index()] = (change.before, change.after);
        }
        Ok(Some(pair))
    }

    /// The pool a rated game changes: a bot on either side makes it the
    /// bot pool, and the normal rating never changes through it.
    fn pool(&self) -> RatingPool {
        if self.facts.is_bot_game() {
            RatingPool::Bot
        } else {
            RatingPool::Normal
        }
    }

    /// Rating changes for the ending, read from the players' current
    /// ratings in the game's pool.
    async fn rating_changes(&self) -> Result<Vec<RatingChangeRow>, StoreError> {
        if !(self.facts.rated && self.facts.red.is_account() && self.facts.black.is_account()) {
            return Ok(Vec::new());
        }
        let Some(red_score) = xiangqi_rating::online::rated_score(&self.game) else {
            return Ok(Vec::new());
        };
        let mut before = [xiangqi_rating::online::START_RATING; 2];
        for side in Color::ALL {
            let id = self.facts.seat(side).id();
            let player = self.ports.store.player(&id).await?;
            let rating = match self.pool() {
                RatingPool::Normal => player.and_then(|p| p.rating),
                RatingPool::Bot => player.and_then(|p| p.bot_rating),
            };
            if let Some(rating) = rating {
                before[side.index()] = rating;
            }
        }
        let (red_after, black_after) =
            xiangqi_rating::online::elo_update(before[0], before[1], red_score);
        let at = self.ports.clock.unix_ms();
        Ok([(Color::Red, red_after), (Color::Black, black_after)]
            .into_iter()
            .map(|(side, after)| RatingChangeRow {
                player: self.facts.seat(side).id(),
                game: self.facts.id.clone(),
                before: before[side.index()],
                after,
                at,
            })
            .collect())
    }

    /// Stores the ending and rating changes in one step, then announces it.
    pub(super) async fn finish(&mut self) {
        let changes = match self.rating_changes().await {
            Ok(changes) => changes,
            Err(error) => {
                tracing::error!("game {}: reading ratings failed: {error}", self.facts.id);
                Vec::new()
            }
        };
        let ratings = match changes.as_slice() {
            [red, black] => Some([(red.before, red.after), (black.before, black.after)]),
            _ => None,
        };
        let result = Arc::new(self.result_view(ratings));
        let clocks = self.game.clocks();
        let ending = Ending {
            status: result.status().to_string(),
            result: result.outcome.result().to_string(),
            reason: reason_code(result.reason).to_string(),
            ply: result.ply as i32,
            red_clock: clocks[0] as i64,
            black_clock: clocks[1] as i64,
            ended_at: self.ports.clock.unix_ms(),
            ecco: opening_of(self.game.game().start(), self.game.game().moves())
                .map(|o| o.code.to_string()),
        };
        if let Err(error) = self
            .ports
            .store
            .finish_game_in(&self.facts.id, &ending, &changes, self.pool())
            .await
        {
            tracing::error!("game {}: storing the ending failed: {error}", self.facts.id);
        }
        self.result = Some(result.clone());
        self.ports.notices.game_ended(&self.facts.id);
        if let Some(seat) = self.engine.as_mut() {
            seat.game_over(&self.facts.id);
        }
        if result.outcome != Outcome::Ongoing {
            self.publish(EventKind::End(result));
        }
    }
}
