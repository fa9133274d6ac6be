//! The decoded lines of a game file, one at a time in bounded memory: the
//! line source both game readers (PGN and WXF files) stand on. Before the
//! first line it decides the file's encoding from a sample of its start
//! (unless one is forced), then finds line ends, drops CR and byte-order
//! marks, decodes every line in that one encoding ([`decode_file_line`],
//! UTF-16 through [`Utf16Source`]), says which lines held bytes it could not
//! decode, and keeps no more than the line-length limit of a line that is
//! too long.

use std::io::{self, BufRead, Read};

use super::decode_file_line;
use super::scan::find_newline;
use crate::encoding::{detect_with, read_sample, read_through_buffer, Hint, Utf16Source};

use crate::TextEncoding;

/// Why a line could not be read; the reader names it in its own error type.
#[derive(Debug)]
pub(crate) enum LineError {
    /// The source failed (the reader stops).
    Io(io::Error),
    /// The line is longer than the limit; its text is lost, reading goes on.
    TooLong,
}

/// A line that could not be read: the line to report it at, and why.
#[derive(Debug)]
pub(crate) struct LineFailure {
    /// 1-based: the failing line (the one after the last read for an I/O
    /// error).
    pub(crate) line: usize,
    pub(crate) error: LineError,
}

/// The sample read for the detection, then the rest of the source.
struct Sampled<R> {
    sample: Vec<u8>,
    /// Bytes of `sample` read on.
    pos: usize,
    rest: R,
}

impl<R: BufRead> Read for Sampled<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl<R: BufRead> BufRead for Sampled<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.sample.len() {
            return Ok(&self.sample[self.pos..]);
        }
        self.rest.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if self.pos < self.sample.len() {
            self.pos += amt;
            if self.pos >= self.sample.len() {
                // Read on: the memory goes back.
                self.sample = Vec::new();
                self.pos = 0;
            }
        } else {
            self.rest.consume(amt);
        }
    }
}

/// The bytes lines are found in; UTF-16 transcoded to UTF-8.
enum Source<R> {
    Bytes(Sampled<R>),
    Utf16(Utf16Source<Sampled<R>>),
    /// Only while one becomes the other.
    Moving,
}

impl<R: BufRead> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Bytes(src) => src.read(buf),
            Source::Utf16(src) => src.read(buf),
            Source::Moving => Ok(0),
        }
    }
}

impl<R: BufRead> BufRead for Source<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Source::Bytes(src) => src.fill_buf(),
            Source::Utf16(src) => src.fill_buf(),
            Source::Moving => Ok(&[]),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Source::Bytes(src) => src.consume(amt),
            Source::Utf16(src) => src.consume(amt),
            Source::Moving => {}
        }
    }
}

/// Lines of `src`, decoded into [`Lines::text`].
pub(crate) struct Lines<R> {
    src: Source<R>,
    max_line_len: usize,
    /// The raw bytes of the current line.
    buf: Vec<u8>,
    /// The current line, decoded (reused from line to line).
    text: String,
    line_no: usize,
    bytes_read: u64,
    at_start: bool,
    /// The file's encoding: forced, or decided before the first line.
    encoding: Option<TextEncoding>,
    /// Whether the current line held bytes not valid in the encoding.
    malformed: bool,
    /// Whether the encoding was detected (not forced): a line that is not
    /// valid UTF-8 in a UTF-8 file may then be read in a legacy encoding.
    detected: bool,
    /// Come back to the current line at this byte offset (see [`Lines::resume_at`]).
    resume: Option<usize>,
}

impl<R> Lines<R> {
    /// The lines of `src`, in `encoding`, or in the encoding detected from
    /// the start of `src` when `None`.
    pub(crate) fn new(src: R, max_line_len: usize, encoding: Option<TextEncoding>) -> Lines<R> {
        Lines {
            src: Source::Bytes(Sampled {
                sample: Vec::new(),
                pos: 0,
                rest: src,
            }),
            max_line_len,
            buf: Vec::with_capacity(256),
            text: String::with_capacity(256),
            line_no: 0,
            bytes_read: 0,
            at_start: true,
            encoding,
            malformed: false,
            detected: encoding.is_none(),
            resume: None,
        }
    }

