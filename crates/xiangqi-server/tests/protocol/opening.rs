//! The opening of a live game: every `move` event and every `state` names
//! the ECCO opening of the moves so far, in each recipient's language.

use serde_json::{json, Value};

use crate::harness::{Table, TestServer};

#[tokio::test]
async fn moves_and_state_name_the_opening_in_each_readers_language() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let (status, _) = alice
        .put_json("/api/settings", &json!({"notation": "chinese"}))
        .await;
    assert_eq!(status, 200);
    let (status, _) = bob
        .put_json("/api/settings", &json!({"notation": "chinese-traditional"}))
        .await;
    assert_eq!(status, 200);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let state = table.red.watch(&table.id).await;
    assert_eq!(state["opening"], Value::Null, "no move, no opening");

    // 1. 炮二平五: the central cannon, before Black answers.
    let red_move = table.red.play(&table.id, 0, "h2e2").await;
    let black_saw = table.black.expect_event("move").await;
    assert_eq!(red_move["event"]["opening"]["code"], "B00");
    assert_eq!(red_move["event"]["opening"]["name"], "中炮局");
    assert_eq!(black_saw["event"]["opening"]["code"], "B00");

    // 1. … 马8进7 2. 马二进三 马2进3: the screen horses, C00.
    table.play_line(1, &["h9g7", "h0g2", "b9c7"]).await;
    let red_state = table.red.watch(&table.id).await;
    assert_eq!(
        red_state["opening"],
        json!({"code": "C00", "name": "中炮对屏风马"})
    );
    let black_state = table.black.watch(&table.id).await;
    assert_eq!(
        black_state["opening"],
        json!({"code": "C00", "name": "中炮對屏風馬"})
    );

    // A reader of WXF moves reads the English name, from the next frame on.
    let (status, _) = alice
        .put_json("/api/settings", &json!({"notation": "wxf"}))
        .await;
    assert_eq!(status, 200);
    let red_move = table.red.play(&table.id, 4, "i0h0").await;
    assert_eq!(red_move["event"]["opening"]["code"], "C00");
    let state = table.red.watch(&table.id).await;
    assert_eq!(
        state["opening"]["name"],
        red_move["event"]["opening"]["name"]
    );
    assert!(
        state["opening"]["name"]
            .as_str()
            .is_some_and(|name| name.starts_with("Central Cannon")),
        "{state}"
    );
    server.stop().await;
}

/// The player page lists each game with its code and filters by a code or
/// its start, finished games and games in progress alike.
#[tokio::test]
async fn the_player_page_filters_games_by_ecco_code() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    // A finished game: the screen horses (C00), then Black resigns.
    let mut first = Table::start(&alice, &bob, "5+0", false).await;
    first.play_line(0, &["h2e2", "h9g7", "h0g2", "b9c7"]).await;
    first
        .black
        .send(json!({"t": "resign", "game": first.id}))
        .await;
    let end = first.red.expect_event("end").await;
    assert_eq!(end["event"]["result"]["result"], "1-0");
    // A game in progress: 1. 炮二平五 马8进7 (B05).
    let mut second = Table::start(&alice, &bob, "5+0", false).await;
    second.play_line(0, &["h2e2", "h9g7"]).await;

    let page = |query: &str| format!("/api/players/{}{query}", alice.name());
    // Sorted: both games started at the same moment of the test's clock.
    let ids = |body: &Value| -> Vec<(String, String)> {
        let mut games: Vec<(String, String)> = body["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                (
                    g["id"].as_str().unwrap().to_string(),
                    g["ecco"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        games.sort();
        games
    };
    let (first_id, second_id) = (first.id.clone(), second.id.clone());
    let all = server.get_json(&page("")).await;
    let mut expected = vec![
        (second_id.clone(), "B05".to_string()),
        (first_id.clone(), "C00".to_string()),
    ];
    expected.sort();
    assert_eq!(ids(&all), expected);
    assert_eq!(all["ecco"], Value::Null);
    for (query, expected) in [
        ("?ecco=C", vec![first_id.clone()]),
        ("?ecco=c0", vec![first_id.clone()]),
        ("?ecco=C00", vec![first_id.clone()]),
        ("?ecco=B", vec![second_id.clone()]),
        ("?ecco=B05", vec![second_id.clone()]),
        ("?ecco=C1", vec![]),
        (
            "?ecco=",
            expected.iter().map(|(id, _)| id.clone()).collect(),
        ),
    ] {
        let body = server.get_json(&page(query)).await;
        let got: Vec<String> = ids(&body).into_iter().map(|(id, _)| id).collect();
        assert_eq!(got, expected, "{query}");
    }
    assert_eq!(server.get_json(&page("?ecco=c0")).await["ecco"], "C0");
    for bad in ["?ecco=F1", "?ecco=C234", "?ecco=C%25", "?ecco=%E4%B8%AD"] {
        let (status, body) = server.get_text(&page(bad)).await;
        assert_eq!(status, 400, "{bad}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"]["code"], "bad_ecco", "{bad}");
    }
    server.stop().await;
}
