//! A bounds-checked cursor over a binary file: every read names what it
//! reads, and running out of bytes is an error at that offset, never a panic.

use crate::error::ErrorKind;

/// An error of a binary read: the offset and the kind.
pub(crate) type ByteError = (u64, ErrorKind);

/// A cursor over `data`, whose first byte is at file offset `base`.
pub(crate) struct ByteCursor<'a> {
    data: &'a [u8],
    pos: usize,
    base: u64,
}

impl<'a> ByteCursor<'a> {
    pub(crate) fn new(data: &'a [u8], base: u64) -> ByteCursor<'a> {
        ByteCursor { data, pos: 0, base }
    }

    /// The file offset of the next byte.
    pub(crate) fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Bytes left.
    pub(crate) fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// The next `n` bytes, left unread; `None` when fewer are left.
    pub(crate) fn peek(&self, n: usize) -> Option<&'a [u8]> {
        self.data.get(self.pos..self.pos + n)
    }

    /// The next `n` bytes.
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], ByteError> {
        if n > self.remaining() {
            return Err((
                self.offset(),
                ErrorKind::Truncated {
                    what,
                    needed: (n - self.remaining()) as u64,
                },
            ));
        }
        let bytes = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// The next `N` bytes as an array.
    pub(crate) fn array<const N: usize>(
        &mut self,
        what: &'static str,
    ) -> Result<[u8; N], ByteError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, what)?);
        Ok(out)
    }

    /// A little-endian 32-bit signed integer.
    pub(crate) fn i32_le(&mut self, what: &'static str) -> Result<i32, ByteError> {
        Ok(i32::from_le_bytes(self.array(what)?))
    }
}

/// Text of a fixed-size UTF-16LE field, up to its first NUL character.
pub(crate) fn utf16_field(bytes: &[u8]) -> String {
    let units = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .take_while(|&u| u != 0);
    char::decode_utf16(units)
        .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect::<String>()
        .trim()
        .to_owned()
}
