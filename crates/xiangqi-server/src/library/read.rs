//! An uploaded or pasted file read into the games a library stores: every
//! game the gamefile crate reads from it (format and text encoding are the
//! crate's to detect), each written back as PGN with the fields the list
//! shows, or its error under its number in the file. Nothing is dropped
//! without a word: games past the room there is are counted as such.

use std::io::Cursor;
use std::path::Path;

use xiangqi_core::Position;
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::{Format, Game, GameFileError, Games, Location, ReaderOptions};
use xiangqi_notation::Notation;

/// The errors an import report lists at most; more are counted.
pub const MAX_LISTED_ERRORS: usize = 100;

/// A game read, ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadGame {
    /// Its number in the file, from 1.
    pub index: usize,
    pub red: String,
    pub black: String,
    pub event: String,
    pub date: String,
    pub result: String,
    /// ECCO code and (simplified Chinese) name, from the initial position.
    pub ecco: Option<(String, String)>,
    pub plies: usize,
    /// The game as our PGN writer writes it.
    pub pgn: String,
    /// What the reader could not take (the line cut at a move that cannot
    /// be played, …): the game is kept up to there.
    pub warning: Option<String>,
}

/// A game that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    /// Its number in the file, from 1.
    pub index: usize,
    pub message: String,
}

/// What a file held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadFile {
    /// The format read (`pgn`, `xqf`, …; `fen` for a bare FEN).
    pub format: String,
    /// The text encoding detected, when the format has one to detect.
    pub encoding: Option<String>,
    pub games: Vec<ReadGame>,
    /// The first [`MAX_LISTED_ERRORS`] games that could not be read.
    pub errors: Vec<GameError>,
    /// Games that could not be read beyond those listed.
    pub errors_unlisted: usize,
    /// Games read past `room`, not kept: their numbers, first and last.
    pub over_room: Option<(usize, usize)>,
    /// What the file holds besides its games, which is not imported: text
    /// after a PGN file's last game, a CCBridge library's records its index
    /// does not list.
    pub notes: Vec<String>,
    /// A CCBridge library's section headings (records without a position),
    /// which are no games.
    pub headings_skipped: usize,
}

impl ReadFile {
    /// Games that could not be read, listed or not.
    pub fn failed(&self) -> usize {
        self.errors.len() + self.errors_unlisted
    }

    fn fail(&mut self, index: usize, message: String) {
        if self.errors.len() < MAX_LISTED_ERRORS {
            self.errors.push(GameError { index, message });
        } else {
            self.errors_unlisted += 1;
        }
    }
}

/// Reads the file `bytes` named `name` (its extension decides only for
/// content that names no format, as for files on disk), keeping at most
/// `room` games. A text that is one FEN and nothing else is one game from
/// that position.
pub fn read_file(bytes: &[u8], name: &str, room: usize) -> ReadFile {
    if let Some(game) = bare_fen(bytes) {
        let mut file = ReadFile {
            format: "fen".into(),
            ..ReadFile::default()
        };
        keep(&mut file, 1, game, room);
        return file;
    }
    let format = Format::sniff_named(bytes, Path::new(name));
    let games = Games::from_reader(
        Cursor::new(bytes.to_vec()),
        Some(format),
        ReaderOptions::default(),
    );
    let mut file = ReadFile {
        format: format.name().into(),
        ..ReadFile::default()
    };
    let mut games = match games {
        Ok(games) => games,
        Err(e) => {
            file.fail(1, described(&e));
            return file;
        }
    };
    let mut index = 0;
    for item in games.by_ref() {
        index += 1;
        match item {
            Ok(game) => keep(&mut file, index, game, room),
            Err(e) => file.fail(index, described(&e)),
        }
    }
    file.encoding = games.encoding().map(|e| e.to_string());
    file.notes = games
        .library_warnings()
        .iter()
        .take(MAX_LISTED_ERRORS)
        .map(described)
        .collect();
    file.headings_skipped = games.headings_skipped();
    file
}

/// Adds game `index` to `file`, or counts it past the room.
fn keep(file: &mut ReadFile, index: usize, game: Game, room: usize) {
    if file.games.len() >= room {
        let first = file.over_room.map_or(index, |(first, _)| first);
        file.over_room = Some((first, index));
        return;
    }
    match read_game(index, &game) {
        Ok(read) => file.games.push(read),
        Err(message) => file.fail(index, message),
    }
}

