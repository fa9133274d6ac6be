//! `xiangqi tune --wdl`: self-play with every search score kept, the
//! win-rate model fitted to it (`xiangqi_search::wdl::fit`), the fit's
//! quality and the constants to commit printed.

use anyhow::Result;
use xiangqi_search::tune::{generate_scored_with_endings, SelfPlay};
use xiangqi_search::wdl::{fit, WinRateModel};
use xiangqi_search::{Score, Weights};

use super::bar;

pub fn run(config: &SelfPlay, weights: &Weights) -> Result<()> {
    let progress = bar(config.games as u64, "self-play");
    let (samples, endings) = generate_scored_with_endings(config, weights, |done, positions| {
        progress.set_position(done as u64);
        progress.set_message(format!("{positions} positions"));
    });
    progress.finish_and_clear();
    println!(
        "data: {} games, {} scored positions (seed {}, {} nodes a move, {} opening plies)",
        config.games,
        samples.len(),
        config.seed,
        config.nodes,
        config.opening_plies
    );
    println!("endings: {endings}");
    let report = fit(&samples)?;
    let [ow, od, ol] = report.observed;
    let [pw, pd, pl] = report.predicted;
    println!(
        "fit: log loss {:.4} (constant W/D/L guess {:.4}), Brier {:.4}, {} steps",
        report.log_loss, report.baseline_log_loss, report.brier, report.steps
    );
    println!(
        "observed W/D/L {:.3}/{:.3}/{:.3}, predicted {:.3}/{:.3}/{:.3}",
        ow, od, ol, pw, pd, pl
    );
    let m = report.model;
    println!(
        "model: a = {:.2} + {:.2} t, b = {:.2} + {:.2} t",
        m.a[0], m.a[1], m.b[0], m.b[1]
    );
    for ply in [20, 60, 120] {
        let row: Vec<String> = [0, 50, 100, 200, 400]
            .iter()
            .map(|&cp| {
                let w = m.wdl(Score::Cp(cp), ply);
                format!("{cp:+} cp {}/{}/{}", w.win, w.draw, w.loss)
            })
            .collect();
        println!("ply {ply:>3}: {}", row.join(", "));
    }
    let committed = WinRateModel::FITTED;
    println!(
        "committed: a = {:.2} + {:.2} t, b = {:.2} + {:.2} t",
        committed.a[0], committed.a[1], committed.b[0], committed.b[1]
    );
    println!("constants for crates/xiangqi-search/src/wdl/mod.rs:");
    println!("const FITTED_A0: f64 = {:.2};", m.a[0]);
    println!("const FITTED_A1: f64 = {:.2};", m.a[1]);
    println!("const FITTED_B0: f64 = {:.2};", m.b[0]);
    println!("const FITTED_B1: f64 = {:.2};", m.b[1]);
    Ok(())
}
