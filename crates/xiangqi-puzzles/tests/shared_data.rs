//! Candidates from the shared test data as users have it: every record of
//! the tactics list, and every game of the CCPD mating and endgame folders
//! (Big5 PGN with traditional Chinese moves and `FEN` setups), become a
//! start and a legal line. The engine's verdicts on them are measured by
//! `xiangqi puzzles build` (docs/puzzles.md, "The built-in set").

use std::io::BufReader;

use xiangqi_gamefile::Games;
use xiangqi_puzzles::{read_tactics, Candidate};
use xiangqi_test_support::shared_testdata;

#[test]
fn every_tactics_record_is_a_candidate() {
    let Some(path) = shared_testdata("tactics.jsonl") else {
        return;
    };
    let file = std::fs::File::open(&path).unwrap();
    let candidates = read_tactics(BufReader::new(file), "tactics.jsonl").unwrap();
    assert_eq!(candidates.len(), 130);
    for candidate in candidates {
        let candidate = candidate.unwrap();
        // The manual's lines end in mate by the side to move: an odd length.
        assert_eq!(candidate.solution.len() % 2, 1, "{}", candidate.source);
        assert!(candidate.source.starts_with("tactics.jsonl#T"));
    }
}

#[test]
fn every_ccpd_mate_and_endgame_is_a_candidate() {
    let mut games = 0;
    for folder in ["ccpd/殺局_殺法_練習題", "ccpd/殘局"] {
        let Some(dir) = shared_testdata(folder) else {
            return;
        };
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for path in paths {
            for (index, game) in Games::open(&path, None).unwrap().enumerate() {
                let game = game.unwrap();
                let name = format!("{}#{}", path.display(), index + 1);
                let candidate = Candidate::from_game(name.clone(), &game).unwrap();
                assert!(!candidate.solution.is_empty(), "{name}");
                assert_eq!(candidate.solution.len(), game.plies(), "{name}");
                games += 1;
            }
        }
    }
    assert_eq!(games, 27);
}
