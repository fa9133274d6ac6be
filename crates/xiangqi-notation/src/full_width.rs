//! Full-width forms (U+FF01 `！` to U+FF5E `～`: `Ｃ２＝５`, `＋Ｐ＋１`, `８`)
//! folded to their ASCII letters, digits and signs, the one step every
//! parser of this crate takes first: games published in Chinese type
//! setting write WXF moves, and Black's file numbers, so.

use std::borrow::Cow;

/// `text` with every full-width form (U+FF01 to U+FF5E) replaced by its
/// ASCII character (U+0021 to U+007E); borrowed when there is none. One
/// character stays one character, so character positions (what the
/// parsers' errors count) are the same in both.
///
/// ```
/// use xiangqi_notation::fold_full_width;
///
/// assert_eq!(fold_full_width("Ｃ２＝５"), "C2=5");
/// assert_eq!(fold_full_width("馬８進７"), "馬8進7");
/// assert!(matches!(fold_full_width("h2e2"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn fold_full_width(text: &str) -> Cow<'_, str> {
    // Every full-width form's UTF-8 starts with 0xEF (EF BC 81 … EF BD 9E).
    if !text.as_bytes().contains(&0xEF) {
        return Cow::Borrowed(text);
    }
    if !text.chars().any(is_full_width) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match is_full_width(c) {
                true => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
                false => c,
            })
            .collect(),
    )
}

fn is_full_width(c: char) -> bool {
    ('\u{FF01}'..='\u{FF5E}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_range_folds_and_nothing_else() {
        for code in 0xFF01..=0xFF5E_u32 {
            let c = char::from_u32(code).unwrap();
            let folded = fold_full_width(c.encode_utf8(&mut [0; 4])).into_owned();
            assert_eq!(folded, char::from_u32(code - 0xFEE0).unwrap().to_string());
        }
        for text in ["\u{FF00}", "\u{FF5F}", "\u{3000}", "炮二平五", "ｶ"] {
            assert_eq!(fold_full_width(text), text);
        }
    }
}
