//! `xiangqi game ecco`: each game's opening in the ECCO classification
//! (`xiangqi-ecco`), one line per game, over a collection of game files.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use serde_json::json;
use xiangqi_gamefile::{Game, GameFileError};

use crate::collection::{
    conclude, for_each_game_of_files, report_game_problems, report_unreadable, summary_json,
    Collection, Event, GameAt,
};
use crate::common::write_json_line;

/// One game's line: `[FILE\t]GAME\tCODE\tNAME\tENGLISH\tply N`, `-` for a
/// game with no code (another start, no move); as JSON the `file`, `game`
/// and `tags` of `game check --json` with `code`, `name`,
/// `name_traditional`, `name_en` and `ply` (null without a code).
fn ecco_line(
    at: &GameAt<'_>,
    named: bool,
    item: Result<Game, GameFileError>,
    as_json: bool,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let game = match item {
        Ok(game) => game,
        Err(e) => {
            if as_json {
                let mut row = serde_json::Map::new();
                if named {
                    row.insert("file".into(), json!(at.file.path.to_string_lossy()));
                }
                row.insert("game".into(), json!(at.index));
                row.insert("ok".into(), json!(false));
                row.insert("error".into(), json!(e.to_string()));
                write_json_line(&mut out, &row.into())?;
            } else {
                if named {
                    write!(out, "{}\t", at.file.path.display())?;
                }
                writeln!(out, "{}\terror: {}: {}", at.index, e.location, e.kind)?;
            }
            return Ok(out);
        }
    };
    // A game's main line holds only moves its reader could play.
    let opening = xiangqi_ecco::classify_game(&game).unwrap_or(None);
    if as_json {
        let mut row = serde_json::Map::new();
        if named {
            row.insert("file".into(), json!(at.file.path.to_string_lossy()));
        }
        row.insert("game".into(), json!(at.index));
        let tags: serde_json::Map<String, serde_json::Value> = game
            .tags
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        row.insert("tags".into(), json!(tags));
        let o = opening.as_ref();
        row.insert("code".into(), json!(o.map(|o| o.code)));
        row.insert("name".into(), json!(o.map(|o| o.name)));
        row.insert(
            "name_traditional".into(),
            json!(o.map(|o| &o.name_traditional)),
        );
        row.insert("name_en".into(), json!(o.map(|o| &o.name_en)));
        row.insert("ply".into(), json!(o.map(|o| o.ply)));
        write_json_line(&mut out, &row.into())?;
    } else {
        if named {
            write!(out, "{}\t", at.file.path.display())?;
        }
        match opening {
            Some(o) => writeln!(
                out,
                "{}\t{}\t{}\t{}\tply {}",
                at.index, o.code, o.name, o.name_en, o.ply
            )?,
            None => writeln!(out, "{}\t-", at.index)?,
        }
    }
    Ok(out)
}

/// `game ecco`: a line (or JSON object) per game, in collection order;
/// problems, the summary and the exit status as every reading command
/// (docs/cli.md).
pub(crate) fn ecco(collection: Collection, as_json: bool, jobs: usize) -> Result<()> {
    let named = !collection.single;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = for_each_game_of_files(
        &collection,
        jobs,
        |at, item| {
            let problems = item
                .as_ref()
                .map(|game| game.errors.clone())
                .map_err(Clone::clone);
            (problems, ecco_line(&at, named, item, as_json))
        },
        |event| match event {
            Event::Game((problems, line)) => {
                report_game_problems(&problems);
                Ok(out.write_all(&line?)?)
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

/// `game convert --add-opening`: the game's `[ECCO]` code and its
/// `[Opening]` name (with `[Variation]` for a variation's part), kept as
/// the file has them unless `replace`; in traditional characters when the
/// output is Big5 (which holds no simplified ones). A game without a code
/// (another start, no move) is left as it is.
pub(crate) fn add_opening_tags(game: &mut Game, replace: bool, traditional: bool) {
    let Ok(Some(opening)) = xiangqi_ecco::classify_game(game) else {
        return;
    };
    if !replace && (game.tag("ECCO").is_some() || game.tag("Opening").is_some()) {
        return;
    }
    let name = if traditional {
        opening.name_traditional.as_str()
    } else {
        opening.name
    };
    let (main, variation) = match name.split_once("——") {
        Some((main, variation)) => (main, Some(variation)),
        None => (name, None),
    };
    game.set_tag("ECCO", opening.code);
    game.set_tag("Opening", main);
    match variation {
        Some(variation) => game.set_tag("Variation", variation),
        None if replace => game.tags.retain(|(k, _)| k != "Variation"),
        None => {}
    }
}
