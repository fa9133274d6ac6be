//! The store's puzzle methods (migration 0008), with the same bodies on
//! SQLite (in a temp dir) and on PostgreSQL when `XIANGQI_TEST_POSTGRES_URL`
//! is set (`cargo xtask test` and `cargo xtask postgres -- COMMAND` set it;
//! without it the PostgreSQL runs say they are skipped, and fail under
//! `CI=true`), as `tests/store.rs` does for the rest of the store.

use xiangqi_rating::Glicko2;
use xiangqi_server::store::{PlayerRow, PuzzleAttemptRow, PuzzlePlayerRow, Store};
use xiangqi_test_support::on_both_databases;

on_both_databases!(
    Store::open, "z";
    records_and_ratings_round_trip,
    attempts_move_only_from_where_they_are,
    a_deleted_player_takes_its_puzzle_rows_along,
);

async fn player(store: &Store, id: &str, guest: bool) -> PlayerRow {
    let row = PlayerRow {
        id: id.into(),
        name: format!("n{id}"),
        guest,
        password_hash: None,
        rating: None,
        notation: "coordinate".into(),
        created_at: 1,
        language: None,
        pieces: None,
        bot: false,
        bot_rating: None,
    };
    store.insert_player(&row).await.unwrap();
    row
}

fn attempt(id: &str, player: &str, puzzle: &str) -> PuzzleAttemptRow {
    PuzzleAttemptRow {
        id: id.into(),
        player: player.into(),
        puzzle: puzzle.into(),
        served_at: 10,
        ply: 0,
        outcome: None,
        counts: true,
        finished_at: None,
    }
}

async fn records_and_ratings_round_trip(store: Store) {
    player(&store, "p1", false).await;
    assert_eq!(store.puzzle_player("p1").await.unwrap(), None);
    let mut record = PuzzlePlayerRow::new("p1");
    record.rating = Glicko2 {
        rating: 1612.345,
        deviation: 87.5,
        volatility: 0.059_991,
    };
    record.streak = 3;
    record.best_streak = 5;
    record.solved = 7;
    record.failed = 2;
    store.save_puzzle_player(&record).await.unwrap();
    assert_eq!(
        store.puzzle_player("p1").await.unwrap(),
        Some(record.clone())
    );
    record.streak = 0;
    store.save_puzzle_player(&record).await.unwrap();
    assert_eq!(store.puzzle_player("p1").await.unwrap().unwrap().streak, 0);

    let rating = Glicko2 {
        rating: 1288.0,
        deviation: 300.25,
        volatility: 0.06,
    };
    store.save_puzzle_rating("z1", &rating, 1).await.unwrap();
    store.save_puzzle_rating("z1", &rating, 2).await.unwrap();
    let ratings = store.puzzle_ratings().await.unwrap();
    assert_eq!(ratings.len(), 1);
    assert_eq!(ratings["z1"], (rating, 2));
}

async fn attempts_move_only_from_where_they_are(store: Store) {
    player(&store, "p1", true).await;
    store
        .insert_puzzle_attempt(&attempt("a1", "p1", "z1"))
        .await
        .unwrap();
    store
        .insert_puzzle_attempt(&attempt("a2", "p1", "z2"))
        .await
        .unwrap();
    assert_eq!(store.open_puzzle_attempts("p1").await.unwrap().len(), 2);
    assert!(store.advance_puzzle_attempt("a1", 0, 2).await.unwrap());
    // A second request from the same ply finds it moved.
    assert!(!store.advance_puzzle_attempt("a1", 0, 2).await.unwrap());
    assert!(!store
        .finish_puzzle_attempt("a1", 0, 1, "solved", 20)
        .await
        .unwrap());
    assert!(store
        .finish_puzzle_attempt("a1", 2, 3, "solved", 20)
        .await
        .unwrap());
    // Over is over.
    assert!(!store
        .finish_puzzle_attempt("a1", 3, 3, "failed", 21)
        .await
        .unwrap());
    let a1 = store.puzzle_attempt("a1").await.unwrap().unwrap();
    assert_eq!(
        (a1.ply, a1.outcome.as_deref(), a1.finished_at),
        (3, Some("solved"), Some(20))
    );
    assert_eq!(store.open_puzzle_attempts("p1").await.unwrap().len(), 1);
    let attempted = store.attempted_puzzles("p1").await.unwrap();
    assert_eq!(attempted.len(), 2);
    assert!(attempted.contains("z1") && attempted.contains("z2"));
    assert_eq!(store.puzzle_attempt("nope").await.unwrap(), None);
}

async fn a_deleted_player_takes_its_puzzle_rows_along(store: Store) {
    // Guests unused for a week are swept with their sessions; their
    // puzzle rows must not stop the sweep.
    player(&store, "g1", true).await;
    store
        .insert_puzzle_attempt(&attempt("a1", "g1", "z1"))
        .await
        .unwrap();
    store
        .save_puzzle_player(&PuzzlePlayerRow::new("g1"))
        .await
        .unwrap();
    let removed = store
        .expire_guests(1_000_000_000, &std::collections::HashSet::new())
        .await
        .unwrap();
    assert_eq!(removed, 1);
    assert_eq!(store.puzzle_attempt("a1").await.unwrap(), None);
    assert_eq!(store.puzzle_player("g1").await.unwrap(), None);
}
