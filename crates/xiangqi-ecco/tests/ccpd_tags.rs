//! Our codes against a real database's: the games of the shared CCPD
//! sample's 對局 folder carry the `[ECCO]` tag their database gave them.
//! Over the distinct games (a game filed in several folders counts once),
//! our code must equal the tag on at least 97% of them. The tags are only a
//! test: the classifier is built from the published definitions.

use std::collections::{BTreeMap, HashSet};

use xiangqi_core::Move;
use xiangqi_ecco::classify_game;
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::Games;
use xiangqi_test_support::shared_testdata;

#[test]
fn codes_agree_with_the_ccpd_tags_on_at_least_97_percent_of_the_games() {
    let Some(dir) = shared_testdata("ccpd/對局") else {
        return;
    };
    let files: Vec<_> = collect(&[dir])
        .unwrap()
        .into_iter()
        .map(|f| f.unwrap().path)
        .collect();
    let mut seen: HashSet<Vec<Move>> = HashSet::new();
    let (mut games, mut agree, mut untagged) = (0usize, 0usize, 0usize);
    let mut disagreements: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for path in &files {
        for game in Games::open(path, None).unwrap() {
            let game = game.unwrap();
            let moves: Vec<Move> = game.moves().collect();
            if !seen.insert(moves) {
                continue;
            }
            let Some(tag) = game
                .tag("ECCO")
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
            else {
                untagged += 1;
                continue;
            };
            let ours = classify_game(&game)
                .unwrap()
                .map_or_else(|| "-".to_owned(), |o| o.code.to_owned());
            games += 1;
            if ours == tag {
                agree += 1;
            } else {
                disagreements
                    .entry((tag, ours))
                    .or_default()
                    .push(path.display().to_string());
            }
        }
    }
    let rate = agree as f64 / games as f64;
    eprintln!(
        "{agree} of {games} distinct tagged games agree ({:.2}%), {untagged} untagged",
        100.0 * rate
    );
    for ((tag, ours), paths) in &disagreements {
        eprintln!("tag {tag} ours {ours}: {} e.g. {}", paths.len(), paths[0]);
    }
    assert!(games > 2000, "only {games} tagged games read");
    assert!(rate >= 0.97, "{:.2}% agree", 100.0 * rate);
}
