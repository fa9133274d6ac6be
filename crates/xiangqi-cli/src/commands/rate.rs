//! `xiangqi rate FILES… [--rules PRESET] [--prior-draws N] [--json]`: Elo
//! ratings of the players of game files (PGN or any format
//! `xiangqi-gamefile` reads), fitted by `xiangqi-rating` from
//! the adjudicated results (cancelled and unfinished games are not rated).
//! See `docs/rating.md`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use xiangqi_adjudication::{Preset, RuleSet};
use xiangqi_gamefile::{Games, ReaderOptions, TextEncoding};
use xiangqi_rating::{fit, rated_game, FitOptions, Unrated};

use crate::common::print_json;

#[derive(clap::Args)]
pub struct Args {
    /// Game files (PGN, WXF, XQF, CBF, CBR, CBL; the format is sniffed).
    #[arg(required = true, value_name = "FILES")]
    files: Vec<PathBuf>,
    /// Rule preset the games' moves are judged by: online, asian, pikafish, fairy or plain.
    #[arg(long, default_value_t = Preset::Online)]
    rules: Preset,
    /// Virtual draws of each player against a fixed opponent (0: plain maximum likelihood).
    #[arg(long, value_name = "N", default_value_t = FitOptions::default().prior_draws)]
    prior_draws: f64,
    /// The players' mean rating.
    #[arg(long, default_value_t = 0.0, allow_negative_numbers = true)]
    mean: f64,
    /// Machine-readable output (one JSON object).
    #[arg(long)]
    json: bool,
    /// The encoding of the files' text (utf-8, utf-16le, utf-16be,
    /// gb18030, big5); default: detected once per file.
    #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str)]
    encoding: Option<TextEncoding>,
}

fn reason_code(why: &Unrated) -> &'static str {
    match why {
        Unrated::Cancelled(_) | Unrated::CancelledByRules => "cancelled",
        Unrated::NoResult => "no_result",
        Unrated::NoPlayer => "no_player",
        Unrated::Unplayable(_) => "unplayable",
    }
}

pub fn run(args: Args) -> Result<()> {
    let rules = RuleSet::preset(args.rules);
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("rating: {pos} games read [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let mut rated = Vec::new();
    let mut unrated: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut unreadable = 0usize;
    for path in &args.files {
        // The error names the file.
        let options = ReaderOptions {
            encoding: args.encoding,
            ..ReaderOptions::default()
        };
        let games = Games::open_with(path, None, options)?;
        for (index, item) in games.enumerate() {
            bar.inc(1);
            match item {
                Ok(game) => match rated_game(&game, &rules) {
                    Ok(r) => rated.push(r),
                    Err(why) => *unrated.entry(reason_code(&why)).or_default() += 1,
                },
                Err(e) => {
                    unreadable += 1;
                    bar.suspend(|| {
                        eprintln!(
                            "warning: {} game {}: skipped: {e}",
                            path.display(),
                            index + 1
                        )
                    });
                }
            }
        }
    }
    bar.finish_and_clear();
    if rated.is_empty() {
        bail!("no rated games in the files");
    }
    let options = FitOptions {
        prior_draws: args.prior_draws,
        mean: args.mean,
        ..FitOptions::default()
    };
    let ratings = fit(&rated, &options)?;
    if args.json {
        let players: Vec<_> = ratings
            .players
            .iter()
            .map(|p| json!({"name": p.name, "elo": p.elo, "games": p.games, "points": p.points}))
            .collect();
        print_json(&json!({
            "method": "bradley-terry maximum likelihood (Elo scale), prior of virtual draws",
            "prior_draws": options.prior_draws,
            "mean": options.mean,
            "rated_games": rated.len(),
            "unrated": unrated,
            "unreadable": unreadable,
            "players": players,
        }))?;
    } else {
        println!(
            "{:>4}  {:<30} {:>8} {:>6} {:>7}",
            "rank", "player", "elo", "games", "points"
        );
        for (i, p) in ratings.players.iter().enumerate() {
            println!(
                "{:>4}  {:<30} {:>8.1} {:>6} {:>7.1}",
                i + 1,
                p.name,
                p.elo,
                p.games,
                p.points
            );
        }
        let skipped: Vec<String> = unrated.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!(
            "{} rated games; not rated: {}; unreadable: {unreadable}",
            rated.len(),
            if skipped.is_empty() {
                "none".to_string()
            } else {
                skipped.join(", ")
            }
        );
    }
    Ok(())
}
