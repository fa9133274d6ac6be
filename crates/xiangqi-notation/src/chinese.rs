//! Chinese move text (N-CN, N-CN-PIECES, N-CN-TANDEM, N-CN-PAWNS).
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_notation::{format, parse, ChineseStyle, Notation, Style};
//!
//! let pos = Position::startpos();
//! let mv = "h0g2".parse().unwrap();
//! assert_eq!(format(&pos, mv, Notation::Chinese, &Style::default()).unwrap(), "马二进三");
//! let traditional = Style { chinese: ChineseStyle::traditional(), ..Style::default() };
//! assert_eq!(format(&pos, mv, Notation::Chinese, &traditional).unwrap(), "傌二進三");
//! assert_eq!(parse(&pos, "傌二進三", Notation::Chinese).unwrap(), mv);
//! ```

use xiangqi_core::{Color, PieceKind};

use crate::error::{ParseMoveError, SyntaxErrorKind};
use crate::style::{ChineseStyle, Script};
use crate::text::{Described, Direction, Marker, Origin, Situation};
use crate::Notation;

const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

fn piece_char(color: Color, kind: PieceKind, style: &ChineseStyle) -> char {
    let red = color == Color::Red;
    match (style.script, kind) {
        (Script::Simplified, PieceKind::General) => {
            if red {
                '帅'
            } else {
                '将'
            }
        }
        (Script::Traditional, PieceKind::General) => {
            if red {
                '帥'
            } else {
                '將'
            }
        }
        (_, PieceKind::Advisor) => {
            if red {
                '仕'
            } else {
                '士'
            }
        }
        (_, PieceKind::Elephant) => {
            if red {
                '相'
            } else {
                '象'
            }
        }
        (_, PieceKind::Soldier) => {
            if red {
                '兵'
            } else {
                '卒'
            }
        }
        (Script::Simplified, PieceKind::Chariot) => '车',
        (Script::Simplified, PieceKind::Horse) => '马',
        (Script::Simplified, PieceKind::Cannon) => '炮',
        (Script::Traditional, PieceKind::Chariot) => {
            if red && style.red_black_sets {
                '俥'
            } else {
                '車'
            }
        }
        (Script::Traditional, PieceKind::Horse) => {
            if red && style.red_black_sets {
                '傌'
            } else {
                '馬'
            }
        }
        (Script::Traditional, PieceKind::Cannon) => {
            if !red && style.red_black_sets {
                '砲'
            } else {
                '炮'
            }
        }
    }
}

/// Red numbers in Chinese numerals, Black's in ASCII digits (N-CN).
fn push_number(color: Color, n: u8, out: &mut String) {
    if color == Color::Red {
        out.push(NUMERALS[n as usize - 1]);
    } else {
        out.push((b'0' + n) as char);
    }
}

