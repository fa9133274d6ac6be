//! The win-rate data of finished engine games (`xiangqi match --pgn`
//! files, `tune --wdl --wdl-games`): every move of one player whose PGN
//! comment carries its search score (`{cp 35 depth 9 101 ms}`, the mover's
//! view, as the match runner writes it), with the position's ply and the
//! game's result for that player. The result is the one the match runner
//! wrote, which `xiangqi-adjudication` decided by our rules; forfeits
//! (time, crash, illegal move: a `Termination` other than `normal`) say
//! nothing about the position and are skipped.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use xiangqi_core::Color;
use xiangqi_gamefile::{Game, GameResult, Games};
use xiangqi_search::wdl::{game_ply, Outcome, WdlSample};

/// The samples of every usable game of `files`, one list per game, and how
/// many games were skipped.
pub struct MatchData {
    /// One list of samples per game used, in file order.
    pub games: Vec<Vec<WdlSample>>,
    /// Games without `player`, without a decisive or drawn result, or
    /// ended by a forfeit.
    pub skipped: usize,
}

/// Reads the games of `files` and keeps `player`'s scored moves.
pub fn read(files: &[PathBuf], player: &str) -> Result<MatchData> {
    let mut data = MatchData {
        games: Vec::new(),
        skipped: 0,
    };
    for file in files {
        read_file(file, player, &mut data)?;
    }
    Ok(data)
}

fn read_file(path: &Path, player: &str, data: &mut MatchData) -> Result<()> {
    for game in Games::open(path, None)? {
        let game = game?;
        match samples_of(&game, player)
            .with_context(|| format!("{}: a game cannot be replayed", path.display()))?
        {
            Some(samples) => data.games.push(samples),
            None => data.skipped += 1,
        }
    }
    Ok(())
}

/// `player`'s scored moves of `game`; `None` when the game does not count.
fn samples_of(game: &Game, player: &str) -> Result<Option<Vec<WdlSample>>> {
    let side = if game.tag("Red") == Some(player) {
        Color::Red
    } else if game.tag("Black") == Some(player) {
        Color::Black
    } else {
        return Ok(None);
    };
    if game.tag("Termination").is_some_and(|t| t != "normal") {
        return Ok(None);
    }
    let result = game
        .result
        .or_else(|| game.tag("Result").and_then(|r| r.parse().ok()));
    let outcome = match (result, side) {
        (Some(GameResult::Draw), _) => Outcome::Draw,
        (Some(GameResult::RedWins), Color::Red) | (Some(GameResult::BlackWins), Color::Black) => {
            Outcome::Win
        }
        (Some(GameResult::RedWins | GameResult::BlackWins), _) => Outcome::Loss,
        (Some(GameResult::Unknown) | None, _) => return Ok(None),
    };
    let mut position = game.start_position()?;
    let first_ply = game_ply(&position);
    let mut samples = Vec::new();
    for (i, node) in game.mainline.moves.iter().enumerate() {
        if position.side_to_move() == side {
            if let Some(score_cp) = node.comments().iter().find_map(|c| centipawns(c)) {
                samples.push(WdlSample {
                    score_cp,
                    ply: first_ply + i as u32,
                    outcome,
                });
            }
        }
        position.play(node.mv)?;
    }
    Ok(Some(samples))
}

/// The centipawns of a match comment `cp 35 depth 9 101 ms`; `None` for a
/// mate score or any other comment.
fn centipawns(comment: &str) -> Option<i32> {
    let mut words = comment.split_whitespace();
    match (words.next(), words.next()) {
        (Some("cp"), Some(value)) => value.parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MATCH: &str = "[Red \"ours\"]\n[Black \"theirs\"]\n[Result \"0-1\"]\n\
        [Termination \"normal\"]\n\n\
        1. h2e2 h9g7 {end of opening} 2. h0g2 {cp 35 depth 9 101 ms} 2... i9h9 \
        {cp 20 depth 10 90 ms} 3. i0h0 {mate 4 depth 3 1 ms} 3... b9c7 {cp -5} 4. g3g4 \
        {cp -120 depth 8 80 ms} 0-1\n\n\
        [Red \"theirs\"]\n[Black \"ours\"]\n[Result \"1-0\"]\n[Termination \"time forfeit\"]\n\n\
        1. h2e2 {cp 10 depth 1 1 ms} h9g7 {cp 10 depth 1 1 ms} 1-0\n";

    #[test]
    fn one_players_scored_moves_with_the_result() {
        let dir = std::env::temp_dir().join(format!("xiangqi-wdl-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match.pgn");
        std::fs::write(&path, MATCH).unwrap();
        let data = read(&[path], "ours").unwrap();
        // The forfeit is skipped; of the first game Red's cp moves count.
        assert_eq!(data.skipped, 1);
        let loss = |score_cp, ply| WdlSample {
            score_cp,
            ply,
            outcome: Outcome::Loss,
        };
        assert_eq!(data.games, [vec![loss(35, 2), loss(-120, 6)]]);
        assert_eq!(centipawns("cp -7 depth 2 3 ms"), Some(-7));
        assert_eq!(centipawns("end of opening"), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
