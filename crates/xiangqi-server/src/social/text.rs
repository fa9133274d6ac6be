//! What a chat message or a report's note may hold: plain text on one
//! line, without control characters or the invisible marks that reorder
//! or hide text, within a length. The server never reads it as markup; the
//! web client shows it with `textContent`.

/// Why a text is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Nothing left once cleaned.
    #[error("the text is empty")]
    Empty,
    /// Over the limit (characters counted, the limit).
    #[error("the text has {0} characters, more than the limit of {1}")]
    TooLong(usize, usize),
}

/// Characters that change how the text around them is shown: the
/// directional overrides and isolates, and the zero-width ones.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// `text` cleaned: line breaks and tabs as spaces, other control and
/// invisible characters dropped, spaces around trimmed; refused when empty
/// or longer than `max` characters.
pub fn clean_text(text: &str, max: usize) -> Result<String, TextError> {
    // Refuse a huge text before cleaning it (a frame is at most 16 KiB).
    let count = text.chars().count();
    if count > max * 2 {
        return Err(TextError::TooLong(count, max));
    }
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if c.is_control() || invisible(c) => None,
            c => Some(c),
        })
        .collect();
    let cleaned = cleaned.trim();
    let count = cleaned.chars().count();
    if cleaned.is_empty() {
        Err(TextError::Empty)
    } else if count > max {
        Err(TextError::TooLong(count, max))
    } else {
        Ok(cleaned.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_cleaned_and_bounded() {
        assert_eq!(clean_text("  gg\nwp\t ", 10).unwrap(), "gg wp");
        assert_eq!(clean_text("a\u{202E}b\u{0007}c", 10).unwrap(), "abc");
        assert_eq!(clean_text("<b>hi</b>", 20).unwrap(), "<b>hi</b>");
        assert_eq!(clean_text(" \u{200B}\n", 10), Err(TextError::Empty));
        assert_eq!(clean_text("象棋好", 3).unwrap(), "象棋好");
        assert_eq!(clean_text("象棋好!", 3), Err(TextError::TooLong(4, 3)));
        assert_eq!(
            clean_text(&"x".repeat(1000), 300),
            Err(TextError::TooLong(1000, 300))
        );
    }
}
