//! Collections of game files: the paths a user names (files, directories,
//! glob patterns) expanded into one ordered list of game files. Every front
//! end that reads "these games" (the CLI's `game check` and `game convert`)
//! uses these rules:
//!
//! * A **file** (a path that is neither a directory nor a pattern) is
//!   always listed, whatever its name: its format is sniffed when it is
//!   opened. A path that does not exist is listed too, so that opening it
//!   reports the error in its place while the other files are read.
//! * A **directory** is walked recursively and yields the files whose
//!   extension names a format ([`Format::from_extension`]: `pgn`, `wxf`,
//!   `xqf`, `cbf`, `cbr`, `cbl`, in any case). Each is named by its path
//!   relative to the directory, with `/` between folders.
//! * A **pattern** (a path that does not exist and holds `*`, `?`, `[` or
//!   `{`) is matched against the files under its leading folders without
//!   those characters: `*` and `?` stay within one name, `**` crosses
//!   folders, `[a-z]` and `{pgn,xqf}` as in a shell; unlike a shell, `*`
//!   also matches names starting with a dot. Every file it matches is
//!   listed, whatever its extension (as a shell would pass them), named by
//!   its path as matched; folders it matches are not walked. The CLI
//!   expands patterns itself, so a quoted pattern works in every shell.
//!
//! Directories and patterns are walked by one walker in one order: the
//! names in a folder in byte order, a folder's files where its name sorts
//! (that is, the paths compared name by name). Symbolic links are followed;
//! a link back to a folder being walked is reported, never followed, so a
//! loop cannot hang the walk. A folder that cannot be read, or such a link,
//! is an entry of the list in its place ([`CollectionError::Unreadable`]):
//! a front end reports it and reads the rest. A directory or pattern that
//! yields nothing is an error naming it, before anything is read.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("xiangqi-collection-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(dir.join("b")).unwrap();
//! # for f in ["b/2.XQF", "a.pgn", "notes.txt"] { std::fs::write(dir.join(f), "").unwrap(); }
//! use xiangqi_gamefile::collection::collect;
//! use xiangqi_gamefile::Format;
//!
//! let files: Vec<_> = collect([&dir])?.into_iter().map(|f| f.unwrap().name).collect();
//! assert_eq!(files, ["a.pgn", "b/2.XQF"]);
//! let lib = collect([dir.join("a.pgn")])?.remove(0).unwrap();
//! assert_eq!(lib.game_name(Format::Pgn, 12), format!("{}#12", dir.join("a.pgn").display()));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), xiangqi_gamefile::collection::CollectionError>(())
//! ```

mod names;
mod walk;

use std::fs;
use std::path::{Path, PathBuf};

pub use names::UniqueNames;

use crate::Format;
use walk::{walk, Pattern};

/// One game file of a collection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectedFile {
    /// Where to open it: the path given, the directory joined with the
    /// path inside it, or the path a pattern matched.
    pub path: PathBuf,
    /// What it is called in the collection: its path relative to the
    /// directory it was found in (folders separated by `/`), or the path as
    /// given or matched.
    pub name: String,
}

impl CollectedFile {
    /// The name of game `game` (1-based) of this file, for a `Source` tag
    /// or a report: the file's name, followed by `#` and the game's number
    /// when the file's format may hold several games (`lib.CBL#12`,
    /// `games.pgn#1`; an XQF, CBR or CBF file is one game: `a.xqf`).
    pub fn game_name(&self, format: Format, game: usize) -> String {
        if format.holds_many_games() {
            format!("{}#{game}", self.name)
        } else {
            self.name.clone()
        }
    }
}

/// Why a collection, or one entry of it, could not be listed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CollectionError {
    /// A directory holds no file with a game-file extension.
    #[error("{}: no game file in this directory (none named *.pgn, *.wxf, *.xqf, *.cbf, *.cbr or *.cbl)", .0.display())]
    EmptyDirectory(PathBuf),
    /// A pattern matches no file.
    #[error("{0}: no file matches this pattern")]
    NoMatch(String),
    /// A pattern that is not a valid glob.
    #[error("{pattern}: not a valid pattern: {reason}")]
    BadPattern {
        /// The pattern as given.
        pattern: String,
        /// Why.
        reason: String,
    },
    /// A folder met in a walk could not be read, or is a link back to a
    /// folder being walked (not followed).
    #[error("{}: {reason}", path.display())]
    Unreadable {
        /// The folder or link.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// The game files of `inputs` (files, directories, patterns: see the
/// [module](self)), in the order of the inputs, each directory's or
/// pattern's files in walking order. The outer error is an input that
/// yields nothing (or a bad pattern); an inner one is a folder met in a
/// walk that could not be read, listed where it was met.
pub fn collect<P: AsRef<Path>>(
    inputs: impl IntoIterator<Item = P>,
) -> Result<Vec<Result<CollectedFile, CollectionError>>, CollectionError> {
    let mut files = Vec::new();
    for input in inputs {
        let input = input.as_ref();
        let before = files.len();
        if fs::metadata(input).is_ok_and(|m| m.is_dir()) {
            files.extend(walk(input, None).filter_map(|found| match found {
                Ok((path, relative)) => {
                    let named_as_game_file =
                        path.extension().and_then(Format::from_extension).is_some();
                    named_as_game_file.then(|| {
                        Ok(CollectedFile {
                            name: slash_separated(&relative),
                            path,
                        })
                    })
                }
                Err(e) => Some(Err(e)),
            }));
            if files.len() == before {
                return Err(CollectionError::EmptyDirectory(input.to_owned()));
            }
        } else if let Some(pattern) = Pattern::parse(input)? {
            files.extend(pattern.matches().map(|found| {
                found.map(|path| CollectedFile {
                    name: path.to_string_lossy().into_owned(),
                    path,
                })
            }));
            if files.len() == before {
                return Err(CollectionError::NoMatch(pattern.text));
            }
        } else {
            files.push(Ok(CollectedFile {
                path: input.to_owned(),
                name: input.to_string_lossy().into_owned(),
            }));
        }
    }
    Ok(files)
}

/// A relative path with `/` between its names, whatever the platform.
fn slash_separated(relative: &Path) -> String {
    let names: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    names.join("/")
}

#[cfg(test)]
mod tests;
