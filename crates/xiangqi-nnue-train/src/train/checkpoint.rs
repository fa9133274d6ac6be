//! A training run's state after an epoch, so a stopped run goes on where it
//! was: the float network, Adam's moments and the epochs done, with what
//! the run must share to resume it (hidden size, seed, sample counts).
//! Little-endian: magic `XQNNCKPT`, version u16, hidden u32, epochs done
//! u32, Adam steps u64, seed u64, training and validation samples u64
//! each, then f32 arrays: the network (feature weights, feature bias,
//! output weights, output bias), Adam's first moments, its second moments.

use std::path::{Path, PathBuf};

use xiangqi_nnue::FloatNetwork;

use super::adam::{parameter_count, Adam};

const MAGIC: [u8; 8] = *b"XQNNCKPT";
const VERSION: u16 = 1;
const HEADER: usize = 8 + 2 + 4 + 4 + 8 + 8 + 8 + 8;

/// A run's state after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The network so far.
    pub network: FloatNetwork,
    pub(crate) adam: Adam,
    /// Epochs done.
    pub epochs_done: u32,
    /// The run's seed.
    pub seed: u64,
    /// Training samples of the run.
    pub train_samples: u64,
    /// Validation samples of the run.
    pub validation_samples: u64,
}

/// Why a checkpoint cannot be read or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("{path}: cannot {action}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done.
        action: &'static str,
        /// The system's message.
        message: String,
    },
    /// Not a checkpoint of this version, or cut short.
    #[error("{path}: {problem}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl Checkpoint {
    /// The checkpoint's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let net = &self.network;
        let mut out = Vec::with_capacity(HEADER + 12 * parameter_count(net));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(net.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.adam.steps.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.train_samples.to_le_bytes());
        out.extend_from_slice(&self.validation_samples.to_le_bytes());
        let floats = net
            .ft_weights
            .iter()
            .chain(&net.ft_bias)
            .chain(&net.out_weights)
            .chain(std::iter::once(&net.out_bias))
            .chain(&self.adam.m)
            .chain(&self.adam.v);
        for x in floats {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads a checkpoint's bytes (`path` names it in errors).
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let problem = |problem: String| CheckpointError::Format {
            path: path.to_path_buf(),
            problem,
        };
        if bytes.len() < HEADER || bytes[..8] != MAGIC {
            return Err(problem("not a training checkpoint".to_string()));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(problem(format!(
                "checkpoint version {version} is not supported (this program reads {VERSION})"
            )));
        }
        let hidden = u32_at(10) as usize;
        let mut network = FloatNetwork::zeros(hidden);
        let n = parameter_count(&network);
        let expected = HEADER + 3 * n * 4;
        if bytes.len() != expected {
            return Err(problem(format!(
                "{} bytes where hidden size {hidden} needs {expected}",
                bytes.len()
            )));
        }
        let mut floats = bytes[HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut fill = |v: &mut [f32]| v.iter_mut().for_each(|x| *x = floats.next().unwrap_or(0.0));
        fill(&mut network.ft_weights);
        fill(&mut network.ft_bias);
        fill(&mut network.out_weights);
        fill(std::slice::from_mut(&mut network.out_bias));
        let mut adam = Adam::new(&network);
        fill(&mut adam.m);
        fill(&mut adam.v);
        adam.steps = u64_at(18);
        Ok(Checkpoint {
            network,
            adam,
            epochs_done: u32_at(14),
            seed: u64_at(26),
            train_samples: u64_at(34),
            validation_samples: u64_at(42),
        })
    }

    /// Writes the checkpoint to `path` (through a temporary file beside it,
    /// renamed, so a stop while writing keeps the previous one).
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let io = |action, e: std::io::Error| CheckpointError::Io {
            path: path.to_path_buf(),
            action,
            message: e.to_string(),
        };
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, self.to_bytes()).map_err(|e| io("write", e))?;
        std::fs::rename(&temporary, path).map_err(|e| io("rename into", e))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io {
            path: path.to_path_buf(),
            action: "read",
            message: e.to_string(),
        })?;
        Checkpoint::from_bytes(path, &bytes)
    }
}
