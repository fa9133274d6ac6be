//! Splitting a text game file into byte ranges that start where a game
//! starts, so that separate processes (or machines) can each read one range
//! with [`Games::open_range`](crate::Games::open_range) (or many ranges with
//! [`ShardReader`](crate::ShardReader)) and together read
//! every game exactly once. Finding a boundary reads forward from an even
//! split point to the next game start; nothing else of the file is read.
//!
//! A game starts (PGN) at a tag-pair line (`[Name "…"]`) whose previous
//! non-blank line is no tag pair, or (WXF) at a `FORMAT` line whose previous
//! non-blank line holds `}END`. Binary and XML formats are one shard.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crate::error::{ErrorKind, GameFileError, Location};
use crate::games::read_head;
use crate::{Format, Game};

/// A byte range `start..end` of a game file holding whole games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// Offset of the first byte (a game start, or 0).
    pub start: u64,
    /// Offset one past the last byte (the next shard's start, or the file length).
    pub end: u64,
}

impl Shard {
    /// Bytes in the range.
    pub fn len(&self) -> u64 {
        self.end - self.start
    }

    /// Whether the range holds no byte (and so no game).
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// What comes before a range of a file: the games, line feeds and bytes
/// of the ranges ahead of it. The reader of a range counts games and lines
/// from the range's start; [`GameFileError::counted_from_file_start`] and
/// [`Game::counted_from_file_start`] turn its errors into what a reader of
/// the whole file reports.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeOrigin {
    /// Games in the file before the range.
    pub games: usize,
    /// Line feeds in the file before the range (ranges start at a line start).
    pub lines: usize,
    /// The range's first byte.
    pub byte: u64,
}

impl GameFileError {
    /// This error of a range's reader as the reader of the whole file
    /// reports it: game index, line and byte offset from the file's start.
    pub fn counted_from_file_start(mut self, origin: RangeOrigin) -> GameFileError {
        if self.game > 0 {
            self.game += origin.games;
        }
        match &mut self.location {
            Location::Text { line, .. } => *line += origin.lines,
            Location::Byte(offset) => *offset += origin.byte,
            Location::File => {}
        }
        self
    }
}

impl Game {
    /// This game of a range's reader with its errors
    /// ([`Game::errors`]) counted as the reader of the whole file counts
    /// them, as [`GameFileError::counted_from_file_start`] does.
    pub fn counted_from_file_start(mut self, origin: RangeOrigin) -> Game {
        self.errors = std::mem::take(&mut self.errors)
            .into_iter()
            .map(|e| e.counted_from_file_start(origin))
            .collect();
        self
    }
}

/// The line feeds in bytes `start..end` of the file at `path` (the line
/// count a range adds to the ranges after it).
pub fn count_lines(path: impl AsRef<Path>, start: u64, end: u64) -> Result<usize, GameFileError> {
    let path = path.as_ref();
    let with_file = |e: io::Error| {
        let mut e = GameFileError::new(0, Location::File, ErrorKind::Io(e.to_string()));
        e.file = Some(path.to_owned());
        e
    };
    let mut file = File::open(path).map_err(with_file)?;
    file.seek(SeekFrom::Start(start)).map_err(with_file)?;
    let mut range = file.take(end.saturating_sub(start));
    // On the stack: this runs once per range, many ranges at a time.
    let mut buf = [0u8; 16 << 10];
    let mut lines = 0;
    loop {
        let n = match range.read(&mut buf) {
            Ok(0) => return Ok(lines),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(with_file(e)),
        };
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count();
    }
}

/// Lines longer than this are not looked at for a game start (they are
/// skipped in pieces), so a boundary search never holds a huge line.
const MAX_LOOKED_AT_LINE: u64 = 4 << 10;

