//! Accumulators updated move by move equal a refresh from scratch, and
//! every SIMD path gives the scalar path's bits.

use xiangqi_core::{Move, Position, SplitMix64, Validation};
use xiangqi_nnue::{Accumulator, AccumulatorStack, FloatNetwork, MoveDelta, Network, Simd};

/// A random walk that favours captures, taking moves back now and then,
/// checking the stack against a refresh at every step.
fn walk(network: &Network, simd: Simd, start: Position, seed: u64, steps: usize) -> usize {
    let mut rng = SplitMix64::new(seed);
    let mut stack = AccumulatorStack::new(simd);
    stack.reset(network, &start);
    let mut pos = start;
    let mut made: Vec<(Move, xiangqi_core::Undo)> = Vec::new();
    let mut captures = 0;
    for _ in 0..steps {
        let moves = pos.legal_move_vec();
        let take_back = !made.is_empty() && (moves.is_empty() || rng.chance(25));
        if take_back {
            let (mv, undo) = made.pop().unwrap();
            pos.unmake_move(mv, undo);
            stack.pop();
        } else {
            if moves.is_empty() {
                break;
            }
            let capturing: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| pos.piece_at(m.to()).is_some())
                .collect();
            let mv = if !capturing.is_empty() && rng.chance(60) {
                *rng.choose(&capturing).unwrap()
            } else {
                *rng.choose(&moves).unwrap()
            };
            captures += usize::from(pos.piece_at(mv.to()).is_some());
            let delta = MoveDelta::of_move(&pos, mv).unwrap();
            made.push((mv, pos.make_move(mv)));
            stack.push(network, delta);
        }
        // Evaluate only some positions, so that lazy updates span several moves.
        if rng.chance(40) {
            assert_eq!(stack.len(), made.len() + 1);
            let fresh = Accumulator::refresh(network, &pos, Simd::Scalar);
            assert_eq!(stack.current(network), &fresh, "{}", pos.to_fen());
            assert_eq!(
                stack.evaluate(network, pos.side_to_move()),
                network.evaluate_scalar(&pos)
            );
        }
    }
    captures
}

#[test]
fn incremental_updates_equal_a_refresh_after_moves_captures_and_takebacks() {
    let mut captures = 0;
    for (hidden, seed) in [(64, 1u64), (256, 2), (512, 3)] {
        let network = FloatNetwork::random(hidden, seed).quantise();
        for simd in Simd::available() {
            captures += walk(&network, simd, Position::startpos(), seed, 400);
            let mut rng = SplitMix64::new(seed + 10);
            for i in 0..5 {
                let start = xiangqi_core::random_position(&mut rng, Validation::Strict);
                captures += walk(&network, simd, start, seed * 100 + i, 150);
            }
        }
    }
    assert!(captures > 100, "the walks captured only {captures} times");
}

#[test]
fn accumulators_wrap_around_the_same_way_incrementally_and_from_scratch() {
    // Weights so large that the accumulators overflow i16.
    let mut float = FloatNetwork::random(32, 4);
    float.ft_weights.iter_mut().for_each(|w| *w *= 400.0);
    let network = float.quantise();
    // The start position's sums really leave the i16 range.
    let start = Position::startpos();
    let wide: Vec<i32> = (0..32)
        .map(|i| {
            xiangqi_nnue::features::active_features(&start, xiangqi_core::Color::Red)
                .map(|f| i32::from(network.ft_row(f)[i]))
                .sum::<i32>()
                + i32::from(network.ft_bias()[i])
        })
        .collect();
    assert!(wide.iter().any(|&v| i16::try_from(v).is_err()), "{wide:?}");
    for simd in Simd::available() {
        walk(&network, simd, Position::startpos(), 9, 200);
    }
}

#[test]
fn simd_paths_give_the_scalar_bits_on_random_nets_and_positions() {
    let paths = Simd::available();
    eprintln!("kernels on this machine: {:?}", paths);
    let mut rng = SplitMix64::new(77);
    for (hidden, seed) in [(16, 5u64), (64, 6), (128, 7), (256, 8), (512, 9)] {
        let mut float = FloatNetwork::random(hidden, seed);
        // Some nets with extreme weights, to cover every lane's saturation and sign.
        if seed % 2 == 0 {
            float.out_weights.iter_mut().for_each(|w| *w *= 300.0);
            float.ft_bias.iter_mut().for_each(|b| *b *= 3.0);
        }
        let network = float.quantise();
        for _ in 0..60 {
            let pos = xiangqi_core::random_position(&mut rng, Validation::Strict);
            let scalar = Accumulator::refresh(&network, &pos, Simd::Scalar);
            let expected = scalar.evaluate(&network, pos.side_to_move(), Simd::Scalar);
            assert_eq!(expected, network.evaluate_scalar(&pos));
            for &simd in &paths {
                let acc = Accumulator::refresh(&network, &pos, simd);
                assert_eq!(acc, scalar, "{simd:?}");
                assert_eq!(
                    acc.evaluate(&network, pos.side_to_move(), simd),
                    expected,
                    "{simd:?}"
                );
            }
        }
    }
}

#[test]
fn the_kernels_agree_on_raw_random_lanes() {
    let mut rng = SplitMix64::new(3);
    let mut random_lanes =
        |n: usize| -> Vec<i16> { (0..n).map(|_| rng.next_u64() as i16).collect() };
    for n in [16, 32, 256, 1024] {
        let src = random_lanes(n);
        let rows: Vec<Vec<i16>> = (0..5).map(|_| random_lanes(n)).collect();
        let weights = random_lanes(n);
        let mut expected = vec![0; n];
        Simd::Scalar.update(
            &mut expected,
            &src,
            &[&rows[0], &rows[1]],
            &[&rows[2], &rows[3], &rows[4]],
        );
        let dot = Simd::Scalar.screlu_dot(&src, &weights);
        for simd in Simd::available() {
            let mut out = vec![0; n];
            simd.update(
                &mut out,
                &src,
                &[&rows[0], &rows[1]],
                &[&rows[2], &rows[3], &rows[4]],
            );
            assert_eq!(out, expected, "{simd:?}");
            assert_eq!(simd.screlu_dot(&src, &weights), dot, "{simd:?}");
        }
        // The extreme lanes: every accumulator at the ceiling, every weight at a limit.
        let full = vec![i16::MAX; n];
        for w in [i16::MIN, i16::MAX] {
            let weights = vec![w; n];
            let exact = n as i64 * 255 * 255 * i64::from(w);
            for simd in Simd::available() {
                assert_eq!(simd.screlu_dot(&full, &weights), exact, "{simd:?}");
            }
        }
    }
}

#[test]
fn the_evaluation_with_the_best_kernels_is_the_scalar_one() {
    let network = FloatNetwork::random(128, 12).quantise();
    let mut positions = Vec::new();
    xiangqi_core::random_game(4, 80, |pos, _| positions.push(pos.clone()));
    for pos in positions {
        assert_eq!(network.evaluate(&pos), network.evaluate_scalar(&pos));
    }
}
