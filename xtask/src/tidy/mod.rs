//! `cargo xtask tidy`: repository rules that the compiler does not check.
//!
//! * The dependency rule (ARCHITECTURE.md): workspace crates depend downward
//!   only. Checked on normal and build dependencies from `cargo metadata`;
//!   dev-dependencies may point sideways but never upward (to a crate that
//!   itself depends on this one).
//! * Every crate's root module has a module doc (`//!`) saying what it owns.
//! * Library crates never print: no `print!`/`println!`/`eprint!`/`eprintln!`/`dbg!`
//!   in their sources (they return typed errors instead).
//! * Library errors say each cause once: in their message, not also as
//!   `source()` ([`error_causes`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::run::{cargo, output, project_root};

mod error_causes;

/// Which workspace crates a library crate may depend on (normal and build
/// dependencies). Keep in sync with ARCHITECTURE.md.
const LAYERS: &[(&str, &[&str])] = &[
    ("xiangqi-parallel", &[]),
    ("xiangqi-core", &[]),
    ("xiangqi-notation", &["xiangqi-core"]),
    (
        "xiangqi-gamefile",
        &["xiangqi-core", "xiangqi-notation", "xiangqi-parallel"],
    ),
    ("xiangqi-adjudication", &["xiangqi-core"]),
    ("xiangqi-nnue", &["xiangqi-core"]),
    (
        "xiangqi-search",
        &[
            "xiangqi-core",
            "xiangqi-adjudication",
            "xiangqi-parallel",
            "xiangqi-nnue",
        ],
    ),
    (
        "xiangqi-nnue-train",
        &[
            "xiangqi-core",
            "xiangqi-gamefile",
            "xiangqi-search",
            "xiangqi-nnue",
            "xiangqi-parallel",
        ],
    ),
    (
        "xiangqi-engine-client",
        &[
            "xiangqi-core",
            "xiangqi-notation",
            "xiangqi-gamefile",
            "xiangqi-adjudication",
            "xiangqi-search",
        ],
    ),
    (
        "xiangqi-rating",
        &["xiangqi-core", "xiangqi-gamefile", "xiangqi-adjudication"],
    ),
    (
        "xiangqi-explorer",
        &[
            "xiangqi-core",
            "xiangqi-gamefile",
            "xiangqi-adjudication",
            "xiangqi-parallel",
        ],
    ),
    (
        "xiangqi-server",
        &[
            "xiangqi-explorer",
            "xiangqi-core",
            "xiangqi-notation",
            "xiangqi-gamefile",
            "xiangqi-adjudication",
            "xiangqi-search",
            "xiangqi-rating",
            "xiangqi-server-protocol",
            "xiangqi-viewer",
            "xiangqi-ecco",
            "xiangqi-engine-client",
            "xiangqi-puzzles",
        ],
    ),
    (
        "xiangqi-ecco",
        &["xiangqi-core", "xiangqi-notation", "xiangqi-gamefile"],
    ),
    (
        "xiangqi-puzzles",
        &["xiangqi-core", "xiangqi-gamefile", "xiangqi-search"],
    ),
    ("xiangqi-server-protocol", &[]),
    (
        "xiangqi-bot",
        &[
            "xiangqi-core",
            "xiangqi-engine-client",
            "xiangqi-server-protocol",
        ],
    ),
    (
        "xiangqi-viewer",
        &[
            "xiangqi-core",
            "xiangqi-notation",
            "xiangqi-gamefile",
            "xiangqi-explorer",
            "xiangqi-ecco",
        ],
    ),
];

/// Crates at the top that compose everything: the CLI, the cross-crate test
/// package (`tests/`), and anything under
/// these directories (Python bindings, fuzz targets).
const COMPOSERS: &[&str] = &["xiangqi-cli", "xiangqi-tests"];
const COMPOSER_DIRS: &[&str] = &["bindings", "fuzz"];

/// Crates that must not depend on any workspace crate.
const STANDALONE: &[&str] = &["xtask", "xiangqi-test-support"];

/// Crates that serve tests only: any crate may take them as a
/// dev-dependency, none as a normal one, and they may print (a test that
/// skips says so).
const TEST_ONLY: &[&str] = &["xiangqi-test-support"];

pub fn run() -> Result<()> {
    check()?;
    eprintln!("tidy: ok");
    Ok(())
}

