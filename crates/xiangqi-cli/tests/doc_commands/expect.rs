//! Whether a command's output is the output a page shows. Lines are
//! compared without trailing blanks; two placeholders stand for what
//! changes from run to run (times, speeds), and should stay rare:
//! `[..]` inside a line matches any text on that line, and a line that is
//! only `...` matches any number of lines (none included). A shown last
//! line `[exit status: N]` says the command fails with status N; without
//! it the command must succeed.

/// The shown output split into the lines to match and the expected status.
pub fn expected(shown: &[String]) -> (Vec<&str>, i32) {
    let mut lines: Vec<&str> = shown.iter().map(|l| l.trim_end()).collect();
    let status = lines
        .last()
        .and_then(|l| l.strip_prefix("[exit status: "))
        .and_then(|l| l.strip_suffix(']'))
        .and_then(|n| n.parse().ok());
    if status.is_some() {
        lines.pop();
    }
    (lines, status.unwrap_or(0))
}

/// `actual` (the command's output) against the shown lines.
pub fn matches(shown: &[&str], actual: &str) -> bool {
    let mut actual: Vec<&str> = actual.lines().map(str::trim_end).collect();
    while actual.last().is_some_and(|l| l.is_empty()) {
        actual.pop();
    }
    lines_match(shown, &actual)
}

fn lines_match(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((&"...", rest)) => (0..=actual.len()).any(|skip| lines_match(rest, &actual[skip..])),
        Some((first, rest)) => {
            !actual.is_empty() && line_matches(first, actual[0]) && lines_match(rest, &actual[1..])
        }
    }
}

fn line_matches(shown: &str, actual: &str) -> bool {
    let mut parts = shown.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_lines_and_trailing_blanks() {
        assert!(matches(&["a", "b"], "a  \nb\n\n"));
        assert!(!matches(&["a", "b"], "a\nb\nc\n"));
        assert!(!matches(&["a", "b"], "a\n"));
        assert!(matches(&[], ""));
        assert!(!matches(&[], "something\n"));
    }

    #[test]
    fn placeholders() {
        assert!(matches(
            &["nodes 3 in [..] s ([..] nodes/s)"],
            "nodes 3 in 0.01 s (300 nodes/s)"
        ));
        assert!(!matches(&["nodes 3 in [..] s"], "nodes 4 in 0.01 s"));
        assert!(!matches(&["a[..]b"], "ab-x"));
        assert!(matches(&["a[..]b"], "ab"));
        assert!(matches(&["first", "...", "last"], "first\nx\ny\nlast\n"));
        assert!(matches(&["first", "...", "last"], "first\nlast\n"));
        assert!(!matches(&["first", "...", "last"], "first\nx\n"));
    }

    #[test]
    fn exit_status_line() {
        let shown = vec![
            "error: no such file".to_string(),
            "[exit status: 2]".to_string(),
        ];
        assert_eq!(expected(&shown), (vec!["error: no such file"], 2));
        assert_eq!(expected(&["x".to_string()]), (vec!["x"], 0));
    }
}