    /// The current line, without its line end.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The number of the current line (1-based; 0 before the first).
    pub(crate) fn line_no(&self) -> usize {
        self.line_no
    }

    /// Bytes consumed so far (for progress reports).
    pub(crate) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The file's encoding: the forced one, or the one detected (`None`
    /// until the first line is read).
    pub(crate) fn encoding(&self) -> Option<TextEncoding> {
        self.encoding
    }

    /// The 1-based character column of the first replaced byte of the
    /// current line, when it held bytes not valid in the encoding.
    pub(crate) fn malformed_at(&self) -> Option<usize> {
        if !self.malformed {
            return None;
        }
        let at = self.text.find('\u{fffd}').unwrap_or(0);
        Some(self.text[..at].chars().count() + 1)
    }

    /// Makes the next [`Lines::next_text`] the rest of the current line from
    /// byte `offset`: a game ended, or the next one starts, inside it.
    pub(crate) fn resume_at(&mut self, offset: usize) {
        self.resume = Some(offset);
    }
}

impl<R: BufRead> Lines<R> {
    /// The next text to read: the rest of the current line after
    /// [`Lines::resume_at`], else the next line, as its number and the byte
    /// offset of its unread text in [`Lines::text`]; `None` at the end.
    pub(crate) fn next_text(&mut self) -> Option<Result<(usize, usize), LineFailure>> {
        if let Some(offset) = self.resume.take() {
            return Some(Ok((self.line_no, offset)));
        }
        match self.advance()? {
            Ok(()) => Some(Ok((self.line_no, 0))),
            Err(error) => {
                let line = match error {
                    LineError::Io(_) => self.line_no + 1,
                    LineError::TooLong => self.line_no,
                };
                Some(Err(LineFailure { line, error }))
            }
        }
    }

    /// Makes the next line [`Lines::text`]; `None` at the end of the source.
    fn advance(&mut self) -> Option<Result<(), LineError>> {
        if self.at_start {
            self.at_start = false;
            self.decide_encoding();
        } else if self.decode_buffered_line() {
            return Some(Ok(()));
        }
        let fits = match self.read_raw() {
            Err(e) => return Some(Err(LineError::Io(e))),
            Ok(None) => return None,
            Ok(Some(fits)) => fits,
        };
        let (encoding, fallback) = (self.line_encoding(), self.utf8_fallback());
        self.malformed = decode_file_line(&self.buf, encoding, fallback, &mut self.text);
        Some(if fits {
            Ok(())
        } else {
            Err(LineError::TooLong)
        })
    }

    /// Decides the file's encoding from a sample of its start, unless one is
    /// forced, and makes UTF-16 input a UTF-8 stream.
    fn decide_encoding(&mut self) {
        let Source::Bytes(src) = &mut self.src else {
            return;
        };
        let encoding = match self.encoding {
            Some(encoding) => encoding,
            None => {
                let complete = read_sample(&mut src.rest, &mut src.sample);
                *self
                    .encoding
                    .insert(detect_with(&src.sample, complete, Hint::Any))
            }
        };
        if !encoding.is_ascii_compatible() {
            if let Source::Bytes(src) = std::mem::replace(&mut self.src, Source::Moving) {
                self.src = Source::Utf16(Utf16Source::new(src, encoding));
            }
        }
    }

    /// The encoding each line is decoded in: the file's, or UTF-8 for
    /// UTF-16 input (transcoded before lines are found).
    fn line_encoding(&self) -> TextEncoding {
        match self.encoding {
            Some(encoding) if encoding.is_ascii_compatible() => encoding,
            _ => TextEncoding::Utf8,
        }
    }

