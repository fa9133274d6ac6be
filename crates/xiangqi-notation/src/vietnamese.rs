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
    if style.short {
        write_short(s, out);
        return;
    }
    let d = style.diacritics;
    out.push_str(piece_word(s.kind, d));
    out.push(' ');
    let keeps_file = matches!(s.kind, PieceKind::Advisor | PieceKind::Elephant) || s.on_file == 1;
    if keeps_file {
        out.push((b'0' + s.file) as char);
    } else if s.is_front() {
        out.push_str(marker_word(Marker::Front, d));
    } else if s.is_rear() {
        out.push_str(marker_word(Marker::Rear, d));
    } else {
        out.push_str(marker_word(Marker::Middle, d));
    }
    out.push(' ');
    out.push_str(direction_word(s.direction, d));
    out.push(' ');
    out.push((b'0' + s.number) as char);
}

/// The letters of the compact form (N-VI-SHORT).
fn short_letters(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "Tg",
        PieceKind::Advisor => "S",
        PieceKind::Elephant => "T",
        PieceKind::Chariot => "X",
        PieceKind::Cannon => "P",
        PieceKind::Horse => "M",
        PieceKind::Soldier => "B",
    }
}

/// The compact form's sign for a direction: `.` forward, `/` backward, `-` sideways.
fn short_sign(direction: Direction) -> char {
    match direction {
        Direction::Forward => '.',
        Direction::Backward => '/',
        Direction::Sideways => '-',
    }
}

/// The compact form's letter for a marker: t(rước), s(au), g(iữa).
fn short_marker(marker: Marker) -> Option<char> {
    match marker {
        Marker::Front => Some('t'),
        Marker::Rear => Some('s'),
        Marker::Middle => Some('g'),
        _ => None,
    }
}

/// Appends the compact form (N-VI-SHORT) of a move that has a Vietnamese form.
fn write_short(s: &Situation, out: &mut String) {
    out.push_str(short_letters(s.kind));
    let keeps_file = matches!(s.kind, PieceKind::Advisor | PieceKind::Elephant) || s.on_file == 1;
    if keeps_file {
        out.push((b'0' + s.file) as char);
    } else {
        let marker = if s.is_front() {
            Marker::Front
        } else if s.is_rear() {
            Marker::Rear
        } else {
            Marker::Middle
        };
        out.extend(short_marker(marker));
    }
    out.push(short_sign(s.direction));
    out.push((b'0' + s.number) as char);
}

/// Reads the compact form (`P2-5`, `Xt-4`, `Tg5.1`; letters in either
/// case); `None` for anything else.
fn read_short(text: &str) -> Option<Described> {
    let t = text.trim();
    let b = t.as_bytes();
    // "Tg" is the general only before a file digit: "Tg" + marker never occurs
    // (elephants keep their file), and an elephant with a marker would be "Tg-…".
    let (kind, rest) = match b {
        [t, g, d, ..]
            if t.eq_ignore_ascii_case(&b'T')
                && g.eq_ignore_ascii_case(&b'G')
                && d.is_ascii_digit() =>
        {
            (PieceKind::General, &b[2..])
        }
        [letter, rest @ ..] => {
            let kind = PieceKind::ALL
                .into_iter()
                .filter(|&k| k != PieceKind::General)
                .find(|&k| short_letters(k).as_bytes()[0].eq_ignore_ascii_case(letter))?;
            (kind, rest)
        }
        [] => return None,
    };
    let &[origin, sign, number @ b'1'..=b'9'] = rest else {
        return None;
    };
    let origin = match origin.to_ascii_lowercase() {
        d @ b'1'..=b'9' => Origin::File(d - b'0'),
        m => Origin::Marked {
            marker: [Marker::Front, Marker::Rear, Marker::Middle]
                .into_iter()
                .find(|&mk| short_marker(mk) == Some(char::from(m)))?,
            file: None,
        },
    };
    let direction = [Direction::Forward, Direction::Backward, Direction::Sideways]
        .into_iter()
        .find(|&dir| short_sign(dir) == char::from(sign))?;
    Some(Described {
        kind,
        alt_kind: None,
        origin,
        direction,
        number: number - b'0',
    })
}

