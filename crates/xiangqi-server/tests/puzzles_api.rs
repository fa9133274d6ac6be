//! The puzzle endpoints over real sockets on 127.0.0.1, attacks first: moves
//! for a puzzle not served to you, a solved puzzle replayed for rating, a
//! flood of requests, requests from another site's pages, two requests
//! racing on one attempt; then what a player sees (docs/server.md,
//! "Puzzles"). Every request loop is bounded in count.

use reqwest::header::{HeaderMap, COOKIE, RETRY_AFTER, SET_COOKIE};
use serde_json::{json, Value};
use xiangqi_puzzles::Puzzle;
use xiangqi_server::clock::ManualClock;
use xiangqi_server::puzzles::{Puzzles, PUZZLE_REQUESTS};
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::Store;
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;
use xiangqi_test_support::serve::{answer, WebClient};

/// Red mates at once with either chariot (the soldier holds e8).
const MATE_FEN: &str = "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1";

fn puzzle(id: &str, solution: &[&str], rating: f64) -> Puzzle {
    Puzzle {
        id: id.into(),
        fen: MATE_FEN.into(),
        solution: solution.iter().map(|m| m.to_string()).collect(),
        source: "test".into(),
        themes: vec!["mate".into()],
        mate_in: None,
        rating,
    }
}

/// A one-move mate and a three-ply line (a quiet move, the general's only
/// reply, then a mate).
fn two_puzzles() -> Vec<Puzzle> {
    vec![
        puzzle("one", &["a5a9"], 1500.0),
        puzzle("three", &["a5a6", "e9d9", "i5i9"], 1500.0),
    ]
}

struct TestServer {
    /// The HTTP calls (`url`, `guest`, `post`) and the `base` and `http` fields.
    web: WebClient,
    host: String,
}

impl std::ops::Deref for TestServer {
    type Target = WebClient;

    fn deref(&self) -> &WebClient {
        &self.web
    }
}

async fn start(puzzles: Vec<Puzzle>) -> TestServer {
    let many: Rate = "100000/min".parse().unwrap();
    let security = Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        hash_workers: 2,
        hash_queue: 1_000,
        ..Security::default()
    };
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock, 1)
        .await
        .unwrap()
        .with_security(security)
        .with_puzzles(Puzzles::new(puzzles));
    let host = server.local_addr().to_string();
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        web: WebClient::new(format!("http://{host}"), cookie_of),
        host,
    }
}

fn cookie_of(headers: &HeaderMap) -> Option<String> {
    let values = headers.get_all(SET_COOKIE);
    session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok())).map(str::to_owned)
}

impl TestServer {
    async fn account(&self, name: &str) -> String {
        let guest = self.guest().await;
        let (status, headers, body) = self
            .post(
                "/api/register",
                json!({"name": name, "password": "a long enough passphrase"}),
                Some(&guest),
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        cookie_of(&headers).expect("a session cookie")
    }

    async fn next(&self, cookie: &str) -> Value {
        let (status, _, body) = self
            .post("/api/puzzles/next", json!({}), Some(cookie), None)
            .await;
        assert_eq!(status, 200, "{body}");
        body
    }

    async fn play(&self, cookie: &str, attempt: &str, mv: &str) -> (u16, Value) {
        let (status, _, body) = self
            .post(
                &format!("/api/puzzles/attempts/{attempt}/move"),
                json!({"move": mv}),
                Some(cookie),
                None,
            )
            .await;
        (status, body)
    }

    async fn overview(&self, cookie: &str) -> Value {
        let response = self
            .http
            .get(self.url("/api/puzzles"))
            .header(COOKIE, cookie)
            .send()
            .await
            .unwrap();
        answer(response).await.2
    }

    /// Plays `puzzle`'s whole solution in `attempt`, the last answer.
    async fn solve(&self, cookie: &str, attempt: &str, solution: &[&str]) -> Value {
        let mut last = Value::Null;
        for mv in solution.iter().step_by(2) {
            let (status, body) = self.play(cookie, attempt, mv).await;
            assert_eq!(status, 200, "{body}");
            last = body;
        }
        last
    }
}

fn solution_of(served: &Value) -> Vec<&'static str> {
    match served["puzzle"]["id"].as_str().unwrap() {
        "one" => vec!["a5a9"],
        "three" => vec!["a5a6", "e9d9", "i5i9"],
        other => panic!("unknown puzzle {other}"),
    }
}

// ---------------------------------------------------------------- attacks

