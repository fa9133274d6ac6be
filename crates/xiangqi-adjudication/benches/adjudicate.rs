//! Adjudicating whole games is linear in their length: the cost per ply of
//! `Game::push` (classification + repetition lookup + end tests) is compared
//! over games of 125, 250 and 500 plies, and against the peer cost of merely
//! replaying the same moves with the core's legality check.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use xiangqi_adjudication::{Game, GameRecord, MaterialRule, RuleSet};
use xiangqi_core::{Move, Position, SplitMix64};

/// A deterministic pseudo-random game of `plies` plies that never ends
/// (moves that would end it are skipped).
fn long_game(plies: usize) -> (Position, Vec<Move>, RuleSet) {
    let rules = RuleSet {
        no_capture_limit: None,
        material: MaterialRule::Off,
        ..RuleSet::default()
    };
    let start = Position::startpos();
    let mut game = Game::new(start.clone(), rules.clone());
    let mut rng = SplitMix64::new(0x2545_f491_4f6c_dd1d);
    while game.ply() < plies as u32 {
        let mut legal = game.position().legal_move_vec();
        legal.sort_by_key(|m| m.to_u16());
        let n = legal.len();
        let first = rng.below(n);
        let pushed = (0..n).any(|i| {
            let mv = legal[(first + i) % n];
            let mut trial = game.clone();
            match trial.push(mv) {
                Ok(v) if !v.is_over() => {
                    game = trial;
                    true
                }
                _ => false,
            }
        });
        assert!(pushed, "no move keeps the game going at ply {}", game.ply());
    }
    (start, game.moves().to_vec(), rules)
}

fn bench(c: &mut Criterion) {
    let (start, moves, rules) = long_game(500);
    let mut group = c.benchmark_group("adjudicate_game");
    for plies in [125usize, 250, 500] {
        let record = GameRecord::new(start.clone(), moves[..plies].to_vec());
        group.throughput(Throughput::Elements(plies as u64));
        group.bench_with_input(BenchmarkId::new("game_push", plies), &record, |b, r| {
            b.iter(|| r.adjudicate(&rules).unwrap())
        });
        group.bench_with_input(
            BenchmarkId::new("peer_replay_legal_only", plies),
            &record,
            |b, r| {
                b.iter(|| {
                    let mut pos = r.start.clone();
                    for &mv in &r.moves {
                        pos.play(mv).unwrap();
                    }
                    pos
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
