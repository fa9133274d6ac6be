//! The keys of encrypted XQF files (versions 1.1 and later), all computed
//! from header bytes 3-15 in byte arithmetic (wrapping).

/// The byte stream the move area is offset by (subtracted), masked by the keys.
const STREAM: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// The keys of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Keys {
    /// Subtracted from the pieces' squares; also rotates their order (1.2+).
    pub squares: u8,
    /// Subtracted from a move's origin square.
    pub from: u8,
    /// Subtracted from a move's destination square.
    pub to: u8,
    /// Subtracted from a comment's length.
    pub comment_len: u32,
    /// Subtracted from byte `i` of the move area: `stream[i % 32]`.
    pub stream: [u8; 32],
}

/// The cubic the keys are made with: `(54 b² + 221) · b`, mod 256.
fn scramble(byte: u8) -> u8 {
    let b = u32::from(byte);
    ((b * b * 54 + 221) & 0xFF) as u8
}

impl Keys {
    /// Version 1.0: nothing is encrypted.
    pub(super) fn plain() -> Keys {
        Keys {
            squares: 0,
            from: 0,
            to: 0,
            comment_len: 0,
            stream: [0; 32],
        }
    }

    /// The keys from header bytes 3-15 (`mask`, product id, four `or`
    /// bytes, sum, and the seeds of the square, origin and destination keys).
    pub(super) fn from_header(h: &[u8; 13]) -> Keys {
        let (mask, or, sum, seeds) = (h[0], [h[5], h[6], h[7], h[8]], h[9], [h[10], h[11], h[12]]);
        let squares = scramble(seeds[0]).wrapping_mul(seeds[0]);
        let from = scramble(seeds[1]).wrapping_mul(squares);
        let to = scramble(seeds[2]).wrapping_mul(from);
        let comment_len = ((u32::from(sum) * 256 + u32::from(seeds[0])) % 32000) + 767;
        let key_bytes = [
            (sum & mask) | or[0],
            (seeds[0] & mask) | or[1],
            (seeds[1] & mask) | or[2],
            (seeds[2] & mask) | or[3],
        ];
        let mut stream = *STREAM;
        for (i, b) in stream.iter_mut().enumerate() {
            *b &= key_bytes[i % 4];
        }
        Keys {
            squares,
            from,
            to,
            comment_len,
            stream,
        }
    }
}
