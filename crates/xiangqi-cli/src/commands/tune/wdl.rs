//! `xiangqi tune --wdl`: the win-rate model's data (self-play with every
//! search score kept, plus the scored moves of match games given with
//! `--wdl-games`), its fit on four fifths of it (`xiangqi_search::wdl::fit`),
//! its error on the held-out fifth against the committed model and the
//! unfitted curve annotation used before, the constants to commit, and
//! optionally the calibration table behind the plot in `docs/`.

use std::path::{Path, PathBuf};

use anyhow::Result;
use xiangqi_search::tune::{generate_scored_with_endings, SelfPlay};
use xiangqi_search::wdl::{
    calibration, expected_score_log_loss, fit, log_loss, WdlFitReport, WdlSample, WinRateModel,
};
use xiangqi_search::{Score, Weights};

use super::{bar, wdl_games, write};

/// The share of each source's positions held out of the fit: its last
/// fifth, in game order (so whole games but one).
const HELD_OUT_DIVISOR: usize = 5;
/// Score buckets of the calibration table, centipawns.
const TABLE_BUCKET_CP: i32 = 50;
/// Smaller groups of the table are left out (too noisy to plot).
const TABLE_MIN_POSITIONS: usize = 30;

/// What `--wdl` reads and writes besides self-play.
pub struct Options<'a> {
    /// `xiangqi match --pgn` files.
    pub match_games: &'a [PathBuf],
    /// The player of those games whose scores count.
    pub player: &'a str,
    /// Where to write the calibration table.
    pub table: Option<&'a Path>,
}

/// The curve annotation used before the win-rate model was fitted: a
/// logistic of the centipawns with a scale of 250, ply-blind. Kept only to
/// measure the fitted model against it on the same data.
fn unfitted_logistic(cp: i32, _ply: u32) -> f64 {
    1.0 / (1.0 + (-f64::from(cp) / 250.0).exp())
}

pub fn run(config: &SelfPlay, weights: &Weights, options: &Options<'_>) -> Result<()> {
    let self_play = play_scored(config, weights);
    let matches = read_match_games(options)?;
    let (train, held_out) = split(&[&self_play, &matches]);
    println!(
        "held out: the last fifth of each source's positions, {} of {}",
        held_out.len(),
        train.len() + held_out.len()
    );
    let report = fit(&train)?;
    print_fit(&report);
    print_held_out(&report, &held_out);
    print_model(&report.model);
    if let Some(path) = options.table {
        let all: Vec<WdlSample> = train.iter().chain(&held_out).copied().collect();
        write(path, &table(&report.model, &all))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

fn play_scored(config: &SelfPlay, weights: &Weights) -> Vec<WdlSample> {
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
    samples
}

fn read_match_games(options: &Options<'_>) -> Result<Vec<WdlSample>> {
    if options.match_games.is_empty() {
        return Ok(Vec::new());
    }
    let data = wdl_games::read(options.match_games, options.player)?;
    let samples: Vec<WdlSample> = data.games.into_iter().flatten().collect();
    let [w, d, l] = outcome_counts(&samples);
    println!(
        "match games: {} positions of {:?} (W/D/L by position {w}/{d}/{l}), {} games skipped (other players, forfeits, no result)",
        samples.len(),
        options.player,
        data.skipped
    );
    Ok(samples)
}

fn outcome_counts(samples: &[WdlSample]) -> [usize; 3] {
    let mut counts = [0; 3];
    for s in samples {
        counts[s.outcome.index()] += 1;
    }
    counts
}

/// Training and held-out positions: of each source, the last fifth held out.
fn split(sources: &[&[WdlSample]]) -> (Vec<WdlSample>, Vec<WdlSample>) {
    let (mut train, mut held_out) = (Vec::new(), Vec::new());
    for source in sources {
        let cut = source.len() - source.len() / HELD_OUT_DIVISOR;
        train.extend_from_slice(&source[..cut]);
        held_out.extend_from_slice(&source[cut..]);
    }
    (train, held_out)
}

fn print_fit(report: &WdlFitReport) {
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
}

/// The held-out error of the fit, of the committed model, of the training
/// data's constant W/D/L and, on the expected score, of the unfitted curve.
fn print_held_out(report: &WdlFitReport, held_out: &[WdlSample]) {
    if held_out.is_empty() {
        return;
    }
    let committed = WinRateModel::FITTED;
    let constant: f64 = held_out
        .iter()
        .map(|s| -report.observed[s.outcome.index()].max(1e-12).ln())
        .sum::<f64>()
        / held_out.len() as f64;
    println!(
        "held-out log loss: fitted {:.4}, committed {:.4}, constant W/D/L {:.4}",
        log_loss(&report.model, held_out),
        log_loss(&committed, held_out),
        constant
    );
    let model_curve = |model: WinRateModel| move |cp, ply| model.expected_score(Score::Cp(cp), ply);
    println!(
        "held-out expected-score log loss: fitted {:.4}, committed {:.4}, unfitted logistic (cp/250) {:.4}",
        expected_score_log_loss(held_out, model_curve(report.model)),
        expected_score_log_loss(held_out, model_curve(committed)),
        expected_score_log_loss(held_out, unfitted_logistic)
    );
}

fn print_model(m: &WinRateModel) {
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
    println!("constants for crates/xiangqi-core/src/winrate.rs:");
    println!("const FITTED_A0: f64 = {:.2};", m.a[0]);
    println!("const FITTED_A1: f64 = {:.2};", m.a[1]);
    println!("const FITTED_B0: f64 = {:.2};", m.b[0]);
    println!("const FITTED_B1: f64 = {:.2};", m.b[1]);
}

/// The calibration table as CSV: one row per ply band and score bucket.
fn table(model: &WinRateModel, samples: &[WdlSample]) -> String {
    let rows = calibration(
        samples,
        model,
        unfitted_logistic,
        TABLE_BUCKET_CP,
        TABLE_MIN_POSITIONS,
    );
    let mut text = String::from(
        "ply_from,ply_to,cp_from,positions,mean_cp,observed_win,observed_draw,observed_loss,\
         predicted_win,predicted_draw,predicted_loss,observed_score,predicted_score,unfitted_score\n",
    );
    for r in rows {
        let to = r.ply_to.map_or_else(String::new, |t| t.to_string());
        text.push_str(&format!(
            "{},{to},{},{},{:.1},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}\n",
            r.ply_from,
            r.cp_from,
            r.positions,
            r.mean_cp,
            r.observed[0],
            r.observed[1],
            r.observed[2],
            r.predicted[0],
            r.predicted[1],
            r.predicted[2],
            r.observed_score(),
            r.predicted_score(),
            r.reference
        ));
    }
    text
}
