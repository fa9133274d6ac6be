//! The board drawing of `xiangqi play`: points joined by lines, the river,
//! the palace diagonals, file letters and rank digits on every side, pieces as
//! Chinese characters (or FEN letters with `--ascii`), optionally coloured
//! with ANSI codes (red and black pieces on light discs, the last move marked).

use xiangqi_core::{Color, Move, Piece, PieceKind, Position, Square};

/// How to draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BoardStyle {
    /// Black at the bottom.
    pub flipped: bool,
    /// Letters and ASCII lines instead of Chinese characters and box lines.
    pub ascii: bool,
    /// ANSI colours.
    pub ansi: bool,
}

/// Columns between two neighbouring points.
const PITCH: usize = 4;
const RED_PIECE: &str = "\x1b[1;31;47m";
const BLACK_PIECE: &str = "\x1b[1;30;47m";
const LAST_MOVE: &str = "\x1b[4;43m";
const RIVER: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// The traditional characters of each side's pieces.
fn piece_char(piece: Piece) -> char {
    let (red, black) = match piece.kind {
        PieceKind::General => ('帥', '將'),
        PieceKind::Advisor => ('仕', '士'),
        PieceKind::Elephant => ('相', '象'),
        PieceKind::Horse => ('傌', '馬'),
        PieceKind::Chariot => ('俥', '車'),
        PieceKind::Cannon => ('炮', '砲'),
        PieceKind::Soldier => ('兵', '卒'),
    };
    if piece.color == Color::Red {
        red
    } else {
        black
    }
}

/// Terminal columns a string takes (CJK characters take two).
pub fn display_width(s: &str) -> usize {
    s.chars()
        .map(|c| if (c as u32) >= 0x2E80 { 2 } else { 1 })
        .sum()
}

/// The files left to right and ranks top to bottom as drawn.
fn axes(style: &BoardStyle) -> (Vec<u8>, Vec<u8>) {
    let files: Vec<u8> = (0..9).collect();
    let ranks: Vec<u8> = (0..10).rev().collect();
    if style.flipped {
        (
            files.into_iter().rev().collect(),
            ranks.into_iter().rev().collect(),
        )
    } else {
        (files, ranks)
    }
}

/// True when a palace diagonal joins the two points.
fn diagonal(a: (u8, u8), b: (u8, u8)) -> bool {
    let in_palace = |(f, r): (u8, u8)| (3..=5).contains(&f) && (r <= 2 || r >= 7);
    let centre = |(f, r): (u8, u8)| f == 4 && (r == 1 || r == 8);
    in_palace(a)
        && in_palace(b)
        && (centre(a) || centre(b))
        && a.0.abs_diff(b.0) == 1
        && a.1.abs_diff(b.1) == 1
}

