use std::fs;
use std::path::{Path, PathBuf};

use super::*;

/// A fresh folder holding empty files at `paths` (folders made as needed).
fn tree(name: &str, paths: &[&str]) -> PathBuf {
    let root =
        std::env::temp_dir().join(format!("xiangqi-collection-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&root);
    for path in paths {
        let path = root.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "").unwrap();
    }
    fs::create_dir_all(&root).unwrap();
    root
}

fn names(found: Vec<Result<CollectedFile, CollectionError>>) -> Vec<String> {
    found.into_iter().map(|f| f.unwrap().name).collect()
}

fn paths(found: Vec<Result<CollectedFile, CollectionError>>) -> Vec<PathBuf> {
    found.into_iter().map(|f| f.unwrap().path).collect()
}

#[test]
fn a_directory_yields_its_game_files_in_path_order() {
    let root = tree(
        "sorted",
        &[
            "b.pgn",
            "a.xqf",
            "a/z.CBL",
            "a/b/c.Xqf",
            "a b.wxf",
            "B.cbr",
            "notes.txt",
            "a/README",
            "c.cbf",
            "noext",
        ],
    );
    let found = collect([&root]).unwrap();
    // A folder's files come where its name sorts ("a" < "a b" < "a.xqf"),
    // names in byte order ("B" < "a").
    assert_eq!(
        names(found.clone()),
        [
            "B.cbr",
            "a/b/c.Xqf",
            "a/z.CBL",
            "a b.wxf",
            "a.xqf",
            "b.pgn",
            "c.cbf"
        ]
    );
    assert_eq!(paths(found)[1], root.join("a").join("b").join("c.Xqf"));
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn files_are_listed_as_given_whatever_their_name() {
    let root = tree("explicit", &["notes.txt", "x.pgn"]);
    let notes = root.join("notes.txt");
    let missing = root.join("missing.xqf");
    let found = collect([&notes, &missing, &root.join("x.pgn"), &notes]).unwrap();
    assert_eq!(
        paths(found),
        [notes.clone(), missing, root.join("x.pgn"), notes.clone()]
    );
    let found = collect([&notes]).unwrap();
    assert_eq!(names(found), [notes.to_string_lossy()]);
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn inputs_keep_their_order() {
    let root = tree("order", &["d2/b.xqf", "d1/a.xqf", "z.pgn"]);
    let found = collect([root.join("z.pgn"), root.join("d2"), root.join("d1")]).unwrap();
    assert_eq!(
        names(found),
        [
            root.join("z.pgn").to_string_lossy().as_ref(),
            "b.xqf",
            "a.xqf"
        ]
    );
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_pattern_matches_files_under_its_leading_folders() {
    let root = tree(
        "glob",
        &[
            "x/1.xqf",
            "x/2.XQF",
            "x/3.pgn",
            "x/deep/4.xqf",
            "x/notes.txt",
            "y/5.xqf",
        ],
    );
    let pattern = |p: &str| {
        let text = format!("{}/{p}", root.display());
        collect([text.as_str()]).map(paths)
    };
    let rel = |names: &[&str]| -> Vec<PathBuf> { names.iter().map(|n| root.join(n)).collect() };
    // `*` stays within a name and the folder: deep/4.xqf is not matched.
    assert_eq!(pattern("x/*.xqf").unwrap(), rel(&["x/1.xqf"]));
    assert_eq!(
        pattern("x/*.{xqf,XQF}").unwrap(),
        rel(&["x/1.xqf", "x/2.XQF"])
    );
    assert_eq!(
        pattern("**/*.xqf").unwrap(),
        rel(&["x/1.xqf", "x/deep/4.xqf", "y/5.xqf"])
    );
    assert_eq!(pattern("*/[13].*").unwrap(), rel(&["x/1.xqf", "x/3.pgn"]));
    // Any file a pattern matches is listed, as a shell would pass it.
    assert_eq!(pattern("x/n*").unwrap(), rel(&["x/notes.txt"]));
    // Named as matched.
    let found = collect([format!("{}/y/*", root.display())]).unwrap();
    assert_eq!(names(found), [root.join("y/5.xqf").to_string_lossy()]);
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_pattern_without_leading_folders_names_its_matches_from_here() {
    // Tests run in the crate's folder.
    let found = collect(["Cargo.tom?"]).unwrap();
    assert_eq!(names(found.clone()), ["Cargo.toml"]);
    assert_eq!(paths(found), [Path::new("Cargo.toml")]);
}

#[test]
fn an_input_that_yields_nothing_is_an_error_naming_it() {
    let root = tree("empty", &["sub/notes.txt"]);
    assert_eq!(
        collect([&root]),
        Err(CollectionError::EmptyDirectory(root.clone()))
    );
    let pattern = format!("{}/*.xqf", root.display());
    assert_eq!(
        collect([pattern.as_str()]),
        Err(CollectionError::NoMatch(pattern.clone()))
    );
    assert!(collect([pattern.as_str()])
        .unwrap_err()
        .to_string()
        .contains("no file matches"));
    // Under a folder that does not exist.
    let nowhere = format!("{}/nowhere/*.xqf", root.display());
    assert_eq!(
        collect([nowhere.as_str()]),
        Err(CollectionError::NoMatch(nowhere.clone()))
    );
    let bad = format!("{}/[z", root.display());
    assert!(matches!(
        collect([bad.as_str()]),
        Err(CollectionError::BadPattern { pattern, .. }) if pattern == bad
    ));
    fs::remove_dir_all(root).unwrap();
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_is_reported_in_its_place_and_the_walk_goes_on() {
    let root = tree("loop", &["a/1.xqf", "c/2.xqf"]);
    std::os::unix::fs::symlink(&root, root.join("a").join("back")).unwrap();
    std::os::unix::fs::symlink(root.join("c"), root.join("b")).unwrap();
    let found = collect([&root]).unwrap();
    let shown: Vec<String> = found
        .iter()
        .map(|f| match f {
            Ok(file) => file.name.clone(),
            Err(e) => format!("error: {e}"),
        })
        .collect();
    assert_eq!(shown.len(), 4, "{shown:?}");
    assert_eq!(shown[0], "a/1.xqf");
    assert!(
        shown[1].starts_with("error: ") && shown[1].contains("not followed"),
        "{shown:?}"
    );
    // A link to a folder that is no ancestor is followed.
    assert_eq!(shown[2..], ["b/2.xqf", "c/2.xqf"]);
    // A pattern crossing folders walks the same way.
    let found = collect([format!("{}/**/*.xqf", root.display())]).unwrap();
    assert_eq!(found.iter().filter(|f| f.is_err()).count(), 1);
    assert_eq!(found.len(), 4);
    fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_game_is_named_by_its_file_and_its_number_in_formats_of_many_games() {
    let file = CollectedFile {
        path: PathBuf::from("/manuals/lib.CBL"),
        name: "lib.CBL".to_owned(),
    };
    assert_eq!(file.game_name(Format::Cbl, 12), "lib.CBL#12");
    assert_eq!(file.game_name(Format::Pgn, 1), "lib.CBL#1");
    assert_eq!(file.game_name(Format::Xqf, 1), "lib.CBL");
}

#[test]
fn unique_names_keep_folders_and_never_repeat() {
    let file = |name: &str| CollectedFile {
        path: PathBuf::from(name),
        name: name.to_owned(),
    };
    let mut names = UniqueNames::new();
    let mut next = |name: &str, format: Format, game: usize| {
        names
            .next(&file(name), format, game, "xqf")
            .to_string_lossy()
            .into_owned()
    };
    assert_eq!(next("sub/a.XQF", Format::Xqf, 1), "sub/a.xqf");
    assert_eq!(next("sub/A.xqf", Format::Xqf, 1), "sub/A~2.xqf");
    assert_eq!(next("sub/a.cbr", Format::Cbr, 1), "sub/a~3.xqf");
    assert_eq!(next("lib.CBL", Format::Cbl, 12), "lib-12.xqf");
    assert_eq!(next("lib-12.xqf", Format::Xqf, 1), "lib-12~2.xqf");
    // Never outside the output folder.
    assert_eq!(next("../../up/b.pgn", Format::Pgn, 3), "up/b-3.xqf");
    assert_eq!(next("/abs/c.xqf", Format::Xqf, 1), "abs/c.xqf");
    assert_eq!(next("..", Format::Xqf, 1), "game.xqf");
}