/// All tidy checks; the error lists every violation found.
pub fn check() -> Result<()> {
    let metadata = output(&mut cargo([
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
    ]))?;
    let metadata: Value = serde_json::from_str(&metadata).context("cannot parse cargo metadata")?;
    let packages = metadata["packages"]
        .as_array()
        .context("cargo metadata has no packages")?;
    let mut problems = Vec::new();
    problems.extend(dependency_rule(packages));
    problems.extend(source_rules(packages)?);
    if !problems.is_empty() {
        bail!(
            "tidy found {} problem(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        );
    }
    Ok(())
}

fn dependency_rule(packages: &[Value]) -> Vec<String> {
    let root = project_root();
    let members: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut problems = Vec::new();
    let graph = normal_graph(packages, &members);
    for package in packages {
        let name = package["name"].as_str().unwrap_or("?");
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or("?");
            if dep["kind"].as_str() != Some("dev") && TEST_ONLY.contains(&dep_name) {
                problems.push(format!(
                    "{name} depends on {dep_name}, which serves tests only: \
                     make it a dev-dependency"
                ));
            }
            if dep["kind"].as_str() == Some("dev") && reaches(&graph, dep_name, name) {
                problems.push(format!(
                    "{name} has a dev-dependency on {dep_name}, which depends on {name}: \
                     tests would see two copies of {name}'s types; see ARCHITECTURE.md"
                ));
            }
        }
        let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or(""));
        let relative = manifest.strip_prefix(&root).unwrap_or(&manifest);
        let is_composer =
            COMPOSERS.contains(&name) || COMPOSER_DIRS.iter().any(|d| relative.starts_with(d));
        if is_composer {
            continue;
        }
        let allowed: &[&str] = match LAYERS.iter().find(|(n, _)| *n == name) {
            Some((_, allowed)) => allowed,
            None if STANDALONE.contains(&name) => &[],
            None => {
                problems.push(format!(
                    "{name}: a workspace crate without a place in the dependency rule; \
                     add it to LAYERS in xtask/src/tidy/mod.rs and to ARCHITECTURE.md"
                ));
                continue;
            }
        };
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or("?");
            let is_dev = dep["kind"].as_str() == Some("dev");
            if is_dev || !members.contains(dep_name) {
                continue;
            }
            if !allowed.contains(&dep_name) {
                problems.push(format!(
                    "{name} depends on {dep_name}, against the dependency rule \
                     (allowed: {}); see ARCHITECTURE.md",
                    if allowed.is_empty() {
                        "no workspace crate".to_owned()
                    } else {
                        allowed.join(", ")
                    }
                ));
            }
        }
    }
    problems
}

/// Normal and build dependencies between workspace members.
fn normal_graph<'a>(packages: &'a [Value], members: &BTreeSet<&str>) -> Vec<(&'a str, &'a str)> {
    let mut edges = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or("?");
        for dep in package["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or("?");
            if dep["kind"].as_str() != Some("dev") && members.contains(dep_name) {
                edges.push((name, dep_name));
            }
        }
    }
    edges
}

/// True when `from` depends on `to`, directly or through other members.
fn reaches(graph: &[(&str, &str)], from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from];
    while let Some(node) = stack.pop() {
        if node == to {
            return true;
        }
        if seen.insert(node) {
            stack.extend(graph.iter().filter(|(a, _)| *a == node).map(|(_, b)| *b));
        }
    }
    false
}

fn source_rules(packages: &[Value]) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    for package in packages {
        let name = package["name"].as_str().unwrap_or("?");
        for target in package["targets"].as_array().into_iter().flatten() {
            let kinds: Vec<&str> = target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let is_root = kinds
                .iter()
                .any(|k| matches!(*k, "lib" | "rlib" | "cdylib"))
                || (kinds.contains(&"bin")
                    && target["src_path"]
                        .as_str()
                        .is_some_and(|p| p.ends_with("main.rs")));
            if !is_root {
                continue;
            }
            let src = Path::new(target["src_path"].as_str().unwrap_or(""));
            let text = std::fs::read_to_string(src)
                .with_context(|| format!("cannot read {}", src.display()))?;
            let first = text.lines().map(str::trim).find(|l| !l.is_empty());
            if !first.is_some_and(|l| l.starts_with("//!") || l.starts_with("#![doc")) {
                problems.push(format!(
                    "{}: {name} has no module doc (start the file with `//!` saying what the crate owns)",
                    src.display()
                ));
            }
        }
        if LAYERS.iter().any(|(n, _)| *n == name) {
            let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or(""));
            if let Some(dir) = manifest.parent() {
                problems.extend(printing_in(&dir.join("src"))?);
                problems.extend(error_causes::check_dir(&dir.join("src"))?);
            }
        }
    }
    Ok(problems)
}

/// Every `.rs` file under `dir` with its text, in no particular order (the
/// checks sort what they find); a folder that cannot be listed is passed over.
fn rust_sources(dir: &Path) -> Result<Vec<(PathBuf, String)>> {
    let mut sources = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                sources.push((path, text));
            }
        }
    }
    Ok(sources)
}

