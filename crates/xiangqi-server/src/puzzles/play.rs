//! An attempt from serving to its end: the next puzzle (closing what the
//! player left open), each move judged, the solution given up on, and the
//! result on the streak and the ratings.

use xiangqi_core::Move;
use xiangqi_puzzles::{Judgement, Puzzle};
use xiangqi_rating::Glicko2;

use super::Puzzles;
use crate::ids::new_id;
use crate::store::{PlayerRow, PuzzleAttemptRow, PuzzlePlayerRow, Store, StoreError};

/// Why a puzzle request cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The set is empty.
    #[error("the server has no puzzles")]
    NoPuzzle,
    /// No attempt of this id was served to this player.
    #[error("no puzzle attempt {0}")]
    NotFound(String),
    /// The attempt is over (how it ended).
    #[error("this puzzle is over ({0})")]
    Over(String),
    /// Another request moved the attempt first.
    #[error("this puzzle moved on meanwhile; ask for it again")]
    Stale,
    /// Not a move in ICCS.
    #[error("{0}")]
    BadMove(String),
    /// A move the rules do not allow here (the attempt goes on).
    #[error("{0}")]
    Illegal(String),
}

/// A player's puzzle standing as the client shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerStanding {
    /// `None` for a guest, who plays unrated.
    pub rating: Option<Glicko2>,
    pub streak: i64,
    pub best_streak: i64,
    pub solved: i64,
    pub failed: i64,
}

impl PlayerStanding {
    fn of(record: &PuzzlePlayerRow, guest: bool) -> PlayerStanding {
        PlayerStanding {
            rating: (!guest).then_some(record.rating),
            streak: record.streak,
            best_streak: record.best_streak,
            solved: record.solved,
            failed: record.failed,
        }
    }
}

/// The position after the first `ply` plies of `puzzle`'s solution: its
/// FEN and its legal moves in ICCS (the client's board knows no rules).
fn position_after(puzzle: &Puzzle, ply: usize) -> Option<(String, Vec<String>)> {
    let position = puzzle
        .position()
        .ok()?
        .after_moves(puzzle.moves().into_iter().take(ply))
        .ok()?;
    let legal = position
        .legal_move_vec()
        .iter()
        .map(Move::to_string)
        .collect();
    Some((position.to_fen(), legal))
}

/// A puzzle served.
#[derive(Clone, Debug)]
pub struct Served {
    pub attempt: String,
    pub puzzle: Puzzle,
    /// The legal moves of the start.
    pub legal: Vec<String>,
    /// The puzzle's current rating.
    pub rating: f64,
    /// Whether this attempt moves the streak (and, for an account, ratings).
    pub counts: bool,
    pub standing: PlayerStanding,
}

/// What a request on an attempt came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Right; the opponent answers with this move.
    Right {
        reply: Move,
    },
    Solved,
    Failed,
    /// The solution was asked for.
    Shown,
}

/// The answer to a move or to asking for the solution.
#[derive(Clone, Debug)]
pub struct MoveAnswer {
    pub outcome: Outcome,
    /// Plies of the solution played now.
    pub ply: usize,
    /// After a right move and its reply: the position and its legal moves.
    pub position: Option<(String, Vec<String>)>,
    /// The whole solution, once the attempt is over.
    pub solution: Option<Vec<String>>,
    /// The player's rating before and after, when it moved.
    pub rating_change: Option<(f64, f64)>,
    pub standing: PlayerStanding,
}

impl Puzzles {
    async fn record(
        &self,
        store: &Store,
        player: &PlayerRow,
    ) -> Result<PuzzlePlayerRow, StoreError> {
        Ok(store
            .puzzle_player(&player.id)
            .await?
            .unwrap_or_else(|| PuzzlePlayerRow::new(&player.id)))
    }

    /// The player's standing now.
    pub async fn standing(
        &self,
        store: &Store,
        player: &PlayerRow,
    ) -> Result<PlayerStanding, StoreError> {
        Ok(PlayerStanding::of(
            &self.record(store, player).await?,
            player.guest,
        ))
    }

    /// Serves the next puzzle to `player`: their open attempts end first
    /// (one with a move made is failed, one without is skipped).
    pub async fn next(
        &self,
        store: &Store,
        player: &PlayerRow,
        now: i64,
    ) -> Result<Served, PuzzleError> {
        for open in store.open_puzzle_attempts(&player.id).await? {
            if open.ply == 0 {
                store
                    .finish_puzzle_attempt(&open.id, 0, 0, "skipped", now)
                    .await?;
            } else if store
                .finish_puzzle_attempt(&open.id, open.ply, open.ply, "failed", now)
                .await?
            {
                self.settle(store, player, &open, false).await?;
            }
        }
        let record = self.record(store, player).await?;
        let target = match player.guest {
            true => Glicko2::new(1500.0).rating,
            false => record.rating.rating,
        };
        let attempted = store.attempted_puzzles(&player.id).await?;
        let puzzle = self
            .choose(store, target, &attempted)
            .await?
            .ok_or(PuzzleError::NoPuzzle)?
            .clone();
        let counts = !attempted.contains(&puzzle.id);
        let attempt = PuzzleAttemptRow {
            id: new_id("z"),
            player: player.id.clone(),
            puzzle: puzzle.id.clone(),
            served_at: now,
            ply: 0,
            outcome: None,
            counts,
            finished_at: None,
        };
        store.insert_puzzle_attempt(&attempt).await?;
        let rating = self.rating_of(store, &puzzle).await?.0.rating;
        let legal = position_after(&puzzle, 0)
            .map(|(_, legal)| legal)
            .unwrap_or_default();
        Ok(Served {
            attempt: attempt.id,
            legal,
            puzzle,
            rating,
            counts,
            standing: PlayerStanding::of(&record, player.guest),
        })
    }

