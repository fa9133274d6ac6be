use xiangqi_core::{random_position, Color, PieceKind, Position, Score, SplitMix64, Validation};
use xiangqi_search::wdl::Outcome;

use super::*;
use crate::data::PackedBoard;

/// Material of `color` in centipawns, a simple truth for the network to learn.
fn material(pos: &Position, color: Color) -> i32 {
    pos.pieces()
        .filter(|(_, p)| p.color == color)
        .map(|(_, p)| match p.kind {
            PieceKind::Chariot => 900,
            PieceKind::Cannon => 450,
            PieceKind::Horse => 400,
            PieceKind::Advisor | PieceKind::Elephant => 200,
            PieceKind::Soldier => 100,
            PieceKind::General => 0,
        })
        .sum()
}

/// Independent random positions (each its own one-position game) scored
/// by material balance, the result the sign of a clear balance: a problem
/// a network must generalise on, not memorise.
fn synthetic(count: u32) -> Vec<Record> {
    let mut rng = SplitMix64::new(1000);
    (0..count)
        .map(|game| {
            let pos = random_position(&mut rng, Validation::Strict);
            let us = pos.side_to_move();
            let balance = material(&pos, us) - material(&pos, us.opposite());
            Record {
                board: PackedBoard::of(&pos),
                side_to_move: us,
                score: Score::Cp(balance),
                result: match balance {
                    b if b > 300 => Outcome::Win,
                    b if b < -300 => Outcome::Loss,
                    _ => Outcome::Draw,
                },
                ply: (game % 200) as u16,
                best_move: None,
                game,
                last_of_game: true,
                in_check: pos.is_check(),
            }
        })
        .collect()
}

fn samples_of(records: &[Record]) -> Samples {
    let mut samples = Samples::new();
    let labelling = Labelling {
        score_weight: 0.75,
        skip_noisy: false,
        mirror: false,
    };
    for r in records {
        samples.push(r, &labelling, &WinRateModel::FITTED);
    }
    samples
}

#[test]
fn the_gradient_matches_finite_differences() {
    let records = synthetic(24);
    let samples = samples_of(&records);
    let indices: Vec<u32> = (0..samples.len() as u32).collect();
    let model = WinRateModel::FITTED;
    let net = FloatNetwork::random(16, 5);
    let mut grad = Gradient::zeros(&net);
    gradient::accumulate_gradient(&net, &samples, &indices, &model, &mut grad);
    assert_eq!(grad.count, 24);
    let loss_of = |net: &FloatNetwork| gradient::loss(net, &samples, &indices, &model);
    assert!((loss_of(&net) - grad.loss).abs() < 1e-9);

    // Parameters to probe: active feature rows, the biases, output weights.
    let (us, them, _, _) = samples.get(0);
    let mut probes: Vec<(&str, usize)> = Vec::new();
    for &f in us.iter().take(3).chain(them.iter().take(3)) {
        for k in [0, 7, 15] {
            probes.push(("ft_weights", usize::from(f) * 16 + k));
        }
    }
    probes.extend((0..16).step_by(3).map(|k| ("ft_bias", k)));
    probes.extend((0..32).step_by(5).map(|k| ("out_weights", k)));
    probes.push(("out_bias", 0));
    let eps = 1e-3f32;
    let mut checked = 0;
    for (field, index) in probes {
        let nudged = |delta: f32| {
            let mut n = net.clone();
            match field {
                "ft_weights" => n.ft_weights[index] += delta,
                "ft_bias" => n.ft_bias[index] += delta,
                "out_weights" => n.out_weights[index] += delta,
                _ => n.out_bias += delta,
            }
            loss_of(&n)
        };
        let (up, here, down) = (nudged(eps), loss_of(&net), nudged(-eps));
        let (right, left) = ((up - here) / f64::from(eps), (here - down) / f64::from(eps));
        // A kink of the activation between the two sides: no derivative to check.
        if (right - left).abs() > 0.05 * right.abs().max(left.abs()).max(1e-3) {
            continue;
        }
        let numeric = (up - down) / (2.0 * f64::from(eps));
        let analytic = f64::from(match field {
            "ft_weights" => grad.ft_weights[index],
            "ft_bias" => grad.ft_bias[index],
            "out_weights" => grad.out_weights[index],
            _ => grad.out_bias,
        });
        let tolerance = 1e-4 + 0.02 * numeric.abs();
        assert!(
            (analytic - numeric).abs() < tolerance,
            "{field}[{index}]: backprop {analytic}, finite difference {numeric}"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} parameters away from kinks");
    // Rows of features no sample has get no gradient.
    let used: std::collections::BTreeSet<u16> = (0..samples.len())
        .flat_map(|i| {
            let (a, b, _, _) = samples.get(i);
            a.iter().chain(b).copied().collect::<Vec<_>>()
        })
        .collect();
    let unused = (0..1260u16).find(|f| !used.contains(f)).unwrap();
    let row = usize::from(unused) * 16;
    assert!(grad.ft_weights[row..row + 16].iter().all(|&g| g == 0.0));
}

fn quick(hidden: usize, epochs: u32) -> TrainConfig {
    TrainConfig {
        hidden,
        epochs,
        batch_size: 128,
        learning_rate: 0.01,
        learning_rate_decay: 0.9,
        validation_every: 5,
        skip_noisy: false,
        seed: 3,
        jobs: 1,
        ..TrainConfig::default()
    }
}

#[test]
fn the_loss_falls_on_a_material_problem_and_the_threads_change_nothing() {
    let records = synthetic(3000);
    let mut events = Vec::new();
    let report = train(&records, &quick(16, 6), &CheckpointPlan::default(), |e| {
        events.push(e)
    })
    .unwrap();
    let first = report.epochs.first().unwrap();
    let last = report.epochs.last().unwrap();
    assert!(
        last.train_loss < 0.7 * first.train_loss,
        "{:?}",
        report.epochs
    );
    let validation = last.validation_loss.unwrap();
    let constant = report.validation_constant_loss.unwrap();
    assert!(
        validation < 0.5 * constant,
        "{validation} vs {constant}: {:?}",
        report.epochs
    );
    assert!(matches!(events[0], TrainEvent::Samples { skipped: 0, .. }));
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, TrainEvent::Epoch(_)))
            .count(),
        6
    );

    let threaded = train(
        &records,
        &TrainConfig {
            jobs: 3,
            ..quick(16, 6)
        },
        &CheckpointPlan::default(),
        |_| {},
    )
    .unwrap();
    assert_eq!(threaded.network, report.network, "bit for bit");
}

