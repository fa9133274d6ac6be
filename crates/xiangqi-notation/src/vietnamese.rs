//! Vietnamese move text (N-VI, N-VI-TANDEM).
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_notation::{format, parse, Notation, Style};
//!
//! let pos = Position::startpos();
//! let mv = "h2e2".parse().unwrap();
//! assert_eq!(format(&pos, mv, Notation::Vietnamese, &Style::default()).unwrap(), "Pháo 2 bình 5");
//! // Any case, no diacritics, dots or extra spaces:
//! assert_eq!(parse(&pos, "phao  2.BINH 5", Notation::Vietnamese).unwrap(), mv);
//! ```

use xiangqi_core::PieceKind;

use crate::error::{ParseMoveError, SyntaxErrorKind};
use crate::style::{VietnameseStyle, WxfConvention, WxfStyle};
use crate::text::{Described, Direction, Marker, Origin, Situation};
use crate::Notation;

fn piece_word(kind: PieceKind, diacritics: bool) -> &'static str {
    match (kind, diacritics) {
        (PieceKind::General, true) => "Tướng",
        (PieceKind::General, false) => "Tuong",
        (PieceKind::Advisor, true) => "Sĩ",
        (PieceKind::Advisor, false) => "Si",
        (PieceKind::Elephant, true) => "Tượng",
        (PieceKind::Elephant, false) => "Tuong",
        (PieceKind::Chariot, _) => "Xe",
        (PieceKind::Cannon, true) => "Pháo",
        (PieceKind::Cannon, false) => "Phao",
        (PieceKind::Horse, true) => "Mã",
        (PieceKind::Horse, false) => "Ma",
        (PieceKind::Soldier, true) => "Tốt",
        (PieceKind::Soldier, false) => "Tot",
    }
}

/// Whether Vietnamese has its own words for this soldier's origin; otherwise
/// the WXF form is written (N-VI-TANDEM, section 12 item 8).
fn has_vietnamese_form(s: &Situation) -> bool {
    s.kind != PieceKind::Soldier || s.on_file == 1 || (s.on_file <= 3 && s.doubled_files < 2)
}

/// Appends the Vietnamese text of a described legal move.
pub(crate) fn write(s: &Situation, style: &VietnameseStyle, out: &mut String) {
    if !has_vietnamese_form(s) {
        crate::wxf::write(s, &WxfStyle::default(), out);
        return;
    }
    let d = style.diacritics;
    out.push_str(piece_word(s.kind, d));
    out.push(' ');
    let keeps_file = matches!(s.kind, PieceKind::Advisor | PieceKind::Elephant) || s.on_file == 1;
    if keeps_file {
        out.push((b'0' + s.file) as char);
    } else if s.is_front() {
        out.push_str(if d { "trước" } else { "truoc" });
    } else if s.is_rear() {
        out.push_str("sau");
    } else {
        out.push_str(if d { "giữa" } else { "giua" });
    }
    out.push(' ');
    out.push_str(match (s.direction, d) {
        (Direction::Forward, true) => "tiến",
        (Direction::Forward, false) => "tien",
        (Direction::Backward, true) => "thoái",
        (Direction::Backward, false) => "thoai",
        (Direction::Sideways, true) => "bình",
        (Direction::Sideways, false) => "binh",
    });
    out.push(' ');
    out.push((b'0' + s.number) as char);
}

/// The base letter of a Vietnamese letter (lower case, diacritics removed);
/// `None` for combining marks, which are dropped.
fn fold(c: char) -> Option<char> {
    const GROUPS: [(char, &str); 7] = [
        ('a', "àáảãạăằắẳẵặâầấẩẫậ"),
        ('d', "đ"),
        ('e', "èéẻẽẹêềếểễệ"),
        ('i', "ìíỉĩị"),
        ('o', "òóỏõọôồốổỗộơờớởỡợ"),
        ('u', "ùúủũụưừứửữự"),
        ('y', "ỳýỷỹỵ"),
    ];
    if c.is_ascii() {
        return Some(c.to_ascii_lowercase());
    }
    if ('\u{300}'..='\u{36f}').contains(&c) {
        return None;
    }
    let lower = c.to_lowercase().next().unwrap_or(c);
    if lower.is_ascii() {
        return Some(lower);
    }
    for (base, variants) in GROUPS {
        if variants.contains(lower) {
            return Some(base);
        }
    }
    Some(lower)
}

/// One word or number of the text, folded, with its 1-based character position.
#[derive(Copy, Clone, Default)]
struct Token {
    position: usize,
    folded: [u8; 8],
    len: usize,
    /// The original word contains ớ (general) or ợ (elephant).
    hint: Option<PieceKind>,
}

impl Token {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.folded[..self.len]).unwrap_or("")
    }
}

/// At most five tokens (one more than a move has, to report trailing text).
struct Tokens {
    items: [Token; 5],
    len: usize,
}

impl Tokens {
    fn push(&mut self, t: Token) {
        if self.len < self.items.len() {
            self.items[self.len] = t;
            self.len += 1;
        }
    }

    fn get(&self, i: usize) -> Option<&Token> {
        self.items[..self.len].get(i)
    }
}

