//! The Asian (AXF/WXF) rule book's repetition cases (R-REP-*): every case of
//! `../shared/testdata/wxf-rulebook.jsonl` (relative to the repository root)
//! must end, under the `asian` preset, exactly at the last ply of its
//! `continuation` (the third occurrence of a position) with the book's
//! winner. The file is not in the repository: when it is absent the test
//! prints that it skipped, and under `CI=true` it fails instead, so a green
//! CI always means the book was run. Format: `wxf-rulebook.md` beside the
//! file, summarised in `docs/adjudication.md`.

mod common;

use serde_json::Value;
use xiangqi_adjudication::{Game, Outcome, Preset, Reason, RuleSet};
use xiangqi_core::{Move, Position};

/// One case as the file states it.
struct Case {
    id: String,
    fen: String,
    continuation: Vec<Move>,
    verdict: Outcome,
}

fn read_case(line: &str) -> Result<Case, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let text = |name: &str| {
        v.get(name)
            .and_then(Value::as_str)
            .ok_or(format!("no string field {name:?}"))
    };
    let continuation = v
        .get("continuation")
        .and_then(Value::as_array)
        .ok_or("no list field \"continuation\"")?
        .iter()
        .map(|m| {
            let m = m.as_str().ok_or(format!("move {m} is not a string"))?;
            m.parse::<Move>().map_err(|e| format!("move {m:?}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let verdict = match text("verdict")? {
        "red" => Outcome::Red,
        "black" => Outcome::Black,
        "draw" => Outcome::Draw,
        other => return Err(format!("verdict {other:?} is not red, black or draw")),
    };
    Ok(Case {
        id: text("id")?.to_string(),
        fen: text("fen")?.to_string(),
        continuation,
        verdict,
    })
}

fn run_case(case: &Case) -> Result<(), String> {
    // Book diagrams may hold composed positions: read leniently.
    let start = Position::from_fen_lenient(&case.fen).map_err(|e| format!("fen: {e}"))?;
    let mut game = Game::new(start, RuleSet::preset(Preset::Asian));
    let last = case.continuation.len();
    for (n, &mv) in case.continuation.iter().enumerate() {
        if game.is_over() {
            return Err(format!(
                "the game ended at ply {n}, before the last ply {last}: {}",
                game.verdict().detail
            ));
        }
        game.push(mv).map_err(|e| format!("ply {}: {e}", n + 1))?;
    }
    let v = game.verdict();
    if !game.is_over() {
        return Err(format!("the game has not ended after ply {last}"));
    }
    let repetition = v.reason.is_some_and(Reason::is_repetition);
    if v.outcome != case.verdict || !repetition || v.ply as usize != last {
        return Err(format!(
            "book says {:?}, we say {} ({:?}) at ply {}: {}",
            case.verdict, v.outcome, v.reason, v.ply, v.detail
        ));
    }
    let info = v.repetition.as_ref().ok_or("no repetition report")?;
    common::check_report(&info.red)?;
    common::check_report(&info.black)
}

#[test]
fn wxf_rulebook_every_case_gets_the_books_verdict_under_asian_rules() {
    let Some(path) = xiangqi_test_support::shared_testdata("wxf-rulebook.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the rule book reads");
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        count += 1;
        match read_case(line) {
            Ok(case) => {
                if let Err(e) = run_case(&case) {
                    failures.push(format!("{}: {e}", case.id));
                }
            }
            Err(e) => failures.push(format!("line {}: {e}", n + 1)),
        }
    }
    println!("wxf_rulebook: {count} cases, {} failures", failures.len());
    assert!(count > 0, "{} holds no case", path.display());
    assert!(
        failures.is_empty(),
        "{} of {count} rule-book cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The harness itself: a case in the file's format passes when right and is
/// reported when its verdict, or its length, is wrong.
#[test]
fn wxf_rulebook_harness_reports_wrong_verdicts_and_wrong_lengths() {
    // EX-REP-1 in the file's format: the third occurrence is at ply 9.
    let good = r#"{"id":"EX-REP-1","fen":"4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1","moves":[],"continuation":["i0i9","e9e8","i9i8","e8e9","i8i9","e9e8","i9i8","e8e9","i8i9"],"verdict":"black"}"#;
    run_case(&read_case(good).unwrap()).unwrap();
    let wrong_winner = good.replace(r#""verdict":"black""#, r#""verdict":"draw""#);
    assert!(run_case(&read_case(&wrong_winner).unwrap()).is_err());
    // One ply short: the game has not ended.
    let short = good.replace(r#","i8i9"],"#, "],");
    assert!(run_case(&read_case(&short).unwrap()).is_err());
    // One ply too many: the game ended before the list did.
    let long = good.replace(r#""i8i9"],"#, r#""i8i9","i9i8"],"#);
    assert!(run_case(&read_case(&long).unwrap()).is_err());
    assert!(read_case(r#"{"id":"x","fen":"","continuation":[],"verdict":"maybe"}"#).is_err());
}
