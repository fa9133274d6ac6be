//! The net file format (little-endian throughout):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `XQNNUE\0\x01` |
//! | 8 | 2 | format version, u16 = 1 |
//! | 10 | 2 | inputs, u16 = 1260 |
//! | 12 | 2 | hidden size H, u16 |
//! | 14 | 1 | activation, u8 (1 = SCReLU) |
//! | 15 | 2 | QA, u16 = 255 |
//! | 17 | 2 | QB, u16 = 64 |
//! | 19 | 2 | SCALE, u16 = 400 |
//! | 21 | 1 | reserved, u8 = 0 |
//! | 22 | 4 | payload length in bytes, u32 |
//! | 26 | 8 | FNV-1a 64 hash of the payload, u64 |
//! | 34 | 2 | description length in bytes, u16 |
//! | 36 | n | description, UTF-8 |
//! | 36+n | payload | ft_weights i16\[1260·H\], ft_bias i16\[H\], out_weights i16\[2H\], out_bias i32 |

use std::path::Path;

use crate::features::INPUTS;
use crate::float::SCALE;
use crate::network::{check_hidden, Network, QA, QB};

/// The first eight bytes of every net file.
pub const MAGIC: [u8; 8] = *b"XQNNUE\0\x01";
/// The format version this crate reads and writes.
pub const FORMAT_VERSION: u16 = 1;
/// The activation code of SCReLU.
pub const ACTIVATION_SCRELU: u8 = 1;
/// Bytes before the description: the fixed header and the description's length.
pub const FIXED_HEADER_LEN: usize = 36;

/// What is wrong with a net file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetFileError {
    /// The file does not start with [`MAGIC`].
    #[error("not a xiangqi NNUE net file: it starts with {found:02x?}, not the magic \"XQNNUE\\0\\x01\"")]
    BadMagic {
        /// The first bytes found (up to eight).
        found: Vec<u8>,
    },
    /// A format version this build does not read.
    #[error("net file format version {found} is not supported (this build reads version {FORMAT_VERSION})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
    },
    /// The header describes a network this build cannot run.
    #[error("unsupported net architecture: {field} is {found}, expected {expected}")]
    UnsupportedArchitecture {
        /// The header field.
        field: &'static str,
        /// Its value in the file.
        found: u64,
        /// What this build accepts.
        expected: String,
    },
    /// The header's payload length does not match its hidden size.
    #[error(
        "the header says the payload is {found} bytes, but hidden size {hidden} needs {expected}"
    )]
    PayloadLength {
        /// The hidden size in the header.
        hidden: usize,
        /// The payload length that size needs.
        expected: usize,
        /// The payload length in the header.
        found: usize,
    },
    /// The file ends early.
    #[error("the net file is truncated: its {part} needs {needed} bytes from offset {offset}, only {available} remain")]
    Truncated {
        /// The part being read.
        part: &'static str,
        /// Where it starts.
        offset: usize,
        /// Bytes it needs.
        needed: usize,
        /// Bytes left in the file.
        available: usize,
    },
    /// The description is not UTF-8.
    #[error("the net file's description is not UTF-8 (bad byte at offset {offset})")]
    Description {
        /// Offset in the file of the first bad byte.
        offset: usize,
    },
    /// The payload's hash is not the one in the header: the file is damaged.
    #[error("the net file is damaged: the payload hash is {found:#018x}, the header expects {expected:#018x}")]
    HashMismatch {
        /// The hash in the header.
        expected: u64,
        /// The hash of the payload read.
        found: u64,
    },
    /// Bytes follow the payload.
    #[error("the net file has {count} unexpected bytes after the payload")]
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// The file could not be read.
    #[error("cannot read net file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's reason.
        message: String,
    },
}

/// FNV-1a, 64 bits: the payload's hash.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Payload bytes of a network with `hidden` neurons per accumulator.
pub const fn payload_len(hidden: usize) -> usize {
    2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// A net file's header fields other than those fixed by the architecture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFileInfo {
    /// Neurons per accumulator.
    pub hidden: usize,
    /// The payload's hash.
    pub hash: u64,
    /// Free text: how and when the net was trained.
    pub description: String,
}

