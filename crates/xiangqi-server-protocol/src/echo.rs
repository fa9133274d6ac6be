//! How much of a client's input an error message may repeat: a few dozen
//! characters. An answer that echoed its request whole (10 KB of it) would
//! turn every refusal into an amplifier and a place to plant text.

/// Characters of input an error message repeats at most.
pub const MAX_ECHO_CHARS: usize = 32;

/// Characters of an error message at most, whatever it quotes.
pub const MAX_MESSAGE_CHARS: usize = 240;

/// `input` as an error message quotes it: in double quotes, escaped as
/// Rust's `{:?}` does, cut to [`MAX_ECHO_CHARS`] characters with `…`.
///
/// ```
/// use xiangqi_server_protocol::echo::quoted;
/// assert_eq!(quoted("g_1"), "\"g_1\"");
/// assert_eq!(quoted(&"x".repeat(10_000)), format!("\"{}…\"", "x".repeat(32)));
/// ```
pub fn quoted(input: &str) -> String {
    let mut shown: String = input.chars().take(MAX_ECHO_CHARS).collect();
    let cut = shown.len() < input.len();
    shown = format!("{shown:?}");
    if cut {
        shown.insert(shown.len() - 1, '…');
    }
    shown
}

/// `message` with every quoted stretch (in `"…"` or `` `…` ``, as serde's
/// and axum's messages quote input) longer than [`MAX_ECHO_CHARS`] cut,
/// and the whole cut to [`MAX_MESSAGE_CHARS`]: for messages written by
/// libraries that quote what they read.
///
/// ```
/// use xiangqi_server_protocol::echo::cut_echoes;
/// let long = format!("invalid type: string \"{}\", expected u32", "z".repeat(5_000));
/// let cut = cut_echoes(&long);
/// assert!(cut.starts_with("invalid type: string \"zzzz"));
/// assert!(cut.ends_with("…\", expected u32"));
/// assert!(cut.chars().count() < 80);
/// ```
pub fn cut_echoes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(MAX_MESSAGE_CHARS * 4));
    let mut open: Option<char> = None;
    let mut inside = 0usize;
    for c in message.chars() {
        match open {
            Some(quote) if c == quote => {
                if inside > MAX_ECHO_CHARS {
                    out.push('…');
                }
                out.push(c);
                open = None;
            }
            Some(_) => {
                inside += 1;
                if inside <= MAX_ECHO_CHARS {
                    out.push(c);
                }
            }
            None => {
                if c == '"' || c == '`' {
                    open = Some(c);
                    inside = 0;
                }
                out.push(c);
            }
        }
    }
    if open.is_some() && inside > MAX_ECHO_CHARS {
        out.push('…');
    }
    cut_message(&out)
}

/// `message` cut to [`MAX_MESSAGE_CHARS`] characters, with `…`.
pub fn cut_message(message: &str) -> String {
    if message.chars().count() <= MAX_MESSAGE_CHARS {
        return message.to_string();
    }
    let mut cut: String = message.chars().take(MAX_MESSAGE_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_input_is_quoted_whole() {
        assert_eq!(quoted("a\"b"), "\"a\\\"b\"");
        assert_eq!(quoted(&"é".repeat(32)), format!("\"{}\"", "é".repeat(32)));
        assert_eq!(quoted(&"é".repeat(33)), format!("\"{}…\"", "é".repeat(32)));
    }

    #[test]
    fn library_messages_keep_their_words_and_lose_the_echo() {
        let long = "q".repeat(1_000);
        let message = format!("unknown variant `{long}`, expected one of `red`, `black`");
        let cut = cut_echoes(&message);
        assert_eq!(
            cut,
            format!(
                "unknown variant `{}…`, expected one of `red`, `black`",
                "q".repeat(32)
            )
        );
        let unclosed = format!("EOF in \"{long}");
        assert_eq!(
            cut_echoes(&unclosed),
            format!("EOF in \"{}…", "q".repeat(32))
        );
        let plain = "w ".repeat(500);
        assert_eq!(cut_echoes(&plain).chars().count(), MAX_MESSAGE_CHARS);
    }
}
