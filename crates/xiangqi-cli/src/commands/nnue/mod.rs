//! `xiangqi nnue gen|relabel|merge|train|check`: the NNUE evaluation's data and training,
//! composing `xiangqi-nnue-train` (docs/engine.md, "NNUE").

mod check;
mod generate;
mod merge;
mod relabel;
mod train;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Self-play positions scored by our search, appended to a data file (resumed when it exists).
    Gen(generate::Args),
    /// Recorded games (master games) scored by our search, appended to a data file (resumed when it exists).
    Relabel(relabel::Args),
    /// Put the whole games of several data files (shards of several seeds) in one file.
    Merge(merge::Args),
    /// Train a network on data files and write it as a net file.
    Train(train::Args),
    /// How well a net and the classical evaluation agree with the search's scores of held-out data.
    Check(check::Args),
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Gen(a) => generate::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Train(a) => train::run(a),
        Command::Relabel(a) => relabel::run(a),
        Command::Check(a) => check::run(a),
    }
}

/// A progress bar on stderr (drawn only when it is a terminal).
fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{what} {{pos}}/{{len}} [{{elapsed_precise}}] {{wide_bar}} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A line on stderr above the bar (also when no bar is drawn).
fn say(bar: &ProgressBar, line: String) {
    bar.suspend(|| eprintln!("{line}"));
}

/// The lines of a run that resumes `file`: a warning for what a stopped
/// run left cut at its end, then where it goes on from (`after`, e.g.
/// "after 12 games").
fn say_resumed(
    bar: &ProgressBar,
    file: &str,
    resumed: &xiangqi_nnue_train::data::Resumed,
    after: &str,
) {
    if let Some(note) = tail_note(&resumed.tail) {
        say(
            bar,
            format!("warning: {file}: cut {note} left by a stopped run"),
        );
    }
    say(
        bar,
        format!("{file}: resuming {after} ({} positions)", resumed.records),
    );
}

/// What the end of a data file lost, for a warning; `None` when nothing.
fn tail_note(tail: &xiangqi_nnue_train::data::Tail) -> Option<String> {
    let mut parts = Vec::new();
    if tail.partial_bytes > 0 {
        parts.push(format!("{} bytes of a partial record", tail.partial_bytes));
    }
    if tail.unfinished_records > 0 {
        parts.push(format!(
            "{} records of an unfinished game",
            tail.unfinished_records
        ));
    }
    (!parts.is_empty()).then(|| parts.join(" and "))
}
