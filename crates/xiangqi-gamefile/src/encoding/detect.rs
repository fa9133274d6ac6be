//! Deciding a file's encoding from its start: a byte-order mark, else
//! plain ASCII (read as UTF-8), else `chardetng`'s guess kept to the
//! encodings of [`TextEncoding`].

use std::io::{self, BufRead};

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};

use super::TextEncoding;

/// The detection sample stops once it holds this many non-ASCII bytes:
/// a Chinese file is decided long before (every file of the shared Big5
/// sample, and the GBK ones, are decided right from their first 16
/// non-ASCII bytes; docs/gamefile.md, "Encodings"); the margin covers a
/// file whose first lines are in one script and the rest in another.
const SAMPLE_NON_ASCII: usize = 4 << 10;
/// … or once it is this long, whatever it holds: one read buffer, so that
/// reading a stream stays lazy (the first game is read after 64 KiB, not
/// after megabytes). A file whose first 64 KiB are ASCII is read as UTF-8,
/// and a later line that is not UTF-8 is decoded in the legacy encoding
/// detected on the line (`text::decode_file_line`).
pub(crate) const SAMPLE_MAX: usize = 64 << 10;

/// What the format tells the detector, as a web page's domain tells a
/// browser: which Chinese script its files are usually in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Hint {
    /// Nothing (PGN, WXF: written all over the Chinese-reading world).
    Any,
    /// A Windows program's legacy Chinese code page, most likely the
    /// simplified one (XQF: a mainland program's format, whose strings are
    /// in the writing system's code page): GBK wins unless the text cannot
    /// be GBK or is far likelier Big5, and UTF-8 is no candidate (text in
    /// GBK can also be valid UTF-8: `锘縋` is EF BB BF 50).
    Simplified,
}

/// The encoding of a text that starts with `sample`; `complete` says
/// whether the sample is the whole text (a prefix may end inside a
/// character). Never fails: plain ASCII, and a text without a byte-order
/// mark that no candidate fits, are read as UTF-8 and GB18030 … as below.
///
/// * a byte-order mark decides: UTF-8, UTF-16LE, UTF-16BE, GB18030;
/// * only ASCII: UTF-8;
/// * else `chardetng`'s guess: UTF-8, GBK (read as GB18030, its
///   superset) or Big5;
/// * any other guess (a Japanese, Korean or single-byte encoding): Big5
///   when the text is valid Big5 and not valid GBK, else GB18030.
///
/// ```
/// use xiangqi_gamefile::{detect_encoding, TextEncoding};
///
/// let big5 = b"1. \xac\xb6\xa4\x47\xa5\xad\xa4\xad  \xb0\xa8\xa2\xb7\xb6\x69\xa2\xb6";
/// assert_eq!(detect_encoding(big5, true), TextEncoding::Big5);
/// let gbk = b"1. \xc5\xda\xb6\xfe\xc6\xbd\xce\xe5 \xc2\xed8\xbd\xf87";
/// assert_eq!(detect_encoding(gbk, true), TextEncoding::Gb18030);
/// assert_eq!(detect_encoding("炮二平五".as_bytes(), true), TextEncoding::Utf8);
/// ```
pub fn detect(sample: &[u8], complete: bool) -> TextEncoding {
    detect_with(sample, complete, Hint::Any)
}

/// [`detect`] with the format's hint.
pub(crate) fn detect_with(sample: &[u8], complete: bool, hint: Hint) -> TextEncoding {
    if let Some(encoding) = byte_order_mark(sample) {
        return encoding;
    }
    if sample.is_ascii() {
        return match hint {
            Hint::Any => TextEncoding::Utf8,
            Hint::Simplified => TextEncoding::Gb18030,
        };
    }
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(sample, complete);
    let tld: Option<&[u8]> = match hint {
        Hint::Any => None,
        Hint::Simplified => Some(b"cn"),
    };
    let utf8 = match hint {
        Hint::Any => Utf8Detection::Allow,
        Hint::Simplified => Utf8Detection::Deny,
    };
    let guess = detector.guess(tld, utf8);
    if guess == encoding_rs::UTF_8 {
        TextEncoding::Utf8
    } else if guess == encoding_rs::GBK {
        TextEncoding::Gb18030
    } else if guess == encoding_rs::BIG5
        || (fits(encoding_rs::BIG5, sample, complete) && !fits(encoding_rs::GBK, sample, complete))
    {
        TextEncoding::Big5
    } else {
        TextEncoding::Gb18030
    }
}