/// Reads little-endian fields from a byte slice, naming the part it reads on a short read.
struct Reader<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, part: &'static str) -> Result<&'a [u8], NetFileError> {
        let available = self.bytes.len() - self.offset;
        if available < n {
            return Err(NetFileError::Truncated {
                part,
                offset: self.offset,
                needed: n,
                available,
            });
        }
        let slice = &self.bytes[self.offset..self.offset + n];
        self.offset += n;
        Ok(slice)
    }

    fn u8(&mut self, part: &'static str) -> Result<u8, NetFileError> {
        Ok(self.take(1, part)?[0])
    }

    fn u16(&mut self, part: &'static str) -> Result<u16, NetFileError> {
        let b = self.take(2, part)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self, part: &'static str) -> Result<u32, NetFileError> {
        let b = self.take(4, part)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, part: &'static str) -> Result<u64, NetFileError> {
        let b = self.take(8, part)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

fn expect_field(field: &'static str, found: u64, expected: u64) -> Result<(), NetFileError> {
    if found != expected {
        return Err(NetFileError::UnsupportedArchitecture {
            field,
            found,
            expected: expected.to_string(),
        });
    }
    Ok(())
}

/// Reads a net file's bytes: the network and its header's information.
pub fn read(bytes: &[u8]) -> Result<(Network, NetFileInfo), NetFileError> {
    let head = &bytes[..bytes.len().min(MAGIC.len())];
    if head != &MAGIC[..head.len()] || head.is_empty() {
        return Err(NetFileError::BadMagic {
            found: head.to_vec(),
        });
    }
    let mut r = Reader { bytes, offset: 0 };
    r.take(MAGIC.len(), "magic")?;
    let version = r.u16("format version")?;
    if version != FORMAT_VERSION {
        return Err(NetFileError::UnsupportedVersion { found: version });
    }
    let inputs = r.u16("header")?;
    let hidden = r.u16("header")?;
    let activation = r.u8("header")?;
    let qa = r.u16("header")?;
    let qb = r.u16("header")?;
    let scale = r.u16("header")?;
    let reserved = r.u8("header")?;
    let declared_len = r.u32("header")? as usize;
    let hash = r.u64("header")?;
    expect_field("inputs", inputs.into(), INPUTS as u64)?;
    let hidden = usize::from(hidden);
    if check_hidden(hidden).is_err() {
        return Err(NetFileError::UnsupportedArchitecture {
            field: "hidden size",
            found: hidden as u64,
            expected: format!(
                "a multiple of {} from {} to {}",
                crate::network::HIDDEN_STEP,
                crate::network::HIDDEN_STEP,
                crate::network::MAX_HIDDEN
            ),
        });
    }
    expect_field("activation", activation.into(), ACTIVATION_SCRELU.into())?;
    expect_field("QA", qa.into(), QA as u64)?;
    expect_field("QB", qb.into(), QB as u64)?;
    expect_field("SCALE", scale.into(), SCALE as u64)?;
    expect_field("reserved byte", reserved.into(), 0)?;
    let expected_len = payload_len(hidden);
    if declared_len != expected_len {
        return Err(NetFileError::PayloadLength {
            hidden,
            expected: expected_len,
            found: declared_len,
        });
    }
    let description_len = usize::from(r.u16("description length")?);
    let description_start = r.offset;
    let description = r.take(description_len, "description")?;
    let description = std::str::from_utf8(description)
        .map_err(|e| NetFileError::Description {
            offset: description_start + e.valid_up_to(),
        })?
        .to_owned();
    let payload = r.take(expected_len, "payload")?;
    let trailing = bytes.len() - r.offset;
    if trailing != 0 {
        return Err(NetFileError::TrailingBytes { count: trailing });
    }
    let found = fnv1a64(payload);
    if found != hash {
        return Err(NetFileError::HashMismatch {
            expected: hash,
            found,
        });
    }
    let network = decode_payload(hidden, payload);
    Ok((
        network,
        NetFileInfo {
            hidden,
            hash,
            description,
        },
    ))
}

/// The network in a payload whose length fits `hidden` (checked by [`read`]).
fn decode_payload(hidden: usize, payload: &[u8]) -> Network {
    let mut words = payload
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]));
    let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
    let ft_weights = take(INPUTS * hidden);
    let ft_bias = take(hidden);
    let out_weights = take(2 * hidden);
    let tail = &payload[payload.len() - 4..];
    let out_bias = i32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    Network::from_parts(hidden, ft_weights, ft_bias, out_weights, out_bias)
        .expect("a payload of the checked length holds a network of its hidden size")
}

/// The bytes of a net file holding `network`, with `description` (cut at a
/// character boundary to the 65 535 bytes its length field can say).
pub fn write(network: &Network, description: &str) -> Vec<u8> {
    let mut description = description;
    while description.len() > usize::from(u16::MAX) {
        let mut cut = usize::from(u16::MAX);
        while !description.is_char_boundary(cut) {
            cut -= 1;
        }
        description = &description[..cut];
    }
    let hidden = network.hidden();
    let mut payload = Vec::with_capacity(payload_len(hidden));
    for w in network
        .ft_weights()
        .iter()
        .chain(network.ft_bias())
        .chain(network.out_weights())
    {
        payload.extend_from_slice(&w.to_le_bytes());
    }
    payload.extend_from_slice(&network.out_bias().to_le_bytes());
    let mut out = Vec::with_capacity(FIXED_HEADER_LEN + description.len() + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(INPUTS as u16).to_le_bytes());
    out.extend_from_slice(&(hidden as u16).to_le_bytes());
    out.push(ACTIVATION_SCRELU);
    out.extend_from_slice(&(QA as u16).to_le_bytes());
    out.extend_from_slice(&(QB as u16).to_le_bytes());
    out.extend_from_slice(&(SCALE as u16).to_le_bytes());
    out.push(0);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
    out.extend_from_slice(&(description.len() as u16).to_le_bytes());
    out.extend_from_slice(description.as_bytes());
    out.extend_from_slice(&payload);
    out
}

/// Reads the net file at `path`.
pub fn load(path: &Path) -> Result<(Network, NetFileInfo), NetFileError> {
    let bytes = std::fs::read(path).map_err(|e| NetFileError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    read(&bytes)
}

impl Network {
    /// Reads a net file's bytes ([`read`] without the header's information).
    pub fn read(bytes: &[u8]) -> Result<Network, NetFileError> {
        read(bytes).map(|(network, _)| network)
    }

    /// The bytes of a net file holding this network ([`write`]).
    pub fn write(&self, description: &str) -> Vec<u8> {
        write(self, description)
    }

    /// Reads the net file at `path` ([`load`]).
    pub fn load(path: &Path) -> Result<Network, NetFileError> {
        load(path).map(|(network, _)| network)
    }
}