/// Lines of a library crate's sources that print, outside comments.
fn printing_in(dir: &Path) -> Result<Vec<String>> {
    const MACROS: &[&str] = &["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!("];
    let mut problems = Vec::new();
    for (path, text) in rust_sources(dir)? {
        for (i, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if MACROS.iter().any(|m| {
                code.starts_with(m)
                    || code.contains(&format!(" {m}"))
                    || code.contains(&format!("({m}"))
            }) {
                problems.push(format!(
                    "{}:{}: a library crate prints; return the data or a typed error instead",
                    path.display(),
                    i + 1
                ));
            }
        }
    }
    problems.sort();
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn package(name: &str, dir: &str, deps: &[(&str, Option<&str>)]) -> Value {
        let root = project_root();
        json!({
            "name": name,
            "manifest_path": root.join(dir).join("Cargo.toml").to_string_lossy(),
            "dependencies": deps.iter().map(|(d, kind)| json!({"name": d, "kind": kind})).collect::<Vec<_>>(),
            "targets": [],
        })
    }

    fn layered(extra: Vec<Value>) -> Vec<Value> {
        let mut packages = vec![
            package(
                "xiangqi-core",
                "crates/xiangqi-core",
                &[("thiserror", None)],
            ),
            package(
                "xiangqi-notation",
                "crates/xiangqi-notation",
                &[("xiangqi-core", None)],
            ),
            package(
                "xiangqi-adjudication",
                "crates/xiangqi-adjudication",
                &[("xiangqi-core", None)],
            ),
            package(
                "xiangqi-search",
                "crates/xiangqi-search",
                &[("xiangqi-core", None), ("xiangqi-adjudication", None)],
            ),
            package(
                "xiangqi-cli",
                "crates/xiangqi-cli",
                &[("xiangqi-search", None), ("xiangqi-notation", None)],
            ),
            package("xtask", "xtask", &[("clap", None)]),
        ];
        packages.extend(extra);
        packages
    }

    #[test]
    fn the_intended_layering_passes() {
        let bindings = package("xiangqi-py", "bindings/python", &[("xiangqi-search", None)]);
        assert_eq!(
            dependency_rule(&layered(vec![bindings])),
            Vec::<String>::new()
        );
    }

    #[test]
    fn an_upward_dependency_fails() {
        let mut packages = layered(vec![]);
        packages[0] = package(
            "xiangqi-core",
            "crates/xiangqi-core",
            &[("xiangqi-notation", None)],
        );
        let problems = dependency_rule(&packages);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].starts_with("xiangqi-core depends on xiangqi-notation"));
    }

    #[test]
    fn a_sideways_dependency_fails() {
        let mut packages = layered(vec![]);
        packages[1] = package(
            "xiangqi-notation",
            "crates/xiangqi-notation",
            &[
                ("xiangqi-core", None),
                ("xiangqi-adjudication", Some("build")),
            ],
        );
        let problems = dependency_rule(&packages);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("allowed: xiangqi-core"));
    }

    #[test]
    fn dev_dependencies_may_go_sideways_but_not_upward() {
        let mut packages = layered(vec![]);
        packages[2] = package(
            "xiangqi-adjudication",
            "crates/xiangqi-adjudication",
            &[("xiangqi-core", None), ("xiangqi-notation", Some("dev"))],
        );
        assert_eq!(dependency_rule(&packages), Vec::<String>::new());
        packages[0] = package(
            "xiangqi-core",
            "crates/xiangqi-core",
            &[("xiangqi-search", Some("dev"))],
        );
        let problems = dependency_rule(&packages);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("dev-dependency on xiangqi-search"));
    }

    #[test]
    fn test_support_is_a_dev_dependency_only() {
        let support = package("xiangqi-test-support", "crates/xiangqi-test-support", &[]);
        let mut packages = layered(vec![support.clone()]);
        packages[0] = package(
            "xiangqi-core",
            "crates/xiangqi-core",
            &[("xiangqi-test-support", Some("dev"))],
        );
        assert_eq!(dependency_rule(&packages), Vec::<String>::new());
        packages[0] = package(
            "xiangqi-core",
            "crates/xiangqi-core",
            &[("xiangqi-test-support", None)],
        );
        let problems = dependency_rule(&packages);
        assert!(
            problems.iter().any(|p| p.contains("serves tests only")),
            "{problems:?}"
        );
    }

    #[test]
    fn an_unplaced_crate_fails() {
        let problems = dependency_rule(&layered(vec![package(
            "xiangqi-book",
            "crates/xiangqi-book",
            &[],
        )]));
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("LAYERS"));
    }
}