#[tokio::test]
async fn moves_for_a_puzzle_served_to_another_player_are_refused() {
    let server = start(two_puzzles()).await;
    let alice = server.account("alice").await;
    let mallory = server.account("mallory").await;
    let served = server.next(&alice).await;
    let attempt = served["attempt"].as_str().unwrap();
    let solution = solution_of(&served);
    // Mallory knows the attempt's id: it is not hers, and she is not told it exists.
    let (status, body) = server.play(&mallory, attempt, solution[0]).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found"))
    );
    let (status, _, body) = server
        .post(
            &format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
            Some(&mallory),
            None,
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found"))
    );
    // Nor is a made-up id, and without a session nothing is.
    let (status, _) = server.play(&mallory, "z_madeup", "a5a9").await;
    assert_eq!(status, 404);
    let (status, _, body) = server
        .post(
            &format!("/api/puzzles/attempts/{attempt}/move"),
            json!({"move": solution[0]}),
            None,
            None,
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    // Alice's attempt is untouched: she solves it from the start, rated.
    let last = server.solve(&alice, attempt, &solution).await;
    assert_eq!(last["result"], "solved");
    assert!(last["rating_change"]["after"].as_f64().unwrap() > 1500.0);
    // Mallory's own standing never moved.
    let mallory_me = server.overview(&mallory).await["me"].clone();
    assert_eq!(
        (mallory_me["solved"].as_i64(), mallory_me["failed"].as_i64()),
        (Some(0), Some(0))
    );
}

#[tokio::test]
async fn a_solved_puzzle_replayed_earns_no_rating_and_no_streak() {
    let server = start(vec![puzzle("one", &["a5a9"], 1500.0)]).await;
    let alice = server.account("alice").await;
    let first = server.next(&alice).await;
    assert_eq!(first["counts"], true);
    let attempt = first["attempt"].as_str().unwrap();
    let (_, solved) = server.play(&alice, attempt, "a5a9").await;
    assert_eq!(solved["result"], "solved");
    let rating = solved["me"]["rating"]["rating"].as_f64().unwrap();
    assert!(rating > 1500.0);
    assert_eq!(solved["me"]["streak"], 1);
    // The finished attempt takes no more moves.
    let (status, body) = server.play(&alice, attempt, "a5a9").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("puzzle_over"))
    );
    // The only puzzle again, as a replay that counts for nothing, as often as asked.
    for _ in 0..3 {
        let again = server.next(&alice).await;
        assert_eq!(
            (again["puzzle"]["id"].as_str(), again["counts"].as_bool()),
            (Some("one"), Some(false))
        );
        let (_, replayed) = server
            .play(&alice, again["attempt"].as_str().unwrap(), "a5a9")
            .await;
        assert_eq!(replayed["result"], "solved");
        assert_eq!(replayed["rating_change"], Value::Null);
        assert_eq!(replayed["me"]["rating"]["rating"].as_f64(), Some(rating));
        assert_eq!(replayed["me"]["streak"], 1);
        assert_eq!(replayed["me"]["solved"], 1);
    }
}

#[tokio::test]
async fn a_flood_of_puzzle_requests_is_cut_with_a_wait() {
    let server = start(two_puzzles()).await;
    let guest = server.guest().await;
    let burst = PUZZLE_REQUESTS.count.get() as usize;
    let mut refused = None;
    // Bounded: the burst and a few more (the limit refills two a second).
    for i in 0..burst + 20 {
        let (status, headers, body) = server
            .post("/api/puzzles/next", json!({}), Some(&guest), None)
            .await;
        if status == 429 {
            assert_eq!(body["error"]["code"], "rate_limited");
            let wait: u64 = headers[RETRY_AFTER].to_str().unwrap().parse().unwrap();
            assert!(wait >= 1);
            refused = Some(i);
            break;
        }
        assert_eq!(status, 200, "{body}");
    }
    let refused = refused.expect("a flood is cut");
    assert!(refused >= burst, "the burst passes: cut after {refused}");
    // Another player is not held back by this one's flood.
    let other = server.guest().await;
    server.next(&other).await;
}

#[tokio::test]
async fn pages_of_other_sites_cannot_play_puzzles() {
    let server = start(two_puzzles()).await;
    let guest = server.guest().await;
    let served = server.next(&guest).await;
    let attempt = served["attempt"].as_str().unwrap();
    for (path, body) in [
        ("/api/puzzles/next".to_string(), json!({})),
        (
            format!("/api/puzzles/attempts/{attempt}/move"),
            json!({"move": "a5a9"}),
        ),
        (
            format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
        ),
    ] {
        let (status, _, answer) = server
            .post(&path, body, Some(&guest), Some("http://evil.example"))
            .await;
        assert_eq!(
            (status, answer["error"]["code"].as_str()),
            (403, Some("foreign_origin")),
            "{path}"
        );
    }
    // The attempt is still open, and the server's own pages may play it.
    let own = format!("http://{}", server.host);
    let (status, _, answer) = server
        .post(
            &format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
            Some(&guest),
            Some(&own),
        )
        .await;
    assert_eq!((status, answer["result"].as_str()), (200, Some("shown")));
}

#[tokio::test]
async fn two_requests_racing_on_one_attempt_count_once() {
    let server = start(vec![puzzle("one", &["a5a9"], 1500.0)]).await;
    let alice = server.account("alice").await;
    let served = server.next(&alice).await;
    let attempt = served["attempt"].as_str().unwrap();
    let (a, b) = tokio::join!(
        server.play(&alice, attempt, "a5a9"),
        server.play(&alice, attempt, "a5a9")
    );
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} / {}", a.1, b.1);
    let me = server.overview(&alice).await["me"].clone();
    assert_eq!(me["solved"], 1);
}

