//! `xiangqi rate`: ratings of a small corpus with a known answer, the JSON
//! shape, and cancelled games left out.

use assert_cmd::Command;
use serde_json::Value;

/// `xiangqi rate FILE --prior-draws 0 --json`: its JSON, once it succeeded.
fn rate_json(path: &std::path::Path) -> Value {
    let out = Command::cargo_bin("xiangqi")
        .unwrap()
        .args([
            "rate",
            path.to_str().unwrap(),
            "--prior-draws",
            "0",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn game(red: &str, black: &str, result: &str, tags: &str) -> String {
    format!("[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{tags}\n{result}\n\n")
}

#[test]
fn ratings_of_a_known_corpus() {
    // A scores 3/4 against B: 400·log10(3) ≈ 190.85 Elo apart.
    let mut text = String::new();
    text += &game("A", "B", "1-0", "");
    text += &game("B", "A", "0-1", "");
    text += &game("A", "B", "1-0", "");
    text += &game("B", "A", "1-0", "");
    // Red flags before moving: cancelled, not rated (R-CLOCK-CANCEL).
    text += &game("B", "A", "0-1", "[Termination \"time forfeit\"]");
    let path = std::env::temp_dir().join(format!("xiangqi-rate-{}.pgn", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let v = rate_json(&path);
    assert_eq!(v["rated_games"], 4);
    assert_eq!(v["unrated"]["cancelled"], 1);
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "A");
    let diff = players[0]["elo"].as_f64().unwrap() - players[1]["elo"].as_f64().unwrap();
    assert!((diff - 190.85).abs() < 0.01, "{v}");
    assert_eq!(players[0]["points"], 3.0);
    // Text output and the default prior.
    let out = Command::cargo_bin("xiangqi")
        .unwrap()
        .args(["rate", path.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("4 rated games; not rated: cancelled 1"),
        "{text}"
    );
    // Without a prior a perfect score has no finite rating: an error.
    std::fs::write(&path, game("A", "B", "1-0", "")).unwrap();
    let out = Command::cargo_bin("xiangqi")
        .unwrap()
        .args(["rate", path.to_str().unwrap(), "--prior-draws", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("infinite"));
    let _ = std::fs::remove_file(path);
}

/// `rate` opens files through the one game-file API: a WXF game file (no
/// PGN tags anywhere) is rated like the same games in PGN.
#[test]
fn ratings_of_a_wxf_file() {
    let wxf_game = |red: &str, black: &str, result: &str| {
        format!("FORMAT  WXF\nRED     {red}\nBLACK   {black}\nRESULT  {result}\nSTART{{\n}}END\n")
    };
    let text = [
        wxf_game("A", "B", "1-0"),
        wxf_game("B", "A", "0-1"),
        wxf_game("A", "B", "1-0"),
        wxf_game("B", "A", "1-0"),
    ]
    .concat();
    let path = std::env::temp_dir().join(format!("xiangqi-rate-{}.wxf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let v = rate_json(&path);
    std::fs::remove_file(&path).ok();
    assert_eq!(v["rated_games"], 4, "{v}");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "A");
    let diff = players[0]["elo"].as_f64().unwrap() - players[1]["elo"].as_f64().unwrap();
    assert!((diff - 190.85).abs() < 0.01, "{v}");
}
