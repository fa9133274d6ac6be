//! The games of a file with their 1-based index, for reading on one thread.

use std::io;
use std::path::Path;

use super::{Counts, FileRead};
use crate::{Format, Game, GameFileError, Games, ReaderOptions, TextEncoding};

/// The games of a file with their 1-based index. A failed read ends the
/// games and is kept for [`IndexedGames::finish`].
pub struct IndexedGames {
    games: Games,
    index: usize,
    errors: usize,
    read_failure: Option<GameFileError>,
}

impl IndexedGames {
    /// Opens `path` (`-`: standard input).
    pub fn open(path: &Path, format: Option<Format>) -> Result<IndexedGames, GameFileError> {
        IndexedGames::open_with(path, format, ReaderOptions::default())
    }

    /// [`IndexedGames::open`] with reader options (a forced encoding, limits).
    pub fn open_with(
        path: &Path,
        format: Option<Format>,
        options: ReaderOptions,
    ) -> Result<IndexedGames, GameFileError> {
        let games = if path.as_os_str() == "-" {
            Games::from_reader(io::stdin(), format, options)?
        } else {
            Games::open_with(path, format, options)?
        };
        Ok(IndexedGames {
            games,
            index: 0,
            errors: 0,
            read_failure: None,
        })
    }

    /// The format read.
    pub fn format(&self) -> Format {
        self.games.format()
    }

    /// The encoding of the file's text ([`Games::encoding`]).
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.games.encoding()
    }

    /// Bytes of the file read so far.
    pub fn bytes_read(&self) -> u64 {
        self.games.bytes_read()
    }

    /// The games counted, the failure that ended them early, and what the
    /// file holds besides its games (a library's unlisted records).
    pub fn finish(self) -> FileRead {
        FileRead {
            counts: Counts {
                games: self.index,
                errors: self.errors,
            },
            warnings: self.games.library_warnings(),
            failure: self.read_failure,
        }
    }
}

impl Iterator for IndexedGames {
    type Item = (usize, Result<Game, GameFileError>);

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.games.next()?;
        match item {
            Err(e) if e.is_io() => {
                self.read_failure = Some(e);
                return None;
            }
            Err(_) => self.errors += 1,
            Ok(_) => {}
        }
        self.index += 1;
        Some((self.index, item))
    }
}
