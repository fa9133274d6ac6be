//! The ECCO code of stored games: computed from the stored moves, kept with
//! the ending, filled in for endings stored before the column existed, and
//! the code prefix a player's games are filtered by.

use sqlx::Row;
use xiangqi_core::{Move, Position};

use super::{database, Store, StoreError, StoredGame};

/// Endings filled in per statement.
const BATCH: i64 = 200;

/// A code or its start, as a filter: `C`, `C2` or `C23`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodePrefix(String);

impl CodePrefix {
    /// Reads `text` (any case, spaces around ignored): a letter `A`-`E`
    /// and at most two digits; `None` for anything else.
    pub fn parse(text: &str) -> Option<CodePrefix> {
        let text = text.trim().to_ascii_uppercase();
        let mut chars = text.chars();
        let letter_ok = chars.next().is_some_and(|c| ('A'..='E').contains(&c));
        let digits = chars.as_str();
        (letter_ok && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then_some(CodePrefix(text))
    }

    /// The prefix.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `code` starts with it.
    pub fn matches(&self, code: &str) -> bool {
        code.starts_with(&self.0)
    }
}

impl StoredGame {
    /// The moves stored, in order (a move that cannot be read ends them).
    pub fn stored_moves(&self) -> Vec<Move> {
        self.events
            .iter()
            .filter(|e| e.kind == "move")
            .map_while(|e| e.mv.as_deref()?.parse().ok())
            .collect()
    }

    /// The ECCO code of the stored moves: `None` for a game from a set-up
    /// position, without moves, or whose start cannot be read.
    pub fn ecco_code(&self) -> Option<&'static str> {
        let start = Position::from_fen(&self.game.start_fen).ok()?;
        let moves = self.stored_moves();
        crate::game::view::opening_of(&start, &moves).map(|o| o.code)
    }
}

impl Store {
    /// Gives the endings stored before endings had a code theirs, from
    /// their games' stored moves.
    pub(super) async fn fill_ending_openings(&self) -> Result<(), StoreError> {
        loop {
            let rows = sqlx::query("SELECT game FROM endings WHERE ecco IS NULL LIMIT $1")
                .bind(BATCH)
                .fetch_all(&self.writer)
                .await
                .map_err(database)?;
            if rows.is_empty() {
                return Ok(());
            }
            for row in rows {
                let id: String = row.try_get(0).map_err(database)?;
                let code = match self.game(&id).await? {
                    Some(stored) => stored.ecco_code().unwrap_or_default(),
                    None => "",
                };
                sqlx::query("UPDATE endings SET ecco = $2 WHERE game = $1")
                    .bind(&id)
                    .bind(code)
                    .execute(&self.writer)
                    .await
                    .map_err(database)?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_is_a_letter_and_at_most_two_digits() {
        for (text, prefix) in [("C", "C"), ("c2", "C2"), (" E48 ", "E48"), ("A0", "A0")] {
            assert_eq!(CodePrefix::parse(text).unwrap().as_str(), prefix);
        }
        for bad in ["", "F1", "C234", "C2%", "2", "C_", "Ｃ2"] {
            assert_eq!(CodePrefix::parse(bad), None, "{bad:?}");
        }
        let c2 = CodePrefix::parse("C2").unwrap();
        assert!(c2.matches("C23") && !c2.matches("C32") && !c2.matches(""));
    }
}
