//! Decoding PGN lines: UTF-8, or GBK/GB18030 when a line is not UTF-8.
//! Deciding line by line keeps the reader streaming and copes with files
//! concatenated from differently encoded sources.

/// The text encoding found in a PGN source.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TextEncoding {
    /// UTF-8 (with or without BOM).
    Utf8,
    /// GB18030, the superset of GBK and GB2312 that Chinese PGN files use.
    Gb18030,
}

/// Decodes one line; the encoding is `None` for pure ASCII.
pub(crate) fn decode_line(bytes: &[u8]) -> (String, Option<TextEncoding>) {
    // A BOM may also start a later line of concatenated files.
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    if bytes.is_ascii() {
        // Safe and fast: ASCII is valid UTF-8.
        return (String::from_utf8_lossy(bytes).into_owned(), None);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_owned(), Some(TextEncoding::Utf8)),
        Err(_) => {
            let (text, _) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
            (text.into_owned(), Some(TextEncoding::Gb18030))
        }
    }
}