/// The word written for a front/rear/middle marker (N-VI-TANDEM).
fn marker_word(marker: Marker, diacritics: bool) -> &'static str {
    match (marker, diacritics) {
        (Marker::Front, true) => "trước",
        (Marker::Front, false) => "truoc",
        (Marker::Rear, _) => "sau",
        (Marker::Middle, true) => "giữa",
        (Marker::Middle, false) => "giua",
        _ => "",
    }
}

/// The word written for a direction (N-VI).
fn direction_word(direction: Direction, diacritics: bool) -> &'static str {
    match (direction, diacritics) {
        (Direction::Forward, true) => "tiến",
        (Direction::Forward, false) => "tien",
        (Direction::Backward, true) => "thoái",
        (Direction::Backward, false) => "thoai",
        (Direction::Sideways, true) => "bình",
        (Direction::Sideways, false) => "binh",
    }
}

/// The base letter (lower case, ASCII) of a precomposed Vietnamese letter
/// with a diacritic, either case; `None` for every other character. A plain
/// match, as the text is read character by character.
fn vietnamese_base(c: char) -> Option<char> {
    Some(match c {
        'à' | 'À' | 'á' | 'Á' | 'ả' | 'Ả' | 'ã' | 'Ã' | 'ạ' | 'Ạ' | 'ă' | 'Ă' | 'ằ' | 'Ằ' | 'ắ'
        | 'Ắ' | 'ẳ' | 'Ẳ' | 'ẵ' | 'Ẵ' | 'ặ' | 'Ặ' | 'â' | 'Â' | 'ầ' | 'Ầ' | 'ấ' | 'Ấ' | 'ẩ'
        | 'Ẩ' | 'ẫ' | 'Ẫ' | 'ậ' | 'Ậ' => 'a',
        'đ' | 'Đ' => 'd',
        'è' | 'È' | 'é' | 'É' | 'ẻ' | 'Ẻ' | 'ẽ' | 'Ẽ' | 'ẹ' | 'Ẹ' | 'ê' | 'Ê' | 'ề' | 'Ề' | 'ế'
        | 'Ế' | 'ể' | 'Ể' | 'ễ' | 'Ễ' | 'ệ' | 'Ệ' => 'e',
        'ì' | 'Ì' | 'í' | 'Í' | 'ỉ' | 'Ỉ' | 'ĩ' | 'Ĩ' | 'ị' | 'Ị' => 'i',
        'ò' | 'Ò' | 'ó' | 'Ó' | 'ỏ' | 'Ỏ' | 'õ' | 'Õ' | 'ọ' | 'Ọ' | 'ô' | 'Ô' | 'ồ' | 'Ồ' | 'ố'
        | 'Ố' | 'ổ' | 'Ổ' | 'ỗ' | 'Ỗ' | 'ộ' | 'Ộ' | 'ơ' | 'Ơ' | 'ờ' | 'Ờ' | 'ớ' | 'Ớ' | 'ở'
        | 'Ở' | 'ỡ' | 'Ỡ' | 'ợ' | 'Ợ' => 'o',
        'ù' | 'Ù' | 'ú' | 'Ú' | 'ủ' | 'Ủ' | 'ũ' | 'Ũ' | 'ụ' | 'Ụ' | 'ư' | 'Ư' | 'ừ' | 'Ừ' | 'ứ'
        | 'Ứ' | 'ử' | 'Ử' | 'ữ' | 'Ữ' | 'ự' | 'Ự' => 'u',
        'ỳ' | 'Ỳ' | 'ý' | 'Ý' | 'ỷ' | 'Ỷ' | 'ỹ' | 'Ỹ' | 'ỵ' | 'Ỵ' => 'y',
        _ => return None,
    })
}

/// Whether `c` is a combining diacritical mark (decomposed Vietnamese text).
fn is_combining_mark(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

/// Whether `c` can be part of a Vietnamese word: a letter or a combining mark.
pub(crate) fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphabetic()
    } else {
        vietnamese_base(c).is_some() || c.is_alphabetic() || is_combining_mark(c)
    }
}

