//! The store's every method, run with the same bodies on SQLite (in a temp
//! dir) and on PostgreSQL when `XIANGQI_TEST_POSTGRES_URL` is set (each test
//! in a schema of its own). `cargo xtask test` starts a PostgreSQL server and
//! sets the variable; without it the PostgreSQL runs print that they are
//! skipped, and fail under `CI=true`.

use xiangqi_adjudication::{
    ClockEvent, OnlineGame, Outcome, Reason, RuleSet, TimeControl, TimedEvent,
};
use xiangqi_core::{Color, Position, START_FEN};
use xiangqi_server::store::{
    deleted_name, ChatRow, CodePrefix, Ending, EventRow, GameFilter, GameRow, LibraryFilter,
    LibraryGameRow, LibraryReview, NewReport, PlayerRow, RatingChangeRow, RatingPool, ResultFilter,
    Store, StoreError, StoredGame, TokenRow,
};
use xiangqi_server::time_control::parse_time_control;
use xiangqi_test_support::databases::TempSqlite;
use xiangqi_test_support::on_both_databases;

// ---------------------------------------------------------------- backends

/// A SQLite store in a temp dir (the dir lives as long as this).
struct SqliteDb {
    _file: TempSqlite,
    url: String,
    store: Store,
}

async fn sqlite() -> SqliteDb {
    let file = TempSqlite::new();
    let store = Store::open(&file.url).await.unwrap();
    SqliteDb {
        url: file.url.clone(),
        _file: file,
        store,
    }
}

on_both_databases!(
    Store::open, "t";
    players_are_stored_and_found,
    a_taken_name_is_refused_in_any_case,
    a_guest_registers,
    sessions_find_their_player,
    games_keep_their_events_and_ending,
    games_of_lists_newest_first_with_a_limit,
    games_of_filters_by_ecco_code,
    finish_game_writes_ratings_and_history,
    finish_game_is_all_or_nothing,
    a_game_ends_once,
    events_replay_to_the_same_game,
    an_aborted_game_replays_aborted,
    a_duplicate_event_is_refused,
    a_name_confusable_with_another_is_refused,
    idle_guests_without_games_expire_with_their_sessions,
    games_are_filtered_by_result_rated_and_opponent_a_page_at_a_time,
    chat_is_kept_per_channel_within_a_cap,
    reports_are_kept_once_per_message_for_a_moderator,
    a_password_change_ends_the_other_sessions,
    a_deleted_account_keeps_its_games_under_a_placeholder,
    a_game_lease_has_one_holder_until_it_lapses,
    a_library_is_its_owners_only,
    bot_tokens_upgrade_and_pool,
);

// ---------------------------------------------------------------- data

fn guest(id: &str, name: &str) -> PlayerRow {
    PlayerRow {
        id: id.into(),
        name: name.into(),
        guest: true,
        password_hash: None,
        rating: None,
        notation: "coordinate".into(),
        created_at: 1_733_280_000_000,
        language: None,
        pieces: None,
        bot: false,
        bot_rating: None,
    }
}

