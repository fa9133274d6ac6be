//! End-to-end tests of `xiangqi match`: self-play between two `xiangqi uci`
//! processes, deliberately broken engines scored as losses, openings, PGN
//! output, and the reference engines when they are installed.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;
use xiangqi_adjudication::{GameRecord, RuleSet};
use xiangqi_gamefile::pgn::read_str;

/// Our own engine as a match participant.
const SELF: &str = concat!(env!("CARGO_BIN_EXE_xiangqi"), " uci");
const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
const MAXQI: &str = "/usr/games/maxqi";

/// Reasons the board rules give; anything else means an engine failed.
const BOARD_REASONS: [&str; 9] = [
    "checkmate",
    "stalemate",
    "threefold_repetition",
    "perpetual_check",
    "perpetual_chase",
    "mutual_perpetual_check",
    "mutual_perpetual_chase",
    "no_capture_rule",
    "insufficient_material",
];

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").expect("binary built")
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("xiangqi-match-{}-{name}", std::process::id()))
}

/// Runs `xiangqi match ARGS --json` and returns the summary.
fn run_json(args: &[&str]) -> Value {
    let out = xiangqi()
        .arg("match")
        .args(args)
        .arg("--json")
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON document")
}

fn reasons(summary: &Value) -> Vec<String> {
    summary["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reason"].as_str().unwrap().to_string())
        .collect()
}

/// Reads a PGN file and checks each game against the adjudication crate:
/// the moves replay legally and, for games the board decided, reach the
/// written result. Returns the number of games.
fn check_pgn(path: &Path, summary: &Value) -> usize {
    let text = std::fs::read_to_string(path).expect("PGN written");
    let games: Vec<_> = read_str(&text).map(|g| g.expect("valid PGN")).collect();
    for game in &games {
        let round: usize = game.tag("Round").unwrap().parse().unwrap();
        let entry = &summary["results"][round - 1];
        assert_eq!(entry["round"], round);
        assert_eq!(game.outcome().as_str(), entry["result"].as_str().unwrap());
        assert_eq!(game.tag("Reason"), entry["reason"].as_str());
        assert_eq!(game.tag("Red"), entry["red"].as_str());
        assert_eq!(game.plies(), entry["plies"].as_u64().unwrap() as usize);
        let record = GameRecord::new(game.start_position().unwrap(), game.moves().collect());
        let verdict = record.adjudicate(&RuleSet::default()).expect("legal moves");
        if BOARD_REASONS.contains(&entry["reason"].as_str().unwrap()) {
            assert_eq!(verdict.result(), game.outcome().as_str(), "round {round}");
            assert_eq!(
                verdict.reason.unwrap().code(),
                entry["reason"].as_str().unwrap()
            );
        } else {
            assert!(
                !verdict.is_over(),
                "round {round}: an engine failure ends a running game"
            );
        }
    }
    games.len()
}

/// A reader that stops early (`xiangqi match … | head -3`) ends the
/// command quietly, as for any filter: no "internal error" for the closed
/// pipe, and the games are in the PGN file already.
#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_summary_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let pgn = temp_path("closed-stdout.pgn");
    let _ = std::fs::remove_file(&pgn);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args([
            "match", "--engine", SELF, "--engine", SELF, "--games", "2", "--depth", "1",
        ])
        .arg("--pgn")
        .arg(&pgn)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xiangqi match starts");
    // Nobody reads the summary.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("internal error"), "{stderr}");
    assert_eq!(
        out.status.signal(),
        Some(libc::SIGPIPE),
        "{:?}: {stderr}",
        out.status
    );
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    assert_eq!(read_str(&text).count(), 2);
    let _ = std::fs::remove_file(pgn);
}

