//! The text encoding of a game file, decided once per file: a byte-order
//! mark when there is one, else `chardetng` (the detector Firefox uses for
//! legacy CJK pages) over the start of the file, with the answer kept to the
//! encodings Chinese game files are written in ([`TextEncoding`]). Every
//! format that stores legacy-encoded text reads through here: PGN and WXF
//! files (the whole file's start), XQF's names and comments (all of them
//! together). A forced encoding (`ReaderOptions::encoding`) skips the
//! detection. See docs/gamefile.md, "Encodings".

mod detect;
mod utf16;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

pub use detect::detect;
pub(crate) use detect::{detect_with, read_sample, Hint};
pub(crate) use utf16::Utf16Source;

/// The text encoding of a game file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextEncoding {
    /// UTF-8, with or without a byte-order mark.
    Utf8,
    /// UTF-16, little-endian (known by its byte-order mark, or forced).
    Utf16Le,
    /// UTF-16, big-endian (known by its byte-order mark, or forced).
    Utf16Be,
    /// GB18030, the superset of GBK and GB2312 (simplified Chinese, the
    /// mainland's PC programs).
    Gb18030,
    /// Big5 (traditional Chinese: Taiwan and Hong Kong programs), with the
    /// HKSCS extensions as the WHATWG standard decodes it.
    Big5,
}

/// A name that is no encoding a game file is read or written in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown encoding {0:?}: expected utf-8, utf-16le, utf-16be, gb18030 (also gbk, gb2312) or big5"
)]
pub struct UnknownEncoding(pub String);

/// A character that the encoding a file is written in cannot hold.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{character:?} (U+{code:04X}) cannot be written in {encoding}", code = u32::from(*character))]
pub struct Unencodable {
    /// The encoding written.
    pub encoding: TextEncoding,
    /// The first character it cannot hold.
    pub character: char,
}

impl TextEncoding {
    /// Every encoding, in the order of their names in help texts.
    pub const ALL: [TextEncoding; 5] = [
        TextEncoding::Utf8,
        TextEncoding::Utf16Le,
        TextEncoding::Utf16Be,
        TextEncoding::Gb18030,
        TextEncoding::Big5,
    ];

    /// The encoding's name (as `--encoding` and `game check --json` write it).
    pub const fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::Utf16Le => "UTF-16LE",
            TextEncoding::Utf16Be => "UTF-16BE",
            TextEncoding::Gb18030 => "GB18030",
            TextEncoding::Big5 => "Big5",
        }
    }

    /// `encoding_rs`'s encoding.
    pub(crate) fn encoding_rs(self) -> &'static encoding_rs::Encoding {
        match self {
            TextEncoding::Utf8 => encoding_rs::UTF_8,
            TextEncoding::Utf16Le => encoding_rs::UTF_16LE,
            TextEncoding::Utf16Be => encoding_rs::UTF_16BE,
            TextEncoding::Gb18030 => encoding_rs::GB18030,
            TextEncoding::Big5 => encoding_rs::BIG5,
        }
    }

    /// Whether ASCII bytes stand for themselves (every encoding but UTF-16),
    /// so that lines can be found before decoding.
    pub(crate) fn is_ascii_compatible(self) -> bool {
        !matches!(self, TextEncoding::Utf16Le | TextEncoding::Utf16Be)
    }

    /// Decodes `bytes` (a field, a comment, a line), without byte-order-mark
    /// handling: a sequence that is not valid in this encoding becomes
    /// U+FFFD, and the second value says whether there was one.
    pub fn decode(self, bytes: &[u8]) -> (Cow<'_, str>, bool) {
        if self == TextEncoding::Utf8 {
            return match simdutf8::basic::from_utf8(bytes) {
                Ok(text) => (Cow::Borrowed(text), false),
                Err(_) => (String::from_utf8_lossy(bytes), true),
            };
        }
        self.encoding_rs().decode_without_bom_handling(bytes)
    }

    /// `text` in this encoding, for writing a file; the first character it
    /// cannot hold is an error (Big5 holds no simplified-only character:
    /// `马`, `车`, `进`, …; GB18030 and UTF-8/16 hold every character).
    pub fn encode(self, text: &str) -> Result<Cow<'_, [u8]>, Unencodable> {
        match self {
            TextEncoding::Utf8 => Ok(Cow::Borrowed(text.as_bytes())),
            // encoding_rs encodes into UTF-8 for the UTF-16 encodings (the
            // WHATWG rule), so they are written here.
            TextEncoding::Utf16Le => Ok(Cow::Owned(
                text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            )),
            TextEncoding::Utf16Be => Ok(Cow::Owned(
                text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
            )),
            TextEncoding::Gb18030 | TextEncoding::Big5 => {
                let (bytes, _, unmappable) = self.encoding_rs().encode(text);
                if !unmappable {
                    return Ok(bytes);
                }
                let character = text
                    .chars()
                    .find(|c| {
                        let mut buf = [0; 4];
                        self.encoding_rs().encode(c.encode_utf8(&mut buf)).2
                    })
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                Err(Unencodable {
                    encoding: self,
                    character,
                })
            }
        }
    }
}

impl fmt::Display for TextEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TextEncoding {
    type Err = UnknownEncoding;

    /// The name in any case, with or without `-`/`_`: `utf-8`, `utf8`,
    /// `utf-16le`, `utf-16be`, `gb18030`, `gbk`, `gb2312`, `cp936`, `big5`,
    /// `cp950`. GBK and GB2312 are read as GB18030, their superset.
    fn from_str(name: &str) -> Result<TextEncoding, UnknownEncoding> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect();
        Ok(match key.as_str() {
            "utf8" => TextEncoding::Utf8,
            "utf16le" => TextEncoding::Utf16Le,
            "utf16be" => TextEncoding::Utf16Be,
            "gb18030" | "gbk" | "gb2312" | "cp936" => TextEncoding::Gb18030,
            "big5" | "cp950" | "big5hkscs" => TextEncoding::Big5,
            _ => return Err(UnknownEncoding(name.to_owned())),
        })
    }
}

/// `Read::read` for a reader whose own buffer holds the bytes (`BufRead`):
/// what `fill_buf` offers, copied and consumed.
pub(crate) fn read_through_buffer(
    reader: &mut impl std::io::BufRead,
    buf: &mut [u8],
) -> std::io::Result<usize> {
    let available = reader.fill_buf()?;
    let n = available.len().min(buf.len());
    buf[..n].copy_from_slice(&available[..n]);
    reader.consume(n);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for encoding in TextEncoding::ALL {
            assert_eq!(encoding.name().parse(), Ok(encoding));
        }
        assert_eq!("GBK".parse(), Ok(TextEncoding::Gb18030));
        assert_eq!("big_5".parse(), Ok(TextEncoding::Big5));
        assert!("latin1".parse::<TextEncoding>().is_err());
    }

    #[test]
    fn big5_cannot_hold_simplified_characters() {
        let big5 = TextEncoding::Big5;
        assert_eq!(
            big5.encode("車九進一").unwrap().as_ref(),
            b"\xa8\xae\xa4\x45\xb6\x69\xa4\x40"
        );
        assert_eq!(
            big5.encode("炮二平五 马8进7").unwrap_err(),
            Unencodable {
                encoding: big5,
                character: '马'
            }
        );
        let gb = TextEncoding::Gb18030.encode("马8进7").unwrap();
        assert_eq!(
            TextEncoding::Gb18030.decode(&gb),
            (Cow::from("马8进7"), false)
        );
    }
}
