//! `xiangqi game view`: the games of a file as one self-contained HTML page
//! with the interactive viewer (`xiangqi-viewer`): a game list when there
//! are several, or the one game `--game N` picks; with `--explorer DB`, the
//! explorer's tables of the games' positions go into the page.

use std::path::Path;

use anyhow::{bail, Context, Result};
use xiangqi_explorer::Explorer;
use xiangqi_gamefile::{Format, Games, ReaderOptions, TextEncoding};
use xiangqi_viewer::{explorer_tables, viewer_game, write_html, PageOptions, ViewerGame};

/// The notation the page first shows (the reader can switch on the page).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ViewNotation {
    /// Coordinates: h2e2.
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
    pub input: &'a Path,
    pub format: Option<Format>,
    /// `--encoding`: forced, else detected.
    pub encoding: Option<TextEncoding>,
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
    let games = read_games(args.input, args.format, args.encoding, args.game)?;
    let explorer = match &explorer {
        Some(explorer) => Some(explorer_tables(&games, explorer)?),
        None => None,
    };
    let title = match games.as_slice() {
        [one] => one.title.clone(),
        many => format!("{} ({} games)", file_name(args.input), many.len()),
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
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// The games to show: game `pick` alone, or every readable game (a game
/// that cannot be read is reported and left out of the list).
fn read_games(
    input: &Path,
    format: Option<Format>,
    encoding: Option<TextEncoding>,
    pick: Option<usize>,
) -> Result<Vec<ViewerGame>> {
    let options = ReaderOptions {
        encoding,
        ..ReaderOptions::default()
    };
    let games = Games::open_with(input, format, options)?;
    let mut shown = Vec::new();
    let mut count = 0;
    for (index, item) in games.enumerate().map(|(i, item)| (i + 1, item)) {
        count = index;
        if pick.is_some_and(|n| n != index) {
            continue;
        }
        // A game-file error names its file and game already.
        let view = item.map_err(anyhow::Error::from).and_then(|game| {
            for warning in &game.errors {
                eprintln!("warning: {warning}");
            }
            viewer_game(&game).with_context(|| format!("game {index}"))
        });
        match (view, pick) {
            (Ok(view), Some(_)) => return Ok(vec![view]),
            (Ok(view), None) => shown.push(view),
            (Err(e), Some(_)) => return Err(e),
            (Err(e), None) => eprintln!("warning: {e:#} (left out)"),
        }
    }
    match pick {
        Some(n) => bail!(
            "--game {n}: {} has {count} game{}",
            input.display(),
            if count == 1 { "" } else { "s" }
        ),
        None if shown.is_empty() => bail!("{} has no game to show", input.display()),
        None => Ok(shown),
    }
}