fn account(id: &str, name: &str, rating: i32) -> PlayerRow {
    PlayerRow {
        guest: false,
        password_hash: Some("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into()),
        rating: Some(rating),
        ..guest(id, name)
    }
}

fn game_row(id: &str, red: &str, black: &str, started_at: i64) -> GameRow {
    GameRow {
        id: id.into(),
        red: red.into(),
        black: black.into(),
        time_control: "5+3".into(),
        rated: true,
        rules: "online".into(),
        start_fen: START_FEN.into(),
        started_at,
    }
}

fn ending(result: &str, reason: &str, ply: i32) -> Ending {
    Ending {
        status: "finished".into(),
        result: result.into(),
        reason: reason.into(),
        ply,
        red_clock: 290_000,
        black_clock: 281_500,
        ended_at: 1_733_280_100_000,
        ecco: None,
    }
}

fn change(player: &str, game: &str, before: i32, after: i32, at: i64) -> RatingChangeRow {
    RatingChangeRow {
        player: player.into(),
        game: game.into(),
        before,
        after,
        at,
    }
}

fn event(seq: i64, at: u64, event: ClockEvent) -> EventRow {
    EventRow::from_timed(seq, &TimedEvent { at, event })
}

fn mv(side: Color, text: &str) -> ClockEvent {
    ClockEvent::Move {
        side: Some(side),
        mv: text.parse().unwrap(),
    }
}

// ---------------------------------------------------------------- bodies

async fn players_are_stored_and_found(store: Store) {
    let alice = account("p_alice", "Alice", 1500);
    store.insert_player(&alice).await.unwrap();
    store
        .insert_player(&guest("p_g1", "Guest-4f2a1c"))
        .await
        .unwrap();
    assert_eq!(store.player("p_alice").await.unwrap(), Some(alice.clone()));
    assert_eq!(
        store.player_by_name("alice").await.unwrap(),
        Some(alice.clone())
    );
    assert_eq!(store.player_by_name("ALICE").await.unwrap(), Some(alice));
    assert_eq!(store.player("p_nobody").await.unwrap(), None);
    assert_eq!(store.player_by_name("nobody").await.unwrap(), None);
    let g = store.player("p_g1").await.unwrap().unwrap();
    assert!(g.guest && g.rating.is_none() && g.password_hash.is_none());

    store.set_notation("p_g1", "chinese").await.unwrap();
    assert_eq!(
        store.player("p_g1").await.unwrap().unwrap().notation,
        "chinese"
    );
    assert!(matches!(
        store.set_notation("p_nobody", "wxf").await,
        Err(StoreError::NotFound { what: "player", .. })
    ));

    // The display settings: unset, then each set alone, the other kept.
    assert_eq!(g.language, None);
    assert_eq!(g.pieces, None);
    store
        .set_display("p_g1", Some("zh-Hant"), None)
        .await
        .unwrap();
    store
        .set_display("p_g1", None, Some("pictogram"))
        .await
        .unwrap();
    let g = store.player("p_g1").await.unwrap().unwrap();
    assert_eq!(g.language.as_deref(), Some("zh-Hant"));
    assert_eq!(g.pieces.as_deref(), Some("pictogram"));
    assert!(matches!(
        store.set_display("p_nobody", Some("vi"), None).await,
        Err(StoreError::NotFound { what: "player", .. })
    ));
}

async fn a_taken_name_is_refused_in_any_case(store: Store) {
    store
        .insert_player(&account("p_1", "bob", 1500))
        .await
        .unwrap();
    for name in ["bob", "BOB"] {
        match store.insert_player(&account("p_2", name, 1500)).await {
            Err(StoreError::NameTaken(n)) => assert_eq!(n, name),
            other => panic!("{name}: expected NameTaken, got {other:?}"),
        }
    }
    store
        .insert_player(&guest("p_3", "Guest-000001"))
        .await
        .unwrap();
    match store.register_guest("p_3", "Bob", "hash", 1500).await {
        Err(StoreError::NameTaken(n)) => assert_eq!(n, "Bob"),
        other => panic!("expected NameTaken, got {other:?}"),
    }
    // The refused registration changed nothing.
    assert_eq!(
        store.player("p_3").await.unwrap(),
        Some(guest("p_3", "Guest-000001"))
    );
}

async fn a_name_confusable_with_another_is_refused(store: Store) {
    store
        .insert_player(&account("p_1", "alice", 1500))
        .await
        .unwrap();
    store
        .insert_player(&guest("p_2", "Guest-000002"))
        .await
        .unwrap();
    for poser in ["a1ice", "aIice", "ALlCE"] {
        match store.register_guest("p_2", poser, "hash", 1500).await {
            Err(StoreError::NameConfusable { name, existing }) => {
                assert_eq!((name.as_str(), existing.as_str()), (poser, "alice"))
            }
            other => panic!("{poser}: expected NameConfusable, got {other:?}"),
        }
    }
    assert_eq!(
        store.confusable_with("a1ice", "p_2").await.unwrap(),
        Some("alice".into())
    );
    assert_eq!(store.confusable_with("alice", "p_1").await.unwrap(), None);
    // Unchanged by the refusals; a name of its own is fine.
    assert!(store.player("p_2").await.unwrap().unwrap().guest);
    store
        .register_guest("p_2", "malice", "hash", 1500)
        .await
        .unwrap();
}

async fn idle_guests_without_games_expire_with_their_sessions(store: Store) {
    let made = 1_733_280_000_000; // the `guest` rows' created_at
    let day = 86_400_000;
    for (id, name) in [("p_idle", "Guest-00000a"), ("p_seen", "Guest-00000b")] {
        store.insert_player(&guest(id, name)).await.unwrap();
    }
    store
        .insert_player(&guest("p_played", "Guest-00000c"))
        .await
        .unwrap();
    store
        .insert_player(&guest("p_online", "Guest-00000d"))
        .await
        .unwrap();
    store
        .insert_player(&account("p_account", "erin", 1500))
        .await
        .unwrap();
    store
        .insert_session("h_idle", "p_idle", made)
        .await
        .unwrap();
    store
        .insert_session("h_played", "p_played", made)
        .await
        .unwrap();
    store.touch_player("p_seen", made + 8 * day).await.unwrap();
    store
        .insert_game(&game_row("g_1", "p_played", "engine-2", made))
        .await
        .unwrap();
    let online: std::collections::HashSet<String> = ["p_online".to_string()].into();
    let expired = store.expire_guests(made + 7 * day, &online).await.unwrap();
    assert_eq!(expired, 1);
    assert_eq!(store.player("p_idle").await.unwrap(), None);
    assert_eq!(store.session_player("h_idle").await.unwrap(), None);
    for kept in ["p_seen", "p_played", "p_online", "p_account"] {
        assert!(store.player(kept).await.unwrap().is_some(), "{kept}");
    }
    assert!(store.session_player("h_played").await.unwrap().is_some());
    let (_, seen) = store
        .session_player_seen("h_played")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(seen, Some(made));
}

async fn a_guest_registers(store: Store) {
    let mut g = guest("p_g", "Guest-abcdef");
    g.notation = "wxf".into();
    g.language = Some("sk".into());
    g.pieces = Some("pictogram".into());
    store.insert_player(&g).await.unwrap();
    let registered = store
        .register_guest("p_g", "carol", "phc", 1500)
        .await
        .unwrap();
    let expected = PlayerRow {
        name: "carol".into(),
        guest: false,
        password_hash: Some("phc".into()),
        rating: Some(1500),
        ..g
    };
    assert_eq!(registered, expected);
    assert_eq!(store.player_by_name("carol").await.unwrap(), Some(expected));
    assert_eq!(store.player_by_name("Guest-abcdef").await.unwrap(), None);
    // An account is no guest: it cannot register again, nor can a stranger.
    for id in ["p_g", "p_nobody"] {
        assert!(matches!(
            store.register_guest(id, "dave", "phc", 1500).await,
            Err(StoreError::NotFound { what: "guest", .. })
        ));
    }
}

async fn sessions_find_their_player(store: Store) {
    let p = guest("p_s", "Guest-5e5510");
    store.insert_player(&p).await.unwrap();
    store.insert_session("aa11", "p_s", 1).await.unwrap();
    store.insert_session("bb22", "p_s", 2).await.unwrap();
    assert_eq!(store.session_player("aa11").await.unwrap(), Some(p.clone()));
    assert_eq!(store.session_player("cc33").await.unwrap(), None);
    store.delete_session("aa11").await.unwrap();
    assert_eq!(store.session_player("aa11").await.unwrap(), None);
    assert_eq!(store.session_player("bb22").await.unwrap(), Some(p));
    store.delete_session("aa11").await.unwrap();
    // A session of no player is refused.
    assert!(store.insert_session("dd44", "p_nobody", 3).await.is_err());
}

async fn games_keep_their_events_and_ending(store: Store) {
    let row = game_row("g_1", "p_r", "engine-3", 1000);
    store.insert_game(&row).await.unwrap();
    let events = vec![
        event(1, 1_500, mv(Color::Red, "h2e2")),
        event(2, 2_250, mv(Color::Black, "h9g7")),
        event(3, 2_300, ClockEvent::Leave { side: Color::Red }),
    ];
    for e in &events {
        store.append_event("g_1", e).await.unwrap();
    }
    let stored = store.game("g_1").await.unwrap().unwrap();
    assert_eq!(
        stored,
        StoredGame {
            game: row.clone(),
            events: events.clone(),
            ending: None
        }
    );
    assert_eq!(store.game("g_404").await.unwrap(), None);
    assert_eq!(store.unfinished_games().await.unwrap(), vec![stored]);

    let end = Ending {
        status: "cancelled".into(),
        result: "*".into(),
        reason: "cancelled".into(),
        ..ending("*", "cancelled", 2)
    };
    store.finish_game("g_1", &end, &[]).await.unwrap();
    let stored = store.game("g_1").await.unwrap().unwrap();
    assert_eq!(stored.ending, Some(end));
    assert_eq!(stored.events, events);
    assert!(store.unfinished_games().await.unwrap().is_empty());
    // An event for a game that does not exist is refused.
    assert!(store.append_event("g_404", &events[0]).await.is_err());
}

async fn games_of_lists_newest_first_with_a_limit(store: Store) {
    store
        .insert_game(&game_row("g_a", "p_x", "p_y", 100))
        .await
        .unwrap();
    store
        .insert_game(&game_row("g_b", "p_y", "p_x", 300))
        .await
        .unwrap();
    store
        .insert_game(&game_row("g_c", "p_z", "p_y", 200))
        .await
        .unwrap();
    store
        .insert_game(&game_row("g_d", "p_x", "engine-1", 400))
        .await
        .unwrap();
    store
        .append_event("g_b", &event(1, 10, mv(Color::Red, "b2e2")))
        .await
        .unwrap();
    let ids = |games: Vec<StoredGame>| games.into_iter().map(|g| g.game.id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.games_of("p_x", 100, None).await.unwrap()),
        ["g_d", "g_b", "g_a"]
    );
    assert_eq!(
        ids(store.games_of("p_y", 2, None).await.unwrap()),
        ["g_b", "g_c"]
    );
    assert!(store
        .games_of("p_nobody", 10, None)
        .await
        .unwrap()
        .is_empty());
    let x = store.games_of("p_x", 100, None).await.unwrap();
    assert_eq!(x[1].events.len(), 1);
    assert!(x[0].events.is_empty() && x[2].events.is_empty());
}

