//! The web client's display settings, stored with the player as the
//! notation is: its language and its piece set. Unset until chosen (the
//! client then follows the browser); each may be set alone; a guest who
//! registers keeps them.

use serde_json::{json, Value};

use crate::harness::TestServer;

#[tokio::test]
async fn language_and_pieces_are_kept_with_the_player() {
    let server = TestServer::start().await;
    let carol = server.guest().await;
    assert_eq!(carol.me.get("language"), None, "{}", carol.me);
    assert_eq!(carol.me.get("pieces"), None, "{}", carol.me);

    let (status, me) = carol
        .put_json("/api/settings", &json!({"language": "zh-Hant"}))
        .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["language"], "zh-Hant");
    assert_eq!(me["notation"], "coordinate", "the notation stays: {me}");
    let (status, me) = carol
        .put_json(
            "/api/settings",
            &json!({"pieces": "pictogram", "notation": "wxf"}),
        )
        .await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(
        (&me["language"], &me["pieces"], &me["notation"]),
        (&json!("zh-Hant"), &json!("pictogram"), &json!("wxf"))
    );
    let me = carol.get_json("/api/me").await;
    assert_eq!(me["language"], "zh-Hant", "{me}");
    assert_eq!(me["pieces"], "pictogram", "{me}");

    // A refused value changes nothing.
    let (status, answer) = carol
        .put_json(
            "/api/settings",
            &json!({"language": "xx", "pieces": "traditional"}),
        )
        .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["code"], "bad_language");
    let me = carol.get_json("/api/me").await;
    assert_eq!(me["pieces"], "pictogram", "{me}");

    // Registering keeps the guest's settings.
    let body = json!({"name": "carol_ds", "password": "correct horse"});
    let (status, me) = carol.post_json("/api/register", &body).await;
    assert_eq!(status, 200, "{me}");
    assert_eq!(me["language"], "zh-Hant", "{me}");
    assert_eq!(me["pieces"], "pictogram", "{me}");
}

#[tokio::test]
async fn every_language_of_the_client_is_accepted() {
    let server = TestServer::start().await;
    let dave = server.guest().await;
    for language in ["en", "zh-Hans", "zh-Hant", "vi", "sk", "cs", "tl"] {
        let (status, me) = dave
            .put_json("/api/settings", &json!({"language": language}))
            .await;
        assert_eq!(status, 200, "{language}: {me}");
        assert_eq!(me["language"], Value::from(language));
    }
}
