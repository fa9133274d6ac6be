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
