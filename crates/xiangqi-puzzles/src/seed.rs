//! What a kept puzzle is given besides its line: a stable id, themes and
//! the rating it starts with (docs/puzzles.md).

use xiangqi_core::{PieceKind, Position};

/// The first rating of a puzzle: 1200 for one move, 120 more for each
/// further move of the solver, 100 less for a mate (the goal is plain),
/// kept within 900..=2400. Players' results move it from there.
pub fn rating_seed(solver_moves: usize, mate_in: Option<u32>) -> f64 {
    let moves = solver_moves.max(1) as f64;
    let mate_bonus = if mate_in.is_some() { -100.0 } else { 0.0 };
    (1200.0 + 120.0 * (moves - 1.0) + mate_bonus).clamp(900.0, 2400.0)
}

/// The themes of a puzzle: `mate` and `mateInN` for a mate, `endgame` when
/// the start has at most six chariots, horses and cannons in all (else
/// `middlegame`), `short` (one or two moves) or `long` (five or more).
pub fn themes(start: &Position, solver_moves: usize, mate_in: Option<u32>) -> Vec<String> {
    let mut themes = Vec::new();
    if let Some(n) = mate_in {
        themes.push("mate".to_string());
        themes.push(format!("mateIn{n}"));
    }
    let heavy = start
        .pieces()
        .filter(|(_, p)| {
            matches!(
                p.kind,
                PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
            )
        })
        .count();
    themes.push(if heavy <= 6 { "endgame" } else { "middlegame" }.to_string());
    if solver_moves <= 2 {
        themes.push("short".to_string());
    } else if solver_moves >= 5 {
        themes.push("long".to_string());
    }
    themes
}

/// A stable id: 12 hex digits of the FNV-1a hash of the FEN and the solution.
pub fn puzzle_id(fen: &str, solution: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = fen.bytes().chain(
        solution
            .iter()
            .flat_map(|m| b" ".iter().copied().chain(m.bytes())),
    );
    for byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:012x}", hash >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_grow_with_length_and_stay_in_range() {
        assert_eq!(rating_seed(1, Some(1)), 1100.0);
        assert_eq!(rating_seed(3, None), 1440.0);
        assert_eq!(rating_seed(40, None), 2400.0);
    }

    #[test]
    fn ids_differ_with_the_line() {
        let a = puzzle_id("f", &["h2e2".into()]);
        assert_eq!(a.len(), 12);
        assert_ne!(a, puzzle_id("f", &["h2e3".into()]));
        assert_eq!(a, puzzle_id("f", &["h2e2".into()]));
    }
}