async fn finish_game_writes_ratings_and_history(store: Store) {
    store
        .insert_player(&account("p_r", "red_player", 1500))
        .await
        .unwrap();
    store
        .insert_player(&account("p_b", "black_player", 1500))
        .await
        .unwrap();
    for (id, at) in [("g_1", 1_000), ("g_2", 2_000)] {
        store
            .insert_game(&game_row(id, "p_r", "p_b", at))
            .await
            .unwrap();
    }
    store
        .finish_game(
            "g_1",
            &ending("1-0", "checkmate", 41),
            &[
                change("p_r", "g_1", 1500, 1510, 5_000),
                change("p_b", "g_1", 1500, 1490, 5_000),
            ],
        )
        .await
        .unwrap();
    store
        .finish_game(
            "g_2",
            &ending("1/2-1/2", "agreement", 60),
            &[
                change("p_r", "g_2", 1510, 1509, 9_000),
                change("p_b", "g_2", 1490, 1491, 9_000),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        store.player("p_r").await.unwrap().unwrap().rating,
        Some(1509)
    );
    assert_eq!(
        store.player("p_b").await.unwrap().unwrap().rating,
        Some(1491)
    );
    assert_eq!(
        store.rating_history("p_b").await.unwrap(),
        vec![
            change("p_b", "g_2", 1490, 1491, 9_000),
            change("p_b", "g_1", 1500, 1490, 5_000)
        ]
    );
    assert!(store.rating_history("p_nobody").await.unwrap().is_empty());
}

async fn finish_game_is_all_or_nothing(store: Store) {
    store
        .insert_player(&account("p_r", "red_player", 1500))
        .await
        .unwrap();
    store
        .insert_player(&guest("p_g", "Guest-aaaaaa"))
        .await
        .unwrap();
    store
        .insert_game(&game_row("g_1", "p_r", "p_g", 1_000))
        .await
        .unwrap();
    // The second rating write fails (a guest has no rating; then a player
    // who does not exist): neither the ending nor the first change stays.
    for black in ["p_g", "p_nobody"] {
        let result = store
            .finish_game(
                "g_1",
                &ending("1-0", "timeout", 30),
                &[
                    change("p_r", "g_1", 1500, 1510, 5_000),
                    change(black, "g_1", 1500, 1490, 5_000),
                ],
            )
            .await;
        assert!(result.is_err(), "{black}: {result:?}");
        assert_eq!(store.game("g_1").await.unwrap().unwrap().ending, None);
        assert_eq!(
            store.player("p_r").await.unwrap().unwrap().rating,
            Some(1500)
        );
        assert!(store.rating_history("p_r").await.unwrap().is_empty());
        assert_eq!(store.unfinished_games().await.unwrap().len(), 1);
    }
    // The store is still usable afterwards (the transaction was rolled back).
    store
        .finish_game(
            "g_1",
            &ending("1-0", "timeout", 30),
            &[change("p_r", "g_1", 1500, 1510, 5_000)],
        )
        .await
        .unwrap();
    assert_eq!(
        store.player("p_r").await.unwrap().unwrap().rating,
        Some(1510)
    );
}

async fn a_game_ends_once(store: Store) {
    store
        .insert_game(&game_row("g_1", "p_r", "p_b", 1_000))
        .await
        .unwrap();
    store
        .finish_game("g_1", &ending("0-1", "resignation", 12), &[])
        .await
        .unwrap();
    assert!(store
        .finish_game("g_1", &ending("1-0", "timeout", 12), &[])
        .await
        .is_err());
    assert_eq!(
        store.game("g_1").await.unwrap().unwrap().ending,
        Some(ending("0-1", "resignation", 12))
    );
    assert!(store
        .finish_game("g_404", &ending("1-0", "timeout", 1), &[])
        .await
        .is_err());
}

async fn a_duplicate_event_is_refused(store: Store) {
    store
        .insert_game(&game_row("g_1", "p_r", "p_b", 1_000))
        .await
        .unwrap();
    store
        .append_event("g_1", &event(1, 10, mv(Color::Red, "h2e2")))
        .await
        .unwrap();
    assert!(store
        .append_event("g_1", &event(1, 20, mv(Color::Red, "b2e2")))
        .await
        .is_err());
    assert_eq!(store.game("g_1").await.unwrap().unwrap().events.len(), 1);
}

/// An abort is stored as its own event and replays to the same aborted game.
async fn an_aborted_game_replays_aborted(store: Store) {
    store
        .insert_game(&game_row("g_1", "p_r", "p_b", 1_000))
        .await
        .unwrap();
    let timed = [
        (1_000, mv(Color::Red, "h2e2")),
        (1_500, ClockEvent::Abort { side: Color::Red }),
    ];
    for (seq, (at, e)) in timed.into_iter().enumerate() {
        let e = TimedEvent { at, event: e };
        let row = EventRow::from_timed(seq as i64, &e);
        assert_eq!(row.kind, if seq == 1 { "abort" } else { "move" });
        assert_eq!(row.to_timed().unwrap(), e);
        store.append_event("g_1", &row).await.unwrap();
    }
    let replayed = store.game("g_1").await.unwrap().unwrap().replay().unwrap();
    assert_eq!(replayed.verdict().outcome, Outcome::Cancelled);
    assert_eq!(replayed.verdict().reason, Some(Reason::Aborted));
    assert_eq!(replayed.aborted_by(), Some(Color::Red));
    assert_eq!(replayed.rated(), Some(false));
}

/// Every kind of event, stored and replayed, gives the game played live.
async fn events_replay_to_the_same_game(store: Store) {
    let timed = [
        (1_000, mv(Color::Red, "h2e2")),
        (2_000, mv(Color::Black, "h9g7")),
        (2_500, ClockEvent::OfferDraw { side: Color::Black }),
        (2_600, ClockEvent::DeclineDraw { side: Color::Red }),
        (3_000, ClockEvent::Leave { side: Color::Black }),
        (4_000, ClockEvent::Return { side: Color::Black }),
        (4_500, ClockEvent::Poll),
        (
            5_000,
            ClockEvent::Move {
                side: None,
                mv: "h0g2".parse().unwrap(),
            },
        ),
        (6_000, ClockEvent::OfferDraw { side: Color::Black }),
        (7_000, ClockEvent::Resign { side: Color::Red }),
    ];
    let tc = TimeControl {
        base_ms: 300_000,
        increment_ms: 3_000,
    };
    let mut live = OnlineGame::new(Position::startpos(), RuleSet::default(), tc, 0).unwrap();
    store
        .insert_game(&game_row("g_1", "p_r", "p_b", 1_000))
        .await
        .unwrap();
    for (seq, (at, e)) in timed.iter().enumerate() {
        let e = TimedEvent {
            at: *at,
            event: e.clone(),
        };
        live.apply(&e).unwrap();
        let row = EventRow::from_timed(seq as i64 + 1, &e);
        assert_eq!(row.to_timed().unwrap(), e);
        store.append_event("g_1", &row).await.unwrap();
    }
    let replayed = store.game("g_1").await.unwrap().unwrap().replay().unwrap();
    assert_eq!(replayed.verdict(), live.verdict());
    assert_eq!(replayed.verdict().outcome, Outcome::Black);
    assert_eq!(replayed.verdict().reason, Some(Reason::Resignation));
    assert_eq!(replayed.clocks(), live.clocks());
    // Red: 1 s for the first move, 3 s (2 000 to 5 000) for the second, +3 s
    // each; Black: 1 s and +3 s, then its clock runs 5 000 to 7 000.
    assert_eq!(replayed.clocks(), [302_000, 300_000]);
    assert_eq!(replayed.game().moves(), live.game().moves());

    // An accept after the end cannot be replayed: a clear error, no panic.
    store
        .append_event(
            "g_1",
            &event(11, 8_000, ClockEvent::AcceptDraw { side: Color::Red }),
        )
        .await
        .unwrap();
    let err = store
        .game("g_1")
        .await
        .unwrap()
        .unwrap()
        .replay()
        .unwrap_err();
    assert!(matches!(err, StoreError::Invalid(_)), "{err}");
}

// ---------------------------------------------------------------- SQLite only

#[tokio::test]
async fn sqlite_data_survives_reopening() {
    let db = sqlite().await;
    db.store
        .insert_player(&account("p_1", "erin", 1600))
        .await
        .unwrap();
    db.store
        .insert_game(&game_row("g_1", "p_1", "engine-2", 5))
        .await
        .unwrap();
    db.store
        .append_event("g_1", &event(1, 10, mv(Color::Red, "h2e2")))
        .await
        .unwrap();
    drop(db.store);
    let reopened = Store::open(&db.url).await.unwrap();
    assert_eq!(
        reopened
            .player_by_name("erin")
            .await
            .unwrap()
            .unwrap()
            .rating,
        Some(1600)
    );
    assert_eq!(
        reopened.unfinished_games().await.unwrap()[0].events.len(),
        1
    );
}

#[tokio::test]
async fn names_stored_before_their_keys_are_keyed_at_open() {
    let db = sqlite().await;
    db.store
        .insert_player(&account("p_1", "alice", 1500))
        .await
        .unwrap();
    db.store
        .insert_player(&guest("p_2", "Guest-000002"))
        .await
        .unwrap();
    drop(db.store);
    // A database from before migration 3 has no keys.
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE players SET name_skeleton = NULL")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let reopened = Store::open(&db.url).await.unwrap();
    assert_eq!(
        reopened.confusable_with("a1ice", "p_2").await.unwrap(),
        Some("alice".into())
    );
}

#[tokio::test]
async fn a_corrupt_database_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("corrupt.db");
    std::fs::write(
        &path,
        b"this is not a database, just some text that is long enough to be a header. ".repeat(20),
    )
    .unwrap();
    let err = Store::open(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("corrupt.db"), "{text}");
    assert!(text.contains("not a database"), "{text}");
}