/// The board as text, one line per row, ending with a newline.
pub fn draw(pos: &Position, style: &BoardStyle, last: Option<Move>) -> String {
    let (files, ranks) = axes(style);
    let (horizontal, vertical, down_right, down_left) = if style.ascii {
        ('-', '|', '\\', '/')
    } else {
        ('─', '│', '╲', '╱')
    };
    let paint = |code: &str, text: &str| {
        if style.ansi {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    };
    let letters: String = files
        .iter()
        .map(|&f| format!("{:<PITCH$}", (b'a' + f) as char))
        .collect::<String>()
        .trim_end()
        .to_string();
    let mut out = String::new();
    out.push_str(&format!("   {letters}\n"));
    for (row, &rank) in ranks.iter().enumerate() {
        let mut line = format!("{rank}  ");
        for (col, &file) in files.iter().enumerate() {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let (token, width) = match pos.piece_at(sq) {
                Some(piece) => {
                    let text = if style.ascii {
                        piece.fen_char().to_string()
                    } else {
                        piece_char(piece).to_string()
                    };
                    let w = display_width(&text);
                    let code = if piece.color == Color::Red {
                        RED_PIECE
                    } else {
                        BLACK_PIECE
                    };
                    let code = if last.is_some_and(|m| m.to() == sq) {
                        format!("{code}\x1b[4m")
                    } else {
                        code.to_string()
                    };
                    (paint(&code, &text), w)
                }
                None if last.is_some_and(|m| m.from() == sq) => (paint(LAST_MOVE, "+"), 1),
                None => ("+".to_string(), 1),
            };
            line.push_str(&token);
            if col + 1 < files.len() {
                line.extend(std::iter::repeat(horizontal).take(PITCH - width));
            }
        }
        line.push_str(&format!("  {rank}"));
        out.push_str(&line);
        out.push('\n');
        let Some(&below) = ranks.get(row + 1) else {
            break;
        };
        if rank.min(below) == 4 {
            out.push_str(&river_line(style, vertical, &paint));
            continue;
        }
        let mut between: Vec<char> = vec![' '; PITCH * 8 + 1];
        for (col, &file) in files.iter().enumerate() {
            between[col * PITCH] = vertical;
            if let Some(&next) = files.get(col + 1) {
                let mid = col * PITCH + PITCH / 2;
                if diagonal((file, rank), (next, below)) {
                    between[mid] = down_right;
                } else if diagonal((next, rank), (file, below)) {
                    between[mid] = down_left;
                }
            }
        }
        out.push_str("   ");
        out.push_str(between.iter().collect::<String>().trim_end());
        out.push('\n');
    }
    out.push_str(&format!("   {letters}\n"));
    out
}

/// The river between ranks 4 and 5: only the edges are joined across it.
fn river_line(style: &BoardStyle, vertical: char, paint: &dyn Fn(&str, &str) -> String) -> String {
    let inner = PITCH * 8 - 1;
    let (left, right) = if style.ascii {
        ("river", "river")
    } else {
        ("楚 河", "漢 界")
    };
    let gap = inner - display_width(left) - display_width(right) - 4;
    let text = format!("  {left}{}{right}  ", " ".repeat(gap));
    format!("   {vertical}{}{vertical}\n", paint(RIVER, &text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(flipped: bool, ascii: bool) -> BoardStyle {
        BoardStyle {
            flipped,
            ascii,
            ansi: false,
        }
    }

    #[test]
    fn ascii_start_position() {
        let text = draw(&Position::startpos(), &plain(false, true), None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 21);
        assert_eq!(lines[0], "   a   b   c   d   e   f   g   h   i");
        assert_eq!(lines[1], "9  r---n---b---a---k---a---b---n---r  9");
        assert_eq!(lines[2], "   |   |   |   | \\ | / |   |   |   |");
        assert_eq!(lines[4], "   |   |   |   | / | \\ |   |   |   |");
        assert_eq!(lines[5], "7  +---c---+---+---+---+---+---c---+  7");
        assert_eq!(lines[10], "   |  river                 river  |");
        assert_eq!(lines[19], "0  R---N---B---A---K---A---B---N---R  0");
        assert_eq!(lines[20], lines[0]);
        // Every drawn row is as wide as the frame.
        for l in lines.iter().skip(1).step_by(2).take(10) {
            assert_eq!(display_width(l), 39, "{l}");
        }
    }

    #[test]
    fn chinese_and_flipped() {
        let text = draw(&Position::startpos(), &plain(true, false), None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   i   h   g   f   e   d   c   b   a");
        assert_eq!(lines[1], "0  俥──傌──相──仕──帥──仕──相──傌──俥  0");
        assert_eq!(lines[2], "   │   │   │   │ ╲ │ ╱ │   │   │   │");
        assert_eq!(lines[19], "9  車──馬──象──士──將──士──象──馬──車  9");
        assert_eq!(display_width(lines[10]), 36, "{}", lines[10]);
        assert!(lines[10].contains("楚 河") && lines[10].contains("漢 界"));
    }

    #[test]
    fn colours_and_last_move() {
        let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
        let style = BoardStyle {
            flipped: false,
            ascii: true,
            ansi: true,
        };
        let text = draw(&pos, &style, Some("h2e2".parse().unwrap()));
        assert!(
            text.contains(&format!("{RED_PIECE}\x1b[4mC{RESET}")),
            "{text}"
        );
        assert!(text.contains(&format!("{LAST_MOVE}+{RESET}")));
        assert!(text.contains(&format!("{BLACK_PIECE}k{RESET}")));
    }
}