/// What a character is to the Vietnamese reader.
#[derive(Copy, Clone)]
enum CharClass {
    /// Whitespace, `.` or `,`.
    Separator,
    /// An ASCII digit.
    Digit,
    /// A combining diacritical mark: part of the word, dropped when folding.
    Mark,
    /// A letter, folded to lower case without diacritics.
    Letter(char),
    /// Anything else: not Vietnamese move text.
    Other,
}

fn classify(c: char) -> CharClass {
    if c.is_ascii() {
        return if c.is_ascii_whitespace() || c == '.' || c == ',' {
            CharClass::Separator
        } else if c.is_ascii_digit() {
            CharClass::Digit
        } else if c.is_ascii_alphabetic() {
            CharClass::Letter(c.to_ascii_lowercase())
        } else {
            CharClass::Other
        };
    }
    // The common case first, without Unicode tables.
    if let Some(base) = vietnamese_base(c) {
        CharClass::Letter(base)
    } else if is_combining_mark(c) {
        CharClass::Mark
    } else if c.is_whitespace() {
        CharClass::Separator
    } else if c.is_alphabetic() {
        CharClass::Letter(c.to_lowercase().next().unwrap_or(c))
    } else {
        CharClass::Other
    }
}

/// The base letter of a Vietnamese letter (lower case, diacritics removed);
/// `None` for combining marks, which are dropped.
fn fold(c: char) -> Option<char> {
    match classify(c) {
        CharClass::Letter(base) => Some(base),
        CharClass::Mark => None,
        _ if c.is_ascii() => Some(c),
        _ => Some(c.to_lowercase().next().unwrap_or(c)),
    }
}

/// One word or number of the text, folded, with where it stands.
#[derive(Copy, Clone, Default)]
struct Token {
    /// Byte offset of its first character.
    start: usize,
    /// Byte offset just past its last character.
    end: usize,
    folded: [u8; 8],
    len: usize,
    /// The original word contains ớ (general) or ợ (elephant).
    hint: Option<PieceKind>,
}

impl Token {
    /// The folded text (ASCII lower case letters and digits).
    fn folded(&self) -> &[u8] {
        &self.folded[..self.len]
    }
}

/// At most five tokens (one more than a move has, to report trailing text);
/// `items[5]` is scratch room for reading the tokens after those.
struct Tokens {
    items: [Token; 6],
    len: usize,
}

impl Tokens {
    fn get(&self, i: usize) -> Option<&Token> {
        self.items[..self.len].get(i)
    }
}

/// A syntax error: the byte offset where it is ([`AT_END`] past the end) and its kind.
type SyntaxError = (usize, SyntaxErrorKind);

/// The offset of an error "at the end of the text".
const AT_END: usize = usize::MAX;

/// Splits `text` into folded tokens, stopping before token number
/// `max_tokens + 1` would start (the rest of the text is then not looked at).
/// Tokens are built in place (this is the Vietnamese reader's inner loop).
fn tokens(text: &str, max_tokens: usize) -> Result<Tokens, SyntaxError> {
    let mut out = Tokens {
        items: [Token::default(); 6],
        len: 0,
    };
    // A token is being read in `out.items[out.len.min(5)]`.
    let mut open = false;
    let mut current_is_digit = false;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let c = if bytes[at] < 0x80 {
            bytes[at] as char
        } else {
            text[at..].chars().next().expect("on a character boundary")
        };
        let class = classify(c);
        let is_sep = matches!(class, CharClass::Separator);
        let is_digit = matches!(class, CharClass::Digit);
        let is_mark = matches!(class, CharClass::Mark);
        if open && (is_sep || (!is_mark && is_digit != current_is_digit)) {
            open = false;
            out.len = (out.len + 1).min(5);
        }
        let next = at + c.len_utf8();
        if is_sep {
            at = next;
            continue;
        }
        if !open && out.len >= max_tokens {
            break;
        }
        let folded = match class {
            CharClass::Other | CharClass::Separator => {
                return Err((at, SyntaxErrorKind::Unrecognised))
            }
            CharClass::Digit => Some(c),
            CharClass::Letter(base) => Some(base),
            CharClass::Mark => None,
        };
        let t = &mut out.items[out.len.min(5)];
        if !open {
            *t = Token {
                start: at,
                ..Token::default()
            };
            open = true;
        }
        current_is_digit = is_digit;
        match c {
            'ớ' | 'Ớ' => t.hint = Some(PieceKind::General),
            'ợ' | 'Ợ' => t.hint = Some(PieceKind::Elephant),
            _ => {}
        }
        if let Some(f) = folded {
            if t.len == t.folded.len() || !f.is_ascii() {
                return Err((t.start, SyntaxErrorKind::Unrecognised));
            }
            t.folded[t.len] = f as u8;
            t.len += 1;
        }
        t.end = next;
        at = next;
    }
    if open {
        out.len = (out.len + 1).min(5);
    }
    Ok(out)
}