/// Appends the Chinese text of a described legal move.
pub(crate) fn write(s: &Situation, style: &ChineseStyle, out: &mut String) {
    let piece = piece_char(s.color, s.kind, style);
    let rear = if style.script == Script::Traditional {
        '後'
    } else {
        '后'
    };
    let keeps_file = matches!(s.kind, PieceKind::Advisor | PieceKind::Elephant) || s.on_file == 1;
    let position_marker = |s: &Situation| -> char {
        if s.is_front() {
            '前'
        } else if s.is_rear() && s.on_file <= 3 {
            rear
        } else if s.on_file == 3 {
            '中'
        } else {
            NUMERALS[s.index as usize] // 二兵, 三兵 … for four or five (N-CN-PAWNS)
        }
    };
    if keeps_file {
        out.push(piece);
        push_number(s.color, s.file, out);
    } else if s.kind == PieceKind::Soldier && s.doubled_files >= 2 {
        // 前三平四: the marker and the file, no piece (N-CN-PAWNS).
        out.push(position_marker(s));
        push_number(s.color, s.file, out);
    } else {
        out.push(position_marker(s));
        out.push(piece);
    }
    out.push(match (s.direction, style.script) {
        (Direction::Forward, Script::Simplified) => '进',
        (Direction::Forward, Script::Traditional) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    push_number(s.color, s.number, out);
}

fn piece_of(c: char) -> Option<PieceKind> {
    Some(match c {
        '帥' | '帅' | '將' | '将' => PieceKind::General,
        '仕' | '士' => PieceKind::Advisor,
        '相' | '象' => PieceKind::Elephant,
        '俥' | '車' | '车' => PieceKind::Chariot,
        '傌' | '馬' | '马' => PieceKind::Horse,
        '炮' | '砲' | '包' => PieceKind::Cannon,
        '兵' | '卒' => PieceKind::Soldier,
        _ => return None,
    })
}

/// 1-9 from a Chinese numeral, an ASCII digit or a full-width digit.
fn number_of(c: char) -> Option<u8> {
    Some(match c {
        '1'..='9' => c as u8 - b'0',
        '１'..='９' => (c as u32 - '１' as u32) as u8 + 1,
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn marker_of(c: char) -> Option<Marker> {
    match c {
        '前' => Some(Marker::Front),
        '後' | '后' => Some(Marker::Rear),
        '中' => Some(Marker::Middle),
        _ => match number_of(c) {
            Some(n @ 1..=5) => Some(Marker::Nth(n)),
            _ => None,
        },
    }
}

fn direction_of(c: char) -> Option<Direction> {
    match c {
        '進' | '进' => Some(Direction::Forward),
        '退' => Some(Direction::Backward),
        '平' => Some(Direction::Sideways),
        _ => None,
    }
}

/// Whether `c` is a character only Chinese move text uses (for detection).
pub(crate) fn is_chinese_char(c: char) -> bool {
    piece_of(c).is_some()
        || direction_of(c).is_some()
        || matches!(c, '前' | '後' | '后' | '中')
        || NUMERALS.contains(&c)
}

/// Reads Chinese move text: 炮二平五, 前车进三, 前三平四, 前兵三平四, 二兵平四.
pub(crate) fn read(text: &str) -> Result<Described, ParseMoveError> {
    read_described(text).map_err(|(position, kind)| {
        let position = if position == AT_END {
            text.chars().count() + 1
        } else {
            position
        };
        ParseMoveError::new(Some(Notation::Chinese), text, position, kind)
    })
}

/// The position of an error "one past the end", counted only when needed.
const AT_END: usize = usize::MAX;

/// [`read`] with the error as (1-based character position or [`AT_END`],
/// kind), without copying the text: what the PGN reader's fast path needs.
pub(crate) fn read_described(text: &str) -> Result<Described, (usize, SyntaxErrorKind)> {
    match read_plain(text) {
        Some(described) => Ok(described),
        None => read_in_full(text),
    }
}

/// The most common form, exactly four characters piece, file, direction,
/// number (炮二平五, 马8进7); `None` for anything else, which
/// [`read_in_full`] reads, to the same result.
fn read_plain(text: &str) -> Option<Described> {
    let mut chars = text.chars();
    let (Some(piece), Some(file), Some(direction), Some(number), None) = (
        chars.next(),
        chars.next(),
        chars.next(),
        chars.next(),
        chars.next(),
    ) else {
        return None;
    };
    Some(Described {
        kind: piece_of(piece)?,
        alt_kind: None,
        origin: Origin::File(number_of(file)?),
        direction: direction_of(direction)?,
        number: number_of(number)?,
    })
}

/// [`read_described`] character by character, every form and error.
fn read_in_full(text: &str) -> Result<Described, (usize, SyntaxErrorKind)> {
    let err = |pos: usize, kind| (pos, kind);
    let mut chars = [(0usize, ' '); 6];
    let mut n = 0;
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        if n == chars.len() {
            return Err(err(i + 1, SyntaxErrorKind::TrailingText));
        }
        chars[n] = (i + 1, c);
        n += 1;
    }
    let end = AT_END;
    let at = |i: usize| if i < n { Some(chars[i]) } else { None };
    let (p0, c0) = at(0).ok_or_else(|| err(1, SyntaxErrorKind::Empty))?;
    let (p1, c1) = at(1).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedFile))?;
    let (kind, origin, next) = if let Some(kind) = piece_of(c0) {
        // Piece first: 炮二 …, or the marker after the piece in some texts is not used.
        let file = number_of(c1).ok_or_else(|| err(p1, SyntaxErrorKind::ExpectedFile))?;
        (kind, Origin::File(file), 2)
    } else if let Some(marker) = marker_of(c0) {
        if let Some(kind) = piece_of(c1) {
            // 前车 …, or 前兵三 … (the older five-character form).
            match at(2).and_then(|(_, c)| number_of(c)) {
                Some(file) if n == 5 => (
                    kind,
                    Origin::Marked {
                        marker,
                        file: Some(file),
                    },
                    3,
                ),
                _ => (kind, Origin::Marked { marker, file: None }, 2),
            }
        } else if let Some(file) = number_of(c1) {
            // 前三平四: soldiers doubled on two files, the piece left out.
            (
                PieceKind::Soldier,
                Origin::Marked {
                    marker,
                    file: Some(file),
                },
                2,
            )
        } else {
            return Err(err(p1, SyntaxErrorKind::UnknownPiece));
        }
    } else {
        return Err(err(p0, SyntaxErrorKind::UnknownPiece));
    };
    let (pd, cd) = at(next).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedDirection))?;
    let direction = direction_of(cd).ok_or_else(|| err(pd, SyntaxErrorKind::ExpectedDirection))?;
    let (pn, cn) = at(next + 1).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedNumber))?;
    let number = number_of(cn).ok_or_else(|| err(pn, SyntaxErrorKind::ExpectedNumber))?;
    if let Some((pt, _)) = at(next + 2) {
        return Err(err(pt, SyntaxErrorKind::TrailingText));
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

    /// The four-character shortcut reads what the full reader reads, on
    /// every four-character text over an alphabet of the notation's characters.
    #[test]
    fn plain_form_agrees_with_the_full_reader() {
        let alphabet: Vec<char> = "车馬炮兵前后二五8进退平１ x".chars().collect();
        let mut plain = 0;
        for &a in &alphabet {
            for &b in &alphabet {
                for &c in &alphabet {
                    for &d in &alphabet {
                        let text: String = [a, b, c, d].iter().collect();
                        if let Some(described) = read_plain(&text) {
                            plain += 1;
                            assert_eq!(read_in_full(&text), Ok(described), "{text:?}");
                        }
                    }
                }
            }
        }
        assert!(plain > 100, "{plain}");
    }
}
