//! Every command shown in the README and in each docs/*.md page, run as
//! written against the example files of docs/examples, its output
//! compared with the output shown (docs/README.md has the convention).
//! Documentation that is run cannot drift from the program.
//!
//! Each page gets one scratch folder holding a copy of docs/examples at
//! `docs/examples/`, so a page reads as if typed at the repository's root
//! and its blocks run in order (a block may use a file an earlier one
//! wrote); nothing is written into the repository. Beside that folder,
//! `../shared/testdata` leads to the reference data when it is there, for
//! the blocks marked `shared-testdata` (skipped without it, as every test
//! of that data is; a failure under CI=true).

#![cfg(unix)]

mod blocks;
mod expect;
mod run;

use std::path::{Path, PathBuf};
use xiangqi_test_support::{shared_testdata, workspace_root};

#[test]
fn every_shown_command_runs_and_prints_what_is_shown() {
    let root = workspace_root();
    let bin_folder = Path::new(env!("CARGO_BIN_EXE_xiangqi"))
        .parent()
        .expect("the binary has a folder")
        .to_path_buf();
    let mut failures = Vec::new();
    let (mut ran, mut blocks_ran, mut skipped) = (0, 0, Vec::new());
    let mut ran_in_readme = 0;
    for page in pages(&root) {
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        let text = std::fs::read_to_string(&page).expect("the page reads");
        let blocks = match blocks::parse(&text) {
            Ok(blocks) => blocks,
            Err(problems) => {
                failures.extend(problems.into_iter().map(|p| format!("{name}: {p}")));
                continue;
            }
        };
        if blocks.iter().all(|b| b.skip.is_some()) {
            skipped.extend(
                blocks
                    .iter()
                    .map(|b| format!("{name}:{} ({})", b.line, b.skip.as_ref().unwrap())),
            );
            continue;
        }
        let scratch = tempfile::tempdir().expect("a scratch folder");
        let folder = scratch.path().join("repository");
        copy_folder(&root.join("docs/examples"), &folder.join("docs/examples"));
        let shared = blocks.iter().any(|b| b.needs_shared && b.skip.is_none())
            && link_shared_testdata(scratch.path());
        for block in blocks {
            if let Some(reason) = &block.skip {
                skipped.push(format!("{name}:{} ({reason})", block.line));
                continue;
            }
            if block.needs_shared && !shared {
                skipped.push(format!("{name}:{} (no ../shared/testdata)", block.line));
                continue;
            }
            blocks_ran += 1;
            for command in &block.commands {
                let result = run::run(&command.text, &folder, &bin_folder);
                ran += 1;
                if name == "README.md" {
                    ran_in_readme += 1;
                }
                let (shown, status) = expect::expected(&command.output);
                let problem = match result.status {
                    None => Some("did not end within the time bound".to_string()),
                    Some(code) if code != status => {
                        Some(format!("exit status {code}, the page implies {status}"))
                    }
                    _ if !expect::matches(&shown, &result.output) => {
                        Some("printed something other than what is shown".to_string())
                    }
                    _ => None,
                };
                if let Some(problem) = problem {
                    failures.push(format!(
                        "{name}:{}: `$ {}` {problem}\n--- shown:\n{}\n--- printed:\n{}",
                        command.line,
                        command.text,
                        shown.join("\n"),
                        result.output.trim_end()
                    ));
                }
            }
        }
    }
    println!(
        "doc commands: {ran} run in {blocks_ran} blocks; {} blocks not run:",
        skipped.len()
    );
    for block in &skipped {
        println!("  not run: {block}");
    }
    assert!(
        failures.is_empty(),
        "{} doc command problems:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(ran_in_readme > 0, "the README shows no command that runs");
}

/// README.md and every docs/*.md page, sorted.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ reads")
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
}

/// `SCRATCH/shared/testdata` as a link to the reference data, so that
/// `../shared/testdata` reads the same from the scratch copy of the
/// repository as from the repository; false when the data is absent.
fn link_shared_testdata(scratch: &Path) -> bool {
    let Some(data) = shared_testdata("") else {
        return false;
    };
    let link = scratch.join("shared/testdata");
    std::fs::create_dir_all(link.parent().unwrap()).expect("the shared folder");
    std::os::unix::fs::symlink(&data, &link).expect("a link to the reference data");
    true
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("the copy's folder");
    for entry in std::fs::read_dir(from).expect("the examples read") {
        let entry = entry.expect("an examples entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("an example file copies");
        }
    }
}
