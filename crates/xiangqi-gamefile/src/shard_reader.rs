//! Reading many shards of one file, as the workers of a corpus command do.
//! The file is opened and its format sniffed once, and the encoding of a
//! text file decided once, from the file's start, so that every shard is
//! read in the same encoding (a shard far into the file may hold no
//! Chinese at all, or start where the detector would guess otherwise); a
//! shard is then one seek
//! and one read into memory, where opening each shard by path would open,
//! sniff and buffer the file again every time (a 64 KiB shard holds a few
//! dozen games, so that overhead is felt).

use std::fs::File;
use std::io::{self, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use crate::encoding::{detect_with, read_sample, Hint};
use crate::error::{ErrorKind, GameFileError, Location};
use crate::games::read_head;
use crate::shards::count_lines;
use crate::{Format, Games, ReaderOptions, Shard, TextEncoding};

/// Shards up to this size are read into memory whole; a bigger one is
/// read as a stream, so memory stays bounded whatever the shard.
const IN_MEMORY_MAX: u64 = 4 << 20;

/// One file opened for reading its shards ([`shards`](crate::shards)), any
/// number of them, in any order.
pub struct ShardReader {
    path: PathBuf,
    file: File,
    format: Format,
    options: ReaderOptions,
}

/// The games of one shard, and the line feeds it holds (what its lines add
/// to the line numbers of the shards after it, see
/// [`RangeOrigin`](crate::RangeOrigin)).
pub struct ShardGames {
    /// The shard's games; errors count games and lines from its start.
    pub games: Games,
    /// Line feeds in the shard.
    pub line_feeds: usize,
}

impl ShardReader {
    /// Opens the file at `path`; `format` `None` sniffs it from its start.
    pub fn open(
        path: impl AsRef<Path>,
        format: Option<Format>,
    ) -> Result<ShardReader, GameFileError> {
        ShardReader::open_with(path, format, ReaderOptions::default())
    }

    /// [`ShardReader::open`] with reader options (limits, strictness).
    pub fn open_with(
        path: impl AsRef<Path>,
        format: Option<Format>,
        options: ReaderOptions,
    ) -> Result<ShardReader, GameFileError> {
        let path = path.as_ref().to_owned();
        let with_file = |e: io::Error| file_error(&path, &e);
        let mut file = File::open(&path).map_err(with_file)?;
        let format = match format {
            Some(f) => f,
            None => Format::sniff_named(
                &read_head(&mut BufReader::new(&mut file)).map_err(with_file)?,
                &path,
            ),
        };
        let mut options = options;
        if options.encoding.is_none() && format.is_text() {
            file.seek(SeekFrom::Start(0)).map_err(with_file)?;
            let mut sample = Vec::new();
            let complete = read_sample(&mut BufReader::new(&mut file), &mut sample);
            options.encoding = Some(detect_with(&sample, complete, Hint::Any));
        }
        Ok(ShardReader {
            path,
            file,
            format,
            options,
        })
    }

    /// The format the shards are read in.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding every shard of a PGN or WXF file is read in: forced,
    /// or detected once from the file's start. `None` for the other
    /// formats (their own readers decide, as [`Games::encoding`] says).
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.options.encoding
    }

    /// The games of bytes `shard.start..shard.end` (a shard from
    /// [`shards`](crate::shards), or any range starting at a game start).
    /// A binary or XML file is one game (or library): the shard starting at
    /// 0 reads it whole, any other holds no game.
    pub fn read(&mut self, shard: Shard) -> Result<ShardGames, GameFileError> {
        let with_file = |e: io::Error| file_error(&self.path, &e);
        let start = shard.start;
        let len = if self.format.is_binary() || self.format == Format::Cbf {
            if start == 0 {
                u64::MAX
            } else {
                0
            }
        } else {
            shard.end.saturating_sub(start)
        };
        let options = self.options;
        let (games, line_feeds) = if len <= IN_MEMORY_MAX {
            let bytes = read_at(&self.file, start, len as usize).map_err(with_file)?;
            let line_feeds = memchr::memchr_iter(b'\n', &bytes).count();
            let games = Games::from_source(Box::new(Cursor::new(bytes)), self.format, options);
            (games, line_feeds)
        } else {
            // Its own handle: the stream outlives this call.
            let mut file = File::open(&self.path).map_err(with_file)?;
            file.seek(SeekFrom::Start(start)).map_err(with_file)?;
            let games = Games::with_buffer(file.take(len), 1 << 18, Some(self.format), options);
            let line_feeds = count_lines(&self.path, start, shard.end)?;
            (games, line_feeds)
        };
        let mut games = games.map_err(|mut e| {
            e.file = Some(self.path.clone());
            e
        })?;
        if len == 0 {
            games.hold_nothing();
        }
        let file_len = self.file.metadata().map_err(with_file)?.len();
        if shard.end < file_len {
            games.not_the_end_of_the_file();
        }
        games.set_file(&self.path);
        Ok(ShardGames { games, line_feeds })
    }
}

/// Up to `len` bytes of `file` from `offset` (fewer at its end), in one
/// read where the system allows.
fn read_at(file: &File, offset: u64, len: usize) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0; len];
    let mut filled = 0;
    while filled < len {
        match read_at_once(file, &mut bytes[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

#[cfg(unix)]
fn read_at_once(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at_once(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(not(any(unix, windows)))]
fn read_at_once(mut file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    file.seek(SeekFrom::Start(offset))?;
    file.read(buf)
}

fn file_error(path: &Path, e: &io::Error) -> GameFileError {
    let mut error = GameFileError::new(0, Location::File, ErrorKind::Io(e.to_string()));
    error.file = Some(path.to_owned());
    error
}
