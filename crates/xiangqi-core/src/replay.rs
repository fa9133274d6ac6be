//! Replaying a list of moves from a position: the position it reaches and
//! the positions on the way, or the first move that cannot be played.

use crate::{Move, PlayError, Position};

/// A move of a list that cannot be played where it stands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({mv}) cannot be played: {error}")]
pub struct ReplayError {
    /// 1-based index of the move in the list.
    pub ply: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub error: PlayError,
}

impl Position {
    /// Plays `moves` from here, returning the final position and the
    /// positions before it (oldest first): the history a search weighs
    /// repetitions against.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let moves = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
    /// let (pos, history) = Position::startpos().replay(&moves).unwrap();
    /// assert_eq!(history.len(), 2);
    /// assert_eq!(history[0], Position::startpos());
    /// let error = pos.replay(&moves).unwrap_err(); // h2 is empty now
    /// assert_eq!((error.ply, error.mv), (1, moves[0]));
    /// ```
    pub fn replay(&self, moves: &[Move]) -> Result<(Position, Vec<Position>), ReplayError> {
        let mut history = Vec::with_capacity(moves.len());
        let end = self.play_each(moves.iter().copied(), |before| history.push(before.clone()))?;
        Ok((end, history))
    }

    /// The position after `moves` are played from here.
    pub fn after_moves(
        &self,
        moves: impl IntoIterator<Item = Move>,
    ) -> Result<Position, ReplayError> {
        self.play_each(moves, |_| {})
    }

    /// Plays `moves` on a copy, showing `before` each position before its move.
    fn play_each(
        &self,
        moves: impl IntoIterator<Item = Move>,
        mut before: impl FnMut(&Position),
    ) -> Result<Position, ReplayError> {
        let mut pos = self.clone();
        for (index, mv) in moves.into_iter().enumerate() {
            before(&pos);
            pos.play(mv).map_err(|error| ReplayError {
                ply: index + 1,
                mv,
                error,
            })?;
        }
        Ok(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_history_holds_every_position_before_a_move() {
        let line = moves("h2e2 h9g7 h0g2");
        let (end, history) = Position::startpos().replay(&line).unwrap();
        let mut pos = Position::startpos();
        for (before, &mv) in history.iter().zip(&line) {
            assert_eq!(before, &pos);
            pos.play(mv).unwrap();
        }
        assert_eq!(end, pos);
        assert_eq!(Position::startpos().after_moves(line).unwrap(), end);
    }

    #[test]
    fn the_first_illegal_move_is_named_with_its_place() {
        let error = Position::startpos()
            .after_moves(moves("h2e2 h2e2"))
            .unwrap_err();
        assert_eq!(error.ply, 2);
        assert_eq!(error.mv, "h2e2".parse().unwrap());
        assert!(matches!(error.error, PlayError::NoPiece { .. }));
        assert_eq!(
            error.to_string(),
            "move 2 (h2e2) cannot be played: illegal move h2e2: no black piece on h2"
        );
    }
}