/// `n` (at least 1) contiguous shards of the file at `path`, covering it
/// from byte 0 to its end, each starting at a game start; shards may be
/// empty when `n` is larger than the number of games. `format` `None`
/// sniffs it.
pub fn shards(
    path: impl AsRef<Path>,
    format: Option<Format>,
    n: usize,
) -> Result<Vec<Shard>, GameFileError> {
    let path = path.as_ref();
    let with_file = |e: io::Error| {
        let mut e = GameFileError::new(0, Location::File, ErrorKind::Io(e.to_string()));
        e.file = Some(path.to_owned());
        e
    };
    let mut file = BufReader::new(File::open(path).map_err(with_file)?);
    let len = file.get_ref().metadata().map_err(with_file)?.len();
    let format = match format {
        Some(f) => f,
        None => Format::sniff_named(&read_head(&mut file).map_err(with_file)?, path),
    };
    let n = n.max(1);
    let starts_game: fn(&[u8], &[u8]) -> bool = match format {
        Format::Pgn => pgn_game_starts,
        Format::Wxf => wxf_game_starts,
        Format::Xqf | Format::Cbr | Format::Cbl | Format::Cbf => {
            let mut all = vec![Shard { start: 0, end: len }];
            all.resize(
                n,
                Shard {
                    start: len,
                    end: len,
                },
            );
            return Ok(all);
        }
    };
    let mut bounds = vec![0u64];
    for k in 1..n as u64 {
        let target = (u128::from(len) * u128::from(k) / n as u128) as u64;
        let from = target.max(*bounds.last().expect("not empty"));
        let bound = next_game_start(&mut file, from, len, starts_game).map_err(with_file)?;
        bounds.push(bound);
    }
    bounds.push(len);
    Ok(bounds
        .windows(2)
        .map(|w| Shard {
            start: w[0],
            end: w[1],
        })
        .collect())
}

/// The offset of the first game start at or after `from` whose line start
/// is known (the line `from` falls in is passed over), else `len`.
fn next_game_start(
    file: &mut BufReader<File>,
    from: u64,
    len: u64,
    starts_game: fn(&[u8], &[u8]) -> bool,
) -> io::Result<u64> {
    if from >= len {
        return Ok(len);
    }
    file.seek(SeekFrom::Start(from))?;
    let mut offset = from;
    // The rest of the line `from` falls in: its start is not known.
    offset += skip_line(file)?;
    let mut previous: Option<Vec<u8>> = None;
    let mut line = Vec::new();
    while offset < len {
        line.clear();
        let n = file
            .by_ref()
            .take(MAX_LOOKED_AT_LINE)
            .read_until(b'\n', &mut line)? as u64;
        if n == 0 {
            break;
        }
        let whole = line.ends_with(b"\n") || offset + n == len;
        let text = trim(&line);
        if whole && !text.is_empty() {
            if previous.as_deref().is_some_and(|p| starts_game(p, text)) {
                return Ok(offset);
            }
            previous = Some(text.to_vec());
        }
        offset += n;
        if !whole {
            offset += skip_line(file)?;
            // A line too long to look at: whatever it was, it is no tag pair.
            previous = Some(b"?".to_vec());
        }
    }
    Ok(len)
}

/// Consumes up to and including the next `\n`; the bytes consumed.
fn skip_line(file: &mut BufReader<File>) -> io::Result<u64> {
    let mut skipped = 0;
    loop {
        let buf = file.fill_buf()?;
        if buf.is_empty() {
            return Ok(skipped);
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                file.consume(i + 1);
                return Ok(skipped + i as u64 + 1);
            }
            None => {
                let n = buf.len();
                file.consume(n);
                skipped += n as u64;
            }
        }
    }
}

fn trim(line: &[u8]) -> &[u8] {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &line[start..end]
}

/// `[Name "…` (N-PGN tag pair): a name of letters, digits and `_`, then a quote.
fn is_tag_pair(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    name > 0
        && rest[name..]
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|&b| b == b'"')
}

fn pgn_game_starts(previous: &[u8], line: &[u8]) -> bool {
    is_tag_pair(line) && !is_tag_pair(previous)
}

fn wxf_game_starts(previous: &[u8], line: &[u8]) -> bool {
    let is_format = line.len() >= 6
        && line[..6].eq_ignore_ascii_case(b"FORMAT")
        && line.get(6).map_or(true, |b| b.is_ascii_whitespace());
    is_format && previous.windows(4).any(|w| w.eq_ignore_ascii_case(b"}END"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_pairs_and_game_starts() {
        assert!(is_tag_pair(b"[Event \"x\"]"));
        assert!(is_tag_pair(b"[Event\t\"\"]"));
        assert!(!is_tag_pair(b"[%eval 0.3]"));
        assert!(!is_tag_pair(b"[Event]"));
        assert!(pgn_game_starts(b"1. h2e2 *", b"[Event \"x\"]"));
        assert!(!pgn_game_starts(b"[Red \"A\"]", b"[Event \"x\"]"));
        assert!(wxf_game_starts(b"}END", b"FORMAT\tWXF"));
        assert!(!wxf_game_starts(b"START{", b"FORMAT WXF"));
        assert!(!wxf_game_starts(b"}END", b"FORMATTED"));
    }
}