fn piece_kinds(word: &[u8], hint: Option<PieceKind>) -> Option<(PieceKind, Option<PieceKind>)> {
    Some(match word {
        // Without diacritics "tuong" is general or elephant; the move decides.
        b"tuong" => match hint {
            Some(k) => (k, None),
            None => (PieceKind::General, Some(PieceKind::Elephant)),
        },
        b"soai" | b"tuongsoai" => (PieceKind::General, None),
        b"si" | b"sy" => (PieceKind::Advisor, None),
        b"tinh" => (PieceKind::Elephant, None),
        b"xe" => (PieceKind::Chariot, None),
        b"phao" => (PieceKind::Cannon, None),
        b"ma" => (PieceKind::Horse, None),
        b"tot" | b"binh" | b"chot" => (PieceKind::Soldier, None),
        _ => return None,
    })
}

/// Whether `word` (any case, with or without diacritics) is a Vietnamese piece name.
pub(crate) fn is_piece_word(word: &str) -> bool {
    // The longest name, "tuongsoai", has nine letters.
    let mut folded = [0u8; 9];
    let mut len = 0;
    for f in word.chars().filter_map(fold) {
        if len == folded.len() || !f.is_ascii() {
            return false;
        }
        folded[len] = f as u8;
        len += 1;
    }
    piece_kinds(&folded[..len], None).is_some()
}

/// Whether Vietnamese reading hands `text` to the WXF reader: the WXF form
/// is what the writer uses where Vietnamese has no words (N-VI-TANDEM).
fn is_wxf_form(text: &str) -> bool {
    let first = text.trim_start().chars().next();
    matches!(first, Some('+' | '-' | '1'..='9'))
        || (text.trim().len() <= 4 && text.is_ascii() && !text.contains(' '))
}

/// The move described by the first four tokens.
fn describe(toks: &Tokens) -> Result<Described, SyntaxError> {
    let tok = |i: usize| toks.get(i);
    let t0 = tok(0).ok_or((0, SyntaxErrorKind::Empty))?;
    let (kind, alt_kind) =
        piece_kinds(t0.folded(), t0.hint).ok_or((t0.start, SyntaxErrorKind::UnknownPiece))?;
    let t1 = tok(1).ok_or((AT_END, SyntaxErrorKind::ExpectedFile))?;
    let origin = match t1.folded() {
        b"truoc" => Origin::Marked {
            marker: Marker::Front,
            file: None,
        },
        b"sau" => Origin::Marked {
            marker: Marker::Rear,
            file: None,
        },
        b"giua" => Origin::Marked {
            marker: Marker::Middle,
            file: None,
        },
        [d @ b'1'..=b'9'] => Origin::File(d - b'0'),
        _ => return Err((t1.start, SyntaxErrorKind::ExpectedFile)),
    };
    let t2 = tok(2).ok_or((AT_END, SyntaxErrorKind::ExpectedDirection))?;
    let direction = match t2.folded() {
        b"tien" | b"tan" => Direction::Forward,
        b"thoai" | b"lui" => Direction::Backward,
        b"binh" => Direction::Sideways,
        _ => return Err((t2.start, SyntaxErrorKind::ExpectedDirection)),
    };
    let t3 = tok(3).ok_or((AT_END, SyntaxErrorKind::ExpectedNumber))?;
    let number = match t3.folded() {
        [d @ b'1'..=b'9'] => d - b'0',
        _ => return Err((t3.start, SyntaxErrorKind::ExpectedNumber)),
    };
    Ok(Described {
        kind,
        alt_kind,
        origin,
        direction,
        number,
    })
}

