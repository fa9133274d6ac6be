//! The NNUE evaluation in the search: chosen by `set_use_nnue`, loaded from
//! net files with clear errors, without effect while it is off, on by
//! default with the embedded net, off in weakened play.

use std::sync::Arc;

use xiangqi_core::Position;
use xiangqi_nnue::{FloatNetwork, Network};
use xiangqi_search::{Engine, Limits, NnueError, Score, Skill, BENCH_POSITIONS};

fn network(hidden: usize, seed: u64) -> Arc<Network> {
    Arc::new(FloatNetwork::random(hidden, seed).quantise())
}

/// Total nodes of a depth-`depth` search of some bench positions from a clean hash.
fn nodes(engine: &mut Engine, depth: u32) -> u64 {
    BENCH_POSITIONS
        .iter()
        .step_by(3)
        .map(|fen| {
            engine.new_game();
            let pos = Position::from_fen(fen).unwrap();
            engine
                .search(&pos, &[], &Limits::depth(depth), |_| {})
                .nodes
        })
        .sum()
}

/// A net file in the temporary directory, removed when dropped.
struct TempNet(std::path::PathBuf);

impl TempNet {
    fn new(name: &str, bytes: &[u8]) -> TempNet {
        let path = std::env::temp_dir().join(format!(
            "xiangqi-search-nnue-{}-{name}.xqnn",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        TempNet(path)
    }
}

impl Drop for TempNet {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn a_network_that_is_not_switched_on_changes_nothing() {
    let classical = nodes(&mut Engine::classical(8), 5);
    let mut engine = Engine::classical(8);
    engine.set_network(Some(network(64, 1)));
    assert!(!engine.uses_nnue());
    assert_eq!(nodes(&mut engine, 5), classical);
    engine.set_use_nnue(true).unwrap();
    let nnue = nodes(&mut engine, 5);
    assert_ne!(nnue, classical, "the network does not reach the search");
    engine.set_use_nnue(false).unwrap();
    assert_eq!(
        nodes(&mut engine, 5),
        classical,
        "switching back leaves a trace"
    );
    engine.set_use_nnue(true).unwrap();
    assert_eq!(
        nodes(&mut engine, 5),
        nnue,
        "the NNUE search is not deterministic"
    );
}

#[test]
fn the_static_evaluation_follows_the_choice() {
    let net = network(128, 2);
    let mut engine = Engine::classical(1);
    engine.set_network(Some(Arc::clone(&net)));
    let pos = Position::from_fen(BENCH_POSITIONS[5]).unwrap();
    assert_eq!(
        engine.static_evaluation(&pos),
        xiangqi_search::evaluate(&pos)
    );
    engine.set_use_nnue(true).unwrap();
    assert_eq!(engine.static_evaluation(&pos), net.evaluate_scalar(&pos));
}

#[test]
fn a_new_engine_evaluates_with_the_embedded_net() {
    let engine = Engine::new(1);
    let embedded = xiangqi_nnue::embedded().ok();
    assert_eq!(Engine::nnue_by_default(), embedded.is_some());
    assert_eq!(engine.uses_nnue(), embedded.is_some());
    assert_eq!(engine.evaluates_with_nnue(), embedded.is_some());
    let pos = Position::from_fen(BENCH_POSITIONS[3]).unwrap();
    let expected = match &embedded {
        Some(net) => net.evaluate(&pos),
        None => xiangqi_search::evaluate(&pos),
    };
    assert_eq!(engine.static_evaluation(&pos), expected);
    // The tuning and data pipelines' engine never does.
    let classical = Engine::classical(1);
    assert!(!classical.uses_nnue());
    assert_eq!(
        classical.static_evaluation(&pos),
        xiangqi_search::evaluate(&pos)
    );
}

#[test]
fn weakened_play_evaluates_classically_as_its_levels_were_measured() {
    let net = network(64, 8);
    let skill = Skill::level(10);
    let weakened = |engine: &mut Engine| {
        engine.set_skill_seed(3);
        let pos = Position::from_fen(BENCH_POSITIONS[2]).unwrap();
        let r = engine.search(&pos, &[], &Limits::depth(4), |_| {});
        (r.best_move, r.nodes)
    };
    let mut with_net = Engine::new(8);
    with_net.set_network(Some(Arc::clone(&net)));
    with_net.set_use_nnue(true).unwrap();
    with_net.set_skill(skill);
    assert!(with_net.uses_nnue() && !with_net.evaluates_with_nnue());
    let pos = Position::from_fen(BENCH_POSITIONS[5]).unwrap();
    assert_eq!(
        with_net.static_evaluation(&pos),
        xiangqi_search::evaluate(&pos)
    );
    let mut classical = Engine::classical(8);
    classical.set_skill(skill);
    assert_eq!(weakened(&mut with_net), weakened(&mut classical));
    // Back at full strength the net evaluates again.
    with_net.set_skill(None);
    assert!(with_net.evaluates_with_nnue());
    assert_eq!(with_net.static_evaluation(&pos), net.evaluate(&pos));
    let mut fresh = Engine::new(8);
    fresh.set_network(Some(net));
    fresh.set_use_nnue(true).unwrap();
    assert_eq!(nodes(&mut with_net, 4), nodes(&mut fresh, 4));
}

#[test]
fn nnue_without_a_network_is_refused_with_the_way_out() {
    let mut engine = Engine::new(1);
    if engine.network().is_some() {
        // A build with an embedded net: forget it to test the refusal.
        engine.set_network(None);
    }
    let err = engine.set_use_nnue(true).unwrap_err();
    assert_eq!(err, NnueError::NoNetwork);
    assert_eq!(err.to_string(), "no net embedded; set EvalFile");
    assert!(!engine.uses_nnue());
}

#[test]
fn a_net_file_loads_and_a_damaged_one_leaves_the_previous_net() {
    let net = network(64, 3);
    let good = TempNet::new("good", &net.write("test net"));
    let mut engine = Engine::new(1);
    let info = engine.load_eval_file(Some(&good.0)).unwrap().unwrap();
    assert_eq!((info.hidden, info.description.as_str()), (64, "test net"));
    engine.set_use_nnue(true).unwrap();
    assert_eq!(engine.network().map(|n| **n == *net), Some(true));

    let mut bytes = network(128, 4).write("another");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let damaged = TempNet::new("damaged", &bytes);
    let err = engine.load_eval_file(Some(&damaged.0)).unwrap_err();
    assert!(
        err.to_string().contains("damaged: the payload hash"),
        "{err}"
    );
    assert!(engine.uses_nnue());
    assert_eq!(engine.network().map(|n| **n == *net), Some(true));

    let missing = std::env::temp_dir().join("xiangqi-search-nnue-no-such-file.xqnn");
    let err = engine.load_eval_file(Some(&missing)).unwrap_err();
    assert!(err.to_string().contains("no-such-file"), "{err}");
    assert_eq!(engine.network().map(|n| **n == *net), Some(true));
}

#[test]
fn helper_threads_search_with_the_network_too() {
    let mut engine = Engine::new(8);
    engine.set_network(Some(network(64, 5)));
    engine.set_use_nnue(true).unwrap();
    engine.set_threads(2);
    let pos = Position::from_fen(BENCH_POSITIONS[7]).unwrap();
    let result = engine.search(&pos, &[], &Limits::depth(6), |_| {});
    assert!(pos.is_legal(result.best_move.unwrap()));
}

#[test]
fn with_a_network_the_search_sees_a_material_gain() {
    // A network that only counts material (chariot 900 cp): the search must
    // take a hanging chariot, which needs the accumulators to follow captures.
    let mut float = FloatNetwork::zeros(16);
    for perspective_relation in 0..2 {
        let sign = if perspective_relation == 0 { 1.0 } else { -1.0 };
        for square in 0..90 {
            let feature = perspective_relation * 630 + 4 * 90 + square;
            // Neuron 0 counts own chariots, neuron 1 the opponent's; 0.5 each
            // keeps the activation in its quadratic range (x² on [0, 1]).
            let neuron = if sign > 0.0 { 0 } else { 1 };
            float.ft_weights[feature * 16 + neuron] = 0.5;
        }
    }
    float.out_weights[0] = 9.0; // side to move: 9 * 0.5² * 400 = 900 cp per lone chariot
    float.out_weights[1] = -9.0;
    float.out_weights[16] = -9.0;
    float.out_weights[16 + 1] = 9.0;
    let net = Arc::new(float.quantise());
    let mut engine = Engine::new(1);
    engine.set_network(Some(net));
    engine.set_use_nnue(true).unwrap();
    // Red's chariot on a5 takes Black's undefended chariot on a9 (no mate in reach).
    let pos = Position::from_fen("r3k4/4a4/9/9/R8/9/9/9/9/3K5 w - - 0 1").unwrap();
    let result = engine.search(&pos, &[], &Limits::depth(3), |_| {});
    assert_eq!(result.best_move.unwrap().to_string(), "a5a9");
    assert!(
        matches!(result.score, Score::Cp(cp) if cp > 1000),
        "{:?}",
        result.score
    );
}

#[test]
fn a_network_s_huge_outputs_do_not_pass_for_mates() {
    // Every position is worth four million centipawns to the side to move.
    let mut float = FloatNetwork::zeros(16);
    float.out_bias = 10_000.0;
    let mut engine = Engine::new(1);
    engine.set_network(Some(Arc::new(float.quantise())));
    engine.set_use_nnue(true).unwrap();
    // Red mates at once with the chariot (EX-END-FG).
    let pos = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
    let result = engine.search(&pos, &[], &Limits::depth(3), |_| {});
    assert_eq!(result.best_move.unwrap().to_string(), "i5f5");
    assert_eq!(result.score, Score::Mate(1));
    // A quiet position scores high, but as centipawns.
    let result = engine.search(&Position::startpos(), &[], &Limits::depth(2), |_| {});
    assert!(
        matches!(result.score, Score::Cp(cp) if cp > 10_000),
        "{:?}",
        result.score
    );
}

#[test]
fn a_network_of_another_size_replaces_the_first_in_the_same_engine() {
    let fresh = |net: &Arc<Network>| {
        let mut engine = Engine::new(8);
        engine.set_network(Some(Arc::clone(net)));
        engine.set_use_nnue(true).unwrap();
        nodes(&mut engine, 4)
    };
    let (small, large) = (network(64, 6), network(256, 7));
    let mut engine = Engine::new(8);
    engine.set_network(Some(Arc::clone(&small)));
    engine.set_use_nnue(true).unwrap();
    assert_eq!(nodes(&mut engine, 4), fresh(&small));
    engine.set_network(Some(Arc::clone(&large)));
    assert_eq!(nodes(&mut engine, 4), fresh(&large));
    engine.set_network(Some(small.clone()));
    assert_eq!(nodes(&mut engine, 4), fresh(&small));
}
