//! WXF move text (N-WXF, N-WXF-TANDEM, N-WXF-AE, N-WXF-PAWNS, N-WXF-FSF).
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_notation::{format, parse, Notation, Style};
//!
//! let pos = Position::startpos();
//! let mv = parse(&pos, "C2=5", Notation::Wxf).unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(parse(&pos, "c2.5", Notation::Wxf).unwrap(), mv); // '.' and lower case too
//! assert_eq!(format(&pos, "h0g2".parse().unwrap(), Notation::Wxf, &Style::default()).unwrap(), "H2+3");
//! ```

use xiangqi_core::{Color, PieceKind};

use crate::error::{ParseMoveError, SyntaxErrorKind};
use crate::style::{SidewaysSign, WxfConvention, WxfStyle};
use crate::text::{Described, Direction, Marker, Origin, Situation};
use crate::Notation;

fn digit(n: u8) -> char {
    (b'0' + n) as char
}

/// Appends the WXF text of a described legal move.
pub(crate) fn write(s: &Situation, style: &WxfStyle, out: &mut String) {
    let letter = {
        let c = s.kind.wxf_char();
        if style.black_lowercase && s.color == Color::Black {
            c.to_ascii_lowercase()
        } else {
            c
        }
    };
    let file = digit(s.file);
    let keeps_file = matches!(s.kind, PieceKind::Advisor | PieceKind::Elephant) || s.on_file == 1;
    let marker = |s: &Situation| if s.is_front() { '+' } else { '-' };
    if keeps_file {
        out.push(letter);
        out.push(file);
    } else if s.kind == PieceKind::Soldier {
        write_soldier_origin(s, style, letter, out);
    } else if style.convention == WxfConvention::Fsf && !s.other_could_mirror {
        out.push(letter);
        out.push(file);
    } else {
        out.push(letter);
        out.push(marker(s));
    }
    out.push(match s.direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => match style.sideways {
            SidewaysSign::Equals => '=',
            SidewaysSign::Dot => '.',
        },
    });
    out.push(digit(s.number));
}

/// The first two characters for a soldier sharing its file (N-WXF-PAWNS, N-WXF-FSF (1)).
fn write_soldier_origin(s: &Situation, style: &WxfStyle, letter: char, out: &mut String) {
    let file = digit(s.file);
    let n = s.on_file;
    let multi = s.doubled_files >= 2;
    match style.convention {
        WxfConvention::Fsf => {
            if n >= 3 || multi {
                out.push(digit(s.index + 1));
                out.push(file);
            } else if s.other_could_mirror {
                out.push(letter);
                out.push(if s.is_front() { '+' } else { '-' });
            } else {
                out.push(letter);
                out.push(file);
            }
        }
        WxfConvention::Official => {
            let (a, b) = if multi {
                let second = if s.is_front() {
                    '+'
                } else if s.is_rear() {
                    '-'
                } else {
                    file
                };
                (file, second)
            } else {
                match (n, s.index) {
                    (2 | 3, 0) => (letter, '+'),
                    (2 | 3, i) if i + 1 == n => (letter, '-'),
                    (4 | 5, 0) => ('+', '+'),
                    (4 | 5, 1) => (letter, '+'),
                    (4 | 5, i) if i + 1 == n => ('-', '-'),
                    (4 | 5, i) if i + 2 == n => (letter, '-'),
                    _ => (letter, file), // the middle of three or five
                }
            };
            out.push(a);
            out.push(b);
        }
    }
}

fn letter_kind(c: char) -> Option<PieceKind> {
    PieceKind::from_letter(c)
}

/// [`letter_kind`] of every byte: one lookup instead of a case fold and a
/// `match` (letters only; a byte that is no letter names no piece).
static LETTER_KINDS: [Option<PieceKind>; 256] = {
    let mut table = [None; 256];
    let mut b = 0;
    while b < 128 {
        if (b as u8).is_ascii_alphabetic() {
            table[b] = PieceKind::from_letter(b as u8 as char);
        }
        b += 1;
    }
    table
};

/// The most common form, four bytes such as `C2=5` (letter, file, sign,
/// number), read without looking at characters; `None` for anything else,
/// which [`read_described`] reads in full, to the same result.
#[inline]
fn read_plain(bytes: &[u8]) -> Option<Described> {
    let &[letter, file @ b'1'..=b'9', sign, number @ b'1'..=b'9'] = bytes else {
        return None;
    };
    let kind = LETTER_KINDS[letter as usize]?;
    let direction = match sign {
        b'+' => Direction::Forward,
        b'-' => Direction::Backward,
        b'=' | b'.' => Direction::Sideways,
        _ => return None,
    };
    Some(Described {
        kind,
        alt_kind: None,
        origin: Origin::File(file - b'0'),
        direction,
        number: number - b'0',
    })
}

/// Whether trimmed `text` starts the way every WXF text does (a piece letter
/// or `+`/`-`/digit, then a file digit or marker, then more): a cheap
/// necessary condition for [`read`] to succeed.
pub(crate) fn may_be_wxf(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 3
        && (letter_kind(b[0] as char).is_some() || matches!(b[0], b'+' | b'-' | b'1'..=b'9'))
        && matches!(b[1], b'+' | b'-' | b'1'..=b'9')
}

/// Reads WXF text. `convention` decides the two-digit forms `11`/`33`, the
/// only ones whose meaning differs between the conventions.
pub(crate) fn read(text: &str, convention: WxfConvention) -> Result<Described, ParseMoveError> {
    read_described(text, convention)
        .map_err(|(position, kind)| ParseMoveError::new(Some(Notation::Wxf), text, position, kind))
}

