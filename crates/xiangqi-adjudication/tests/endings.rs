//! Every game-end case of `tests/fixtures/endings.jsonl` (R-END-ORDER,
//! R-END-MATE, R-END-STALEMATE, R-REP-VERDICT, R-DRAW-NOCAPTURE), with the
//! 100-ply no-capture count those cases use passed as a parameter.

mod common;

use serde_json::Value;
use xiangqi_adjudication::{Outcome, Preset, Reason, RuleSet};

fn expected_reason(kind: &str) -> Option<Reason> {
    Some(match kind {
        "checkmate" => Reason::Checkmate,
        "stalemate" => Reason::Stalemate,
        "repetition_draw" => Reason::ThreefoldRepetition,
        "perpetual_check" => Reason::PerpetualCheck,
        "mutual_perpetual_check" => Reason::MutualPerpetualCheck,
        "perpetual_chase" => Reason::PerpetualChase,
        "mutual_chase" => Reason::MutualPerpetualChase,
        "no_capture_rule" => Reason::NoCaptureRule,
        "ongoing" => return None,
        other => panic!("unknown kind {other}"),
    })
}

fn expected_outcome(winner: &Value) -> Outcome {
    match winner.as_str() {
        Some("red") => Outcome::Red,
        Some("black") => Outcome::Black,
        Some("draw") => Outcome::Draw,
        None => Outcome::Ongoing,
        Some(other) => panic!("unknown winner {other}"),
    }
}

fn check_all(preset: Preset) {
    let path = common::workspace_root().join("tests/fixtures/endings.jsonl");
    let text = std::fs::read_to_string(&path).expect("endings.jsonl is in tests/fixtures");
    let mut cases = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let id = case["id"].as_str().unwrap();
        let mut rules = RuleSet::preset(preset);
        rules.no_capture_limit = Some(case["no_capture_plies"].as_u64().unwrap_or(100) as u32);
        let moves: Vec<&str> = case["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        let game = common::play(
            case["start_fen"].as_str().unwrap(),
            &moves.join(" "),
            &rules,
        )
        .unwrap_or_else(|e| panic!("{id}: {e}"));
        let v = game.verdict();
        assert_eq!(
            v.reason,
            expected_reason(case["kind"].as_str().unwrap()),
            "{id} under {preset}: {v}"
        );
        assert_eq!(v.outcome, expected_outcome(&case["winner"]), "{id}: {v}");
        let end = case["first_end_ply"].as_u64().map(|p| p as u32);
        if let Some(end) = end {
            assert_eq!(v.ply, end, "{id}: verdict ply");
        }
        assert_eq!(
            common::placement(&game.position().to_fen()),
            common::placement(case["final_fen"].as_str().unwrap()),
            "{id}: final position"
        );
        cases += 1;
    }
    assert_eq!(cases, 15, "endings.jsonl has 15 cases");
}

#[test]
fn endings_jsonl_all_cases_online_preset() {
    check_all(Preset::Online);
}

#[test]
fn endings_jsonl_all_cases_asian_preset() {
    check_all(Preset::Asian);
}

#[test]
fn endings_jsonl_all_cases_plain_preset() {
    check_all(Preset::Plain);
}
