//! The trainer: our own, on the CPU. The network is `xiangqi-nnue`'s
//! [`FloatNetwork`] (sparse first layer, SCReLU, one output); the gradient
//! is written by hand ([`gradient`]) so that a sample touches only the
//! first-layer rows of its own pieces (about 32 of 1,260), which a general
//! dense framework would not exploit; Adam steps the parameters.
//!
//! The target of a position is a blend of two expected game scores of the
//! side to move: the search's score read through the fitted win-rate model
//! (`xiangqi_core::winrate`) at the position's ply, weighted by
//! [`TrainConfig::score_weight`], and the game's result (1, ½, 0). The
//! network's output is read through the same model, so the loss (squared
//! error of expected scores) is on the scale the engine's scores mean.
//! Every `validation_every`-th game is held out, whole; its loss is
//! reported after each epoch. Everything is seeded: the starting network,
//! each epoch's order. A batch is cut into fixed runs of samples whose
//! gradients are summed in order, so the result is the same for any
//! number of threads.

mod adam;
mod checkpoint;
mod gradient;
mod samples;

use std::path::{Path, PathBuf};
use std::time::Instant;

use xiangqi_core::SplitMix64;
use xiangqi_nnue::FloatNetwork;
use xiangqi_parallel::PoolError;
use xiangqi_search::wdl::WinRateModel;

pub use checkpoint::{Checkpoint, CheckpointError};

use adam::Adam;
use gradient::Gradient;
use samples::{Labelling, Samples};

use crate::data::Record;

/// Samples whose gradients one task sums (fixed, so threads change nothing).
const RUN: usize = 256;

/// How a network is trained.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Neurons per accumulator (H).
    pub hidden: usize,
    /// Passes over the training samples (in all, counting a resumed run's).
    pub epochs: u32,
    /// Samples per Adam step.
    pub batch_size: usize,
    /// Adam's step size in the first epoch.
    pub learning_rate: f32,
    /// The step size is multiplied by this after every epoch.
    pub learning_rate_decay: f32,
    /// Weight of the search's score in the target (0 to 1); the game's
    /// result has the rest.
    pub score_weight: f64,
    /// Every this many games, one is held out for validation (0: none).
    pub validation_every: u32,
    /// Leave out positions in check and those whose best move captures
    /// (the search's score there rests on the capture, not on the board).
    pub skip_noisy: bool,
    /// Also train on each position mirrored left-right (file a becomes i),
    /// which the rules leave unchanged: twice the training samples from the
    /// same data. Held-out positions are not mirrored.
    pub mirror: bool,
    /// Seed of the starting network and of the order of each epoch.
    pub seed: u64,
    /// Threads (0: one per core); the result does not depend on it.
    pub jobs: usize,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            hidden: 128,
            epochs: 8,
            batch_size: 4_096,
            learning_rate: 0.001,
            learning_rate_decay: 0.85,
            score_weight: 0.75,
            validation_every: 10,
            skip_noisy: true,
            mirror: false,
            seed: 1,
            jobs: 1,
        }
    }
}

/// One epoch's figures.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Mean training loss over the epoch's batches (as they were met).
    pub train_loss: f64,
    /// Mean loss on the held-out games after the epoch (`None` without them).
    pub validation_loss: Option<f64>,
    /// The step size used.
    pub learning_rate: f32,
    /// Wall time of the epoch, seconds.
    pub seconds: f64,
}

/// What the trainer reports as it goes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TrainEvent {
    /// The samples are ready.
    Samples {
        /// Training samples.
        train: usize,
        /// Held-out samples.
        validation: usize,
        /// Records left out (noisy).
        skipped: usize,
    },
    /// A batch is done.
    Batch {
        /// The epoch, from 1.
        epoch: u32,
        /// Batches done in it.
        batch: usize,
        /// Batches in it.
        batches: usize,
    },
    /// An epoch is done.
    Epoch(EpochReport),
}

/// A finished run.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainReport {
    /// The trained network.
    pub network: FloatNetwork,
    /// Training samples.
    pub train_samples: usize,
    /// Held-out samples.
    pub validation_samples: usize,
    /// Records left out as noisy.
    pub skipped: usize,
    /// Loss on the held-out samples of always answering ½, for comparison.
    pub validation_constant_loss: Option<f64>,
    /// Each epoch of this run (a resumed run's earlier epochs not included).
    pub epochs: Vec<EpochReport>,
}