    /// Whether a line that is not valid UTF-8 may be read in a legacy
    /// encoding: in a file detected (not forced) as UTF-8.
    fn utf8_fallback(&self) -> bool {
        self.detected && self.encoding == Some(TextEncoding::Utf8)
    }

    /// The common case: the source's buffer holds the whole next line, which
    /// is decoded from there without a copy into `self.buf`. False (nothing
    /// read) otherwise, and for every case that needs care: an error, a line
    /// longer than the limit or one that goes on past the buffer.
    fn decode_buffered_line(&mut self) -> bool {
        let fallback = self.utf8_fallback();
        let Ok(chunk) = self.src.fill_buf() else {
            return false;
        };
        let Some(end) = find_newline(chunk) else {
            return false;
        };
        if end > self.max_line_len {
            return false;
        }
        let mut line = &chunk[..end];
        while let [rest @ .., b'\r'] = line {
            line = rest;
        }
        let encoding = match self.encoding {
            Some(encoding) if encoding.is_ascii_compatible() => encoding,
            _ => TextEncoding::Utf8,
        };
        self.malformed = decode_file_line(line, encoding, fallback, &mut self.text);
        self.src.consume(end + 1);
        self.bytes_read += end as u64 + 1;
        self.line_no += 1;
        true
    }

