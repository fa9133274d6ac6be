//! Openings for `xiangqi match`: read from a file (FENs or move sequences,
//! one per line) or drawn as random legal plies from the start position.

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Context, Result};
use xiangqi_adjudication::{Game, RuleSet};
use xiangqi_core::{Move, Position, SplitMix64};

/// A start position and the book moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position with no book moves.
    pub fn startpos() -> Opening {
        Opening {
            start: Position::startpos(),
            moves: Vec::new(),
        }
    }

    /// The moves as ICCS text.
    pub fn describe(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        match (self.start == Position::startpos(), moves.is_empty()) {
            (true, true) => "start position".to_string(),
            (true, false) => moves.join(" "),
            (false, true) => self.start.to_fen(),
            (false, false) => format!("{} moves {}", self.start.to_fen(), moves.join(" ")),
        }
    }
}

/// Reads one opening line: `FEN`, `FEN moves m1 m2…`, or `m1 m2…` from the
/// start (moves in any notation; move numbers such as `1.` are skipped).
pub fn parse_opening(line: &str, rules: &RuleSet) -> Result<Opening> {
    let (start, moves_text) = if line.contains('/') {
        let (fen, moves) = match line.split_once(" moves ") {
            Some((fen, moves)) => (fen, moves),
            None => (line.strip_suffix(" moves").unwrap_or(line), ""),
        };
        let start =
            Position::from_fen(fen.trim()).with_context(|| format!("bad FEN {:?}", fen.trim()))?;
        (start, moves)
    } else {
        (Position::startpos(), line)
    };
    let mut game = Game::new(start.clone(), rules.clone());
    let mut moves = Vec::new();
    for token in moves_text.split_whitespace() {
        if is_move_number(token) {
            continue;
        }
        // The errors quote the text or name the ply themselves.
        let mv = xiangqi_notation::parse(game.position(), token, None)
            .with_context(|| format!("move {}", moves.len() + 1))?;
        game.push(mv)?;
        moves.push(mv);
    }
    if game.is_over() {
        bail!("the game is already over: {}", game.verdict());
    }
    Ok(Opening { start, moves })
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Reads an openings file: one opening per line; blank lines and lines
/// starting with `#` are skipped.
pub fn read_openings(path: &Path, rules: &RuleSet) -> Result<Vec<Opening>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --openings {}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_opening(line, rules)
            .with_context(|| format!("{} line {}: {line:?}", path.display(), n + 1))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        bail!("--openings {}: no opening in the file", path.display());
    }
    Ok(openings)
}

/// `count` openings of `plies` random legal moves from the start position.
/// Sequences with a capture are redrawn, so both sides keep equal material
/// (unless `plies` is so long that capture-free ones are too rare to find);
/// duplicates are redrawn while the generator finds new ones.
pub fn random_openings(count: usize, plies: u32, seed: u64, rules: &RuleSet) -> Vec<Opening> {
    let mut rng = SplitMix64::new(seed);
    let mut openings: Vec<Opening> = Vec::with_capacity(count);
    // Every random opening starts from the start position: its moves say
    // which it is (a set, so that an SPRT's thousands of openings are drawn
    // in linear time).
    let mut seen: HashSet<Vec<Move>> = HashSet::with_capacity(count);
    let (mut attempts, mut repeats_in_a_row, mut exhausted) = (0u64, 0u32, false);
    while openings.len() < count {
        attempts += 1;
        // Long capture-free random sequences are rare: after many tries, take any.
        let quiet = attempts <= 200 * count as u64;
        let Some(opening) = random_opening(&mut rng, plies, quiet, rules) else {
            continue;
        };
        // Few distinct sequences exist for tiny `plies`: once a thousand
        // draws in a row found nothing new, allow repeats from then on.
        if !seen.insert(opening.moves.clone()) && !exhausted {
            repeats_in_a_row += 1;
            exhausted = repeats_in_a_row >= 1000;
            continue;
        }
        repeats_in_a_row = 0;
        openings.push(opening);
    }
    openings
}

fn random_opening(
    rng: &mut SplitMix64,
    plies: u32,
    quiet: bool,
    rules: &RuleSet,
) -> Option<Opening> {
    let start = Position::startpos();
    let mut game = Game::new(start.clone(), rules.clone());
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = game.permitted_moves();
        if legal.is_empty() {
            return None;
        }
        let mv = legal[rng.below(legal.len())];
        if quiet && game.position().piece_at(mv.to()).is_some() {
            return None;
        }
        game.push(mv).ok()?;
        moves.push(mv);
        if game.is_over() {
            return None;
        }
    }
    Some(Opening { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_lines() {
        let rules = RuleSet::default();
        let o = parse_opening("1. h2e2 h9g7 2. 马二进三", &rules).unwrap();
        assert_eq!(o.describe(), "h2e2 h9g7 h0g2");
        let o = parse_opening("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1 moves i5f5", &rules);
        assert!(o.unwrap_err().to_string().contains("already over"));
        let o = parse_opening("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1", &rules).unwrap();
        assert!(o.moves.is_empty());
        let err = parse_opening("h2e2 h2e2", &rules).unwrap_err();
        assert!(format!("{err:#}").contains("move 2"), "{err:#}");
        assert!(parse_opening("rnbakabnr/9/9 w", &rules).is_err());
    }

    #[test]
    fn random_openings_are_seeded_and_quiet() {
        let rules = RuleSet::default();
        let a = random_openings(20, 6, 7, &rules);
        assert_eq!(a, random_openings(20, 6, 7, &rules));
        assert_ne!(a, random_openings(20, 6, 8, &rules));
        for o in &a {
            assert_eq!(o.moves.len(), 6);
            let end = o.start.after_moves(o.moves.iter().copied()).unwrap();
            assert_eq!(end.pieces().count(), 32, "{}", o.describe());
        }
        let distinct: std::collections::HashSet<String> = a.iter().map(Opening::describe).collect();
        assert_eq!(distinct.len(), 20);
    }

    #[test]
    fn more_openings_than_exist_repeat_them() {
        // One ply: 44 first moves, 42 without a capture (the cannons can take
        // a horse). An SPRT asks for thousands of pairs; after every move was
        // drawn, repeats are taken instead of searching on.
        let rules = RuleSet::default();
        let many = random_openings(500, 1, 1, &rules);
        assert_eq!(many.len(), 500);
        let distinct: HashSet<&Vec<Move>> = many.iter().map(|o| &o.moves).collect();
        assert_eq!(distinct.len(), 42);
    }
}
