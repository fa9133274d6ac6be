//! PGN records of match games, written with `xiangqi-notation`'s writer.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};
use xiangqi_core::Position;
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::{Game, GameResult, Line, Node};
use xiangqi_notation::Notation;

use xiangqi_engine_client::Limit;

use super::game::PlayedGame;

/// `--pgn OUT` opened for appending: a second match adds its games after
/// the first one's instead of replacing them. When the file's text does not
/// end in a blank line (written by hand, say), one is added so the first
/// new game's tags do not run into the last old game's moves.
pub fn open_for_append(path: &Path) -> Result<File> {
    let cannot = || format!("cannot open --pgn {} for appending", path.display());
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(path)
        .with_context(cannot)?;
    let length = file.metadata().with_context(cannot)?.len();
    if length > 0 {
        let mut tail = Vec::new();
        file.seek(SeekFrom::Start(length.saturating_sub(2)))
            .and_then(|_| file.read_to_end(&mut tail))
            .with_context(cannot)?;
        let separator = match tail.as_slice() {
            [.., b'\n', b'\n'] => "",
            [.., b'\n'] => "\n",
            _ => "\n\n",
        };
        file.write_all(separator.as_bytes()).with_context(cannot)?;
    }
    Ok(file)
}

/// The game as PGN text in ICCS notation.
pub fn game_pgn(played: &PlayedGame, limit: Limit, date: &str) -> Result<String> {
    let mut game = Game::default();
    let result: GameResult = played
        .outcome
        .result()
        .parse()
        .unwrap_or(GameResult::Unknown);
    let tags = [
        ("Event", "xiangqi match".to_string()),
        ("Site", "?".to_string()),
        ("Date", date.to_string()),
        ("Round", played.setup.round.to_string()),
        ("Red", played.names[0].clone()),
        ("Black", played.names[1].clone()),
        ("Result", result.as_str().to_string()),
        ("TimeControl", limit.describe()),
        ("Opening", played.setup.opening.describe()),
        ("PlyCount", played.moves.len().to_string()),
        ("Termination", played.termination.to_string()),
        ("Reason", played.reason.clone()),
    ];
    for (name, value) in tags {
        game.set_tag(name, &value);
    }
    if played.setup.opening.start != Position::startpos() {
        game.set_tag("FEN", &played.setup.opening.start.to_fen());
    }
    let book = played.setup.opening.moves.len();
    let mut line = Line::default();
    for (i, (&mv, comment)) in played.moves.iter().zip(&played.comments).enumerate() {
        let mut node = Node::new(mv);
        if i + 1 == book {
            node.comments_mut().push("end of opening".to_string());
        } else if !comment.is_empty() {
            node.comments_mut().push(comment.clone());
        }
        line.moves.push(node);
    }
    match line.moves.last_mut() {
        Some(last) => last.comments_mut().push(played.detail.clone()),
        None => line.comments.push(played.detail.clone()),
    }
    game.mainline = line;
    game.result = Some(result);
    Ok(write_game(&game, &WriteOptions::new(Notation::Iccs))?)
}

/// Today's date as PGN writes it (`2026.12.01`, UTC).
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
    }
}