/// [`read`] with the error as (1-based character position, kind), without
/// copying the text: what the PGN reader's fast path needs.
pub(crate) fn read_described(
    text: &str,
    convention: WxfConvention,
) -> Result<Described, (usize, SyntaxErrorKind)> {
    match read_plain(text.as_bytes()) {
        Some(described) => Ok(described),
        None => read_in_full(text, convention),
    }
}

/// [`read_described`] character by character, every form and error.
#[cold]
fn read_in_full(
    text: &str,
    convention: WxfConvention,
) -> Result<Described, (usize, SyntaxErrorKind)> {
    let err = |pos: usize, kind| (pos, kind);
    let mut buf = [' '; 8];
    let mut len = 0;
    let bytes = text.as_bytes();
    let untrimmed = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_graphic());
    // Positions are counted in characters of the original text.
    let lead = if bytes.len() <= 8
        && bytes.is_ascii()
        && untrimmed(bytes.first())
        && untrimmed(bytes.last())
    {
        // The usual short ASCII text, nothing to trim: no character decoding.
        for &b in bytes {
            buf[len] = b as char;
            len += 1;
        }
        0
    } else {
        let t = text.trim();
        let offset = text.len() - text.trim_start().len();
        for c in t.chars().take(8) {
            buf[len] = c;
            len += 1;
        }
        text[..offset].chars().count()
    };
    // "+R.3", "-P+1": the tandem marker written before the letter, as some
    // texts write it (full-width `＋Ｐ＋１` in Chinese type setting), is
    // "R+.3", "P-+1".
    if len == 4 && matches!(buf[0], '+' | '-') && buf[1].is_ascii_alphabetic() {
        buf.swap(0, 1);
    }
    let chars = &buf[..len];
    if chars.is_empty() {
        return Err(err(1, SyntaxErrorKind::Empty));
    }
    let at = |i: usize| chars.get(i).copied();
    let pos = |i: usize| lead + i + 1;
    let c0 = chars[0];
    let c1 = at(1).ok_or_else(|| err(pos(1), SyntaxErrorKind::ExpectedFile))?;
    let (kind, origin) = if c0.is_ascii_alphabetic() {
        let kind = letter_kind(c0).ok_or_else(|| err(pos(0), SyntaxErrorKind::UnknownPiece))?;
        let origin = match c1 {
            '1'..='9' => Origin::File(c1 as u8 - b'0'),
            '+' => Origin::Marked {
                marker: Marker::WxfPlus,
                file: None,
            },
            '-' => Origin::Marked {
                marker: Marker::WxfMinus,
                file: None,
            },
            _ => return Err(err(pos(1), SyntaxErrorKind::ExpectedFile)),
        };
        (kind, origin)
    } else {
        let origin = match (c0, c1) {
            ('+', '+') => Origin::Marked {
                marker: Marker::Front,
                file: None,
            },
            ('-', '-') => Origin::Marked {
                marker: Marker::Rear,
                file: None,
            },
            ('1'..='9', '+') => Origin::Marked {
                marker: Marker::WxfPlus,
                file: Some(c0 as u8 - b'0'),
            },
            ('1'..='9', '-') => Origin::Marked {
                marker: Marker::WxfMinus,
                file: Some(c0 as u8 - b'0'),
            },
            ('1'..='9', '1'..='9') => {
                let (a, b) = (c0 as u8 - b'0', c1 as u8 - b'0');
                if a == b && convention == WxfConvention::Official {
                    Origin::Marked {
                        marker: Marker::Middle,
                        file: Some(b),
                    }
                } else if a <= 5 {
                    Origin::Marked {
                        marker: Marker::Nth(a),
                        file: Some(b),
                    }
                } else {
                    return Err(err(pos(0), SyntaxErrorKind::ExpectedFile));
                }
            }
            ('+' | '-' | '1'..='9', _) => return Err(err(pos(1), SyntaxErrorKind::ExpectedFile)),
            _ => return Err(err(pos(0), SyntaxErrorKind::UnknownPiece)),
        };
        (PieceKind::Soldier, origin)
    };
    let c2 = at(2).ok_or_else(|| err(pos(2), SyntaxErrorKind::ExpectedDirection))?;
    let (direction, num_at) = match c2 {
        '+' => (Direction::Forward, 3),
        '-' => (Direction::Backward, 3),
        '=' | '.' => (Direction::Sideways, 3),
        // "C25": no sign means sideways, only after a letter and a file digit.
        '1'..='9' if matches!(origin, Origin::File(_)) && chars.len() == 3 => {
            (Direction::Sideways, 2)
        }
        _ => return Err(err(pos(2), SyntaxErrorKind::ExpectedDirection)),
    };
    let number = match at(num_at) {
        Some(c @ '1'..='9') => c as u8 - b'0',
        _ => return Err(err(pos(num_at), SyntaxErrorKind::ExpectedNumber)),
    };
    if chars.len() > num_at + 1 {
        return Err(err(pos(num_at + 1), SyntaxErrorKind::TrailingText));
    }
    Ok(Described {
        kind,
        alt_kind: None,
        origin,
        direction,
        number,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-byte shortcut reads what the full reader reads, on every
    /// four-byte text over an alphabet of letters, digits and signs.
    #[test]
    fn plain_form_agrees_with_the_full_reader() {
        let alphabet = b"KAEBHNRCPkcpXx019+-=.# ";
        let mut plain = 0;
        for bytes in crate::test_support::four_byte_texts(alphabet) {
            let text = std::str::from_utf8(&bytes).unwrap();
            if let Some(described) = read_plain(&bytes) {
                plain += 1;
                for convention in [WxfConvention::Official, WxfConvention::Fsf] {
                    assert_eq!(read_in_full(text, convention), Ok(described), "{text:?}");
                }
            }
        }
        assert!(plain > 150, "{plain}");
    }
}
