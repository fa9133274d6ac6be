//! `xiangqi nnue check DATA… --net NET`: how well a net, and the classical
//! evaluation, agree with the search's scores of scored positions (see
//! `xiangqi_nnue_train::check`): a diagnosis without a match.

use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;
use xiangqi_core::Color;
use xiangqi_nnue_train::check::{agreement, record_position, Agreement};
use xiangqi_nnue_train::data::read_data_file;
use xiangqi_search::Engine;

use crate::common::print_json;

#[derive(clap::Args)]
pub struct Args {
    /// Data files of `xiangqi nnue gen`, `relabel` or `merge` (positions the net was not trained on).
    #[arg(required = true, value_name = "DATA")]
    inputs: Vec<PathBuf>,
    /// The net file to check (without it, only the classical evaluation is measured).
    #[arg(long, value_name = "NET")]
    net: Option<PathBuf>,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

/// Game phases by the pieces on the board (generals included).
const PHASES: [(&str, std::ops::RangeInclusive<usize>); 3] = [
    ("24-32 pieces", 24..=32),
    ("14-23 pieces", 14..=23),
    ("2-13 pieces", 2..=13),
];

fn row(name: &str, a: &Agreement) -> serde_json::Value {
    json!({
        "evaluation": name,
        "positions": a.positions,
        "correlation": a.correlation,
        "slope": a.slope,
        "sign_agreement": a.sign_agreement,
        "mean_abs_cp": a.mean_abs_cp,
        "expected_score_mse": a.expected_score_mse,
        "mean_abs_eval": a.mean_abs_eval,
        "mean_abs_search": a.mean_abs_search,
    })
}

pub fn run(args: Args) -> Result<()> {
    let mut records = Vec::new();
    for input in &args.inputs {
        records.extend(read_data_file(input)?.records);
    }
    let classical = Engine::classical(1);
    let mut rows = vec![(
        "classical".to_string(),
        agreement(&records, |pos| classical.static_evaluation(pos)),
    )];
    let mut facts = serde_json::Map::new();
    if let Some(path) = &args.net {
        let (network, info) = xiangqi_nnue::file::load(path)?;
        let float = network.dequantise();
        // Through the engine, as its `eval` command and the search's root
        // take it: the side to move's view, clamped as the search clamps.
        let mut engine = Engine::new(1);
        engine.set_network(Some(std::sync::Arc::new(network)));
        engine.set_use_nnue(true)?;
        rows.push((
            "net".to_string(),
            agreement(&records, |pos| engine.static_evaluation(pos)),
        ));
        // The side to move's view for each side: a perspective or sign
        // slip would show as one side's agreement falling.
        for side in [Color::Red, Color::Black] {
            let of_side: Vec<_> = records
                .iter()
                .filter(|r| r.side_to_move == side)
                .copied()
                .collect();
            rows.push((
                format!("net, {side} to move"),
                agreement(&of_side, |pos| engine.static_evaluation(pos)),
            ));
        }
        // By the pieces on the board: where the games the net learnt from
        // seldom go (few pieces), its knowledge is thinnest.
        for (name, range) in PHASES {
            let of_phase: Vec<_> = records
                .iter()
                .filter(|r| range.contains(&r.board.pieces().count()))
                .copied()
                .collect();
            rows.push((
                format!("classical, {name}"),
                agreement(&of_phase, |pos| classical.static_evaluation(pos)),
            ));
            rows.push((
                format!("net, {name}"),
                agreement(&of_phase, |pos| engine.static_evaluation(pos)),
            ));
        }
        rows.push((
            "net in floating point".to_string(),
            agreement(&records, |pos| {
                float.evaluate_centipawns(pos).round() as i32
            }),
        ));
        // The integer net against its float form, on every position.
        let (mut worst, mut sum) = (0f64, 0f64);
        for record in &records {
            let pos = record_position(record);
            let gap = (f64::from(engine.static_evaluation(&pos))
                - f64::from(float.evaluate_centipawns(&pos)))
            .abs();
            worst = worst.max(gap);
            sum += gap;
        }
        facts.insert("net".into(), json!(path));
        facts.insert("hidden".into(), json!(info.hidden));
        facts.insert("description".into(), json!(info.description));
        facts.insert(
            "quantised_vs_float_mean_cp".into(),
            json!(sum / records.len().max(1) as f64),
        );
        facts.insert("quantised_vs_float_max_cp".into(), json!(worst));
    }
    if args.json {
        let rows: Vec<_> = rows.iter().map(|(n, a)| row(n, a)).collect();
        facts.insert("records".into(), json!(records.len()));
        facts.insert("evaluations".into(), json!(rows));
        return print_json(&serde_json::Value::Object(facts));
    }
    println!(
        "{} records, {} compared (quiet, |score| <= 2000 cp)",
        records.len(),
        rows[0].1.positions
    );
    println!(
        "{:<28} {:>7} {:>7} {:>7} {:>6} {:>8} {:>9} {:>9} {:>9}",
        "evaluation", "n", "corr", "slope", "sign", "|diff|", "E mse", "|eval|", "|search|"
    );
    for (name, a) in &rows {
        println!(
            "{name:<28} {:>7} {:>7.3} {:>7.2} {:>5.1}% {:>8.1} {:>9.4} {:>9.1} {:>9.1}",
            a.positions,
            a.correlation,
            a.slope,
            100.0 * a.sign_agreement,
            a.mean_abs_cp,
            a.expected_score_mse,
            a.mean_abs_eval,
            a.mean_abs_search
        );
    }
    if let (Some(mean), Some(max)) = (
        facts
            .get("quantised_vs_float_mean_cp")
            .and_then(|v| v.as_f64()),
        facts
            .get("quantised_vs_float_max_cp")
            .and_then(|v| v.as_f64()),
    ) {
        println!("quantised against float: mean {mean:.2} cp, worst {max:.2} cp");
    }
    Ok(())
}
