//! # xiangqi-nnue-train
//!
//! The data and the training of the NNUE evaluation (`xiangqi-nnue`):
//! seeded self-play scored by our search at a fixed node count
//! ([`generate()`]), and recorded games relabelled by the same search
//! ([`relabel()`]), written as fixed-size records that a stopped run
//! resumes ([`data`]); shards of several seeds put together ([`merge()`]);
//! our own CPU trainer of `xiangqi-nnue`'s network on that data
//! ([`train`]). The CLI's `xiangqi nnue` commands compose it. File layouts,
//! commands and measurements are in `docs/engine.md`.
//!
//! ```
//! use xiangqi_nnue_train::{data::read_data_file, generate, GenConfig};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("selfplay.bin");
//! let config = GenConfig { games: 1, nodes: 200, max_plies: 12, jobs: 1, ..GenConfig::default() };
//! let report = generate(&path, &config, |_| {}).unwrap();
//! assert_eq!(report.games, 1);
//! let data = read_data_file(&path).unwrap();
//! assert_eq!(data.records.len() as u64, report.positions);
//! assert!(data.records.last().unwrap().last_of_game);
//! ```
#![warn(missing_docs)]

pub mod check;
pub mod data;
mod generate;
mod merge;
mod relabel;
pub mod train;

pub use generate::{game_seed, generate, GenConfig, GenError, GenEvent, GenProgress, GenReport};
pub use merge::{merge, MergedShard};
pub use relabel::{
    collection_fingerprint, relabel, relabel_game, relabel_header, LeftOut, RelabelConfig,
    RelabelError, RelabelEvent, RelabelReport,
};