/// The encoding a byte-order mark at the start of `bytes` names.
fn byte_order_mark(bytes: &[u8]) -> Option<TextEncoding> {
    match bytes {
        [0xEF, 0xBB, 0xBF, ..] => Some(TextEncoding::Utf8),
        [0xFF, 0xFE, ..] => Some(TextEncoding::Utf16Le),
        [0xFE, 0xFF, ..] => Some(TextEncoding::Utf16Be),
        [0x84, 0x31, 0x95, 0x33, ..] => Some(TextEncoding::Gb18030),
        _ => None,
    }
}

/// Whether `bytes` decode without a malformed sequence (a prefix may end
/// inside a character).
fn fits(encoding: &'static encoding_rs::Encoding, bytes: &[u8], complete: bool) -> bool {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0; decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(0)];
    let (result, _, _) = decoder.decode_to_utf8_without_replacement(bytes, &mut out, complete);
    !matches!(result, encoding_rs::DecoderResult::Malformed(..))
}

/// Reads the detection sample from the start of `src` into `sample`: until
/// it holds [`SAMPLE_NON_ASCII`] non-ASCII bytes or [`SAMPLE_MAX`] bytes,
/// or `src` ends, or fails (the reading then meets the failure after the
/// sample, in its place). Returns whether it ended (the sample is then the
/// whole text). The bytes are consumed: the caller reads them from `sample`.
pub(crate) fn read_sample(src: &mut impl BufRead, sample: &mut Vec<u8>) -> bool {
    let mut non_ascii = sample.iter().filter(|b| !b.is_ascii()).count();
    while sample.len() < SAMPLE_MAX && non_ascii < SAMPLE_NON_ASCII {
        let chunk = match src.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            // Decided on what was read: the reading meets the error again
            // where it is, after the games before it.
            Err(_) => return false,
        };
        if chunk.is_empty() {
            return true;
        }
        let take = chunk.len().min(SAMPLE_MAX - sample.len());
        non_ascii += chunk[..take].iter().filter(|b| !b.is_ascii()).count();
        sample.extend_from_slice(&chunk[..take]);
        src.consume(take);
    }
    // Ended exactly at the limit: look once more, so that a whole file is
    // known as such.
    src.fill_buf().is_ok_and(<[u8]>::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_decide() {
        assert_eq!(detect(b"\xEF\xBB\xBF[a]", true), TextEncoding::Utf8);
        assert_eq!(detect(b"\xFF\xFE[\x00", true), TextEncoding::Utf16Le);
        assert_eq!(detect(b"\xFE\xFF\x00[", true), TextEncoding::Utf16Be);
        assert_eq!(
            detect(b"\x84\x31\x95\x33\xb0\xa1", true),
            TextEncoding::Gb18030
        );
        assert_eq!(detect(b"", true), TextEncoding::Utf8);
    }

    /// A prefix cut inside a character is not held against its encoding.
    #[test]
    fn a_prefix_may_end_inside_a_character() {
        let big5 = "[Event \"第八屆銀荔杯象棋全國冠軍賽\"]\n1. 炮二平五  馬８進７\n";
        let (bytes, _, _) = encoding_rs::BIG5.encode(big5);
        let cut = &bytes[..bytes.len() - 4];
        assert_eq!(detect(cut, false), TextEncoding::Big5);
        let utf8 = big5.as_bytes();
        assert_eq!(detect(&utf8[..utf8.len() - 6], false), TextEncoding::Utf8);
    }

    #[test]
    fn the_sample_stops_at_its_limits() {
        let text = vec![0xB0u8; SAMPLE_NON_ASCII * 2];
        let mut sample = Vec::new();
        let mut src = io::BufReader::with_capacity(1024, &text[..]);
        assert!(!read_sample(&mut src, &mut sample));
        assert!(sample.len() >= SAMPLE_NON_ASCII && sample.len() < text.len());
        let mut whole = Vec::new();
        assert!(read_sample(&mut &b"short"[..], &mut whole));
        assert_eq!(whole, b"short");
    }
}