/// Why training stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TrainError {
    /// Nothing to train on.
    #[error("no training positions: {records} records, {skipped} left out as noisy")]
    NoSamples {
        /// Records given.
        records: usize,
        /// Records left out.
        skipped: usize,
    },
    /// A setting out of range.
    #[error("{0}")]
    Setting(String),
    /// The checkpoint to resume from belongs to another run.
    #[error("{path}: the checkpoint is of another run: {problem}")]
    CheckpointMismatch {
        /// The checkpoint.
        path: PathBuf,
        /// What differs.
        problem: String,
    },
    /// A checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(CheckpointError),
    /// A worker thread failed.
    #[error("a training worker failed: {0}")]
    Pool(String),
}

impl From<PoolError> for TrainError {
    fn from(e: PoolError) -> TrainError {
        TrainError::Pool(e.to_string())
    }
}

impl From<CheckpointError> for TrainError {
    fn from(e: CheckpointError) -> TrainError {
        TrainError::Checkpoint(e)
    }
}

/// Where a run keeps its checkpoint, and whether it starts from it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckpointPlan {
    /// Written after every epoch when set.
    pub path: Option<PathBuf>,
    /// Resume from the checkpoint at `path` (which must exist).
    pub resume: bool,
}

fn check_config(config: &TrainConfig) -> Result<(), TrainError> {
    let bad = |message: String| Err(TrainError::Setting(message));
    if let Err(e) = xiangqi_nnue::check_hidden(config.hidden) {
        return bad(e.to_string());
    }
    if config.batch_size == 0 {
        return bad("the batch size must be at least 1".to_string());
    }
    if !(0.0..=1.0).contains(&config.score_weight) {
        return bad(format!(
            "the score weight must be between 0 and 1, not {}",
            config.score_weight
        ));
    }
    if !(config.learning_rate > 0.0 && config.learning_rate.is_finite()) {
        return bad(format!(
            "the learning rate must be above 0, not {}",
            config.learning_rate
        ));
    }
    Ok(())
}

/// Splits the records into training and validation samples.
fn split(
    records: &[Record],
    config: &TrainConfig,
    model: &WinRateModel,
) -> (Samples, Samples, usize) {
    let labelling = Labelling {
        score_weight: config.score_weight,
        skip_noisy: config.skip_noisy,
        mirror: false,
    };
    let training_labelling = Labelling {
        mirror: config.mirror,
        ..labelling
    };
    let (mut train, mut validation) = (Samples::new(), Samples::new());
    let mut skipped = 0;
    // Games counted in file order (a merged file restarts its numbers).
    let mut game = 0u32;
    for record in records {
        let held_out = config.validation_every > 0 && game % config.validation_every == 0;
        let added = if held_out {
            validation.push(record, &labelling, model)
        } else {
            train.push(record, &training_labelling, model)
        };
        if !added {
            skipped += 1;
        }
        if record.last_of_game {
            game += 1;
        }
    }
    (train, validation, skipped)
}