fn tokens(text: &str) -> Result<Tokens, ParseMoveError> {
    let err = |pos: usize, kind| ParseMoveError::new(Some(Notation::Vietnamese), text, pos, kind);
    let mut out = Tokens {
        items: [Token::default(); 5],
        len: 0,
    };
    let mut current: Option<Token> = None;
    let mut current_is_digit = false;
    for (i, c) in text.chars().enumerate() {
        let ascii = c.is_ascii();
        let is_sep = if ascii {
            c.is_ascii_whitespace() || c == '.' || c == ','
        } else {
            c.is_whitespace()
        };
        let is_digit = c.is_ascii_digit();
        let is_mark = !ascii && ('\u{300}'..='\u{36f}').contains(&c);
        let is_letter = if ascii {
            c.is_ascii_alphabetic()
        } else {
            c.is_alphabetic()
        };
        if is_sep || (current.is_some() && !is_mark && is_digit != current_is_digit) {
            if let Some(t) = current.take() {
                out.push(t);
            }
        }
        if is_sep {
            continue;
        }
        if !(is_digit || is_letter || is_mark) {
            return Err(err(i + 1, SyntaxErrorKind::Unrecognised));
        }
        let t = current.get_or_insert_with(|| Token {
            position: i + 1,
            folded: [0; 8],
            len: 0,
            hint: None,
        });
        current_is_digit = is_digit;
        match c {
            'ớ' | 'Ớ' => t.hint = Some(PieceKind::General),
            'ợ' | 'Ợ' => t.hint = Some(PieceKind::Elephant),
            _ => {}
        }
        if let Some(f) = fold(c) {
            if t.len == t.folded.len() || !f.is_ascii() {
                return Err(err(t.position, SyntaxErrorKind::Unrecognised));
            }
            t.folded[t.len] = f as u8;
            t.len += 1;
        }
    }
    if let Some(t) = current {
        out.push(t);
    }
    Ok(out)
}

fn piece_kinds(word: &str, hint: Option<PieceKind>) -> Option<(PieceKind, Option<PieceKind>)> {
    Some(match word {
        // Without diacritics "tuong" is general or elephant; the move decides.
        "tuong" => match hint {
            Some(k) => (k, None),
            None => (PieceKind::General, Some(PieceKind::Elephant)),
        },
        "soai" | "tuongsoai" => (PieceKind::General, None),
        "si" | "sy" => (PieceKind::Advisor, None),
        "tinh" => (PieceKind::Elephant, None),
        "xe" => (PieceKind::Chariot, None),
        "phao" => (PieceKind::Cannon, None),
        "ma" => (PieceKind::Horse, None),
        "tot" | "binh" | "chot" => (PieceKind::Soldier, None),
        _ => return None,
    })
}

/// Whether `word` (any case, with or without diacritics) is a Vietnamese piece name.
pub(crate) fn is_piece_word(word: &str) -> bool {
    let folded: String = word.chars().filter_map(fold).collect();
    piece_kinds(&folded, None).is_some()
}

/// Reads Vietnamese text (`Pháo 2 bình 5`, `Xe trước bình 4`, `Phao 2 binh 5`);
/// texts that are WXF (the form written for four or five soldiers on a
/// file) are read as WXF.
pub(crate) fn read(text: &str) -> Result<Described, ParseMoveError> {
    let err = |pos: usize, kind| ParseMoveError::new(Some(Notation::Vietnamese), text, pos, kind);
    let first = text.trim_start().chars().next();
    if matches!(first, Some('+' | '-' | '1'..='9'))
        || (text.trim().len() <= 4 && text.is_ascii() && !text.contains(' '))
    {
        return crate::wxf::read(text, WxfConvention::Official).map_err(|mut e| {
            e.notation = Some(Notation::Vietnamese);
            e
        });
    }
    let toks = tokens(text)?;
    let end = text.chars().count() + 1;
    let tok = |i: usize| toks.get(i);
    let t0 = tok(0).ok_or_else(|| err(1, SyntaxErrorKind::Empty))?;
    let (kind, alt_kind) = piece_kinds(t0.as_str(), t0.hint)
        .ok_or_else(|| err(t0.position, SyntaxErrorKind::UnknownPiece))?;
    let t1 = tok(1).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedFile))?;
    let origin = match t1.as_str() {
        "truoc" => Origin::Marked {
            marker: Marker::Front,
            file: None,
        },
        "sau" => Origin::Marked {
            marker: Marker::Rear,
            file: None,
        },
        "giua" => Origin::Marked {
            marker: Marker::Middle,
            file: None,
        },
        s => match s.as_bytes() {
            [d @ b'1'..=b'9'] => Origin::File(d - b'0'),
            _ => return Err(err(t1.position, SyntaxErrorKind::ExpectedFile)),
        },
    };
    let t2 = tok(2).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedDirection))?;
    let direction = match t2.as_str() {
        "tien" | "tan" => Direction::Forward,
        "thoai" | "lui" => Direction::Backward,
        "binh" => Direction::Sideways,
        _ => return Err(err(t2.position, SyntaxErrorKind::ExpectedDirection)),
    };
    let t3 = tok(3).ok_or_else(|| err(end, SyntaxErrorKind::ExpectedNumber))?;
    let number = match t3.as_str().as_bytes() {
        [d @ b'1'..=b'9'] => d - b'0',
        _ => return Err(err(t3.position, SyntaxErrorKind::ExpectedNumber)),
    };
    if let Some(t) = tok(4) {
        return Err(err(t.position, SyntaxErrorKind::TrailingText));
    }
    Ok(Described {
        kind,
        alt_kind,
        origin,
        direction,
        number,
    })
}
