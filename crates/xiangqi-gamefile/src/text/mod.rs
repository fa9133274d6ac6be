//! What the text formats (PGN and WXF files) share: decoding a line as
//! UTF-8, or GBK/GB18030 when it is not UTF-8 (deciding line by line keeps
//! the readers streaming and copes with files concatenated from differently
//! encoded sources), the line source ([`lines`]) and byte-level scanning
//! ([`scan`]).

pub(crate) mod lines;
pub(crate) mod reader;
pub(crate) mod scan;

/// The text encoding found in a PGN or WXF source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (with or without BOM).
    Utf8,
    /// GB18030, the superset of GBK and GB2312 that Chinese PGN files use.
    Gb18030,
}

/// Decodes one line into `out` (replacing its contents); returns the
/// encoding, `None` for pure ASCII.
pub(crate) fn decode_line_into(bytes: &[u8], out: &mut String) -> Option<TextEncoding> {
    out.clear();
    // A BOM may also start a later line of concatenated files.
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    // SIMD validation: the standard library's costs about nine instructions
    // per byte of Chinese or Vietnamese text, as much as reading the move.
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => {
            out.push_str(s);
            (!s.is_ascii()).then_some(TextEncoding::Utf8)
        }
        Err(_) => {
            let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
            // The GB18030 byte-order mark (84 31 95 33) decodes to U+FEFF:
            // dropped like the UTF-8 one, so that it is not kept in a comment
            // that the writer would then put at the start of a UTF-8 line.
            out.push_str(text.strip_prefix('\u{feff}').unwrap_or(&text));
            Some(TextEncoding::Gb18030)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_are_dropped_in_both_encodings() {
        let mut line = String::new();
        assert_eq!(decode_line_into(b"\xEF\xBB\xBFab", &mut line), None);
        assert_eq!(line, "ab");
        let gb_bom_then_gbk = b"\x84\x31\x95\x33\xC5\xDA";
        assert_eq!(
            decode_line_into(gb_bom_then_gbk, &mut line),
            Some(TextEncoding::Gb18030)
        );
        assert_eq!(line, "炮");
        // Elsewhere in the line U+FEFF is text.
        assert_eq!(
            decode_line_into("a\u{feff}".as_bytes(), &mut line),
            Some(TextEncoding::Utf8)
        );
        assert_eq!(line, "a\u{feff}");
    }
}
