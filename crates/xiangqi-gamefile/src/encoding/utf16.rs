//! UTF-16 input as a stream of UTF-8 bytes, so that the line source finds
//! line ends in it as in every other encoding (a UTF-16 line feed is two
//! bytes, and a byte 0x0A may be half of any character).

use std::io::{self, BufRead, Read};

use encoding_rs::{Decoder, DecoderResult};

use super::{read_through_buffer, TextEncoding};

/// Bytes decoded at a time.
const CHUNK: usize = 16 << 10;

/// `src`, UTF-16, read as UTF-8. A sequence that is not valid UTF-16 (an
/// unpaired surrogate, an odd byte at the end) becomes the byte 0xFF, which
/// is never valid UTF-8: the line decoder then replaces it and reports
/// the line, as for any other undecodable byte.
pub(crate) struct Utf16Source<R> {
    src: R,
    decoder: Decoder,
    out: Vec<u8>,
    pos: usize,
    ended: bool,
}

impl<R> Utf16Source<R> {
    /// `encoding` is UTF-16LE or UTF-16BE; a byte-order mark at the start
    /// is dropped.
    pub(crate) fn new(src: R, encoding: TextEncoding) -> Utf16Source<R> {
        Utf16Source {
            src,
            decoder: encoding.encoding_rs().new_decoder_with_bom_removal(),
            out: Vec::new(),
            pos: 0,
            ended: false,
        }
    }
}

impl<R: BufRead> Utf16Source<R> {
    /// Decodes the next chunk into `out` (empty at the end).
    fn refill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.pos = 0;
        while self.out.is_empty() && !self.ended {
            let input = self.src.fill_buf()?;
            let last = input.is_empty();
            let input = &input[..input.len().min(CHUNK)];
            let room = self
                .decoder
                .max_utf8_buffer_length_without_replacement(input.len())
                .unwrap_or(CHUNK * 3);
            let mut read = 0;
            self.out.resize(room, 0);
            let mut written = 0;
            loop {
                let (result, r, w) = self.decoder.decode_to_utf8_without_replacement(
                    &input[read..],
                    &mut self.out[written..],
                    last,
                );
                read += r;
                written += w;
                match result {
                    DecoderResult::Malformed(..) => {
                        self.out.insert(written, 0xFF);
                        written += 1;
                    }
                    DecoderResult::InputEmpty | DecoderResult::OutputFull => break,
                }
            }
            self.out.truncate(written);
            self.src.consume(read);
            self.ended = last;
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Utf16Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_through_buffer(self, buf)
    }
}

impl<R: BufRead> BufRead for Utf16Source<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.out.len() {
            self.refill()?;
        }
        Ok(&self.out[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8_of(bytes: &[u8], encoding: TextEncoding, buffer: usize) -> Vec<u8> {
        let src = io::BufReader::with_capacity(buffer, bytes);
        let mut out = Vec::new();
        Utf16Source::new(src, encoding)
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    #[test]
    fn utf16_reads_as_utf8_whatever_the_buffer() {
        let text = "[Red \"許銀川\"]\r\n1. 炮二平五 馬８進７\n";
        let le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for buffer in [1, 2, 3, 7, 64, 4096] {
            assert_eq!(utf8_of(&le, TextEncoding::Utf16Le, buffer), text.as_bytes());
            assert_eq!(utf8_of(&be, TextEncoding::Utf16Be, buffer), text.as_bytes());
        }
    }

    #[test]
    fn malformed_utf16_becomes_an_invalid_utf8_byte() {
        // "a", an unpaired high surrogate, "b", then an odd byte.
        let bytes = [0x61, 0x00, 0x00, 0xD8, 0x62, 0x00, 0x63];
        let out = utf8_of(&bytes, TextEncoding::Utf16Le, 64);
        assert_eq!(out, [b'a', 0xFF, b'b', 0xFF]);
    }
}
