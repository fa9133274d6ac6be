//! The core against the shared reference data: perft counts and legal-move lists.

use std::path::PathBuf;
use xiangqi_core::{perft, Position};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

fn records(name: &str) -> Vec<serde_json::Value> {
    fixture(name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect()
}

/// Leaf counts above this are left to the release-mode run (`cargo xtask bench perft` / `--ignored`).
const DEBUG_NODE_LIMIT: u64 = if cfg!(debug_assertions) {
    3_000_000
} else {
    40_000_000
};

#[test]
fn perft_matches_reference_counts() {
    for rec in records("perft.jsonl") {
        let fen = rec["fen"].as_str().unwrap();
        let pos = Position::from_fen(fen).unwrap();
        for (i, want) in rec["counts"].as_array().unwrap().iter().enumerate() {
            let want = want.as_u64().unwrap();
            if want > DEBUG_NODE_LIMIT {
                continue;
            }
            let depth = i as u32 + 1;
            assert_eq!(perft(&pos, depth), want, "{} depth {depth}", rec["id"]);
        }
    }
}

#[test]
fn startpos_perft_1_to_4() {
    let pos = Position::startpos();
    for (depth, want) in [(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)] {
        assert_eq!(perft(&pos, depth), want, "depth {depth}");
    }
}

/// 133 312 995 leaves: run with `cargo test --release -- --ignored` (xtask bench does).
#[test]
#[ignore]
fn startpos_perft_5() {
    assert_eq!(perft(&Position::startpos(), 5), 133_312_995);
}

/// Every count of the shared perft data, however deep (release mode, `--ignored`).
#[test]
#[ignore]
fn perft_reference_all_depths() {
    for rec in records("perft.jsonl") {
        let pos = Position::from_fen(rec["fen"].as_str().unwrap()).unwrap();
        for (i, want) in rec["counts"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                perft(&pos, i as u32 + 1),
                want.as_u64().unwrap(),
                "{}",
                rec["id"]
            );
        }
    }
}

#[test]
fn legal_moves_match_reference_lists() {
    let recs = records("legal.jsonl");
    assert_eq!(recs.len(), 200);
    for rec in recs {
        let id = rec["id"].as_str().unwrap();
        let pos = Position::from_fen(rec["fen"].as_str().unwrap()).unwrap();
        let mut got: Vec<String> = pos.legal_move_vec().iter().map(|m| m.to_string()).collect();
        got.sort();
        let want: Vec<String> = rec["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(got, want, "{id}");
        assert_eq!(
            got.len() as u64,
            rec["move_count"].as_u64().unwrap(),
            "{id}"
        );
        assert_eq!(
            pos.is_check(),
            rec["in_check"].as_bool().unwrap(),
            "{id} in_check"
        );
        assert_eq!(pos.count_legal_moves(), got.len(), "{id} count");
        if rec["game_over"].as_bool().unwrap() {
            let reason = rec["reason"].as_str().unwrap();
            let status = format!("{:?}", pos.status()).to_lowercase();
            assert_eq!(status, reason, "{id}");
        }
    }
}