fn read_game(index: usize, game: &Game) -> Result<ReadGame, String> {
    let pgn = write_game(game, &WriteOptions::new(Notation::Iccs)).map_err(|e| e.to_string())?;
    let tag = |name: &str| game.tag(name).unwrap_or("").trim().to_owned();
    let ecco = xiangqi_ecco::classify_game(game)
        .ok()
        .flatten()
        .map(|o| (o.code.to_owned(), o.name.to_owned()));
    Ok(ReadGame {
        index,
        red: tag("Red"),
        black: tag("Black"),
        event: tag("Event"),
        date: tag("Date"),
        result: game.outcome().as_str().to_owned(),
        ecco,
        plies: game.plies(),
        pgn,
        warning: game.errors.first().map(described),
    })
}

/// Where in the file and what: the report names the game itself.
fn described(error: &GameFileError) -> String {
    match error.location {
        Location::File => error.message(),
        place => format!("{place}: {}", error.message()),
    }
}

/// A text that is a FEN and nothing else, as a game without moves.
fn bare_fen(bytes: &[u8]) -> Option<Game> {
    let text = std::str::from_utf8(bytes).ok()?.trim();
    if text.contains('\n') || text.len() > 120 {
        return None;
    }
    Position::from_fen(text).ok()?;
    let mut game = Game::default();
    game.set_tag("FEN", text);
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str =
        "[Red \"甲\"]\n[Black \"乙\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n\n\
        [Red \"丙\"]\n[Black \"丁\"]\n\n1. h2e2 z9z9 *\n\n[Red \"戊\"]\n\n1. b2e2 *\n";

    #[test]
    fn every_game_is_kept_or_reported_under_its_number() {
        let file = read_file(TWO_GAMES.as_bytes(), "two.pgn", 100);
        assert_eq!(file.format, "pgn");
        let indexes: Vec<usize> = file.games.iter().map(|g| g.index).collect();
        let failed: Vec<usize> = file.errors.iter().map(|e| e.index).collect();
        let mut all = [indexes.clone(), failed.clone()].concat();
        all.sort();
        assert_eq!(all, [1, 2, 3], "{file:?}");
        let first = &file.games[0];
        assert_eq!((first.red.as_str(), first.black.as_str()), ("甲", "乙"));
        assert_eq!(first.result, "1-0");
        assert_eq!(first.plies, 2);
        assert_eq!(first.ecco.as_ref().map(|e| e.0.as_str()), Some("B05"));
        let again = xiangqi_gamefile::pgn::read_str(&first.pgn).next().unwrap();
        assert_eq!(again.unwrap().plies(), 2);
    }

    #[test]
    fn games_past_the_room_are_counted_not_kept() {
        let file = read_file(TWO_GAMES.as_bytes(), "two.pgn", 1);
        assert_eq!(file.games.len(), 1);
        let (first, last) = file.over_room.unwrap();
        assert!(first >= 2 && last == 3, "{file:?}");
    }

    #[test]
    fn a_bare_fen_is_a_game_from_that_position() {
        let fen = "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1";
        let file = read_file(format!("  {fen}\n").as_bytes(), "pasted", 10);
        assert_eq!(file.format, "fen");
        assert_eq!(file.games.len(), 1);
        assert!(file.games[0].pgn.contains(fen), "{}", file.games[0].pgn);
    }

    #[test]
    fn garbage_and_cut_binary_files_are_errors_not_panics() {
        let garbage: Vec<u8> = (0..4000u32).map(|i| (i * 7919 % 251) as u8).collect();
        for (bytes, name) in [
            (&garbage[..], "x.xqf"),
            (&garbage[..], "x.cbl"),
            (&garbage[..], "x.pgn"),
            (&b"XQ\x0a\x00"[..], "cut.xqf"),
            (&b"CCBridge Record\0"[..], "cut.cbr"),
        ] {
            let file = read_file(bytes, name, 10);
            assert!(
                file.failed() > 0 || !file.games.is_empty(),
                "{name}: {file:?}"
            );
            assert!(file.games.is_empty(), "{name}: {file:?}");
        }
    }
}
