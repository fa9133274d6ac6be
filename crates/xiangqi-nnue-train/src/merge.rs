//! Putting shards together: the whole games of each input, in the order
//! the inputs are given, in one file. Shards are made with different seeds
//! (one per machine or per task), so a merged file's game numbers restart
//! with each shard; its header keeps a setting the shards share and says 0
//! for one they do not.

use std::path::{Path, PathBuf};

use crate::data::{read_data_file, DataError, DataWriter, Header, Source, Tail};

/// One input of a merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedShard {
    /// The file.
    pub path: PathBuf,
    /// Whole games taken from it.
    pub games: usize,
    /// Their records.
    pub records: usize,
    /// What was left out at its end (an interrupted run's last game).
    pub tail: Tail,
}

/// Merges the whole games of `inputs` into a new file at `output`.
pub fn merge(output: &Path, inputs: &[PathBuf]) -> Result<Vec<MergedShard>, DataError> {
    let mut sets = Vec::with_capacity(inputs.len());
    for input in inputs {
        if same_file(input, output) {
            return Err(DataError::Io {
                path: output.to_path_buf(),
                action: "write the merge to an input",
                message: "the output is one of the inputs".to_string(),
            });
        }
        sets.push(read_data_file(input)?);
    }
    let header = merged_header(sets.iter().map(|s| &s.header));
    let mut writer = DataWriter::create(output, &header)?;
    let mut shards = Vec::with_capacity(sets.len());
    for (set, path) in sets.iter().zip(inputs) {
        writer.write_game(&set.records)?;
        shards.push(MergedShard {
            path: path.clone(),
            games: set.games(),
            records: set.records.len(),
            tail: set.tail,
        });
    }
    Ok(shards)
}

/// The header of a merged file: the shards' shared settings, 0 where they differ.
fn merged_header<'a>(mut headers: impl Iterator<Item = &'a Header>) -> Header {
    let Some(first) = headers.next() else {
        return Header {
            source: Source::Merged,
            seed: 0,
            nodes: 0,
            opening_plies: 0,
            balanced_cp: 0,
            max_plies: 0,
        };
    };
    let mut merged = Header {
        source: Source::Merged,
        seed: 0,
        ..*first
    };
    for h in headers {
        if h.nodes != merged.nodes {
            merged.nodes = 0;
        }
        if h.opening_plies != merged.opening_plies {
            merged.opening_plies = 0;
        }
        if h.balanced_cp != merged.balanced_cp {
            merged.balanced_cp = 0;
        }
        if h.max_plies != merged.max_plies {
            merged.max_plies = 0;
        }
    }
    merged
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
