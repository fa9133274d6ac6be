//! Every example frame in `docs/server.md` is a message of this crate: the
//! client examples decode, the server examples read into [`ServerMessage`]
//! and write back to the same JSON (so no documented field is unknown to
//! the types), and every server frame kind has an example.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use xiangqi_server_protocol::{decode, ServerMessage};

fn server_md() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/server.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text of `doc` from the heading `from` to the next heading of the
/// same level.
fn section<'a>(doc: &'a str, from: &str) -> &'a str {
    let start = doc
        .find(from)
        .unwrap_or_else(|| panic!("no heading {from:?}"));
    let rest = &doc[start + from.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    &rest[..end]
}

/// The JSON values of every ```json block in `text` (a block may hold
/// several, one after another).
fn json_examples(text: &str) -> Vec<Value> {
    let mut values = Vec::new();
    let mut blocks = text.split("```json\n").skip(1);
    for block in blocks.by_ref() {
        let body = block.split("```").next().unwrap_or_default();
        for value in serde_json::Deserializer::from_str(body).into_iter::<Value>() {
            values.push(value.unwrap_or_else(|e| panic!("not JSON ({e}) in:\n{body}")));
        }
    }
    values
}

#[test]
fn every_client_example_decodes() {
    let doc = server_md();
    let examples = json_examples(section(&doc, "## WebSocket: client messages"));
    assert!(examples.len() >= 22, "{} client examples", examples.len());
    for example in examples {
        let text = example.to_string();
        if let Err(e) = decode(&text) {
            panic!("{text}: {e}");
        }
    }
}

#[test]
fn every_server_example_reads_into_the_types_and_back() {
    let doc = server_md();
    let examples = json_examples(section(&doc, "## WebSocket: server messages"));
    let mut kinds = BTreeSet::new();
    for example in examples {
        let message: ServerMessage =
            serde_json::from_value(example.clone()).unwrap_or_else(|e| panic!("{example}: {e}"));
        let written = serde_json::to_value(&message).unwrap();
        assert_eq!(written, example, "written back differently");
        kinds.insert(example["t"].as_str().unwrap_or_default().to_string());
    }
    let every_kind: BTreeSet<String> = [
        "welcome",
        "ping",
        "pong",
        "error",
        "lobby",
        "seek_created",
        "seek_added",
        "seek_removed",
        "game_added",
        "game_removed",
        "started",
        "state",
        "event",
        "ack",
        "chat",
        "analysis",
        "analysis_end",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let missing: Vec<_> = every_kind.difference(&kinds).collect();
    assert!(missing.is_empty(), "no example of {missing:?}");
}

#[test]
fn every_event_kind_has_an_example() {
    let doc = server_md();
    let examples = json_examples(section(&doc, "## WebSocket: server messages"));
    let kinds: BTreeSet<String> = examples
        .iter()
        .filter(|e| e["t"] == "event")
        .map(|e| e["event"]["kind"].as_str().unwrap_or_default().to_string())
        .collect();
    let every_kind: BTreeSet<String> = [
        "move",
        "draw_offer",
        "draw_declined",
        "away",
        "back",
        "end",
        "takeback_offer",
        "takeback_declined",
        "takeback",
        "rematch_offer",
        "rematch_declined",
        "rematch_withdrawn",
        "rematch",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let missing: Vec<_> = every_kind.difference(&kinds).collect();
    assert!(missing.is_empty(), "no example of the events {missing:?}");
}