    /// Reads one line into `self.buf` (without the line end), at most
    /// `max_line_len` bytes kept; `Ok(None)` at the end, `Ok(Some(false))`
    /// for a line that was too long (its rest is consumed).
    fn read_raw(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        let max = self.max_line_len;
        let mut too_long = false;
        let mut any = false;
        loop {
            let chunk = match self.src.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match find_newline(chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let room = max.saturating_sub(self.buf.len());
            if take > room.saturating_add(1) {
                too_long = true;
            }
            if !too_long {
                self.buf.extend_from_slice(&chunk[..take]);
            }
            self.src.consume(take);
            self.bytes_read += take as u64;
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line_no += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        }
        // Every CR before the line feed belongs to the line end: `\r\r\n`
        // (a file converted to CRLF twice) must not leave a CR in a comment,
        // which the writer could not give back (the writer ends lines with LF).
        while self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        if self.buf.len() > max {
            too_long = true;
        }
        Ok(Some(!too_long))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_lines_of(src: impl BufRead) -> Vec<Result<String, String>> {
        let mut lines = Lines::new(src, 100, None);
        let mut out = Vec::new();
        while let Some(r) = lines.advance() {
            let failed = r.is_err();
            out.push(
                r.map(|()| lines.text().to_owned())
                    .map_err(|e| format!("{e:?}")),
            );
            if failed {
                break;
            }
        }
        out
    }

    fn all_lines(bytes: &[u8], max: usize) -> Vec<Result<String, String>> {
        let mut lines = Lines::new(bytes, max, None);
        let mut out = Vec::new();
        while let Some(r) = lines.advance() {
            out.push(match r {
                Ok(()) => Ok(lines.text().to_owned()),
                Err(e) => Err(format!("{e:?}")),
            });
        }
        out
    }

    #[test]
    fn line_ends_bom_and_encodings() {
        let text = b"\xEF\xBB\xBFa\r\n\r\nb\r\r\n\xE7\x82\xAE\nlast";
        let got = all_lines(text, 100);
        let want: Vec<Result<String, String>> = ["a", "", "b", "炮", "last"]
            .into_iter()
            .map(|s| Ok(s.to_owned()))
            .collect();
        assert_eq!(got, want);
        let gbk = b"\x84\x31\x95\x33a\r\n\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5\n";
        let want = ["a", "炮二平五"].map(|s| Ok(s.to_owned()));
        assert_eq!(all_lines(gbk, 100), want);
    }

    /// One encoding for the whole file: a Big5 file is not read as GB18030
    /// line by line (every Big5 line is also a sequence of GB18030 bytes).
    #[test]
    fn the_encoding_is_decided_once_for_the_file() {
        let text = "[Red \"許銀川\"]\n1. 炮二平五  馬８進７\n2. 馬二進三 車９平８\n";
        let (big5, _, _) = encoding_rs::BIG5.encode(text);
        let mut lines = Lines::new(&big5[..], 100, None);
        let mut got = Vec::new();
        while let Some(Ok(())) = lines.advance() {
            assert_eq!(lines.malformed_at(), None);
            got.push(lines.text().to_owned());
        }
        assert_eq!(got.join("\n") + "\n", text);
        assert_eq!(lines.encoding(), Some(TextEncoding::Big5));
        // Forced: the same bytes as GB18030, mojibake but no failure.
        let mut lines = Lines::new(&big5[..], 100, Some(TextEncoding::Gb18030));
        assert!(matches!(lines.advance(), Some(Ok(()))));
        assert_ne!(lines.text(), "[Red \"許銀川\"]");
    }

    #[test]
    fn undecodable_lines_are_marked() {
        let mut lines = Lines::new(&b"ok\nbad \xFF\xFE!\n"[..], 100, Some(TextEncoding::Utf8));
        assert!(matches!(lines.advance(), Some(Ok(()))));
        assert_eq!(lines.malformed_at(), None);
        assert!(matches!(lines.advance(), Some(Ok(()))));
        assert_eq!(lines.malformed_at(), Some(5));
    }

    /// Lines split across the source's buffer take the copying path, whole
    /// ones the direct one: both read the same lines.
    #[test]
    fn small_and_large_buffers_read_the_same_lines() {
        let text = "[Event \"x\"]\r\n1. h2e2 h9g7\n\n2. 炮二平五\r\r\nend";
        let want = all_lines(text.as_bytes(), 1000);
        for capacity in 1..text.len() + 2 {
            let mut lines = Lines::new(
                std::io::BufReader::with_capacity(capacity, text.as_bytes()),
                1000,
                None,
            );
            let mut got = Vec::new();
            while let Some(r) = lines.advance() {
                got.push(
                    r.map(|()| lines.text().to_owned())
                        .map_err(|e| format!("{e:?}")),
                );
            }
            assert_eq!(got, want, "buffer of {capacity}");
            assert_eq!(lines.bytes_read(), text.len() as u64);
            assert_eq!(lines.line_no(), 5);
        }
    }

    #[test]
    fn long_lines_are_reported_and_skipped() {
        let got = all_lines(b"12345\n123456\n12\n", 5);
        assert_eq!(got[0], Ok("12345".to_owned()));
        assert_eq!(got[1], Err("TooLong".to_owned()));
        assert_eq!(got[2], Ok("12".to_owned()));
    }

    /// A source that fails after its first bytes: the detection samples
    /// what it got, and the failure comes after the lines before it.
    #[test]
    fn a_failure_while_sampling_comes_in_its_place() {
        struct FailsLater(bool);
        impl io::Read for FailsLater {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if std::mem::replace(&mut self.0, true) {
                    return Err(io::Error::other("disk on fire"));
                }
                buf[..6].copy_from_slice(b"a\nb\nc\n");
                Ok(6)
            }
        }
        let got = all_lines_of(io::BufReader::new(FailsLater(false)));
        assert_eq!(got[..3], ["a", "b", "c"].map(|s| Ok(s.to_owned())));
        assert!(
            matches!(&got[3], Err(e) if e.contains("disk on fire")),
            "{got:?}"
        );
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_read() {
        let text = "[Red \"許\"]\r\n1. 炮二平五\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let got = all_lines(&le, 100);
        assert_eq!(
            got,
            ["[Red \"許\"]", "1. 炮二平五"].map(|s| Ok(s.to_owned()))
        );
    }
}
