//! The decoded lines of a game file, one at a time in bounded memory: the
//! line source both game readers (PGN and WXF files) stand on. It finds line
//! ends, drops CR and byte-order marks, decodes UTF-8 or GB18030 line by line
//! ([`decode_line_into`]) and keeps no more than the line-length limit of a
//! line that is too long.

use std::io::{self, BufRead};

use super::scan::find_newline;
use super::{decode_line_into, TextEncoding};

/// Why a line could not be read; the reader names it in its own error type.
#[derive(Debug)]
pub(crate) enum LineError {
    /// The source failed (the reader stops).
    Io(io::Error),
    /// The file starts with a UTF-16 byte-order mark (the reader stops).
    Utf16,
    /// The line is longer than the limit; its text is lost, reading goes on.
    TooLong,
}

/// A line that could not be read: the line to report it at, and why.
#[derive(Debug)]
pub(crate) struct LineFailure {
    /// 1-based: the failing line (the one after the last read for an I/O
    /// error, line 1 for UTF-16 input).
    pub(crate) line: usize,
    pub(crate) error: LineError,
}

/// Lines of `src`, decoded into [`Lines::text`].
pub(crate) struct Lines<R> {
    src: R,
    max_line_len: usize,
    /// The raw bytes of the current line.
    buf: Vec<u8>,
    /// The current line, decoded (reused from line to line).
    text: String,
    line_no: usize,
    bytes_read: u64,
    at_start: bool,
    encoding: Option<TextEncoding>,
    /// Come back to the current line at this byte offset (see [`Lines::resume_at`]).
    resume: Option<usize>,
}

impl<R> Lines<R> {
    pub(crate) fn new(src: R, max_line_len: usize) -> Lines<R> {
        Lines {
            src,
            max_line_len,
            buf: Vec::with_capacity(256),
            text: String::with_capacity(256),
            line_no: 0,
            bytes_read: 0,
            at_start: true,
            encoding: None,
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

    /// The encoding of the non-ASCII text seen so far, if any.
    pub(crate) fn encoding(&self) -> Option<TextEncoding> {
        self.encoding
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
                    LineError::Utf16 => 1,
                    LineError::TooLong => self.line_no,
                };
                Some(Err(LineFailure { line, error }))
            }
        }
    }

    /// Makes the next line [`Lines::text`]; `None` at the end of the source.
    fn advance(&mut self) -> Option<Result<(), LineError>> {
        if !self.at_start && self.decode_buffered_line() {
            return Some(Ok(()));
        }
        let fits = match self.read_raw() {
            Err(e) => return Some(Err(LineError::Io(e))),
            Ok(None) => return None,
            Ok(Some(fits)) => fits,
        };
        let mut bytes: &[u8] = &self.buf;
        if self.at_start {
            self.at_start = false;
            if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
                self.encoding = Some(TextEncoding::Utf8);
            } else if bytes.starts_with(&[0x84, 0x31, 0x95, 0x33]) {
                bytes = &bytes[4..];
                self.encoding = Some(TextEncoding::Gb18030);
            } else if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
                return Some(Err(LineError::Utf16));
            }
        }
        if let Some(enc) = decode_line_into(bytes, &mut self.text) {
            self.encoding = Some(enc);
        }
        Some(if fits {
            Ok(())
        } else {
            Err(LineError::TooLong)
        })
    }

    /// The common case: the source's buffer holds the whole next line, which
    /// is decoded from there without a copy into `self.buf`. False (nothing
    /// read) otherwise, and for every case that needs care: an error, a line
    /// longer than the limit or one that goes on past the buffer.
    fn decode_buffered_line(&mut self) -> bool {
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
        if let Some(enc) = decode_line_into(line, &mut self.text) {
            self.encoding = Some(enc);
        }
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

    fn all_lines(bytes: &[u8], max: usize) -> Vec<Result<String, String>> {
        let mut lines = Lines::new(bytes, max);
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
        let text = b"\xEF\xBB\xBFa\r\n\r\nb\r\r\n\xC5\xDA\nlast";
        let got = all_lines(text, 100);
        let want: Vec<Result<String, String>> = ["a", "", "b", "炮", "last"]
            .into_iter()
            .map(|s| Ok(s.to_owned()))
            .collect();
        assert_eq!(got, want);
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

    #[test]
    fn utf16_is_refused_at_the_start() {
        assert_eq!(all_lines(b"\xFF\xFEa\x00", 100)[0], Err("Utf16".to_owned()));
    }
}
