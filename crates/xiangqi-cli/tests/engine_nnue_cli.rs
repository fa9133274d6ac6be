//! The NNUE options of `xiangqi uci` and `xiangqi ucci`: a net file written
//! by the test is loaded with `EvalFile` and searched with, a damaged one is
//! reported and leaves the evaluation as it was.

use std::path::PathBuf;

use assert_cmd::Command;
use xiangqi_core::Position;
use xiangqi_nnue::{FloatNetwork, Network};

/// Runs a protocol session with `script` on stdin; returns stdout lines.
fn session(protocol: &str, script: &str) -> Vec<String> {
    let out = Command::cargo_bin("xiangqi")
        .expect("binary built")
        .arg(protocol)
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    assert!(out.status.success(), "exit {:?}", out.status);
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// A net file in the temporary directory, removed when dropped.
struct TempNet(PathBuf);

impl TempNet {
    fn new(name: &str, bytes: &[u8]) -> TempNet {
        let path = std::env::temp_dir().join(format!(
            "xiangqi cli nnue {} {name}.xqnn",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        TempNet(path)
    }

    fn path(&self) -> String {
        self.0.display().to_string()
    }
}

impl Drop for TempNet {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn network() -> Network {
    FloatNetwork::random(64, 17).quantise()
}

/// The `eval` line's value in pawns from Red's side.
fn eval_value(lines: &[String]) -> Vec<f64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("Final evaluation"))
        .map(|rest| rest.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn uci_searches_with_a_net_file_and_reports_it() {
    let net = network();
    let file = TempNet::new("good", &net.write("random test net"));
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name Use NNUE value true\n\
         position startpos moves h2e2\neval\ngo depth 4\nsetoption name Use NNUE value false\neval\n",
        file.path()
    );
    let lines = session("uci", &script);
    let loaded = lines
        .iter()
        .find(|l| l.starts_with("info string EvalFile: loaded net"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(
        loaded.contains("hidden 64") && loaded.contains("random test net"),
        "{loaded}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let best = lines
        .iter()
        .find(|l| l.starts_with("bestmove"))
        .expect("bestmove");
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    let mv = best.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(pos.is_legal(mv), "{best}");
    // `eval` follows the choice: the net's value (Black to move, so negated
    // for Red's side), then the classical one.
    let values = eval_value(&lines);
    let nnue = -f64::from(net.evaluate_scalar(&pos)) / 100.0;
    let classical = -f64::from(xiangqi_search::evaluate(&pos)) / 100.0;
    assert_eq!(values, [nnue, classical], "{lines:?}");
}

#[test]
fn a_damaged_net_file_is_reported_and_the_previous_evaluation_kept() {
    let net = network();
    let good = TempNet::new("kept", &net.write("kept"));
    let mut bytes = FloatNetwork::random(128, 3).quantise().write("damaged");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    let damaged = TempNet::new("damaged", &bytes);
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name Use NNUE value true\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value /no/such/dir/net.xqnn\n\
         position startpos\neval\ngo depth 3\n",
        good.path(),
        damaged.path()
    );
    let lines = session("uci", &script);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    assert!(
        errors[0].contains("EvalFile: the net file is damaged: the payload hash")
            && errors[0].contains("the evaluation is unchanged"),
        "{}",
        errors[0]
    );
    assert!(errors[1].contains("/no/such/dir/net.xqnn"), "{}", errors[1]);
    // Still the first net.
    let start = Position::startpos();
    assert_eq!(
        eval_value(&lines),
        [f64::from(net.evaluate_scalar(&start)) / 100.0]
    );
    assert!(lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
}

#[test]
fn nnue_without_a_net_says_how_to_get_one() {
    if xiangqi_nnue::embedded::EMBEDDED_NET.is_some() {
        return; // this build has a net: `Use NNUE` needs no file
    }
    let lines = session(
        "uci",
        "uci\nsetoption name Use NNUE value true\nposition startpos\neval\n",
    );
    assert!(
        lines.contains(&"info string error: no net embedded; set EvalFile".to_string()),
        "{lines:?}"
    );
    let classical = f64::from(xiangqi_search::evaluate(&Position::startpos())) / 100.0;
    assert_eq!(eval_value(&lines), [classical]);
}

#[test]
fn ucci_takes_the_same_options() {
    let net = network();
    let file = TempNet::new("ucci", &net.write("ucci net"));
    let script = format!(
        "ucci\nsetoption evalfile {}\nsetoption usennue true\nposition startpos\neval\ngo depth 3\nsetoption usennue maybe\n",
        file.path()
    );
    let lines = session("ucci", &script);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string evalfile: loaded net")),
        "{lines:?}"
    );
    assert_eq!(
        eval_value(&lines),
        [f64::from(net.evaluate_scalar(&Position::startpos())) / 100.0]
    );
    assert!(lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    assert!(
        lines.contains(&"info string error: usennue needs true or false".to_string()),
        "{lines:?}"
    );
}

#[test]
fn bench_searches_with_a_net_file() {
    let file = TempNet::new("bench", &network().write("bench net"));
    let run = |extra: &[&str]| -> serde_json::Value {
        let out = Command::cargo_bin("xiangqi")
            .expect("binary built")
            .args(["bench", "--depth", "2", "--json"])
            .args(extra)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let default = run(&[]);
    let classical = run(&["--classical"]);
    let nnue = run(&["--eval-file", &file.path()]);
    assert_eq!(classical["evaluation"], "classical");
    assert_eq!(nnue["evaluation"], format!("nnue {}", file.path()));
    assert_ne!(classical["total_nodes"], nnue["total_nodes"]);
    // Without a choice the bench searches as a new engine does: with the
    // embedded net when the build has one.
    if xiangqi_search::Engine::nnue_by_default() {
        assert_eq!(default["evaluation"], "nnue <embedded>");
        assert_ne!(default["total_nodes"], classical["total_nodes"]);
    } else {
        assert_eq!(default["evaluation"], "classical");
        assert_eq!(default["total_nodes"], classical["total_nodes"]);
    }
    assert_eq!(
        run(&["--eval-file", &file.path()])["total_nodes"],
        nnue["total_nodes"]
    );
    // A damaged file is an error naming the damage, not a classical bench.
    let mut bytes = network().write("bench net");
    bytes.truncate(bytes.len() - 10);
    let damaged = TempNet::new("bench-damaged", &bytes);
    let out = Command::cargo_bin("xiangqi")
        .expect("binary built")
        .args(["bench", "--depth", "1", "--eval-file", &damaged.path()])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("the net file is truncated"), "{stderr}");
}