/// Reads Vietnamese text (`Pháo 2 bình 5`, `Xe trước bình 4`, `Phao 2 binh 5`);
/// texts that are WXF (the form written for four or five soldiers on a
/// file) are read as WXF.
///
/// With `short` (N-VI-SHORT), the compact form is tried first.
pub(crate) fn read(text: &str, short: bool) -> Result<Described, ParseMoveError> {
    if short {
        if let Some(described) = read_short(text) {
            return Ok(described);
        }
    }
    let err = |(at, kind): SyntaxError| {
        // Errors name the 1-based character position.
        let position = text[..at.min(text.len())].chars().count() + 1;
        ParseMoveError::new(Some(Notation::Vietnamese), text, position, kind)
    };
    if let Some((described, end)) = read_vietnamese_words_exact(text) {
        if end == text.len() {
            return Ok(described);
        }
    }
    if is_wxf_form(text) {
        return crate::wxf::read(text, WxfConvention::Official).map_err(|mut e| {
            e.notation = Some(Notation::Vietnamese);
            e
        });
    }
    let toks = tokens(text, usize::MAX).map_err(err)?;
    let described = describe(&toks).map_err(err)?;
    if let Some(t) = toks.get(4) {
        return Err(err((t.start, SyntaxErrorKind::TrailingText)));
    }
    Ok(described)
}

/// Reads four space-separated words exactly as this crate's
/// [`format`](crate::format) writes them
/// (`Pháo 2 bình 5`, `Xe truoc binh 4`), by comparing whole words with the
/// writer's; returns the move and the byte offset where its last word ends.
/// `None` for any other spelling (case, spacing, decomposed marks, WXF…),
/// which the tokeniser then reads: this only skips its per-character work
/// for the text the library itself writes, to the same result.
pub fn read_vietnamese_words_exact(text: &str) -> Option<(Described, usize)> {
    let bytes = text.as_bytes();
    let mut words = [(0, 0); 4];
    let mut i = 0;
    for (k, word) in words.iter_mut().enumerate() {
        if k > 0 {
            let spaces = bytes[i..].iter().take_while(|&&b| b == b' ').count();
            if spaces == 0 {
                return None;
            }
            i += spaces;
        }
        let start = i;
        i += bytes[i..]
            .iter()
            .take_while(|&&b| !b.is_ascii_whitespace())
            .count();
        if i == start {
            return None;
        }
        *word = (start, i);
    }
    let word = |k: usize| &text[words[k].0..words[k].1];
    let digit = |w: &str| match w.as_bytes() {
        &[d @ b'1'..=b'9'] => Some(d - b'0'),
        _ => None,
    };
    let diacritics = [true, false];
    let (kind, alt_kind) = PieceKind::ALL.into_iter().find_map(|kind| {
        diacritics
            .into_iter()
            .find(|&d| word(0) == piece_word(kind, d))
            .map(|d| match kind {
                // "Tuong" is both; the move decides (as in `piece_kinds`).
                PieceKind::General | PieceKind::Elephant if !d => {
                    (PieceKind::General, Some(PieceKind::Elephant))
                }
                _ => (kind, None),
            })
    })?;
    let origin = match digit(word(1)) {
        Some(file) => Origin::File(file),
        None => {
            let marker = [Marker::Front, Marker::Rear, Marker::Middle]
                .into_iter()
                .find(|&m| diacritics.iter().any(|&d| word(1) == marker_word(m, d)))?;
            Origin::Marked { marker, file: None }
        }
    };
    let direction = [Direction::Forward, Direction::Backward, Direction::Sideways]
        .into_iter()
        .find(|&dir| {
            diacritics
                .iter()
                .any(|&d| word(2) == direction_word(dir, d))
        })?;
    let number = digit(word(3))?;
    let described = Described {
        kind,
        alt_kind,
        origin,
        direction,
        number,
    };
    Some((described, words[3].1))
}

