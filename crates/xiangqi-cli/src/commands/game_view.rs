//! `xiangqi game view`: the games of a file as one self-contained HTML page
//! with the interactive viewer (`xiangqi-viewer`): a game list when there
//! are several, or the one game `--game N` picks; with `--explorer DB`, the
//! explorer's tables of the games' positions go into the page.

use std::path::Path;

use anyhow::{bail, Context, Result};
use xiangqi_explorer::Explorer;

use crate::collection::{
    conclude, for_each_game_of_files, report_game_problems, report_unreadable, Collection, Event,
    Summary,
};
use xiangqi_viewer::{explorer_tables, viewer_game, write_html, PageOptions, ViewerGame};

/// The notation the page first shows (the reader can switch on the page).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewNotation {
    /// Coordinates: h2e2 (`coordinate`, its former name, is an alias).
    #[value(name = "iccs", alias = "coordinate")]
    Coordinate,
    /// WXF: C2=5.
    Wxf,
    /// Simplified Chinese: 炮二平五.
    Chinese,
    /// Traditional Chinese: 炮二平五 with traditional characters.
    ChineseTraditional,
    /// Vietnamese: Pháo 2 bình 5.
    Vietnamese,
}

impl ViewNotation {
    /// The viewer's name of the notation (`xiangqi_viewer::NOTATIONS`).
    fn name(self) -> &'static str {
        match self {
            ViewNotation::Coordinate => "coordinate",
            ViewNotation::Wxf => "wxf",
            ViewNotation::Chinese => "chinese",
            ViewNotation::ChineseTraditional => "chinese-traditional",
            ViewNotation::Vietnamese => "vietnamese",
        }
    }
}

/// What `game view` was asked.
pub struct ViewArgs<'a> {
    /// The games, read as `--input-format`, `--input-encoding`, `--strict` say.
    pub collection: Collection,
    /// 1-based; `None`: every game.
    pub game: Option<usize>,
    pub notation: ViewNotation,
    /// An opening explorer file whose tables the page carries.
    pub explorer: Option<&'a Path>,
    pub output: &'a Path,
}

/// Writes the page; reports what it wrote on stderr.
pub fn view(args: ViewArgs<'_>) -> Result<()> {
    if args.game == Some(0) {
        bail!("--game counts from 1");
    }
    // A bad explorer file is reported before the games are read.
    let explorer = args.explorer.map(Explorer::open).transpose()?;
    let (games, summary) = read_games(&args.collection, args.game)?;
    let explorer = match &explorer {
        Some(explorer) => Some(explorer_tables(&games, explorer)?),
        None => None,
    };
    let title = match games.as_slice() {
        [one] => one.title.clone(),
        many => format!(
            "{} ({} games)",
            collection_title(&args.collection),
            many.len()
        ),
    };
    let options = PageOptions {
        title,
        notation: args.notation.name().to_owned(),
        explorer,
    };
    let page = write_html(&games, &options);
    std::fs::write(args.output, page)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let tables = options
        .explorer
        .as_ref()
        .map(|t| {
            format!(
                ", {} explorer table{}",
                t.len(),
                if t.len() == 1 { "" } else { "s" }
            )
        })
        .unwrap_or_default();
    eprintln!(
        "xiangqi game view: {} game{}{tables} in {}",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        args.output.display()
    );
    conclude(&summary, &args.collection, " and were left out")
}

/// The page's title for several games: the one file's name, else "games".
fn collection_title(collection: &Collection) -> String {
    match collection.files.as_slice() {
        [Ok(file)] => file.path.file_name().map_or_else(
            || file.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        _ => "games".to_owned(),
    }
}

/// The games to show: game `pick` alone (counted over the collection),
/// or every readable game (a game that cannot be read is reported and
/// left out of the list).
fn read_games(collection: &Collection, pick: Option<usize>) -> Result<(Vec<ViewerGame>, Summary)> {
    let mut shown = Vec::new();
    let mut count = 0;
    let mut unviewable = 0;
    let mut summary = for_each_game_of_files(
        collection,
        1,
        |at, item| {
            let view = item.as_ref().ok().map(|game| {
                viewer_game(game).with_context(|| format!("{}, game {}", at.file.name, at.index))
            });
            (item.map(|game| game.errors), view)
        },
        |event| {
            let (item, view) = match event {
                Event::Game(answer) => answer,
                Event::Unreadable(what) => {
                    report_unreadable(&what);
                    return Ok(());
                }
            };
            count += 1;
            report_game_problems(&item);
            if pick.is_some_and(|n| n != count) {
                return Ok(());
            }
            match view {
                Some(Ok(view)) => shown.push(view),
                Some(Err(e)) => {
                    unviewable += 1;
                    eprintln!("error: {e:#} (left out)");
                }
                None => {}
            }
            Ok(())
        },
    )?;
    // A game read that the viewer cannot show is an error of this command.
    summary.broken_games += unviewable;
    if let Some(n) = pick {
        if shown.is_empty() && n > count {
            bail!(
                "--game {n}: the input has {count} game{}",
                if count == 1 { "" } else { "s" }
            );
        }
    }
    if shown.is_empty() {
        conclude(&summary, collection, "")?;
        bail!("no game to show");
    }
    // The page is written; the status still says what could not be read.
    Ok((shown, summary))
}