/// `--pgn OUT` appends: a second match adds its games after the first
/// one's, and a file that ends without a blank line (edited by hand) still
/// reads as separate games.
#[test]
fn pgn_output_is_appended_to_an_existing_file() {
    let pgn = temp_path("append.pgn");
    let hand_written = "[Event \"by hand\"]\n\n1. h2e2 h9g7 *";
    std::fs::write(&pgn, hand_written).unwrap();
    let args = [
        "--engine",
        SELF,
        "--engine",
        SELF,
        "--games",
        "2",
        "--depth",
        "1",
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    run_json(&args);
    run_json(&args);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.starts_with(hand_written), "the old text is kept");
    let games: Vec<_> = read_str(&text).map(|g| g.expect("valid PGN")).collect();
    let events: Vec<_> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(
        events,
        [
            "by hand",
            "xiangqi match",
            "xiangqi match",
            "xiangqi match",
            "xiangqi match"
        ]
    );
    let rounds: Vec<_> = games[1..].iter().map(|g| g.tag("Round").unwrap()).collect();
    assert_eq!(rounds, ["1", "2", "1", "2"]);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn self_play_at_depth_one() {
    let pgn = temp_path("self.pgn");
    let pgn_arg = pgn.to_str().unwrap();
    let summary = run_json(&[
        "--engine",
        SELF,
        "--engine",
        &format!("{SELF},name=Second"),
        "--games",
        "4",
        "--depth",
        "1",
        "--random-openings",
        "3",
        "--seed",
        "5",
        "--concurrency",
        "2",
        "--pgn",
        pgn_arg,
    ]);
    assert_eq!(summary["games"], 4);
    let (w, d, l) = (
        summary["wins"].as_u64().unwrap(),
        summary["draws"].as_u64().unwrap(),
        summary["losses"].as_u64().unwrap(),
    );
    assert_eq!(w + d + l, 4);
    assert_eq!(
        summary["points"].as_f64().unwrap(),
        w as f64 + d as f64 / 2.0
    );
    assert_eq!(summary["engines"][1]["name"], "Second");
    assert_eq!(summary["engines"][0]["ranks"], "0-9");
    for reason in reasons(&summary) {
        assert!(BOARD_REASONS.contains(&reason.as_str()), "{reason}");
    }
    // Colours alternate over each opening: games 1-2 share one, 3-4 another.
    let results = summary["results"].as_array().unwrap();
    assert_eq!(results[0]["opening"], results[1]["opening"]);
    assert_ne!(results[0]["opening"], results[2]["opening"]);
    assert_eq!(results[0]["first_engine_red"], true);
    assert_eq!(results[1]["first_engine_red"], false);
    assert_eq!(results[0]["red"], results[1]["black"]);
    assert_eq!(
        results[0]["opening"].as_str().unwrap().split(' ').count(),
        3
    );
    assert_eq!(check_pgn(&pgn, &summary), 4);
    // The two pairs, counted by the first engine's points from each: the
    // pentanomial counts agree with the games' results.
    let pairs = &summary["pentanomial"];
    assert_eq!(pairs["pairs"], 2, "{summary}");
    let points = |i: usize| match results[i]["result"].as_str().unwrap() {
        "1/2-1/2" => 1,
        "1-0" if i % 2 == 0 => 2,
        "0-1" if i % 2 == 1 => 2,
        _ => 0,
    };
    let mut expected = [0u64; 5];
    expected[points(0) + points(1)] += 1;
    expected[points(2) + points(3)] += 1;
    assert_eq!(pairs["counts"], serde_json::json!(expected), "{summary}");
    assert_eq!(summary["sprt"], Value::Null);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn text_summary() {
    let out = xiangqi()
        .args([
            "match", "--engine", SELF, "--engine", SELF, "--games", "2", "--depth", "1",
        ])
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Engine 1: xiangqi "), "{text}");
    assert!(lines[1].starts_with("Engine 2: xiangqi "), "{text}");
    assert_eq!(lines[2], "Games: 2 at depth 1, openings: start position");
    assert!(lines[3].starts_with("W/D/L: "), "{text}");
    assert!(lines[4].starts_with("Score: "), "{text}");
    assert!(lines[5].starts_with("Elo difference: "), "{text}");
    assert!(lines[5].ends_with("(95%)"), "{text}");
}

/// Writes an executable shell script that speaks just enough UCI;
/// `on_go` is the shell code run for `go`.
#[cfg(unix)]
fn fake_engine(name: &str, on_go: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_path(name);
    let script = format!(
        "#!/bin/sh\n\
         while read -r cmd rest; do\n\
           case \"$cmd\" in\n\
             uci) echo 'id name {name}'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             go) {on_go} ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Plays two games of our engine against a fake one; the fake must lose both.
#[cfg(unix)]
fn lost_by_fake(fake: &Path, extra: &[&str]) -> Value {
    let fake = fake.to_str().unwrap();
    let mut args = vec!["--engine", SELF, "--engine", fake, "--games", "2"];
    args.extend_from_slice(extra);
    let summary = run_json(&args);
    assert_eq!(summary["wins"], 2, "{summary}");
    assert_eq!(summary["losses"], 0, "{summary}");
    assert_eq!(
        summary["elo"],
        Value::Null,
        "a 100% score has no finite Elo"
    );
    summary
}

#[cfg(unix)]
#[test]
fn illegal_move_loses() {
    // a0a5: the chariot would jump over the soldier on a3.
    let fake = fake_engine("illegal", "echo 'bestmove a0a5'");
    let pgn = temp_path("illegal.pgn");
    let log = temp_path("illegal.log");
    let summary = lost_by_fake(
        &fake,
        &[
            "--depth",
            "1",
            "--pgn",
            pgn.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
        ],
    );
    let traffic = std::fs::read_to_string(&log).unwrap();
    assert!(traffic.contains(" > go depth 1\n"), "{traffic}");
    assert!(
        traffic.contains("illegal [") && traffic.contains(" < bestmove a0a5\n"),
        "{traffic}"
    );
    let _ = std::fs::remove_file(log);
    assert_eq!(reasons(&summary), ["illegal_move", "illegal_move"]);
    let detail = summary["results"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("illegal move a0a5"), "{detail}");
    // The fake is Black in game 1: it fails on ply 2, after our first move.
    assert_eq!(summary["results"][0]["plies"], 1);
    assert_eq!(summary["results"][1]["plies"], 0);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        text.contains("[Termination \"rules infraction\"]"),
        "{text}"
    );
    assert_eq!(check_pgn(&pgn, &summary), 2);
    let _ = std::fs::remove_file(pgn);
    let _ = std::fs::remove_file(fake);
}

#[cfg(unix)]
#[test]
fn garbage_move_loses() {
    let fake = fake_engine("garbage", "echo 'bestmove hello'");
    let summary = lost_by_fake(&fake, &["--depth", "1"]);
    assert_eq!(reasons(&summary), ["illegal_move", "illegal_move"]);
    let _ = std::fs::remove_file(fake);
}

#[cfg(unix)]
#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let fake = fake_engine("crash", "exit 3");
    let summary = lost_by_fake(&fake, &["--depth", "1"]);
    assert_eq!(reasons(&summary), ["crash", "crash"]);
    // Game 2 could only reach the engine's move if the dead engine was restarted.
    for r in summary["results"].as_array().unwrap() {
        let detail = r["detail"].as_str().unwrap();
        assert!(
            detail.contains("the engine died (exit status: 3)"),
            "{detail}"
        );
    }
    let _ = std::fs::remove_file(fake);
}

#[cfg(unix)]
#[test]
fn silence_loses_on_time() {
    let fake = fake_engine("silent", ":");
    let summary = lost_by_fake(&fake, &["--tc", "50", "--margin", "1500"]);
    assert_eq!(reasons(&summary), ["timeout", "timeout"]);
    let detail = summary["results"][1]["detail"].as_str().unwrap();
    assert!(detail.contains("no move within 1550 ms"), "{detail}");
    let _ = std::fs::remove_file(fake);
}

#[test]
fn openings_file() {
    let openings = temp_path("openings.txt");
    std::fs::write(
        &openings,
        "# one per line\n\
         1. h2e2 h9g7\n\
         \n\
         3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e1f2\n",
    )
    .unwrap();
    let summary = run_json(&[
        "--engine",
        SELF,
        "--engine",
        SELF,
        "--games",
        "4",
        "--depth",
        "1",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    let results = summary["results"].as_array().unwrap();
    assert_eq!(results[0]["opening"], "h2e2 h9g7");
    assert_eq!(
        results[3]["opening"],
        "3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1 moves e1f2"
    );
    // Generals and advisors only: the capture-free ending cannot be won.
    assert_eq!(results[2]["result"], "1/2-1/2", "{summary}");
    assert_eq!(
        summary["openings"],
        format!("2 from {}", openings.display())
    );
    let _ = std::fs::remove_file(openings);
}

#[test]
fn bad_arguments_are_errors() {
    let cases: [(&[&str], &str); 6] = [
        (&["--engine", SELF, "--depth", "1"], "exactly twice"),
        (
            &[
                "--engine",
                SELF,
                "--engine",
                "x,proto=morse",
                "--depth",
                "1",
            ],
            "unknown protocol",
        ),
        (
            &[
                "--engine",
                SELF,
                "--engine",
                "/nonexistent/engine",
                "--depth",
                "1",
            ],
            "cannot start engine",
        ),
        (
            &[
                "--engine", SELF, "--engine", SELF, "--games", "0", "--depth", "1",
            ],
            "--games",
        ),
        (
            &["--engine", SELF, "--engine", "/bin/cat", "--depth", "1"],
            "handshake failed",
        ),
        (
            &[
                "--engine",
                SELF,
                "--engine",
                "x,proto=xboard",
                "--nodes",
                "100",
            ],
            "node count",
        ),
    ];
    for (args, message) in cases {
        let out = xiangqi()
            .arg("match")
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }
    // No limit at all is a usage error from clap.
    let out = xiangqi()
        .args(["match", "--engine", SELF, "--engine", SELF])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn fairy_stockfish_out_of_the_box() {
    if !Path::new(FAIRY_STOCKFISH).exists() {
        eprintln!("skipped: {FAIRY_STOCKFISH} is not installed (apt-get install fairy-stockfish)");
        return;
    }
    let pgn = temp_path("fsf.pgn");
    let summary = run_json(&[
        "--engine",
        SELF,
        "--engine",
        FAIRY_STOCKFISH,
        "--games",
        "2",
        "--depth",
        "2",
        "--random-openings",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert!(summary["engines"][1]["name"]
        .as_str()
        .unwrap()
        .starts_with("Fairy-Stockfish"));
    assert_eq!(summary["engines"][1]["ranks"], "1-10");
    for reason in reasons(&summary) {
        assert!(
            BOARD_REASONS.contains(&reason.as_str()),
            "{reason}: {summary}"
        );
    }
    assert_eq!(check_pgn(&pgn, &summary), 2);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn maxqi_over_xboard() {
    if !Path::new(MAXQI).exists() {
        eprintln!("skipped: {MAXQI} is not installed (apt-get install fairymax)");
        return;
    }
    let log = temp_path("maxqi.log");
    let summary = run_json(&[
        "--engine",
        SELF,
        "--engine",
        &format!("{MAXQI},proto=xboard"),
        "--games",
        "2",
        "--tc",
        "20",
        "--random-openings",
        "2",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(summary["engines"][1]["name"]
        .as_str()
        .unwrap()
        .starts_with("MaxQi"));
    assert_eq!(summary["engines"][1]["protocol"], "xboard");
    // Sub-second times go through the clock: `st` takes whole seconds.
    let traffic = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_file(&log);
    assert!(
        traffic.contains("maxqi [") && traffic.contains(" > level 1 1 0\n"),
        "{traffic}"
    );
    assert!(
        traffic.contains(" > time 2\n") && traffic.contains(" < move "),
        "{traffic}"
    );
    for reason in reasons(&summary) {
        assert!(
            BOARD_REASONS.contains(&reason.as_str()),
            "{reason}: {summary}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_move_after_the_clock_ran_out_loses_on_time() {
    use std::os::unix::fs::PermissionsExt;
    // Answers a legal first move for either colour, but only after 0.75 s: past its 0.5 s clock, before the 0.5 s margin for a hung engine ends.
    let fake = temp_path("slow-clock");
    let script = "#!/bin/sh\n\
         pos=''\n\
         while read -r cmd rest; do\n\
           case \"$cmd\" in\n\
             uci) echo 'id name slow'; echo uciok ;;\n\
             isready) echo readyok ;;\n\
             position) pos=\"$rest\" ;;\n\
             go) echo \"$rest\" > \"$0.go\"; sleep 0.75; case \"$pos\" in *moves*) echo 'bestmove h9g7' ;; *) echo 'bestmove h2e2' ;; esac ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n";
    std::fs::write(&fake, script).unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let summary = lost_by_fake(&fake, &["--clock", "0.5+0.1"]);
    assert_eq!(reasons(&summary), ["timeout", "timeout"]);
    assert_eq!(summary["limit"]["clock_base_ms"], 500, "{summary}");
    assert_eq!(summary["limit"]["clock_increment_ms"], 100, "{summary}");
    let detail = summary["results"][1]["detail"].as_str().unwrap();
    assert!(detail.contains("the flag fell"), "{detail}");
    // The last `go` the fake saw opened game 2, where it is Red: both
    // clocks full, in milliseconds, and the increments.
    let go = std::fs::read_to_string(format!("{}.go", fake.display())).unwrap();
    assert_eq!(go.trim(), "wtime 500 btime 500 winc 100 binc 100");
    let _ = std::fs::remove_file(format!("{}.go", fake.display()));
    let _ = std::fs::remove_file(fake);
}

/// Runs `xiangqi match ARGS`, returning (exit status, stdout, stderr).
fn run_status(args: &[&str]) -> (Option<i32>, String, String) {
    let out = xiangqi()
        .arg("match")
        .args(args)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Our engine against itself on a tiny clock: an LLR line after each pair,
/// and no verdict within 3 pairs, so the game limit ends it (exit 3).
#[test]
fn sprt_prints_the_llr_after_each_pair_and_is_inconclusive_at_the_limit() {
    let (status, out, err) = run_status(&[
        "--engine",
        SELF,
        "--engine",
        SELF,
        "--games",
        "6",
        "--tc",
        "10",
        "--random-openings",
        "4",
        "--jobs",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=5",
    ]);
    assert_eq!(status, Some(3), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(
            line.starts_with(&format!("pair {}: LLR ", i + 1))
                && line.contains(" (-2.94, 2.94) [0.00, 5.00]; Ptnml(0-2) "),
            "{out}"
        );
    }
    assert!(lines[3].starts_with("Engine 1: "), "{out}");
    assert!(out.contains("\nPairs: 3, Ptnml(0-2) "), "{out}");
    assert!(
        out.contains(
            "\nSPRT: elo0=0 elo1=5 alpha=0.05 beta=0.05 (normalized Elo): inconclusive\nLLR "
        ),
        "{out}"
    );
    assert!(
        err.contains("error: SPRT: inconclusive at the game limit (LLR "),
        "{err}"
    );
}

/// An SPRT that decides stops the match: H1 for the engine that meets only
/// illegal moves (exit 0), H0 when it is the second engine (exit 1).
#[cfg(unix)]
#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    let fake = fake_engine("sprt-illegal", "echo 'bestmove a0a5'");
    let fake = fake.to_str().unwrap();
    // [0, 200] logistic: 8 won pairs cross the upper bound, 5 lost ones the
    // lower (xiangqi_rating's `lopsided_runs_decide_at_the_pace_of_the_hypotheses`).
    let sprt = ["--sprt", "elo0=0 elo1=200 model=logistic"];
    let mut args = vec![
        "--engine", SELF, "--engine", fake, "--games", "40", "--depth", "1",
    ];
    args.extend_from_slice(&sprt);
    args.push("--json");
    let (status, out, err) = run_status(&args);
    assert_eq!(status, Some(0), "{err}");
    let summary: Value = serde_json::from_str(&out).expect("one JSON document");
    let test = &summary["sprt"];
    assert_eq!(test["verdict"], "H1", "{summary}");
    assert_eq!(test["model"], "logistic");
    let pairs = summary["pentanomial"]["pairs"].as_u64().unwrap();
    // Every pair is two wins; the match stops long before its 40 games.
    assert_eq!(pairs, 8, "{summary}");
    assert_eq!(
        summary["pentanomial"]["counts"],
        serde_json::json!([0, 0, 0, 0, pairs])
    );
    assert_eq!(summary["games"].as_u64(), Some(2 * pairs), "{summary}");
    let history = test["history"].as_array().unwrap();
    assert_eq!(history.len() as u64, pairs);
    assert!(test["llr"].as_f64().unwrap() >= test["upper"].as_f64().unwrap());
    // With --json the LLR lines go to stderr.
    assert!(err.contains("pair 1: LLR "), "{err}");

    let (status, out, err) = run_status(&[
        "--engine",
        fake,
        "--engine",
        SELF,
        "--games",
        "40",
        "--depth",
        "1",
        "--sprt",
        "elo0=0",
        "elo1=200",
        "model=logistic",
    ]);
    assert_eq!(status, Some(1), "{out}{err}");
    assert!(
        out.contains("\nPairs: 5, Ptnml(0-2) 5, 0, 0, 0, 0; "),
        "{out}"
    );
    assert!(out.contains("(logistic Elo): H0 accepted\n"), "{out}");
    assert!(err.contains("error: SPRT: H0 accepted (LLR -"), "{err}");
    let _ = std::fs::remove_file(fake);
}

#[test]
fn bad_sprt_settings_are_usage_errors() {
    let cases: [(&[&str], &str); 4] = [
        (&["--sprt", "elo1=5"], "--sprt: elo0 is required"),
        (
            &["--sprt", "elo0=0", "elo1=5", "alpha=1.5"],
            "alpha=1.5 must be between 0 and 1",
        ),
        (&["--sprt", "elo0=5", "elo1=0"], "elo0 must be below elo1"),
        (
            &["--sprt", "elo0=0", "elo1=5", "--games", "3"],
            "--games must be even with --sprt",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["--engine", SELF, "--engine", SELF, "--depth", "1"];
        args.extend_from_slice(extra);
        let (status, _, err) = run_status(&args);
        assert_eq!(status, Some(2), "{args:?}");
        assert!(
            err.starts_with("error: ") && err.contains(message),
            "{args:?}: {err}"
        );
    }
}
