//! The trainer on data our generator made: the loss falls, and the net file
//! written from the float network evaluates as the float network does.

use xiangqi_core::Position;
use xiangqi_nnue::Network;
use xiangqi_nnue_train::data::read_data_file;
use xiangqi_nnue_train::train::{train, write_network, CheckpointPlan, TrainConfig};
use xiangqi_nnue_train::{generate, GenConfig};

#[test]
fn a_network_trained_on_generated_games_learns_and_quantises_faithfully() {
    let dir = tempfile::tempdir().unwrap();
    let data_path = dir.path().join("games.bin");
    let gen = GenConfig {
        games: 12,
        nodes: 150,
        max_plies: 60,
        jobs: 2,
        seed: 11,
        ..GenConfig::default()
    };
    generate(&data_path, &gen, |_| {}).unwrap();
    let data = read_data_file(&data_path).unwrap();
    let config = TrainConfig {
        hidden: 32,
        epochs: 5,
        batch_size: 64,
        learning_rate: 0.005,
        validation_every: 4,
        seed: 2,
        jobs: 2,
        ..TrainConfig::default()
    };
    let report = train(&data.records, &config, &CheckpointPlan::default(), |_| {}).unwrap();
    assert!(report.validation_samples > 0 && report.train_samples > 100);
    let first = report.epochs[0].train_loss;
    let last = report.epochs[4].train_loss;
    assert!(last < 0.8 * first, "{:?}", report.epochs);

    let net_path = dir.path().join("trained.nnue");
    let clipped = write_network(&net_path, &report.network, "test run").unwrap();
    assert_eq!(clipped, 0);
    let quantised = Network::load(&net_path).unwrap();
    // Rounding the output weights to 1/QB (1/64) and the first layer to
    // 1/QA moves an evaluation by several centipawns (8 on average here, 13
    // for `FloatNetwork::random`); a mismatch of perspectives or of the
    // file's layout would be hundreds.
    let mut worst = 0.0f32;
    let mut total = 0.0f32;
    for record in &data.records {
        let pos = Position::from_fen(&record.fen()).unwrap();
        let float = report.network.evaluate_centipawns(&pos);
        let integer = quantised.evaluate(&pos) as f32;
        let difference = (float - integer).abs();
        assert!(
            difference <= 40.0 + 0.05 * float.abs(),
            "{}: float {float} cp, quantised {integer} cp",
            record.fen()
        );
        worst = worst.max(difference);
        total += difference;
    }
    let mean = total / data.records.len() as f32;
    eprintln!("float against quantised: mean {mean:.2} cp, worst {worst:.1} cp");
    assert!(mean < 12.0, "mean difference {mean} cp");
    assert!(worst > 0.0, "the quantised net is not the float one");
}