// ---------------------------------------------------------------- play

#[tokio::test]
async fn the_solution_stays_on_the_server_until_it_is_earned() {
    let server = start(vec![puzzle("three", &["a5a6", "e9d9", "i5i9"], 1500.0)]).await;
    let guest = server.guest().await;
    let served = server.next(&guest).await;
    let text = served.to_string();
    assert!(!text.contains("solution"), "{text}");
    assert_eq!(served["puzzle"]["moves"], 2);
    assert_eq!(served["puzzle"]["fen"], MATE_FEN);
    assert!(served["legal"].as_array().unwrap().contains(&json!("a5a6")));
    let attempt = served["attempt"].as_str().unwrap();
    // An illegal move is refused without ending the attempt.
    let (status, body) = server.play(&guest, attempt, "a5b6").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("illegal_move"))
    );
    let (status, body) = server.play(&guest, attempt, "zz").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_move"))
    );
    // The right first move: the reply, the new position, no solution yet.
    let (status, right) = server.play(&guest, attempt, "a5a6").await;
    assert_eq!(status, 200);
    assert_eq!(
        (right["result"].as_str(), right["reply"].as_str()),
        (Some("right"), Some("e9d9"))
    );
    assert_eq!(right["solution"], Value::Null);
    assert_eq!(right["ply"], 2);
    assert!(right["legal"].as_array().unwrap().contains(&json!("i5i9")));
    // A wrong second move fails, and now the solution comes.
    let (_, failed) = server.play(&guest, attempt, "i5i8").await;
    assert_eq!(failed["result"], "failed");
    assert_eq!(failed["solution"], json!(["a5a6", "e9d9", "i5i9"]));
    // A guest plays unrated, with a streak.
    assert_eq!(failed["me"]["rating"], Value::Null);
    assert_eq!(failed["rating_change"], Value::Null);
    assert_eq!(
        (
            failed["me"]["streak"].as_i64(),
            failed["me"]["failed"].as_i64()
        ),
        (Some(0), Some(1))
    );
}

#[tokio::test]
async fn any_mate_on_the_last_move_solves_and_the_streak_grows() {
    let server = start(vec![puzzle("one", &["a5a9"], 1500.0)]).await;
    let guest = server.guest().await;
    let served = server.next(&guest).await;
    let (_, solved) = server
        .play(&guest, served["attempt"].as_str().unwrap(), "i5i9")
        .await;
    assert_eq!(solved["result"], "solved");
    assert_eq!(solved["me"]["streak"], 1);
    assert_eq!(solved["me"]["best_streak"], 1);
}

#[tokio::test]
async fn asking_for_the_solution_is_a_loss() {
    let server = start(vec![puzzle("one", &["a5a9"], 1500.0)]).await;
    let alice = server.account("alice").await;
    let served = server.next(&alice).await;
    let attempt = served["attempt"].as_str().unwrap();
    let (status, _, shown) = server
        .post(
            &format!("/api/puzzles/attempts/{attempt}/solution"),
            json!({}),
            Some(&alice),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(shown["result"], "shown");
    assert_eq!(shown["solution"], json!(["a5a9"]));
    assert!(shown["rating_change"]["after"].as_f64().unwrap() < 1500.0);
    assert_eq!(
        (
            shown["me"]["failed"].as_i64(),
            shown["me"]["streak"].as_i64()
        ),
        (Some(1), Some(0))
    );
    // Shown is over: the solution's move no longer solves it.
    let (status, _) = server.play(&alice, attempt, "a5a9").await;
    assert_eq!(status, 409);
}

#[tokio::test]
async fn leaving_a_started_puzzle_for_the_next_is_a_loss() {
    let server = start(vec![puzzle("three", &["a5a6", "e9d9", "i5i9"], 1500.0)]).await;
    let alice = server.account("alice").await;
    let served = server.next(&alice).await;
    let (_, right) = server
        .play(&alice, served["attempt"].as_str().unwrap(), "a5a6")
        .await;
    assert_eq!(right["result"], "right");
    let again = server.next(&alice).await;
    assert_eq!(again["counts"], false);
    assert_eq!(again["me"]["failed"], 1);
    assert!(again["me"]["rating"]["rating"].as_f64().unwrap() < 1500.0);
    assert_eq!(server.overview(&alice).await["puzzles"], 1);
}

#[tokio::test]
async fn a_puzzle_left_before_any_move_is_skipped_unrated() {
    let server = start(two_puzzles()).await;
    let alice = server.account("alice").await;
    server.next(&alice).await;
    let second = server.next(&alice).await;
    assert_eq!(second["me"]["failed"], 0);
    assert_eq!(second["me"]["rating"]["rating"].as_f64(), Some(1500.0));
}
