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

/// The length of the character each non-ASCII lead byte starts (a table:
/// Chinese text takes one lookup a character).
const CHAR_LEN: [u8; 256] = {
    let mut table = [1u8; 256];
    let mut b = 0x80;
    while b < 256 {
        table[b] = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        b += 1;
    }
    table
};

/// Whether a character starting with the non-ASCII lead byte `b` may be
/// whitespace: only C2, E1, E2 and E3 start any (see [`is_non_ascii_space`]).
#[inline(always)]
pub(crate) fn may_start_space(b: u8) -> bool {
    matches!(b, 0xC2 | 0xE1..=0xE3)
}

/// Whether the character starting at byte `i` (a non-ASCII lead byte) is
/// whitespace, from the bytes alone: the non-ASCII whitespace characters are
/// U+0085, U+00A0 (C2 85, C2 A0), U+1680 (E1 9A 80), U+2000-U+200A, U+2028,
/// U+2029, U+202F (E2 80 xx), U+205F (E2 81 9F) and U+3000 (E3 80 80).
/// Decoding each character instead cost as much as reading a Vietnamese
/// move, whose letters with marks start with E1.
#[inline(always)]
fn is_non_ascii_space(text: &str, i: usize) -> bool {
    let bytes = text.as_bytes();
    let at = |k: usize| bytes.get(i + k).copied().unwrap_or(0);
    match bytes[i] {
        0xC2 => matches!(at(1), 0x85 | 0xA0),
        0xE1 => at(1) == 0x9A && at(2) == 0x80,
        0xE2 => match at(1) {
            0x80 => matches!(at(2), 0x80..=0x8A | 0xA8 | 0xA9 | 0xAF),
            0x81 => at(2) == 0x9F,
            _ => false,
        },
        0xE3 => at(1) == 0x80 && at(2) == 0x80,
        _ => false,
    }
}

/// The byte offset where the word starting at `from` ends: at whitespace, a
/// special byte or the end of the line.
#[inline(always)]
pub(crate) fn word_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let is_word = |b: u8| BYTE_CLASS[b as usize] == ByteClass::Word;
    // Most ICCS and WXF moves are four ASCII bytes followed by a space:
    // that shape is tested at once, inline, as a byte search costs three
    // times more.
    if let Some(&[a, b, c, d, after]) = bytes.get(from..from + 5) {
        if is_word(a) && is_word(b) && is_word(c) && is_word(d) && after < 0x80 && !is_word(after) {
            return from + 4;
        }
    }
    scan_word_end(text, from)
}

/// [`word_end`] for every other word.
#[inline(never)]
fn scan_word_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    // ASCII words end in this search.
    let mut j = bytes[from..]
        .iter()
        .position(|&b| BYTE_CLASS[b as usize] != ByteClass::Word)
        .map_or(bytes.len(), |k| from + k);
    while j < bytes.len() {
        match BYTE_CLASS[bytes[j] as usize] {
            ByteClass::Word => j += 1,
            ByteClass::Space | ByteClass::Special => break,
            ByteClass::NonAscii => {
                if is_non_ascii_space(text, j) {
                    break;
                }
                j += CHAR_LEN[bytes[j] as usize] as usize;
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
                if !is_non_ascii_space(text, j) {
                    break;
                }
                j += CHAR_LEN[bytes[j] as usize] as usize;
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
    /// `may_start_space` admits, and the byte tests agree with `char` on the
    /// whitespace and length of every character.
    #[test]
    fn non_ascii_whitespace_is_found_by_its_lead_byte() {
        for c in (0x80..=0x10FFFF).filter_map(char::from_u32) {
            let text = c.to_string();
            let lead = text.as_bytes()[0];
            assert_eq!(is_non_ascii_space(&text, 0), c.is_whitespace(), "{c:?}");
            assert_eq!(CHAR_LEN[lead as usize] as usize, c.len_utf8(), "{c:?}");
            assert!(may_start_space(lead) || !c.is_whitespace(), "{c:?}");
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
