//! `xiangqi nnue train DATA… -o NET`: a network trained on data files (see
//! `xiangqi_nnue_train::train`), written as a quantised net file.

use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;
use xiangqi_nnue_train::data::read_data_file;
use xiangqi_nnue_train::train::{train, write_network, CheckpointPlan, TrainConfig, TrainEvent};

use super::{bar, say, tail_note};
use crate::common::print_json;
use crate::options::JobsArg;

#[derive(clap::Args)]
pub struct Args {
    /// Data files of `xiangqi nnue gen` or `merge`, read in this order.
    #[arg(required = true, value_name = "DATA")]
    inputs: Vec<PathBuf>,
    /// The net file to write (xiangqi-nnue's format, quantised).
    #[arg(short, long, value_name = "NET")]
    output: PathBuf,
    /// Neurons per accumulator (a multiple of 16).
    #[arg(long, value_name = "H", default_value_t = TrainConfig::default().hidden)]
    hidden: usize,
    /// Passes over the training positions (in all, with a resumed run's).
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().epochs)]
    epochs: u32,
    /// Positions per Adam step.
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().batch_size)]
    batch_size: usize,
    /// Adam's step size in the first epoch.
    #[arg(long, value_name = "RATE", default_value_t = TrainConfig::default().learning_rate)]
    learning_rate: f32,
    /// The step size is multiplied by this after every epoch.
    #[arg(long, value_name = "FACTOR", default_value_t = TrainConfig::default().learning_rate_decay)]
    learning_rate_decay: f32,
    /// Weight of the search's score in the target, 0 to 1 (the game's result has the rest).
    #[arg(long, value_name = "W", default_value_t = TrainConfig::default().score_weight)]
    score_weight: f64,
    /// Hold out one game in N for validation (0: none).
    #[arg(long, value_name = "N", default_value_t = TrainConfig::default().validation_every)]
    validation_every: u32,
    /// Train on positions in check and on those whose best move captures too.
    #[arg(long)]
    keep_noisy: bool,
    /// Also train on each position mirrored left-right (file a becomes i; the
    /// rules are the same): twice the training positions from the same data.
    #[arg(long)]
    mirror: bool,
    /// Seed of the starting network and of each epoch's order.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Write the run's state here after every epoch.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Start from the --checkpoint file (same data and settings) and go on to --epochs.
    #[arg(long, requires = "checkpoint")]
    resume: bool,
    /// The net file's description (default: the run's settings and losses).
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
    #[command(flatten)]
    jobs: JobsArg,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let mut records = Vec::new();
    for input in &args.inputs {
        let data = read_data_file(input)?;
        if let Some(note) = tail_note(&data.tail) {
            eprintln!(
                "warning: {}: left out {note} (a stopped run)",
                input.display()
            );
        }
        records.extend(data.records);
    }
    let config = TrainConfig {
        hidden: args.hidden,
        epochs: args.epochs,
        batch_size: args.batch_size,
        learning_rate: args.learning_rate,
        learning_rate_decay: args.learning_rate_decay,
        score_weight: args.score_weight,
        validation_every: args.validation_every,
        skip_noisy: !args.keep_noisy,
        mirror: args.mirror,
        seed: args.seed,
        jobs: args.jobs.jobs,
    };
    let plan = CheckpointPlan {
        path: args.checkpoint.clone(),
        resume: args.resume,
    };
    let progress = bar(0, "batches");
    let report = train(&records, &config, &plan, |event| match event {
        TrainEvent::Samples {
            train,
            validation,
            skipped,
        } => say(
            &progress,
            format!(
                "{train} training positions, {validation} held out, {skipped} left out as noisy"
            ),
        ),
        TrainEvent::Batch {
            epoch,
            batch,
            batches,
        } => {
            progress.set_length(batches as u64);
            progress.set_position(batch as u64);
            progress.set_message(format!("epoch {epoch}/{}", config.epochs));
        }
        TrainEvent::Epoch(e) => say(
            &progress,
            format!(
                "epoch {}/{}: train loss {:.5}, validation loss {}, learning rate {:.6}, {:.1} s",
                e.epoch,
                config.epochs,
                e.train_loss,
                e.validation_loss
                    .map_or("-".to_string(), |v| format!("{v:.5}")),
                e.learning_rate,
                e.seconds
            ),
        ),
    })?;
    progress.finish_and_clear();
    let last = report.epochs.last();
    let description = args.description.clone().unwrap_or_else(|| {
        format!(
            "xiangqi nnue train: H={} epochs={} batch={} lr={} decay={} score-weight={}{} seed={}; {} positions{}",
            config.hidden,
            config.epochs,
            config.batch_size,
            config.learning_rate,
            config.learning_rate_decay,
            config.score_weight,
            if config.mirror { " mirrored" } else { "" },
            config.seed,
            report.train_samples,
            last.and_then(|e| e.validation_loss)
                .map_or(String::new(), |v| format!("; validation loss {v:.5}"))
        )
    });
    let clipped = write_network(&args.output, &report.network, &description)?;
    if clipped > 0 {
        eprintln!(
            "warning: {}: {clipped} weights lay outside the integer range and were saturated",
            args.output.display()
        );
    }
    if args.json {
        let epochs: Vec<_> = report
            .epochs
            .iter()
            .map(|e| {
                json!({
                    "epoch": e.epoch,
                    "train_loss": e.train_loss,
                    "validation_loss": e.validation_loss,
                    "learning_rate": e.learning_rate,
                    "seconds": e.seconds,
                })
            })
            .collect();
        return print_json(&json!({
            "file": args.output,
            "hidden": config.hidden,
            "train_positions": report.train_samples,
            "validation_positions": report.validation_samples,
            "skipped": report.skipped,
            "validation_constant_loss": report.validation_constant_loss,
            "epochs": epochs,
            "clipped": clipped,
            "description": description,
        }));
    }
    println!(
        "{}: H={}, {} training positions, validation loss {} (always ½: {})",
        args.output.display(),
        config.hidden,
        report.train_samples,
        last.and_then(|e| e.validation_loss)
            .map_or("-".to_string(), |v| format!("{v:.5}")),
        report
            .validation_constant_loss
            .map_or("-".to_string(), |v| format!("{v:.5}"))
    );
    Ok(())
}