/// The seeded order of epoch `epoch` (from 1) over `n` samples.
fn epoch_order(seed: u64, epoch: u32, n: usize) -> Vec<u32> {
    let mut rng = SplitMix64::new(seed ^ u64::from(epoch).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut order: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    order
}

/// The summed gradient of `indices`, cut into fixed runs summed in order.
fn batch_gradient(
    net: &FloatNetwork,
    samples: &Samples,
    indices: &[u32],
    model: &WinRateModel,
    threads: usize,
) -> Result<Gradient, TrainError> {
    let runs = indices.chunks(RUN);
    let workers = vec![(); threads.clamp(1, runs.len().max(1))];
    let mut total = Gradient::zeros(net);
    xiangqi_parallel::ordered_map_with(
        workers,
        runs,
        |_, run| {
            let mut grad = Gradient::zeros(net);
            gradient::accumulate_gradient(net, samples, run, model, &mut grad);
            grad
        },
        |grad| -> Result<(), TrainError> {
            total.add(&grad);
            Ok(())
        },
    )?;
    Ok(total)
}

/// The mean loss over all of `samples`.
fn mean_loss(
    net: &FloatNetwork,
    samples: &Samples,
    model: &WinRateModel,
    threads: usize,
) -> Result<f64, TrainError> {
    let all: Vec<u32> = (0..samples.len() as u32).collect();
    let runs = all.chunks(RUN);
    let workers = vec![(); threads.clamp(1, runs.len().max(1))];
    let mut sum = 0.0;
    xiangqi_parallel::ordered_map_with(
        workers,
        runs,
        |_, run| gradient::loss(net, samples, run, model),
        |loss| -> Result<(), TrainError> {
            sum += loss;
            Ok(())
        },
    )?;
    Ok(sum / samples.len().max(1) as f64)
}

/// Trains a network on `records` (whole games in file order), reporting
/// through `progress`; with a checkpoint plan, writes the state after each
/// epoch and, when asked, starts from it.
pub fn train(
    records: &[Record],
    config: &TrainConfig,
    checkpoint: &CheckpointPlan,
    mut progress: impl FnMut(TrainEvent),
) -> Result<TrainReport, TrainError> {
    check_config(config)?;
    let model = WinRateModel::FITTED;
    let (train_set, validation_set, skipped) = split(records, config, &model);
    if train_set.len() == 0 {
        return Err(TrainError::NoSamples {
            records: records.len(),
            skipped,
        });
    }
    progress(TrainEvent::Samples {
        train: train_set.len(),
        validation: validation_set.len(),
        skipped,
    });
    let (mut net, mut adam, done) = start(config, checkpoint, &train_set, &validation_set)?;
    let threads = xiangqi_parallel::worker_count(config.jobs);
    let mut epochs = Vec::new();
    for epoch in done + 1..=config.epochs {
        let started = Instant::now();
        let learning_rate =
            config.learning_rate * config.learning_rate_decay.powi(epoch as i32 - 1);
        let order = epoch_order(config.seed, epoch, train_set.len());
        let batches = order.len().div_ceil(config.batch_size);
        let (mut loss_sum, mut counted) = (0.0, 0usize);
        for (b, batch) in order.chunks(config.batch_size).enumerate() {
            let grad = batch_gradient(&net, &train_set, batch, &model, threads)?;
            loss_sum += grad.loss;
            counted += grad.count;
            adam.step(&mut net, &grad, learning_rate);
            progress(TrainEvent::Batch {
                epoch,
                batch: b + 1,
                batches,
            });
        }
        let validation_loss = match validation_set.len() {
            0 => None,
            _ => Some(mean_loss(&net, &validation_set, &model, threads)?),
        };
        let report = EpochReport {
            epoch,
            train_loss: loss_sum / counted.max(1) as f64,
            validation_loss,
            learning_rate,
            seconds: started.elapsed().as_secs_f64(),
        };
        epochs.push(report);
        progress(TrainEvent::Epoch(report));
        if let Some(path) = &checkpoint.path {
            Checkpoint {
                network: net.clone(),
                adam: adam.clone(),
                epochs_done: epoch,
                seed: config.seed,
                train_samples: train_set.len() as u64,
                validation_samples: validation_set.len() as u64,
            }
            .save(path)?;
        }
    }
    Ok(TrainReport {
        network: net,
        train_samples: train_set.len(),
        validation_samples: validation_set.len(),
        skipped,
        validation_constant_loss: (validation_set.len() > 0)
            .then(|| validation_set.constant_loss()),
        epochs,
    })
}

/// The starting network, Adam state and epochs done: fresh, or the checkpoint's.
fn start(
    config: &TrainConfig,
    plan: &CheckpointPlan,
    train_set: &Samples,
    validation_set: &Samples,
) -> Result<(FloatNetwork, Adam, u32), TrainError> {
    let path = match (&plan.path, plan.resume) {
        (Some(path), true) => path,
        _ => {
            let net = FloatNetwork::random(config.hidden, config.seed);
            let adam = Adam::new(&net);
            return Ok((net, adam, 0));
        }
    };
    let saved = Checkpoint::load(path)?;
    let mismatch = |problem: String| TrainError::CheckpointMismatch {
        path: path.clone(),
        problem,
    };
    let checks = [
        (
            "hidden size",
            saved.network.hidden as u64,
            config.hidden as u64,
        ),
        ("seed", saved.seed, config.seed),
        (
            "training samples",
            saved.train_samples,
            train_set.len() as u64,
        ),
        (
            "validation samples",
            saved.validation_samples,
            validation_set.len() as u64,
        ),
    ];
    if let Some((what, theirs, ours)) = checks.iter().find(|(_, a, b)| a != b) {
        return Err(mismatch(format!("{what} {theirs}, this run {ours}")));
    }
    Ok((saved.network, saved.adam, saved.epochs_done))
}

/// Writes `network`, quantised, as a net file of `xiangqi-nnue` at `path`
/// with `description`; returns how many weights had to be saturated.
pub fn write_network(
    path: &Path,
    network: &FloatNetwork,
    description: &str,
) -> Result<usize, CheckpointError> {
    let (quantised, clipped) = network.quantise_counting_clipped();
    std::fs::write(path, quantised.write(description)).map_err(|e| CheckpointError::Io {
        path: path.to_path_buf(),
        action: "write",
        message: e.to_string(),
    })?;
    Ok(clipped)
}

#[cfg(test)]
mod tests;
