//! `xiangqi tune --teacher`: a second engine scores the data's positions and
//! the fit blends its scores in; a teacher that cannot answer stops the run
//! with an error naming the problem. `xiangqi tune --wdl`: the win-rate fit.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("xiangqi-tune-{}-{name}", std::process::id()))
}

fn tune(extra: &[&str], out: &std::path::Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(["tune", "--games", "2", "--nodes", "300", "--epochs", "3"])
        .args(["--match-games", "0", "--threads", "2", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn our_engine_as_teacher_scores_every_position() {
    let out_file = temp_path("taught.rs");
    let teacher = format!("{} uci", env!("CARGO_BIN_EXE_xiangqi"));
    let out = tune(
        &[
            "--teacher",
            &teacher,
            "--teacher-depth",
            "2",
            "--teacher-weight",
            "0.5",
        ],
        &out_file,
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let positions: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("data: 2 games, "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no data line: {stdout}"));
    assert!(positions > 0);
    assert!(
        stdout.contains(&format!("scored {positions} positions at depth 2")),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "targets: {positions} of {positions} positions blend"
        )),
        "{stdout}"
    );
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        written.contains("--teacher-depth 2 --teacher-weight 0.5"),
        "{written}"
    );
    // How the self-play games ended, on stdout and in the file's header.
    let endings = stdout
        .lines()
        .find(|l| l.starts_with("endings: "))
        .unwrap_or_else(|| panic!("no endings line: {stdout}"));
    assert!(endings.contains("ply cap "), "{endings}");
    assert!(written.contains(&format!("// {endings}")), "{written}");
    let _ = std::fs::remove_file(out_file);
}

#[test]
fn a_teacher_that_cannot_start_or_a_bad_weight_is_an_error() {
    let out_file = temp_path("never.rs");
    let out = tune(&["--teacher", "/nonexistent/teacher"], &out_file);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot start the teacher"), "{stderr}");
    let out = tune(
        &[
            "--teacher",
            "/nonexistent/teacher",
            "--teacher-weight",
            "1.5",
        ],
        &out_file,
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--teacher-weight must lie between 0 and 1"),
        "{stderr}"
    );
    assert!(!out_file.exists());
}

/// `xiangqi tune --wdl`: scored self-play, the win-rate fit, its quality and
/// constants; the data depend only on the seed (any number of threads).
#[test]
fn wdl_fit_prints_the_model_and_its_constants() {
    let run = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args([
                // A seed whose training part has wins, draws and losses
                // (the last fifth of the positions is held out).
                "tune", "--wdl", "--games", "12", "--nodes", "300", "--seed", "5",
            ])
            .args(["--threads", threads])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("1");
    assert!(text.starts_with("data: 12 games, "), "{text}");
    assert!(text.contains("\nendings: "), "{text}");
    let loss = |prefix: &str| -> f64 {
        let at = text.find(prefix).unwrap() + prefix.len();
        let word = text[at..].split_whitespace().next().unwrap();
        word.trim_end_matches([')', ',']).parse().unwrap()
    };
    assert!(loss("log loss ") < loss("constant W/D/L guess "), "{text}");
    for name in ["FITTED_A0", "FITTED_A1", "FITTED_B0", "FITTED_B1"] {
        assert!(text.contains(&format!("const {name}: f64 = ")), "{text}");
    }
    assert_eq!(run("2"), text, "the same data and fit on two threads");
}

/// `xiangqi tune --wdl --wdl-games`: one command refits the model to
/// self-play and match games; the match file's scored moves of the named
/// player count (forfeits and other players' games do not), the held-out
/// losses are printed and the calibration table is written.
#[test]
fn wdl_refit_adds_match_games_and_writes_the_table() {
    let games = temp_path("match.pgn");
    let table = temp_path("table.csv");
    std::fs::write(
        &games,
        "[Red \"ours\"]\n[Black \"theirs\"]\n[Result \"1-0\"]\n[Termination \"normal\"]\n\n\
         1. h2e2 {cp 20 depth 1 1 ms} h9g7 {cp 5 depth 1 1 ms} 2. h0g2 {cp 30 depth 2 1 ms} i9h9 1-0\n\n\
         [Red \"theirs\"]\n[Black \"ours\"]\n[Result \"1-0\"]\n[Termination \"normal\"]\n\n\
         1. h2e2 h9g7 {cp -10 depth 1 1 ms} 2. h0g2 i9h9 {cp -40 depth 1 1 ms} 1-0\n\n\
         [Red \"ours\"]\n[Black \"theirs\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n\
         1. h2e2 {cp 20 depth 1 1 ms} 0-1\n\n\
         [Red \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n1. h2e2 {cp 20 depth 1 1 ms} 1/2-1/2\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args([
            "tune",
            "--wdl",
            "--games",
            "12",
            "--nodes",
            "300",
            "--seed",
            "5",
            "--threads",
            "2",
        ])
        .arg("--wdl-games")
        .arg(&games)
        .args(["--wdl-player", "ours", "--wdl-table"])
        .arg(&table)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(
            "match games: 4 positions of \"ours\" (W/D/L by position 2/0/2), 2 games skipped"
        ),
        "{text}"
    );
    let total: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("data: 12 games, "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no data line: {text}"));
    // A fifth of each source held out: of the 4 match positions none.
    let held_out = total / 5;
    assert!(
        text.contains(&format!(
            "held out: the last fifth of each source's positions, {held_out} of {}",
            total + 4
        )),
        "{text}"
    );
    assert!(text.contains("held-out log loss: fitted "), "{text}");
    assert!(text.contains("unfitted logistic (cp/250) "), "{text}");
    let csv = std::fs::read_to_string(&table).unwrap();
    let mut lines = csv.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("ply_from,ply_to,cp_from,positions,"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(!rows.is_empty(), "{csv}");
    for row in &rows {
        assert_eq!(row.len(), 14, "{row:?}");
        let positions: usize = row[3].parse().unwrap();
        assert!(positions >= 30, "{row:?}");
        let shares: f64 = row[5..8].iter().map(|v| v.parse::<f64>().unwrap()).sum();
        assert!((shares - 1.0).abs() < 1e-3, "{row:?}");
    }
    let _ = std::fs::remove_file(games);
    let _ = std::fs::remove_file(table);
}
