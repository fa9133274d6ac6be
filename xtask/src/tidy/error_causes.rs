//! The error convention (ARCHITECTURE.md, invariants): an error that holds
//! its cause writes it into its own message and does not also return it
//! from `source()`, so a printer that walks the chain (`{:#}` of anyhow)
//! says each thing once. With thiserror that means no `#[from]` or
//! `#[source]` attribute and no field named `source` (thiserror makes such
//! a field the source), except under `#[error(transparent)]`, which
//! forwards both the message and the source of the one inner error.

use std::path::Path;

use anyhow::Result;

/// Violations of the convention in the `.rs` files under `dir`.
pub fn check_dir(dir: &Path) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for (path, text) in super::rust_sources(dir)? {
        for (line, why) in check_text(&text) {
            problems.push(format!("{}:{line}: {why}", path.display()));
        }
    }
    problems.sort();
    Ok(problems)
}

/// (1-based line, why) for each violation in one source file.
pub fn check_text(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let mut problems = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("//") {
            continue;
        }
        if line.contains("#[from]") || line.contains("#[source]") {
            // The variant's (or struct's) message is the nearest `#[error(` above.
            let message = lines[..=i].iter().rev().find(|l| l.starts_with("#[error("));
            if !message.is_some_and(|m| m.starts_with("#[error(transparent)]")) {
                problems.push((
                    i + 1,
                    "a cause marked #[from]/#[source] outside #[error(transparent)]: write it \
                     into the message or return it from source(), not both (keep it in the \
                     message; write `impl From` by hand)"
                        .to_string(),
                ));
            }
        }
        if line.starts_with("source:") || line.starts_with("pub source:") {
            let owner = lines[..i].iter().rev().find(|l| {
                l.starts_with("#[derive(")
                    || l.starts_with("fn ")
                    || l.starts_with("pub fn ")
                    || l.starts_with("pub(crate) fn ")
                    || l.starts_with("impl")
            });
            if owner.is_some_and(|o| o.starts_with("#[derive(") && o.contains("Error")) {
                problems.push((
                    i + 1,
                    "a field named `source` in an error type is its source() for thiserror; \
                     name it for what it is (e.g. `error`) and keep it in the message"
                        .to_string(),
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::check_text;

    #[test]
    fn a_cause_in_the_message_and_in_source_fails() {
        let text = r#"
#[derive(Debug, thiserror::Error)]
pub enum E {
    #[error("bad start position: {0}")]
    BadFen(#[from] FenError),
    #[error("cannot start {command}: {source}")]
    Spawn {
        command: String,
        #[source]
        source: std::io::Error,
    },
}
"#;
        let lines: Vec<usize> = check_text(text).into_iter().map(|(l, _)| l).collect();
        assert_eq!(lines, [5, 9, 10]);
    }

    #[test]
    fn transparent_forwarding_and_causes_kept_in_the_message_pass() {
        let text = r#"
#[derive(Debug, thiserror::Error)]
pub enum E {
    #[error(transparent)]
    Syntax(#[from] ParseMoveError),
    #[error("ply {ply}: {error}")]
    Illegal { ply: usize, error: PlayError },
}

pub(crate) fn from_source(
    source: Source,
) {}
"#;
        assert_eq!(check_text(text), Vec::new());
    }
}
