//! Move text as an engine writes it: ICCS with ranks 0-9, or ranks 1-10
//! (Fairy-Stockfish, pychess) through `xiangqi-notation`'s converter.

use xiangqi_core::Move;
use xiangqi_notation::{format_ranks10, parse_ranks10};

/// How an engine numbers ranks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveText {
    /// True: ranks 1-10.
    pub ranks_from_one: bool,
}

impl MoveText {
    /// The move as this engine writes it.
    pub fn write(self, mv: Move) -> String {
        if self.ranks_from_one {
            format_ranks10(mv)
        } else {
            mv.to_string()
        }
    }

    /// Reads an engine's move (`h2e2`, `H2-E2`, `h3e3` with ranks 1-10);
    /// `None` for text that is no move. Legality is not checked here.
    pub fn read(self, text: &str) -> Option<Move> {
        if self.ranks_from_one {
            parse_ranks10(text).ok()
        } else {
            let iccs: String = text
                .trim()
                .chars()
                .filter(|&c| c != '-')
                .collect::<String>()
                .to_ascii_lowercase();
            iccs.parse().ok()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_conversion() {
        let one = MoveText {
            ranks_from_one: true,
        };
        let zero = MoveText::default();
        let read = |t: MoveText, s: &str| t.read(s).map(|m| m.to_string());
        assert_eq!(read(one, "h10g8").as_deref(), Some("h9g7"));
        assert_eq!(read(one, "a1a2").as_deref(), Some("a0a1"));
        assert_eq!(read(zero, "H2-E2").as_deref(), Some("h2e2"));
        assert_eq!(read(one, "a0a1"), None);
        assert_eq!(read(zero, "h10g8"), None);
        assert_eq!(read(zero, "j2e2"), None);
        assert_eq!(read(zero, "h2"), None);
        let mv: Move = "h9g7".parse().unwrap();
        assert_eq!(one.write(mv), "h10g8");
        assert_eq!(zero.write(mv), "h9g7");
    }
}
