//! File names for writing one file per game of a collection, derived from
//! where each game came from and never the same twice.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

use super::CollectedFile;
use crate::Format;

/// Hands out one output path per game (relative, to join to an output
/// folder), each different from those handed out before.
#[derive(Debug, Default)]
pub struct UniqueNames {
    /// The paths handed out, in lower case: `a.xqf` and `A.XQF` are one
    /// file on a case-insensitive file system.
    taken: HashSet<String>,
}

impl UniqueNames {
    /// No name taken yet.
    pub fn new() -> UniqueNames {
        UniqueNames::default()
    }

    /// The path for game `game` (1-based) of `file`, read as `format`, with
    /// the extension `extension`: the file's name in the collection (its
    /// folders kept, but no root, `.` or `..`, so the path stays inside the
    /// output folder) without its extension; then `-N` for a game of a
    /// format that may hold several (`lib.CBL#12` gives `lib-12.xqf`,
    /// `sub/a.XQF` gives `sub/a.xqf`); then `~2`, `~3`, … when that path,
    /// compared without case, was handed out already.
    pub fn next(
        &mut self,
        file: &CollectedFile,
        format: Format,
        game: usize,
        extension: &str,
    ) -> PathBuf {
        let mut folders: Vec<&str> = Path::new(&file.name)
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => name.to_str(),
                _ => None,
            })
            .collect();
        let last = folders.pop().map(Path::new);
        let stem = last
            .and_then(Path::file_stem)
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty())
            .unwrap_or("game");
        let stem = if format.holds_many_games() {
            format!("{stem}-{game}")
        } else {
            stem.to_owned()
        };
        let mut copy = 1;
        loop {
            let name = match copy {
                1 => format!("{stem}.{extension}"),
                n => format!("{stem}~{n}.{extension}"),
            };
            let path: PathBuf = folders.iter().copied().chain([name.as_str()]).collect();
            if self.taken.insert(path.to_string_lossy().to_lowercase()) {
                return path;
            }
            copy += 1;
        }
    }
}
