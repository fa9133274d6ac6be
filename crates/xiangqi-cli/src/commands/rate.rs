//! `xiangqi rate FILES… [--rules PRESET] [--prior-draws N] [--json]`: Elo
//! ratings of the players of game files (PGN or any format
//! `xiangqi-gamefile` reads), fitted by `xiangqi-rating` from
//! the adjudicated results (cancelled and unfinished games are not rated).
//! See `docs/rating.md`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Result};
use serde_json::json;
use xiangqi_adjudication::{Preset, RuleSet};

use xiangqi_rating::{fit, rated_game, FitOptions, Unrated};

use crate::collection::{
    conclude, for_each_game_of_files, report_game_problems, report_unreadable, Event,
};
use crate::common::print_json;
use crate::options::{JobsArg, LegacyEncoding, ReadArgs, INPUTS_HELP};

#[derive(clap::Args)]
pub struct Args {
    #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    #[command(flatten)]
    legacy: LegacyEncoding,
    #[command(flatten)]
    jobs: JobsArg,
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
    let collection = args.read.collection(&args.files, Some(&args.legacy))?;
    let mut rated = Vec::new();
    let mut unrated: BTreeMap<&'static str, usize> = BTreeMap::new();
    let summary = for_each_game_of_files(
        &collection,
        args.jobs.jobs,
        |_, item| {
            let problems = item
                .as_ref()
                .map(|g| g.errors.clone())
                .map_err(Clone::clone);
            (problems, item.ok().map(|game| rated_game(&game, &rules)))
        },
        |event| {
            match event {
                Event::Game((problems, answer)) => {
                    report_game_problems(&problems);
                    match answer {
                        Some(Ok(r)) => rated.push(r),
                        Some(Err(why)) => *unrated.entry(reason_code(&why)).or_default() += 1,
                        None => {}
                    }
                }
                Event::Unreadable(what) => report_unreadable(&what),
            }
            Ok(())
        },
    )?;
    let unreadable = summary.errors();
    if rated.is_empty() {
        conclude(&summary, &collection, " and were not rated")?;
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
    conclude(&summary, &collection, " and were not rated")
}
