//! `xiangqi game check`: every game of a collection read and reported, one
//! line (or JSON Lines record) per game: index, tags, plies, result, or
//! the error with its place.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use serde_json::json;
use xiangqi_gamefile::collection::{CollectedFile, CollectionError};
use xiangqi_gamefile::{Game, GameFileError, Location, TextEncoding};

use crate::collection::{
    conclude, for_each_game_of_files, report_unreadable, summary_json, Collection, Event,
    Unreadable,
};
use crate::common::write_json_line;

fn tag_summary(game: &Game) -> String {
    let tag = |n: &str| game.tag(n).unwrap_or("?").to_owned();
    let mut s = format!("{} vs {}", tag("Red"), tag("Black"));
    let extra: Vec<&str> = ["Event", "Date"]
        .iter()
        .filter_map(|n| game.tag(n))
        .collect();
    if !extra.is_empty() {
        s.push_str(&format!(" ({})", extra.join(", ")));
    }
    s
}

/// Where an error is and what it says, as `check --json` writes it (a
/// broken game's fields, and each of a game's warnings): `line` and
/// `column`, or `byte`, then `error`.
fn error_json(e: &GameFileError) -> serde_json::Value {
    let mut place = serde_json::Map::new();
    match e.location {
        Location::Text { line, column } => {
            place.insert("line".into(), json!(line));
            place.insert("column".into(), json!(column));
        }
        Location::Byte(offset) => {
            place.insert("byte".into(), json!(offset));
        }
        Location::File => {}
    }
    place.insert("error".into(), json!(e.message()));
    place.into()
}

fn check_line(
    file: Option<&CollectedFile>,
    index: usize,
    encoding: Option<TextEncoding>,
    item: Result<Game, GameFileError>,
    as_json: bool,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut row = serde_json::Map::new();
    if let Some(file) = file {
        if as_json {
            row.insert("file".into(), json!(file.path.to_string_lossy()));
        } else {
            write!(out, "{}\t", file.path.display())?;
        }
    }
    row.insert("game".into(), json!(index));
    // The file's: known once it was opened (not for a file that was not).
    if let Some(encoding) = encoding {
        row.insert("encoding".into(), json!(encoding.name()));
    }
    match (item, as_json) {
        (Ok(game), false) => {
            write!(
                out,
                "{index}\t{}\t{} plies\t{}\t{}",
                tag_summary(&game),
                game.plies(),
                game.outcome(),
                game.notation
            )?;
            for e in &game.errors {
                write!(out, "\twarning: {}: {}", e.location, e.message())?;
            }
            writeln!(out)?
        }
        (Ok(game), true) => {
            let tags: serde_json::Map<String, serde_json::Value> = game
                .tags
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            for (key, value) in [
                ("ok", json!(true)),
                ("tags", json!(tags)),
                ("notation", json!(game.notation.name())),
                ("plies", json!(game.plies())),
                ("moves_with_variations", json!(game.mainline.count_moves())),
                ("result", json!(game.outcome().as_str())),
                ("result_token", json!(game.result.map(|r| r.as_str()))),
                ("warnings", game.errors.iter().map(error_json).collect()),
            ] {
                row.insert(key.into(), value);
            }
            write_json_line(&mut out, &row.into())?;
        }
        (Err(e), false) => writeln!(out, "{index}\terror: {}: {}", e.location, e.message())?,
        (Err(e), true) => {
            row.insert("ok".into(), json!(false));
            if let serde_json::Value::Object(place) = error_json(&e) {
                row.extend(place);
            }
            write_json_line(&mut out, &row.into())?;
        }
    }
    Ok(out)
}

/// The report line (or JSON Lines record) of a file or folder of a
/// collection that could not be read: like a broken game's, numbered by
/// the game where reading stopped (0: before any).
fn unreadable_line(what: Unreadable<'_>, as_json: bool) -> Result<Vec<u8>> {
    let (path, reason) = match what {
        Unreadable::File(file, e) => return check_line(Some(file), e.game, None, Err(e), as_json),
        Unreadable::Folder(CollectionError::Unreadable { path, reason }) => {
            (path.to_string_lossy(), reason.clone())
        }
        Unreadable::Folder(other) => (Default::default(), other.to_string()),
    };
    let mut out = Vec::new();
    if as_json {
        let row = json!({ "file": path, "game": 0, "ok": false, "error": reason });
        write_json_line(&mut out, &row)?;
    } else {
        writeln!(out, "{path}\t0\terror: {reason}")?;
    }
    Ok(out)
}

pub(super) fn check(collection: Collection, as_json: bool, jobs: usize) -> Result<()> {
    let named = !collection.single;
    // One buffered writer for the whole report: a write per game (what
    // `println!` does on a line-buffered stdout) costs more than reading the game.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = for_each_game_of_files(
        &collection,
        jobs,
        |at, item| {
            let file = named.then_some(at.file);
            check_line(file, at.index, at.encoding(), item, as_json)
        },
        |event| match event {
            Event::Game(line) => Ok(out.write_all(&line?)?),
            Event::Unreadable(what) if named => {
                Ok(out.write_all(&unreadable_line(what, as_json)?)?)
            }
            Event::Unreadable(what) => {
                out.flush()?;
                report_unreadable(&what);
                Ok(())
            }
        },
    )?;
    if as_json && named {
        write_json_line(&mut out, &summary_json(&summary))?;
    }
    out.flush()?;
    conclude(&summary, &collection, "")
}