    /// The open attempt `id` of `player` and its puzzle.
    async fn open_attempt(
        &self,
        store: &Store,
        player: &PlayerRow,
        id: &str,
    ) -> Result<(PuzzleAttemptRow, Puzzle), PuzzleError> {
        let attempt = store
            .puzzle_attempt(id)
            .await?
            // Another player's attempt is not named to this one.
            .filter(|a| a.player == player.id)
            .ok_or_else(|| PuzzleError::NotFound(id.to_string()))?;
        if let Some(outcome) = &attempt.outcome {
            return Err(PuzzleError::Over(outcome.clone()));
        }
        let puzzle = self
            .get(&attempt.puzzle)
            .cloned()
            .ok_or_else(|| PuzzleError::NotFound(id.to_string()))?;
        Ok((attempt, puzzle))
    }

    /// Judges `text`, the player's move in attempt `id`.
    pub async fn play(
        &self,
        store: &Store,
        player: &PlayerRow,
        id: &str,
        text: &str,
        now: i64,
    ) -> Result<MoveAnswer, PuzzleError> {
        let (attempt, puzzle) = self.open_attempt(store, player, id).await?;
        let mv: Move = text
            .parse()
            .map_err(|e| PuzzleError::BadMove(format!("move {text:?}: {e}")))?;
        let ply = usize::try_from(attempt.ply).unwrap_or(usize::MAX);
        let here = puzzle
            .position()
            .ok()
            .and_then(|start| start.after_moves(puzzle.moves().into_iter().take(ply)).ok())
            .ok_or_else(|| PuzzleError::NotFound(id.to_string()))?;
        if let Err(e) = here.check_legal(mv) {
            return Err(PuzzleError::Illegal(e.to_string()));
        }
        let from = attempt.ply;
        let (outcome, to) = match puzzle.judge(ply, mv) {
            Judgement::Right { reply: Some(reply) } => (Outcome::Right { reply }, from + 2),
            Judgement::Right { reply: None } => (Outcome::Solved, from + 1),
            Judgement::Wrong => (Outcome::Failed, from),
        };
        let moved = match &outcome {
            Outcome::Right { .. } => store.advance_puzzle_attempt(id, from, to).await?,
            Outcome::Solved => {
                store
                    .finish_puzzle_attempt(id, from, to, "solved", now)
                    .await?
            }
            _ => {
                store
                    .finish_puzzle_attempt(id, from, to, "failed", now)
                    .await?
            }
        };
        if !moved {
            return Err(PuzzleError::Stale);
        }
        let solved = outcome == Outcome::Solved;
        let (rating_change, standing, solution) = match outcome {
            Outcome::Right { .. } => (None, self.standing(store, player).await?, None),
            _ => {
                let (change, standing) = self.settle(store, player, &attempt, solved).await?;
                (change, standing, Some(puzzle.solution.clone()))
            }
        };
        let ply = usize::try_from(to).unwrap_or(0);
        let position = match outcome {
            Outcome::Right { .. } => position_after(&puzzle, ply),
            _ => None,
        };
        Ok(MoveAnswer {
            outcome,
            ply,
            position,
            solution,
            rating_change,
            standing,
        })
    }

    /// Gives the solution of attempt `id`: the attempt is lost.
    pub async fn show(
        &self,
        store: &Store,
        player: &PlayerRow,
        id: &str,
        now: i64,
    ) -> Result<MoveAnswer, PuzzleError> {
        let (attempt, puzzle) = self.open_attempt(store, player, id).await?;
        if !store
            .finish_puzzle_attempt(id, attempt.ply, attempt.ply, "shown", now)
            .await?
        {
            return Err(PuzzleError::Stale);
        }
        let (rating_change, standing) = self.settle(store, player, &attempt, false).await?;
        Ok(MoveAnswer {
            outcome: Outcome::Shown,
            ply: usize::try_from(attempt.ply).unwrap_or(0),
            position: None,
            solution: Some(puzzle.solution),
            rating_change,
            standing,
        })
    }

    /// The end of an attempt on the player's record and, when it counts
    /// and the player has an account, on both ratings (the puzzle rated
    /// as the player's opponent, the player as the puzzle's).
    async fn settle(
        &self,
        store: &Store,
        player: &PlayerRow,
        attempt: &PuzzleAttemptRow,
        solved: bool,
    ) -> Result<(Option<(f64, f64)>, PlayerStanding), StoreError> {
        let _one_at_a_time = self.updating.lock().await;
        let mut record = self.record(store, player).await?;
        if !attempt.counts {
            return Ok((None, PlayerStanding::of(&record, player.guest)));
        }
        if solved {
            record.streak += 1;
            record.best_streak = record.best_streak.max(record.streak);
            record.solved += 1;
        } else {
            record.streak = 0;
            record.failed += 1;
        }
        let mut change = None;
        if let (false, Some(puzzle)) = (player.guest, self.get(&attempt.puzzle)) {
            let (puzzle_rating, plays) = self.rating_of(store, puzzle).await?;
            let score = if solved { 1.0 } else { 0.0 };
            let before = record.rating;
            record.rating = before.updated(&[(puzzle_rating, score)], &self.settings);
            let puzzle_after = puzzle_rating.updated(&[(before, 1.0 - score)], &self.settings);
            store
                .save_puzzle_rating(&puzzle.id, &puzzle_after, plays + 1)
                .await?;
            self.ratings(store)
                .await?
                .write()
                .await
                .insert(puzzle.id.clone(), (puzzle_after, plays + 1));
            change = Some((before.rating, record.rating.rating));
        }
        store.save_puzzle_player(&record).await?;
        Ok((change, PlayerStanding::of(&record, player.guest)))
    }
}
