//! Float and quantised networks agree: exactly up to the integer path's
//! truncations against the dequantised weights, and within the rounding of
//! the weights against the float network they came from.

use xiangqi_core::{random_game, Position, SplitMix64, Validation};
use xiangqi_nnue::{FloatNetwork, Network, QA, QB, SCALE};

/// Positions from real play: the shared reference data's legal-move set
/// (random and semi-random playouts, many endgames).
fn real_positions() -> Vec<Position> {
    let Some(path) = xiangqi_test_support::shared_testdata("legal.jsonl") else {
        return Vec::new();
    };
    let text = std::fs::read_to_string(&path).unwrap();
    text.lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).unwrap();
            Position::from_fen(record["fen"].as_str().unwrap()).unwrap()
        })
        .collect()
}

fn test_positions() -> Vec<Position> {
    let mut positions = real_positions();
    let mut rng = SplitMix64::new(5);
    positions.extend((0..100).map(|_| xiangqi_core::random_position(&mut rng, Validation::Strict)));
    random_game(9, 120, |pos, _| positions.push(pos.clone()));
    positions
}

#[test]
fn the_integer_evaluation_is_the_dequantised_float_one_up_to_its_truncations() {
    let positions = test_positions();
    for (hidden, seed) in [(64, 1), (128, 2), (256, 3), (512, 4)] {
        let net = FloatNetwork::random(hidden, seed).quantise();
        let reference = net.dequantise();
        for pos in &positions {
            let exact = reference.evaluate_centipawns(pos);
            let integer = net.evaluate_scalar(pos);
            // `sum / QA` and `* SCALE / (QA * QB)` each truncate by under one
            // unit: at most SCALE / (QA * QB) + 1 centipawns; f32 sums add a little.
            let bound = 1.0 + SCALE as f32 / (QA * QB) as f32 + 0.02;
            assert!(
                (exact - integer as f32).abs() <= bound,
                "H={hidden} {}: float {exact}, integer {integer}",
                pos.to_fen()
            );
        }
    }
}

#[test]
fn the_quantised_network_follows_the_float_one_within_rounding_noise() {
    let positions = test_positions();
    for (hidden, seed) in [(64, 21), (256, 22), (512, 23)] {
        let float = FloatNetwork::random(hidden, seed);
        let (net, clipped) = float.quantise_counting_clipped();
        assert_eq!(clipped, 0);
        let (mut error, mut size, mut worst) = (0.0f64, 0.0f64, 0.0f32);
        for pos in &positions {
            let exact = float.evaluate_centipawns(pos);
            let integer = net.evaluate_scalar(pos) as f32;
            error += f64::from((exact - integer).abs());
            size += f64::from(exact.abs());
            worst = worst.max((exact - integer).abs());
        }
        // Rounding each feature weight by up to half of 1/QA moves an
        // accumulator by about 1 % of its range here, and the output by a
        // few per cent; a wrong scale, sign or order moves it by its whole size.
        eprintln!(
            "H={hidden}: mean |error| {:.1} cp, mean |evaluation| {:.1} cp, worst |error| {worst:.1} cp",
            error / positions.len() as f64,
            size / positions.len() as f64
        );
        assert!(
            error / size < 0.05,
            "H={hidden}: mean relative error {}",
            error / size
        );
        let typical = size / positions.len() as f64;
        assert!(
            f64::from(worst) < 0.25 * typical,
            "H={hidden}: worst error {worst} cp"
        );
    }
}

#[test]
fn out_of_range_weights_saturate_and_are_counted() {
    let mut float = FloatNetwork::random(16, 3);
    float.ft_weights[0] = 500.0; // * QA = 127 500 > i16::MAX
    float.ft_bias[3] = -200.0;
    float.out_weights[5] = 1000.0; // * QB = 64 000
    float.out_bias = f32::NAN;
    let (net, clipped) = float.quantise_counting_clipped();
    assert_eq!(clipped, 4);
    assert_eq!(net.ft_weights()[0], i16::MAX);
    assert_eq!(net.ft_bias()[3], i16::MIN);
    assert_eq!(net.out_weights()[5], i16::MAX);
    assert_eq!(net.out_bias(), 0);
}

#[test]
fn quantising_rounds_to_nearest() {
    let mut float = FloatNetwork::zeros(16);
    float.ft_weights[0] = 1.4 / QA as f32;
    float.ft_weights[1] = -1.6 / QA as f32;
    float.out_weights[0] = 2.5 / QB as f32;
    float.out_bias = 0.5;
    let net = float.quantise();
    assert_eq!(
        (
            net.ft_weights()[0],
            net.ft_weights()[1],
            net.out_weights()[0]
        ),
        (1, -2, 3)
    );
    assert_eq!(net.out_bias(), QA * QB / 2);
}

#[test]
fn a_network_of_unsupported_shape_is_refused() {
    assert!(Network::from_parts(24, vec![0; 1260 * 24], vec![0; 24], vec![0; 48], 0).is_err());
    let err = Network::from_parts(16, vec![0; 10], vec![0; 16], vec![0; 32], 0).unwrap_err();
    assert!(
        err.to_string().contains("ft_weights holds 10 values"),
        "{err}"
    );
    let mut float = FloatNetwork::zeros(16);
    float.out_weights.pop();
    assert!(float.check_shape().is_err());
}

#[test]
fn the_float_evaluation_sees_the_position_from_the_side_to_move() {
    // A colour-flipped position is the same position for the other side.
    let float = FloatNetwork::random(64, 8);
    let net = float.quantise();
    let mut rng = SplitMix64::new(9);
    for _ in 0..50 {
        let pos = xiangqi_core::random_position(&mut rng, Validation::Strict);
        let flipped = pos.color_flipped();
        // The float sums run in another order on the flipped board.
        assert!((float.evaluate(&pos) - float.evaluate(&flipped)).abs() < 1e-4);
        assert_eq!(net.evaluate_scalar(&pos), net.evaluate_scalar(&flipped));
    }
}
