//! The fsf WXF style (N-WXF-FSF) reproduces every string of the shared sample
//! `tests/fixtures/wxf.jsonl`, and every string reads back as its move.

use xiangqi_core::{Move, Position};
use xiangqi_notation::{format, parse_with, Notation, Style, WxfStyle};

#[derive(serde::Deserialize)]
struct Record {
    id: String,
    fen: String,
    #[serde(rename = "move")]
    mv: String,
    wxf: String,
}

fn records() -> Vec<Record> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/wxf.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("fixture present");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("valid record"))
        .collect()
}

#[test]
fn n_wxf_fsf_reproduces_all_reference_strings() {
    let style = Style {
        wxf: WxfStyle::fsf(),
        ..Style::default()
    };
    let recs = records();
    assert_eq!(recs.len(), 100);
    let mut failures = Vec::new();
    for r in &recs {
        let pos = Position::from_fen(&r.fen).unwrap();
        let mv: Move = r.mv.parse().unwrap();
        let got = format(&pos, mv, Notation::Wxf, &style).unwrap();
        if got != r.wxf {
            failures.push(format!(
                "{}: {} {} expected {} got {}",
                r.id, r.fen, r.mv, r.wxf, got
            ));
        }
        let back = parse_with(&pos, &r.wxf, Notation::Wxf, &style).unwrap();
        assert_eq!(back, mv, "{}: {} reads back", r.id, r.wxf);
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