#[test]
fn a_run_resumed_from_its_checkpoint_ends_where_one_run_ends() {
    let records = synthetic(600);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.ckpt");
    let plan = CheckpointPlan {
        path: Some(path.clone()),
        resume: false,
    };
    let straight = train(&records, &quick(16, 3), &CheckpointPlan::default(), |_| {}).unwrap();
    train(&records, &quick(16, 2), &plan, |_| {}).unwrap();
    let saved = Checkpoint::load(&path).unwrap();
    assert_eq!(saved.epochs_done, 2);
    let resumed = train(
        &records,
        &quick(16, 3),
        &CheckpointPlan {
            resume: true,
            ..plan.clone()
        },
        |_| {},
    )
    .unwrap();
    assert_eq!(resumed.epochs.len(), 1);
    assert_eq!(resumed.epochs[0].epoch, 3);
    assert_eq!(resumed.network, straight.network);
    // Another seed is another run.
    let err = train(
        &records,
        &TrainConfig {
            seed: 4,
            ..quick(16, 3)
        },
        &CheckpointPlan {
            resume: true,
            ..plan
        },
        |_| {},
    )
    .unwrap_err();
    assert!(err.to_string().contains("seed 3, this run 4"), "{err}");
    // A damaged checkpoint is named.
    std::fs::write(&path, b"XQNNCKPT\x01\0short").unwrap();
    assert!(matches!(
        Checkpoint::load(&path),
        Err(CheckpointError::Format { .. })
    ));
}

#[test]
fn bad_settings_and_empty_data_are_refused() {
    let records = synthetic(10);
    let none = CheckpointPlan::default();
    let err = train(&records, &quick(20, 1), &none, |_| {}).unwrap_err();
    assert!(err.to_string().contains("hidden size 20"), "{err}");
    let err = train(&[], &quick(16, 1), &none, |_| {}).unwrap_err();
    assert!(matches!(err, TrainError::NoSamples { records: 0, .. }));
    let err = train(
        &records,
        &TrainConfig {
            score_weight: 1.5,
            ..quick(16, 1)
        },
        &none,
        |_| {},
    )
    .unwrap_err();
    assert!(err.to_string().contains("score weight"), "{err}");
}

/// `pos` mirrored left-right: each rank of its FEN read backwards.
fn mirrored(pos: &Position) -> Position {
    let fen = pos.to_fen();
    let (board, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    Position::from_fen_with(&format!("{} {rest}", ranks.join("/")), Validation::Strict).unwrap()
}

fn sorted(features: &[u16]) -> Vec<u16> {
    let mut v = features.to_vec();
    v.sort_unstable();
    v
}

#[test]
fn a_mirrored_sample_is_the_mirror_image_position_with_the_same_target() {
    let labelling = |mirror| Labelling {
        score_weight: 0.75,
        skip_noisy: false,
        mirror,
    };
    let mut rng = SplitMix64::new(77);
    for _ in 0..50 {
        let pos = random_position(&mut rng, Validation::Strict);
        let record_of = |pos: &Position| Record {
            board: PackedBoard::of(pos),
            side_to_move: pos.side_to_move(),
            score: Score::Cp(123),
            result: Outcome::Draw,
            ply: 40,
            best_move: None,
            game: 0,
            last_of_game: true,
            in_check: false,
        };
        let mut both = Samples::new();
        assert!(both.push(&record_of(&pos), &labelling(true), &WinRateModel::FITTED));
        assert_eq!(both.len(), 2);
        let mut image = Samples::new();
        image.push(
            &record_of(&mirrored(&pos)),
            &labelling(false),
            &WinRateModel::FITTED,
        );
        let (us, them, target, ply) = both.get(1);
        let (image_us, image_them, image_target, image_ply) = image.get(0);
        assert_eq!(sorted(us), sorted(image_us));
        assert_eq!(sorted(them), sorted(image_them));
        assert_eq!((target, ply), (image_target, image_ply));
        assert_eq!(both.get(0).2, target);
    }
}

#[test]
fn mirroring_doubles_the_training_samples_and_leaves_the_held_out_ones() {
    let records = synthetic(400);
    let run = |mirror| {
        train(
            &records,
            &TrainConfig {
                mirror,
                ..quick(16, 1)
            },
            &CheckpointPlan::default(),
            |_| {},
        )
        .unwrap()
    };
    let (plain, doubled) = (run(false), run(true));
    assert_eq!(doubled.train_samples, 2 * plain.train_samples);
    assert_eq!(doubled.validation_samples, plain.validation_samples);
    assert_ne!(doubled.network, plain.network);
}
