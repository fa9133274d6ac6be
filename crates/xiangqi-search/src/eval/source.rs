//! Writes a weight table as the Rust source of `default_weights.rs`.

use std::fmt::Write;

use super::weights::{Weights, GROUPS, WEIGHT_COUNT};

/// The source of a `default_weights.rs` holding `weights`, with `header`
/// lines (how the file was made: command, seed, data size) as comments.
/// Piece-square groups are written one kind per block, one rank per line.
///
/// ```
/// let text = xiangqi_search::weights_source(&xiangqi_search::Weights::default(), &["a test"]);
/// assert!(text.contains("// a test") && text.contains("pub(crate) const DEFAULT_WEIGHTS"));
/// ```
pub fn weights_source(weights: &Weights, header: &[&str]) -> String {
    let mut out = String::new();
    out.push_str("// @generated: the evaluation weights, written by `weights_source`.\n");
    for line in header {
        let _ = writeln!(out, "// {line}");
    }
    out.push_str("//\n// Layout: `weights.rs` (GROUPS). Do not edit by hand; regenerate.\n\n");
    out.push_str("use super::weights::WEIGHT_COUNT;\n\n");
    out.push_str("#[rustfmt::skip]\n");
    let _ = writeln!(
        out,
        "pub(crate) const DEFAULT_WEIGHTS: [i32; WEIGHT_COUNT] = [\n    // {WEIGHT_COUNT} weights"
    );
    let values = weights.values();
    for g in GROUPS {
        let _ = writeln!(out, "    // {} ({})", g.name, g.len);
        let chunk = if g.name.starts_with("pst_") {
            9
        } else {
            g.len.max(1)
        };
        for (i, row) in values[g.offset..g.offset + g.len].chunks(chunk).enumerate() {
            if g.name.starts_with("pst_") && i % 10 == 0 {
                let _ = writeln!(out, "    // kind {}", i / 10);
            }
            let cells: Vec<String> = row.iter().map(|v| format!("{v},")).collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
    }
    out.push_str("];\n");
    out
}
