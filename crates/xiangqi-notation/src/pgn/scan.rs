//! Byte-level scanning of PGN move text: one table lookup per ASCII byte,
//! and a character decoded only where a non-ASCII byte starts one (Chinese
//! and Vietnamese text), so that whitespace keeps its Unicode meaning
//! (`char::is_whitespace`: ideographic and no-break spaces separate moves too).

/// What an ASCII byte means to the tokeniser.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(crate) enum ByteClass {
    /// Part of a word (move, move number, result).
    Word,
    /// ASCII whitespace as `char::is_whitespace` has it (vertical tab included).
    Space,
    /// A byte that starts or ends a token by itself: `{ } ( ) ; $ [`.
    Special,
    /// The first byte of a multi-byte character.
    NonAscii,
}

/// The class of every byte value.
pub(crate) const BYTE_CLASS: [ByteClass; 256] = {
    let mut table = [ByteClass::Word; 256];
    let mut b = 0x80;
    while b < 256 {
        table[b] = ByteClass::NonAscii;
        b += 1;
    }
    let spaces = [b' ', b'\t', b'\n', 0x0B, 0x0C, b'\r'];
    let mut k = 0;
    while k < spaces.len() {
        table[spaces[k] as usize] = ByteClass::Space;
        k += 1;
    }
    let specials = *b"{}();$[";
    let mut k = 0;
    while k < specials.len() {
        table[specials[k] as usize] = ByteClass::Special;
        k += 1;
    }
    table
};

/// The character starting at byte `i` of `text` (a character boundary).
fn char_at(text: &str, i: usize) -> char {
    text[i..]
        .chars()
        .next()
        .expect("in bounds, on a character boundary")
}

/// Whether the character starting at byte `i` (a non-ASCII lead byte) is
/// whitespace, and its length in bytes. Only the lead bytes C2, E1, E2 and E3
/// start the non-ASCII whitespace characters (U+0085, U+00A0, U+1680,
/// U+2000-U+205F, U+3000), so other characters (all Chinese text) are
/// stepped over without decoding.
#[inline(always)]
fn non_ascii_char(text: &str, i: usize) -> (bool, usize) {
    match text.as_bytes()[i] {
        0xC2 | 0xE1 | 0xE2 | 0xE3 => {
            let c = char_at(text, i);
            (c.is_whitespace(), c.len_utf8())
        }
        0xC0..=0xDF => (false, 2),
        0xE0..=0xEF => (false, 3),
        _ => (false, 4),
    }
}

/// The byte offset where the word starting at `from` ends: at whitespace, a
/// special byte or the end of the line.
#[inline]
pub(crate) fn word_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut j = from;
    while j < bytes.len() {
        match BYTE_CLASS[bytes[j] as usize] {
            ByteClass::Word => j += 1,
            ByteClass::Space | ByteClass::Special => break,
            ByteClass::NonAscii => {
                let (space, len) = non_ascii_char(text, j);
                if space {
                    break;
                }
                j += len;
            }
        }
    }
    j
}

/// The byte offset of the first non-whitespace character at or after `from`.
#[inline]
pub(crate) fn skip_space(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let mut j = from;
    while j < bytes.len() {
        match BYTE_CLASS[bytes[j] as usize] {
            ByteClass::Space => j += 1,
            ByteClass::NonAscii => {
                let (space, len) = non_ascii_char(text, j);
                if !space {
                    break;
                }
                j += len;
            }
            ByteClass::Word | ByteClass::Special => break,
        }
    }
    j
}

/// The offset of the first line feed in `bytes`, eight bytes at a time (the
/// reader's line search; a byte-by-byte search cost as much as the tokeniser's
/// word scan).
pub(crate) fn find_newline(bytes: &[u8]) -> Option<usize> {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LF: u64 = LOW * b'\n' as u64;
    let mut chunks = bytes.chunks_exact(8);
    let mut base = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let x = word ^ LF;
        // A zero byte of `x` (a line feed) sets its high bit here; bytes
        // before the first zero cannot (no borrow reaches them).
        let found = x.wrapping_sub(LOW) & !x & HIGH;
        if found != 0 {
            return Some(base + (found.trailing_zeros() / 8) as usize);
        }
        base += 8;
    }
    chunks
        .remainder()
        .iter()
        .position(|&b| b == b'\n')
        .map(|i| base + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table agrees with `char::is_whitespace` on every ASCII byte.
    #[test]
    fn ascii_spaces_are_char_whitespace() {
        for b in 0u8..0x80 {
            assert_eq!(
                BYTE_CLASS[b as usize] == ByteClass::Space,
                (b as char).is_whitespace(),
                "byte {b:#x}"
            );
        }
    }

    /// Every non-ASCII whitespace character starts with a lead byte that
    /// `non_ascii_char` decodes, and it agrees with `char` on every character.
    #[test]
    fn non_ascii_whitespace_is_found_by_its_lead_byte() {
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let text = c.to_string();
            assert_eq!(
                non_ascii_char(&text, 0),
                (c.is_whitespace(), c.len_utf8()),
                "{c:?}"
            );
        }
    }

    #[test]
    fn find_newline_agrees_with_position() {
        let mut bytes = vec![b'a'; 40];
        assert_eq!(find_newline(&bytes), None);
        for at in 0..40 {
            for other in [0u8, 0x0B, 0x8A, 0xFF, b'\r'] {
                bytes.fill(other);
                bytes[at] = b'\n';
                if at + 3 < 40 {
                    bytes[at + 3] = b'\n';
                }
                for start in 0..=at {
                    let want = bytes[start..].iter().position(|&b| b == b'\n');
                    assert_eq!(find_newline(&bytes[start..]), want, "{at} {start} {other}");
                }
            }
        }
    }

    #[test]
    fn words_end_at_unicode_whitespace_and_specials() {
        let text = "炮二平五\u{3000}马8进7{x} h2e2(";
        let first = word_end(text, 0);
        assert_eq!(&text[..first], "炮二平五");
        let second = skip_space(text, first);
        assert_eq!(&text[second..word_end(text, second)], "马8进7");
        let h = text.find('h').unwrap();
        assert_eq!(&text[h..word_end(text, h)], "h2e2");
        assert_eq!(skip_space(text, text.len()), text.len());
    }
}
