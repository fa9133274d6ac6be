//! The 32-byte header of a data file: what it is, its record size and how
//! its games were made (the settings a resumed run must share).

use super::record::RECORD_SIZE;

/// The file's first eight bytes.
pub const MAGIC: [u8; 8] = *b"XQNNDATA";

/// The format version this code reads and writes.
pub const VERSION: u16 = 1;

/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;

/// Where a file's records come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Self-play games of one seed, game numbers from 0 in order: a run
    /// with the same settings may resume it.
    SelfPlay,
    /// Shards put together by `merge`: game numbers restart at each shard's
    /// records; no run resumes it.
    Merged,
    /// Recorded games (a collection of game files) relabelled by our
    /// search: a game's number is its place in the collection (games left
    /// out count), and the seed field holds the collection's fingerprint,
    /// so a run over the same collection may resume it.
    Relabelled,
}

impl Source {
    fn code(self) -> u8 {
        match self {
            Source::SelfPlay => 1,
            Source::Merged => 2,
            Source::Relabelled => 3,
        }
    }

    fn from_code(code: u8) -> Option<Source> {
        match code {
            1 => Some(Source::SelfPlay),
            2 => Some(Source::Merged),
            3 => Some(Source::Relabelled),
            _ => None,
        }
    }

    /// The name shown in messages and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Source::SelfPlay => "self-play",
            Source::Merged => "merged",
            Source::Relabelled => "relabelled",
        }
    }
}

/// The settings of the games a file holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Where the records come from.
    pub source: Source,
    /// The seed of the openings (0 in a merged file); in a relabelled file,
    /// the fingerprint of the game files read.
    pub seed: u64,
    /// Nodes searched per position (0 in a merged file of shards with
    /// different counts).
    pub nodes: u32,
    /// Random plies of each opening.
    pub opening_plies: u8,
    /// Openings are kept within this many centipawns.
    pub balanced_cp: u16,
    /// The ply cap of a game.
    pub max_plies: u16,
}

/// What is wrong with a header.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// Fewer than 32 bytes.
    #[error("{found} bytes, shorter than the {HEADER_SIZE}-byte header")]
    Truncated {
        /// The bytes there are.
        found: usize,
    },
    /// Not our magic.
    #[error("not an NNUE data file: the magic is {found:?}, not \"XQNNDATA\"")]
    BadMagic {
        /// The first eight bytes, as text where they are text.
        found: String,
    },
    /// A version this code does not read.
    #[error("format version {found} is not supported (this program reads version {VERSION})")]
    Version {
        /// The file's version.
        found: u16,
    },
    /// A record size this version does not have.
    #[error("record size {found} bytes, expected {RECORD_SIZE}")]
    RecordSize {
        /// The file's record size.
        found: u16,
    },
    /// An unknown source code.
    #[error("unknown source code {found} (1 self-play, 2 merged, 3 relabelled)")]
    Source {
        /// The code.
        found: u8,
    },
}

impl Header {
    /// The header's 32 bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut out = [0u8; HEADER_SIZE];
        out[..8].copy_from_slice(&MAGIC);
        out[8..10].copy_from_slice(&VERSION.to_le_bytes());
        out[10..12].copy_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
        out[12] = self.source.code();
        out[13] = self.opening_plies;
        out[14..16].copy_from_slice(&self.balanced_cp.to_le_bytes());
        out[16..20].copy_from_slice(&self.nodes.to_le_bytes());
        out[20..22].copy_from_slice(&self.max_plies.to_le_bytes());
        out[24..32].copy_from_slice(&self.seed.to_le_bytes());
        out
    }

    /// Reads the header at the start of `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<Header, HeaderError> {
        if bytes.len() < HEADER_SIZE {
            return Err(HeaderError::Truncated { found: bytes.len() });
        }
        if bytes[..8] != MAGIC {
            return Err(HeaderError::BadMagic {
                found: String::from_utf8_lossy(&bytes[..8])
                    .escape_debug()
                    .to_string(),
            });
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let version = u16_at(8);
        if version != VERSION {
            return Err(HeaderError::Version { found: version });
        }
        let record_size = u16_at(10);
        if usize::from(record_size) != RECORD_SIZE {
            return Err(HeaderError::RecordSize { found: record_size });
        }
        let source =
            Source::from_code(bytes[12]).ok_or(HeaderError::Source { found: bytes[12] })?;
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&bytes[24..32]);
        Ok(Header {
            source,
            seed: u64::from_le_bytes(seed),
            nodes: u32::from_le_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]),
            opening_plies: bytes[13],
            balanced_cp: u16_at(14),
            max_plies: u16_at(20),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_round_trips_and_bad_ones_are_named() {
        let header = Header {
            source: Source::SelfPlay,
            seed: 0xdead_beef_0123,
            nodes: 5_000,
            opening_plies: 8,
            balanced_cp: 150,
            max_plies: 600,
        };
        let bytes = header.to_bytes();
        assert_eq!(Header::from_bytes(&bytes), Ok(header));
        assert_eq!(
            Header::from_bytes(&bytes[..20]),
            Err(HeaderError::Truncated { found: 20 })
        );
        let mut other = bytes;
        other[..8].copy_from_slice(b"XQNNUE\0\x01");
        assert!(matches!(
            Header::from_bytes(&other),
            Err(HeaderError::BadMagic { .. })
        ));
        let mut newer = bytes;
        newer[8] = 2;
        assert_eq!(
            Header::from_bytes(&newer),
            Err(HeaderError::Version { found: 2 })
        );
        let mut wide = bytes;
        wide[10] = 64;
        assert_eq!(
            Header::from_bytes(&wide),
            Err(HeaderError::RecordSize { found: 64 })
        );
    }
}
