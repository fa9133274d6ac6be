//! A review written into a game record: on every main-line move an
//! `[%eval …]` comment (earlier ones replaced), the judgement's NAG, and for
//! mistakes and blunders the engine's line as a variation (its first move
//! carries the line's `[%eval]`, which is how a later review finds and
//! replaces it); on the game the players' accuracy as the tags
//! `RedAccuracy` and `BlackAccuracy` (one decimal).

use xiangqi_core::Move;
use xiangqi_gamefile::{Game, Line, MainLineError, Node};

use super::accuracy::Accuracy;
use super::{review_moves, Analyser, MoveReview, ReviewOptions};
use crate::error::EngineError;

/// Why a game could not be annotated.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// The record's moves cannot be replayed.
    #[error("the game cannot be replayed: {0}")]
    Game(MainLineError),
    #[error(transparent)]
    Engine(#[from] EngineError),
}

impl From<MainLineError> for AnnotateError {
    fn from(error: MainLineError) -> Self {
        AnnotateError::Game(error)
    }
}

/// The NAGs this module writes (`?!`, `?`, `??`), replaced on a new review.
const JUDGEMENT_NAGS: [u8; 3] = [2, 4, 6];

/// The tags of Red's and Black's accuracy (the game-file crate's names).
pub use xiangqi_gamefile::ACCURACY_TAGS;

/// Reviews `game`'s main line with `engine` and writes the review into it;
/// returns the review. `progress(done, total)` counts positions.
pub fn annotate_game(
    engine: &mut dyn Analyser,
    game: &mut Game,
    options: &ReviewOptions,
    progress: impl FnMut(usize, usize),
) -> Result<Vec<MoveReview>, AnnotateError> {
    game.final_position()?;
    let start = game.start_position().map_err(MainLineError::from)?;
    let moves: Vec<Move> = game.moves().collect();
    let reviews = review_moves(engine, &start, &moves, options, progress)?;
    for (node, review) in game.mainline.moves.iter_mut().zip(&reviews) {
        write_review(node, review);
    }
    write_accuracy(game, &Accuracy::of_reviews(&reviews));
    Ok(reviews)
}

/// Sets the accuracy tags, or drops those of an earlier review for a side
/// that has no accuracy now.
fn write_accuracy(game: &mut Game, accuracy: &Accuracy) {
    for (tag, value) in ACCURACY_TAGS
        .into_iter()
        .zip([accuracy.red, accuracy.black])
    {
        match value {
            Some(v) => game.set_tag(tag, &format!("{v:.1}")),
            None => game.tags.retain(|(name, _)| name != tag),
        }
    }
}

fn write_review(node: &mut Node, review: &MoveReview) {
    node.comments_mut().retain(|c| !c.starts_with("[%eval "));
    if let Some(comment) = review.eval_after.comment() {
        node.comments_mut().insert(0, comment);
    }
    node.nags_mut().retain(|n| !JUDGEMENT_NAGS.contains(n));
    if let Some(j) = review.judgement {
        node.nags_mut().push(j.nag());
    }
    // An engine line of an earlier review starts with an `[%eval]` comment.
    node.variations_mut().retain(|v| {
        !v.moves
            .first()
            .and_then(|n| n.comments().first())
            .is_some_and(|c| c.starts_with("[%eval "))
    });
    if let Some(line) = &review.best_line {
        let mut variation = Line::default();
        for &mv in line {
            variation.moves.push(Node::new(mv));
        }
        if let (Some(first), Some(comment)) =
            (variation.moves.first_mut(), review.best_eval.comment())
        {
            first.comments_mut().push(comment);
        }
        node.variations_mut().push(variation);
    }
}
