//! What the text formats (PGN and WXF files) share: the line source
//! ([`lines`]: one encoding for the whole file, decided from its start by
//! [`crate::encoding`] or forced, each line decoded with it), the outer
//! reading loop ([`reader`]) and byte-level scanning ([`scan`]).

pub(crate) mod lines;
pub(crate) mod reader;
pub(crate) mod scan;

use crate::TextEncoding;

/// Decodes one line of a file in `encoding` (ASCII-compatible: UTF-16 is
/// transcoded before lines are found) into `out`, replacing its contents;
/// returns whether a sequence was not valid in the encoding (replaced by
/// U+FFFD).
pub(crate) fn decode_line_into(bytes: &[u8], encoding: TextEncoding, out: &mut String) -> bool {
    out.clear();
    // A UTF-8 BOM may also start a later line of concatenated files.
    let bytes = match encoding {
        TextEncoding::Utf8 => bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes),
        _ => bytes,
    };
    let (text, malformed) = encoding.decode(bytes);
    // The GB18030 byte-order mark (84 31 95 33) decodes to U+FEFF: dropped
    // like the UTF-8 one, so that it is not kept in a comment that the
    // writer would then put at the start of a UTF-8 line.
    out.push_str(text.strip_prefix('\u{feff}').unwrap_or(&text));
    malformed
}

/// [`decode_line_into`] for a line of a file: in a file read as UTF-8
/// (by its byte-order mark or by detection, not forced), a line that is
/// not valid UTF-8 comes from a file in a legacy encoding concatenated to
/// it (UTF-8 validates itself, so such a line is known for sure), and is
/// decoded in the legacy encoding detected on the line alone.
pub(crate) fn decode_file_line(
    bytes: &[u8],
    encoding: TextEncoding,
    fallback: bool,
    out: &mut String,
) -> bool {
    let malformed = decode_line_into(bytes, encoding, out);
    if !(malformed && fallback && encoding == TextEncoding::Utf8) {
        return malformed;
    }
    let legacy = crate::encoding::detect_with(bytes, true, crate::encoding::Hint::Simplified);
    let mut text = String::new();
    if decode_line_into(bytes, legacy, &mut text) {
        return true;
    }
    *out = text;
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_are_dropped_in_both_encodings() {
        let mut line = String::new();
        assert!(!decode_line_into(
            b"\xEF\xBB\xBFab",
            TextEncoding::Utf8,
            &mut line
        ));
        assert_eq!(line, "ab");
        let gb_bom_then_gbk = b"\x84\x31\x95\x33\xC5\xDA";
        assert!(!decode_line_into(
            gb_bom_then_gbk,
            TextEncoding::Gb18030,
            &mut line
        ));
        assert_eq!(line, "炮");
        // Elsewhere in the line U+FEFF is text.
        assert!(!decode_line_into(
            "a\u{feff}".as_bytes(),
            TextEncoding::Utf8,
            &mut line
        ));
        assert_eq!(line, "a\u{feff}");
    }

    #[test]
    fn undecodable_bytes_are_replaced_and_reported() {
        let mut line = String::new();
        assert!(decode_line_into(b"a\xFFb", TextEncoding::Utf8, &mut line));
        assert_eq!(line, "a\u{fffd}b");
        // 0xA1 0x30 is no Big5 character.
        assert!(decode_line_into(b"\xA1\x30", TextEncoding::Big5, &mut line));
        assert!(line.starts_with('\u{fffd}'));
    }
}
