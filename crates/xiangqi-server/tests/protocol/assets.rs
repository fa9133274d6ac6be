//! The web client's files carry validators: a strong `ETag` and
//! `Cache-Control: no-cache`, and a request naming the current tag gets
//! `304 Not Modified` without the body, so a browser checks every file on
//! each load and never mixes an old script with new ones.

use crate::harness::TestServer;

#[tokio::test]
async fn static_files_are_revalidated_by_their_entity_tag() {
    let server = TestServer::start().await;
    let http = reqwest::Client::new();
    for path in ["/static/board.js", "/static/app.js", "/", "/games/g_1"] {
        let url = format!("{}{path}", server.base);
        let first = http.get(&url).send().await.unwrap();
        assert_eq!(first.status().as_u16(), 200, "{path}");
        let headers = first.headers().clone();
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        let tag = headers["etag"].to_str().unwrap().to_owned();
        assert!(tag.starts_with('"') && tag.len() > 10, "{path}: {tag}");
        assert!(!first.bytes().await.unwrap().is_empty(), "{path}");

        let again = http
            .get(&url)
            .header("if-none-match", &tag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status().as_u16(), 304, "{path}");
        assert_eq!(again.headers()["etag"], tag.as_str(), "{path}");
        assert!(again.bytes().await.unwrap().is_empty(), "{path}");

        // A tag of another version of the file: the file again.
        let other = http
            .get(&url)
            .header("if-none-match", "\"an-old-version\"")
            .send()
            .await
            .unwrap();
        assert_eq!(other.status().as_u16(), 200, "{path}");
    }
    // Different files, different tags.
    let tag_of = |path: &'static str| {
        let (http, base) = (http.clone(), server.base.clone());
        async move {
            let response = http.get(format!("{base}{path}")).send().await.unwrap();
            response.headers()["etag"].to_str().unwrap().to_owned()
        }
    };
    assert_ne!(
        tag_of("/static/board.js").await,
        tag_of("/static/app.js").await
    );
    server.stop().await;
}
