//! The one walker of directories and patterns: sorted, links followed,
//! loops reported (`walkdir`), and a pattern matched (`globset`) against
//! the paths under its literal leading folders.

use std::fs;
use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use walkdir::WalkDir;

use super::CollectionError;

/// The files under `root` (not `root` itself), names in byte order within
/// each folder, a folder's files where its name sorts, at most `max_depth`
/// folders down (1: `root`'s own files): each as its path and its path
/// relative to `root`. A folder that cannot be read, or a link back to a
/// folder being walked, is an error in its place; the walk goes on.
pub(super) fn walk(
    root: &Path,
    max_depth: Option<usize>,
) -> impl Iterator<Item = Result<(PathBuf, PathBuf), CollectionError>> + '_ {
    let mut walker = WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .min_depth(1);
    if let Some(depth) = max_depth {
        walker = walker.max_depth(depth);
    }
    walker.into_iter().filter_map(move |entry| match entry {
        // Folders are walked, not listed; nor is anything but a file (a pipe).
        Ok(entry) if !entry.file_type().is_file() => None,
        Ok(entry) => {
            let relative = entry.path().strip_prefix(root).ok()?.to_owned();
            Some(Ok((entry.into_path(), relative)))
        }
        Err(e) => Some(Err(unreadable(root, &e))),
    })
}

fn unreadable(root: &Path, e: &walkdir::Error) -> CollectionError {
    let reason = match (e.loop_ancestor(), e.io_error()) {
        (Some(ancestor), _) => format!(
            "a link back to {}, which is being walked: not followed",
            ancestor.display()
        ),
        (None, Some(io)) => io.to_string(),
        (None, None) => e.to_string(),
    };
    CollectionError::Unreadable {
        path: e.path().unwrap_or(root).to_owned(),
        reason,
    }
}

/// The characters that make a path a pattern.
const WILDCARDS: [char; 4] = ['*', '?', '[', '{'];

/// A glob pattern: the folders it starts with (walked), and the rest
/// (matched against the paths under them).
pub(super) struct Pattern {
    /// The pattern as given.
    pub text: String,
    /// The leading folders without wildcards (`.` when there are none).
    base: PathBuf,
    /// Whether the pattern starts with a wildcard: its matches are then
    /// named relative to the current folder (`*.pgn` gives `a.pgn`, not `./a.pgn`).
    relative_to_here: bool,
    matcher: GlobMatcher,
    /// The folders down the rest reaches, unless it holds `**`.
    max_depth: Option<usize>,
}

impl Pattern {
    /// `input` as a pattern: `None` when it is a path that exists, or has no
    /// wildcard (then it is a file name).
    pub fn parse(input: &Path) -> Result<Option<Pattern>, CollectionError> {
        let Some(text) = input.to_str() else {
            return Ok(None);
        };
        if !text.contains(WILDCARDS) || fs::symlink_metadata(input).is_ok() {
            return Ok(None);
        }
        let mut base = PathBuf::new();
        let mut rest: Vec<&str> = Vec::new();
        for component in input.components() {
            match component {
                Component::Normal(name) if rest.is_empty() => {
                    let name = name.to_str().unwrap_or_default();
                    if name.contains(WILDCARDS) {
                        rest.push(name);
                    } else {
                        base.push(name);
                    }
                }
                _ if rest.is_empty() => base.push(component),
                other => rest.push(other.as_os_str().to_str().unwrap_or_default()),
            }
        }
        let rest = rest.join("/");
        let matcher = GlobBuilder::new(&rest)
            .literal_separator(true)
            .build()
            .map_err(|e| CollectionError::BadPattern {
                pattern: text.to_owned(),
                reason: e.kind().to_string(),
            })?
            .compile_matcher();
        let max_depth = (!rest.contains("**")).then(|| rest.split('/').count());
        let relative_to_here = base.as_os_str().is_empty();
        if relative_to_here {
            base.push(".");
        }
        Ok(Some(Pattern {
            text: text.to_owned(),
            base,
            relative_to_here,
            matcher,
            max_depth,
        }))
    }

    /// The files the pattern matches, in walking order (and the folders
    /// that could not be read on the way).
    pub fn matches(&self) -> Box<dyn Iterator<Item = Result<PathBuf, CollectionError>> + '_> {
        if !self.base.is_dir() {
            return Box::new(std::iter::empty());
        }
        Box::new(
            walk(&self.base, self.max_depth).filter_map(|found| match found {
                Ok((path, relative)) if self.matcher.is_match(&relative) => {
                    Some(Ok(if self.relative_to_here {
                        relative
                    } else {
                        path
                    }))
                }
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            }),
        )
    }
}