#[tokio::test]
async fn an_unopenable_database_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no such dir").join("x.db");
    let err = Store::open(&format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("cannot open the SQLite database"),
        "{err}"
    );
    let err = Store::open("mysql://localhost/x").await.unwrap_err();
    assert!(
        err.to_string().contains("unsupported database URL"),
        "{err}"
    );
}

#[tokio::test]
async fn an_in_memory_database_works() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    store
        .insert_player(&guest("p_1", "Guest-111111"))
        .await
        .unwrap();
    assert!(store.player("p_1").await.unwrap().is_some());
}

// ---------------------------------------------------------------- replay details

#[test]
fn protocol_time_controls_are_minutes_and_seconds() {
    let ms = |t: &str| parse_time_control(t).map(|tc| (tc.base_ms, tc.increment_ms));
    assert_eq!(ms("5+3"), Ok((300_000, 3_000)));
    assert_eq!(ms("0.5+0"), Ok((30_000, 0)));
    assert_eq!(ms("180+60"), Ok((10_800_000, 60_000)));
    assert_eq!(ms("1.25+0.5"), Ok((75_000, 500)));
    for bad in [
        "", "5", "0+3", "181+0", "5+61", "-1+0", "5+-1", "inf+0", "NaN+0", "1e2+0", "5 + 3", "+3",
        "5+",
    ] {
        assert!(ms(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn bad_event_rows_are_errors() {
    let row = |kind: &str, side: Option<&str>, mv: Option<&str>, at: i64| EventRow {
        seq: 7,
        kind: kind.into(),
        side: side.map(Into::into),
        mv: mv.map(Into::into),
        at,
    };
    for bad in [
        row("move", Some("red"), None, 0),
        row("move", Some("red"), Some("z9z9"), 0),
        row("move", Some("green"), Some("h2e2"), 0),
        row("resign", None, None, 0),
        row("abort", None, None, 0),
        row("castle", Some("red"), None, 0),
        row("poll", None, None, -1),
    ] {
        assert!(
            matches!(bad.to_timed(), Err(StoreError::Invalid(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn a_game_with_bad_facts_does_not_replay() {
    let good = StoredGame {
        game: game_row("g_1", "a", "b", 0),
        events: vec![],
        ending: None,
    };
    assert!(good.replay().is_ok());
    let mut bad_rules = good.clone();
    bad_rules.game.rules = "chaturanga".into();
    let mut bad_tc = good.clone();
    bad_tc.game.time_control = "300000+0".into();
    let mut bad_fen = good.clone();
    bad_fen.game.start_fen = "not a fen".into();
    for g in [bad_rules, bad_tc, bad_fen] {
        assert!(
            matches!(g.replay(), Err(StoreError::Invalid(_))),
            "{:?}",
            g.game
        );
    }
}

/// Plays `moves` (ICCS, Red first) into stored game `id`.
async fn store_moves(store: &Store, id: &str, moves: &[&str]) {
    for (i, text) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { Color::Red } else { Color::Black };
        store
            .append_event(id, &event(i as i64 + 1, 10 * i as u64, mv(side, text)))
            .await
            .unwrap();
    }
}

async fn games_of_filters_by_ecco_code(store: Store) {
    for (id, started_at) in [("g_1", 100), ("g_2", 200), ("g_3", 300), ("g_4", 400)] {
        store
            .insert_game(&game_row(id, "p_x", "p_y", started_at))
            .await
            .unwrap();
    }
    let coded = |code: Option<&str>| Ending {
        ecco: code.map(str::to_string),
        ..ending("1-0", "resignation", 4)
    };
    store
        .finish_game("g_1", &coded(Some("C23")), &[])
        .await
        .unwrap();
    store
        .finish_game("g_2", &coded(Some("B05")), &[])
        .await
        .unwrap();
    store.finish_game("g_4", &coded(None), &[]).await.unwrap();
    // g_3 is in progress: 炮二平五 马8进7, B05 by its moves.
    store_moves(&store, "g_3", &["h2e2", "h9g7"]).await;
    let ids = |games: Vec<StoredGame>| games.into_iter().map(|g| g.game.id).collect::<Vec<_>>();
    let filtered = |text: &str| {
        let prefix = CodePrefix::parse(text).unwrap();
        let store = store.clone();
        async move { ids(store.games_of("p_x", 100, Some(&prefix)).await.unwrap()) }
    };
    assert_eq!(filtered("B").await, ["g_3", "g_2"]);
    assert_eq!(filtered("b05").await, ["g_3", "g_2"]);
    assert_eq!(filtered("C2").await, ["g_1"]);
    assert_eq!(filtered("C23").await, ["g_1"]);
    assert!(filtered("C3").await.is_empty());
    assert!(filtered("A").await.is_empty());
    assert_eq!(
        ids(store.games_of("p_x", 100, None).await.unwrap()),
        ["g_4", "g_3", "g_2", "g_1"]
    );
    let stored = store.game("g_1").await.unwrap().unwrap();
    assert_eq!(stored.ending.unwrap().ecco.as_deref(), Some("C23"));
    assert_eq!(
        store
            .game("g_4")
            .await
            .unwrap()
            .unwrap()
            .ending
            .unwrap()
            .ecco,
        None
    );
}

/// Endings stored before endings had a code get theirs, from their stored
/// moves, when the store is opened again.
#[tokio::test]
async fn endings_stored_without_a_code_get_one_at_open() {
    let db = sqlite().await;
    db.store
        .insert_game(&game_row("g_old", "p_x", "p_y", 100))
        .await
        .unwrap();
    store_moves(&db.store, "g_old", &["h2e2", "h9g7", "h0g2", "b9c7"]).await;
    db.store
        .finish_game("g_old", &ending("1-0", "resignation", 4), &[])
        .await
        .unwrap();
    // As a server from before the column left it.
    {
        use sqlx::Connection;
        let mut raw = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        sqlx::Executor::execute(&mut raw, "UPDATE endings SET ecco = NULL")
            .await
            .unwrap();
        raw.close().await.unwrap();
    }
    let reopened = Store::open(&db.url).await.unwrap();
    let stored = reopened.game("g_old").await.unwrap().unwrap();
    assert_eq!(stored.ending.unwrap().ecco.as_deref(), Some("C00"));
    let c0 = CodePrefix::parse("C0").unwrap();
    assert_eq!(
        reopened.games_of("p_x", 10, Some(&c0)).await.unwrap().len(),
        1
    );
}

// ------------------------------------------------ social (migration 0007)

async fn games_are_filtered_by_result_rated_and_opponent_a_page_at_a_time(store: Store) {
    // p_x plays 30 games: against p_y, red, alternately won and lost, rated
    // on even numbers; against p_z, black, drawn, casual; one in progress.
    for i in 0..30 {
        let (id, at) = (format!("g_{i:02}"), 1_000 + i64::from(i));
        let (red, black) = if i < 20 {
            ("p_x", "p_y")
        } else {
            ("p_z", "p_x")
        };
        let mut row = game_row(&id, red, black, at);
        row.rated = i % 2 == 0 && i < 20;
        store.insert_game(&row).await.unwrap();
        let result = match i {
            29 => continue,
            20.. => "1/2-1/2",
            _ if i % 2 == 0 => "1-0",
            _ => "0-1",
        };
        store
            .finish_game(&id, &ending(result, "checkmate", 10), &[])
            .await
            .unwrap();
    }
    let ids = |games: Vec<StoredGame>| games.into_iter().map(|g| g.game.id).collect::<Vec<_>>();
    let count = |filter: GameFilter| {
        let store = store.clone();
        async move {
            store
                .games_filtered("p_x", &filter, 100, 0)
                .await
                .unwrap()
                .len()
        }
    };
    let with_result = |result| GameFilter {
        result: Some(result),
        ..GameFilter::default()
    };
    assert_eq!(count(GameFilter::default()).await, 30);
    assert_eq!(count(with_result(ResultFilter::Win)).await, 10);
    assert_eq!(count(with_result(ResultFilter::Loss)).await, 10);
    assert_eq!(count(with_result(ResultFilter::Draw)).await, 9);
    assert_eq!(count(with_result(ResultFilter::Playing)).await, 1);
    // From p_y's side the wins are p_x's losses.
    let y_wins = store
        .games_filtered("p_y", &with_result(ResultFilter::Win), 100, 0)
        .await
        .unwrap();
    assert!(y_wins
        .iter()
        .all(|g| g.ending.as_ref().unwrap().result == "0-1"));
    assert_eq!(y_wins.len(), 10);
    let rated = GameFilter {
        rated: Some(true),
        ..GameFilter::default()
    };
    assert_eq!(count(rated).await, 10);
    let against_z = GameFilter {
        opponent: Some("p_z".into()),
        ..GameFilter::default()
    };
    assert_eq!(count(against_z.clone()).await, 10);
    let z_casual_wins = GameFilter {
        result: Some(ResultFilter::Win),
        rated: Some(false),
        ..against_z
    };
    assert_eq!(count(z_casual_wins).await, 0);
    let nobody = GameFilter {
        opponent: Some(String::new()),
        ..GameFilter::default()
    };
    assert_eq!(count(nobody).await, 0);
    // Pages: newest first, no game twice, none left out.
    let mut seen = Vec::new();
    for page in 0..4 {
        let games = store
            .games_filtered("p_x", &GameFilter::default(), 8, page * 8)
            .await
            .unwrap();
        assert_eq!(games.len(), if page < 3 { 8 } else { 6 });
        seen.extend(ids(games));
    }
    let expected: Vec<String> = (0..30).rev().map(|i| format!("g_{i:02}")).collect();
    assert_eq!(seen, expected);
}

fn chat(id: &str, game: &str, channel: &str, author: &str, at: i64) -> ChatRow {
    ChatRow {
        id: id.into(),
        game: game.into(),
        channel: channel.into(),
        author: author.into(),
        author_name: String::new(),
        body: format!("<b>{id}</b>"),
        at,
    }
}

async fn chat_is_kept_per_channel_within_a_cap(store: Store) {
    store.insert_player(&guest("p_r", "Guest-r")).await.unwrap();
    store
        .insert_player(&account("p_s", "watcher", 1500))
        .await
        .unwrap();
    store
        .insert_game(&game_row("g_1", "p_r", "engine-1", 1))
        .await
        .unwrap();
    assert!(store
        .insert_chat(&chat("m_1", "g_1", "players", "p_r", 10), 2)
        .await
        .unwrap());
    assert!(store
        .insert_chat(&chat("m_2", "g_1", "spectators", "p_s", 11), 2)
        .await
        .unwrap());
    assert!(store
        .insert_chat(&chat("m_3", "g_1", "players", "p_r", 12), 2)
        .await
        .unwrap());
    // The players' channel is full; the spectators' is not.
    assert!(!store
        .insert_chat(&chat("m_4", "g_1", "players", "p_r", 13), 2)
        .await
        .unwrap());
    assert!(store
        .insert_chat(&chat("m_5", "g_1", "spectators", "p_s", 14), 2)
        .await
        .unwrap());
    let players = store.chat_of("g_1", &["players"]).await.unwrap();
    assert_eq!(
        players.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        ["m_1", "m_3"]
    );
    assert_eq!(players[0].author_name, "Guest-r");
    assert_eq!(
        players[0].body, "<b>m_1</b>",
        "stored as written, never escaped"
    );
    let both = store
        .chat_of("g_1", &["players", "spectators"])
        .await
        .unwrap();
    assert_eq!(
        both.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
        ["m_1", "m_2", "m_3", "m_5"]
    );
    assert_eq!(
        store
            .chat_message("m_2")
            .await
            .unwrap()
            .unwrap()
            .author_name,
        "watcher"
    );
    assert_eq!(store.chat_message("m_4").await.unwrap(), None);
    // A message needs its game and its author, and a known channel.
    assert!(store
        .insert_chat(&chat("m_6", "g_404", "players", "p_r", 1), 9)
        .await
        .is_err());
    assert!(store
        .insert_chat(&chat("m_7", "g_1", "everyone", "p_r", 1), 9)
        .await
        .is_err());
    let sides = store.game_sides("g_1").await.unwrap().unwrap();
    assert!(sides.plays("p_r") && !sides.plays("p_s") && !sides.over);
    assert_eq!(sides.opponent_of("p_r"), Some("engine-1"));
    assert_eq!(store.game_sides("g_404").await.unwrap(), None);
}

async fn reports_are_kept_once_per_message_for_a_moderator(store: Store) {
    for (id, name) in [("p_r", "reader"), ("p_b", "rude")] {
        store.insert_player(&account(id, name, 1500)).await.unwrap();
    }
    store
        .insert_game(&game_row("g_1", "p_r", "p_b", 1))
        .await
        .unwrap();
    store
        .insert_chat(&chat("m_1", "g_1", "players", "p_b", 10), 9)
        .await
        .unwrap();
    let report = NewReport {
        id: "r_1",
        reporter: "p_r",
        reported: "p_b",
        game: "g_1",
        message: Some("m_1"),
        reason: "abuse",
        note: "",
        at: 20,
    };
    assert!(store.insert_report(&report).await.unwrap());
    assert!(!store
        .insert_report(&NewReport {
            id: "r_2",
            ..report.clone()
        })
        .await
        .unwrap());
    // About the opponent, without a message: as many as one likes.
    for (id, at) in [("r_3", 30), ("r_4", 40)] {
        let about_opponent = NewReport {
            id,
            message: None,
            reason: "cheating",
            note: "engine moves",
            at,
            ..report.clone()
        };
        assert!(store.insert_report(&about_opponent).await.unwrap());
    }
    let reports = store.reports(10, 0).await.unwrap();
    assert_eq!(
        reports.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
        ["r_4", "r_3", "r_1"]
    );
    let first = &reports[2];
    assert_eq!(
        (first.reporter_name.as_str(), first.reported_name.as_str()),
        ("reader", "rude")
    );
    assert_eq!(first.message_body.as_deref(), Some("<b>m_1</b>"));
    assert_eq!(reports[0].message, None);
    assert_eq!(store.reports(1, 1).await.unwrap()[0].id, "r_3");
}

async fn a_password_change_ends_the_other_sessions(store: Store) {
    store
        .insert_player(&account("p_a", "alice", 1500))
        .await
        .unwrap();
    store.insert_player(&guest("p_g", "Guest-g")).await.unwrap();
    for (hash, player) in [("s_here", "p_a"), ("s_phone", "p_a"), ("s_guest", "p_g")] {
        store.insert_session(hash, player, 1).await.unwrap();
    }
    store
        .change_password("p_a", "new-phc", Some("s_here"))
        .await
        .unwrap();
    assert!(store.session_player("s_here").await.unwrap().is_some());
    assert_eq!(store.session_player("s_phone").await.unwrap(), None);
    assert!(store.session_player("s_guest").await.unwrap().is_some());
    let alice = store.player("p_a").await.unwrap().unwrap();
    assert_eq!(alice.password_hash.as_deref(), Some("new-phc"));
    // Without a session to keep, every session ends; a guest has no password.
    store
        .change_password("p_a", "newer-phc", None)
        .await
        .unwrap();
    assert_eq!(store.session_player("s_here").await.unwrap(), None);
    assert!(matches!(
        store.change_password("p_g", "phc", None).await,
        Err(StoreError::NotFound { .. })
    ));
}

async fn a_deleted_account_keeps_its_games_under_a_placeholder(store: Store) {
    store
        .insert_player(&account("p_a", "alice", 1500))
        .await
        .unwrap();
    store
        .insert_player(&account("p_b", "bob", 1500))
        .await
        .unwrap();
    store.insert_session("s_a", "p_a", 1).await.unwrap();
    store
        .insert_game(&game_row("g_1", "p_a", "p_b", 1))
        .await
        .unwrap();
    store
        .finish_game(
            "g_1",
            &ending("1-0", "checkmate", 20),
            &[
                change("p_a", "g_1", 1500, 1516, 5),
                change("p_b", "g_1", 1500, 1484, 5),
            ],
        )
        .await
        .unwrap();
    store
        .insert_chat(&chat("m_1", "g_1", "players", "p_a", 3), 9)
        .await
        .unwrap();
    assert!(!store.is_deleted("p_a").await.unwrap());
    let placeholder = store.delete_account("p_a", 99).await.unwrap();
    assert_eq!(placeholder, deleted_name("p_a"));
    assert!(store.is_deleted("p_a").await.unwrap());
    assert!(!store.is_deleted("p_nobody").await.unwrap());
    let row = store.player("p_a").await.unwrap().unwrap();
    assert_eq!(
        (row.name.as_str(), row.password_hash),
        (placeholder.as_str(), None)
    );
    assert_eq!(row.rating, Some(1516), "the rating stays with the games");
    assert_eq!(store.session_player("s_a").await.unwrap(), None);
    assert_eq!(store.player_by_name("alice").await.unwrap(), None);
    assert_eq!(
        store
            .player_by_name(&placeholder)
            .await
            .unwrap()
            .unwrap()
            .id,
        "p_a"
    );
    assert_eq!(store.games_of("p_a", 10, None).await.unwrap().len(), 1);
    assert_eq!(store.rating_history("p_a").await.unwrap().len(), 1);
    assert_eq!(
        store.chat_of("g_1", &["players"]).await.unwrap()[0].author_name,
        placeholder
    );
    // The name is free again, and a deletion happens once.
    store
        .insert_player(&account("p_c", "alice", 1500))
        .await
        .unwrap();
    assert!(matches!(
        store.delete_account("p_a", 100).await,
        Err(StoreError::NotFound { .. })
    ));
}

/// The leases of a cluster's nodes (`game_owners`): one holder at a time,
/// renewed by it, taken by another only once lapsed; a finished game is
/// nobody's orphan.
async fn a_game_lease_has_one_holder_until_it_lapses(store: Store) {
    for (id, at) in [("g_1", 100), ("g_2", 200), ("g_old", 10)] {
        store
            .insert_game(&game_row(id, "p_r", "p_b", at))
            .await
            .unwrap();
    }
    assert!(store.claim_lease("g_1", "n_a", 1_000, 4_000).await.unwrap());
    assert!(!store.claim_lease("g_1", "n_b", 1_500, 4_500).await.unwrap());
    // Its holder renews it.
    assert!(store.claim_lease("g_1", "n_a", 2_000, 5_000).await.unwrap());
    assert!(store.claim_lease("g_2", "n_a", 2_000, 5_000).await.unwrap());
    assert_eq!(
        store.lease_holder("g_1", 4_999).await.unwrap().as_deref(),
        Some("n_a")
    );
    let mut held = store.renew_leases("n_a", 6_000).await.unwrap();
    held.sort();
    assert_eq!(held, ["g_1", "g_2"]);
    // Not lapsed: only the unleased old game is an orphan (after its grace).
    assert_eq!(store.orphaned_games(5_500, 50).await.unwrap(), ["g_old"]);
    assert!(store.orphaned_games(5_500, 5).await.unwrap().is_empty());
    // Lapsed: another node takes it, and the first cannot renew it.
    assert_eq!(
        store.orphaned_games(6_001, 5).await.unwrap(),
        ["g_1", "g_2"]
    );
    assert_eq!(store.lease_holder("g_1", 6_001).await.unwrap(), None);
    assert!(store.claim_lease("g_1", "n_b", 6_001, 9_000).await.unwrap());
    assert_eq!(store.renew_leases("n_a", 9_500).await.unwrap(), ["g_2"]);
    // A finished game is nobody's to take over; a released lease is gone.
    store
        .finish_game("g_2", &ending("1-0", "resignation", 0), &[])
        .await
        .unwrap();
    assert_eq!(
        store.orphaned_games(20_000, 50).await.unwrap(),
        ["g_old", "g_1"]
    );
    store.release_lease("g_1", "n_a").await.unwrap();
    assert_eq!(
        store.lease_holder("g_1", 8_000).await.unwrap().as_deref(),
        Some("n_b")
    );
    store.release_lease("g_1", "n_b").await.unwrap();
    assert_eq!(store.lease_holder("g_1", 8_000).await.unwrap(), None);
}

fn library_game(id: &str, owner: &str, batch: &str, index: i64, red: &str) -> LibraryGameRow {
    LibraryGameRow {
        id: id.into(),
        owner: owner.into(),
        batch: batch.into(),
        source_name: "games.pgn".into(),
        source_format: "pgn".into(),
        source_index: index,
        red: red.into(),
        black: "黑方".into(),
        event: "".into(),
        date: "".into(),
        result: "*".into(),
        ecco: Some("B05".into()),
        opening: Some("中炮对进左马".into()),
        plies: 2,
        pgn: "1. h2e2 h9g7 *\n".into(),
        // One time per import; the second import comes later.
        created_at: 1_733_280_000_000 + if batch == "b_2" { 10 } else { 0 },
    }
}

async fn a_library_is_its_owners_only(store: Store) {
    store
        .insert_player(&account("p_a", "alice", 1500))
        .await
        .unwrap();
    store
        .insert_player(&account("p_m", "mallory", 1500))
        .await
        .unwrap();
    let games = [
        library_game("l_1", "p_a", "b_1", 1, "Hu 50%_x"),
        library_game("l_2", "p_a", "b_1", 2, "LÜ Qin"),
        library_game("l_3", "p_a", "b_2", 1, "胡荣华"),
    ];
    store.add_library_games(&games).await.unwrap();
    store
        .add_library_games(&[library_game("l_9", "p_m", "b_9", 1, "Hu")])
        .await
        .unwrap();
    assert_eq!(store.library_count("p_a").await.unwrap(), 3);
    let all = LibraryFilter::default();
    let (total, page) = store.library_page("p_a", &all, 2, 0).await.unwrap();
    let ids: Vec<&str> = page.iter().map(|g| g.id.as_str()).collect();
    assert_eq!((total, ids), (3, vec!["l_3", "l_1"]), "newest first");
    assert_eq!(page[1], games[0], "every field read back");
    let filter = |player: &str, batch: Option<&str>| LibraryFilter {
        player: (!player.is_empty()).then(|| player.to_string()),
        batch: batch.map(str::to_string),
    };
    for (player, batch, expected) in [
        ("hu", None, vec!["l_1"]),
        ("50%_", None, vec!["l_1"]),
        ("%", None, vec!["l_1"]),
        ("_", None, vec!["l_1"]),
        ("lü", None, vec!["l_2"]),
        ("荣", None, vec!["l_3"]),
        ("黑方", Some("b_1"), vec!["l_1", "l_2"]),
        ("", Some("b_9"), vec![]),
    ] {
        let (_, page) = store
            .library_page("p_a", &filter(player, batch), 50, 0)
            .await
            .unwrap();
        let ids: Vec<&str> = page.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, expected, "{player:?} {batch:?}");
    }
    assert!(store.library_game("p_m", "l_1").await.unwrap().is_none());
    assert!(!store.delete_library_game("p_m", "l_1").await.unwrap());
    let review = LibraryReview {
        pgn: Some("1. h2e2 {[%eval 0.30,6]} *\n".into()),
        error: None,
    };
    store.save_library_review("l_1", &review, 5).await.unwrap();
    let (game, stored) = store.library_game("p_a", "l_1").await.unwrap().unwrap();
    assert_eq!((game, stored), (games[0].clone(), Some(review)));
    assert!(store.delete_library_game("p_a", "l_1").await.unwrap());
    assert_eq!(store.library_count("p_a").await.unwrap(), 2);
    store.delete_account("p_a", 10).await.unwrap();
    assert_eq!(
        store.library_count("p_a").await.unwrap(),
        0,
        "deleted with the account"
    );
    assert_eq!(store.library_count("p_m").await.unwrap(), 1);
}

async fn bot_tokens_upgrade_and_pool(store: Store) {
    store
        .insert_player(&account("p_bot", "engine", 1500))
        .await
        .unwrap();
    store
        .insert_player(&account("p_ana", "ana", 1500))
        .await
        .unwrap();
    store
        .insert_player(&account("p_old", "played", 1500))
        .await
        .unwrap();
    // Tokens: stored by hash, at most `max`, found, touched, revoked by their owner only.
    let token = |id: &str| TokenRow {
        id: id.into(),
        player: "p_bot".into(),
        description: "engine".into(),
        created_at: 1_000,
        last_used_at: None,
    };
    assert!(store.insert_token(&token("t_1"), "hash1", 2).await.unwrap());
    assert!(store.insert_token(&token("t_2"), "hash2", 2).await.unwrap());
    assert!(!store.insert_token(&token("t_3"), "hash3", 2).await.unwrap());
    assert_eq!(store.tokens_of("p_bot").await.unwrap().len(), 2);
    store.touch_token("t_1", 5_000).await.unwrap();
    let found = store.token_by_hash("hash1").await.unwrap().unwrap();
    assert_eq!(
        (found.id.as_str(), found.last_used_at),
        ("t_1", Some(5_000))
    );
    assert!(matches!(
        store.delete_token("p_ana", "t_1").await,
        Err(StoreError::NotFound { .. })
    ));
    store.delete_token("p_bot", "t_1").await.unwrap();
    assert!(store.token_by_hash("hash1").await.unwrap().is_none());
    assert!(!store.token_exists("t_1").await.unwrap());
    // The upgrade: refused once the account has played.
    store
        .insert_game(&game_row("g_old", "p_old", "p_ana", 500))
        .await
        .unwrap();
    assert!(!store.make_bot("p_old").await.unwrap());
    assert!(store.make_bot("p_bot").await.unwrap());
    assert!(store.player("p_bot").await.unwrap().unwrap().bot);
    assert_eq!(store.is_bot_game("g_old").await.unwrap(), Some(false));
    // A bot game: flagged at its start, rated in the bot pool only.
    store
        .insert_game(&game_row("g_bot", "p_ana", "p_bot", 2_000))
        .await
        .unwrap();
    assert_eq!(store.is_bot_game("g_bot").await.unwrap(), Some(true));
    store
        .finish_game_in(
            "g_bot",
            &ending("1-0", "resignation", 10),
            &[
                change("p_ana", "g_bot", 1500, 1516, 9_000),
                change("p_bot", "g_bot", 1500, 1484, 9_000),
            ],
            RatingPool::Bot,
        )
        .await
        .unwrap();
    let ana = store.player("p_ana").await.unwrap().unwrap();
    assert_eq!((ana.rating, ana.bot_rating), (Some(1500), Some(1516)));
    assert!(store.rating_history("p_ana").await.unwrap().is_empty());
    let history = store.bot_rating_history("p_bot").await.unwrap();
    assert_eq!((history.len(), history[0].after), (1, 1484));
}