/// Reads the Vietnamese words a line of move text starts with, when they
/// form a move that [`parse_text`](crate::parse_text) would read the same
/// way; returns it with the byte offset where its last token ends (more
/// text may follow). `None` for WXF forms and anything that is not a whole
/// move: the caller then falls back to `parse_text` for the error.
///
/// ```
/// use xiangqi_notation::read_vietnamese_words;
///
/// let (_, end) = read_vietnamese_words("Pháo 2 bình 5 Mã 8 tiến 7").unwrap();
/// assert_eq!(end, "Pháo 2 bình 5".len());
/// assert!(read_vietnamese_words("C2.5").is_none());
/// ```
pub fn read_vietnamese_words(text: &str) -> Option<(Described, usize)> {
    if let Some(found) = read_vietnamese_words_exact(text) {
        return Some(found);
    }
    let first_word = text.split(char::is_whitespace).next().unwrap_or("");
    // `read` of the first word alone would try WXF; only a word that may be
    // WXF text can make that succeed ("Xe" and "Phao" are short but cannot).
    if is_wxf_form(first_word) && crate::wxf::may_be_wxf(first_word) {
        return None;
    }
    let toks = tokens(text, 4).ok()?;
    let described = describe(&toks).ok()?;
    Some((described, toks.get(3)?.end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Situation;

    /// The exact-word shortcut reads every move text the writer produces
    /// (with and without diacritics) as the tokeniser does, in positions of
    /// random playouts.
    #[test]
    fn written_words_read_as_the_tokeniser_reads_them() {
        let mut checked = 0;
        for seed in 0..20 {
            xiangqi_core::random_game(seed, 80, |pos, _| {
                let moves = pos.legal_move_vec();
                for &mv in &moves {
                    let s = Situation::of(pos, mv).expect("legal");
                    for diacritics in [true, false] {
                        let mut text = String::new();
                        let style = VietnameseStyle {
                            diacritics,
                            short: false,
                        };
                        write(&s, &style, &mut text);
                        let Some((described, end)) = read_vietnamese_words_exact(&text) else {
                            // Only the WXF fallback form is not written in words.
                            assert!(!has_vietnamese_form(&s), "{text:?}");
                            continue;
                        };
                        assert_eq!(end, text.len(), "{text:?}");
                        let toks = tokens(&text, usize::MAX).expect("tokens");
                        assert_eq!(describe(&toks), Ok(described), "{text:?}");
                        checked += 1;
                    }
                }
            });
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// N-VI-SHORT examples of the rules reference.
    #[test]
    fn compact_form_examples() {
        let read = |t: &str| read_short(t).unwrap_or_else(|| panic!("{t:?}"));
        let d = read("P2-5");
        assert_eq!(
            (d.kind, d.origin, d.direction, d.number),
            (PieceKind::Cannon, Origin::File(2), Direction::Sideways, 5)
        );
        assert_eq!(read("M2.3").direction, Direction::Forward);
        assert_eq!(read("M3/2").direction, Direction::Backward);
        assert_eq!(
            read("Xt-4").origin,
            Origin::Marked {
                marker: Marker::Front,
                file: None
            }
        );
        assert_eq!(
            read("Xs/1").origin,
            Origin::Marked {
                marker: Marker::Rear,
                file: None
            }
        );
        assert_eq!(
            read("Bg-4").origin,
            Origin::Marked {
                marker: Marker::Middle,
                file: None
            }
        );
        assert_eq!(read("Tg5.1").kind, PieceKind::General);
        assert_eq!(read("T7.5").kind, PieceKind::Elephant);
        assert_eq!(read("s4.5").kind, PieceKind::Advisor);
        for bad in ["P2=5", "P+=4", "P3+1", "3+=4", "Tg-5x", "Q2-5", "P0-5", ""] {
            assert!(read_short(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn other_spellings_are_left_to_the_tokeniser() {
        for text in [
            "pháo 2 bình 5",
            "Pháo  2 bình",
            "Pháo\t2 bình 5",
            "Pháo 2. bình 5",
            "Phao 2 binh 0",
        ] {
            assert!(read_vietnamese_words_exact(text).is_none(), "{text:?}");
        }
        // … which reads them (or says why not) all the same.
        assert!(read("pháo 2 bình 5", false).is_ok());
        assert!(read("Pháo\t2 bình 5", false).is_ok());
    }
}
