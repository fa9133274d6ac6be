//! Seeded self-play at a fixed node count: balanced random openings, games
//! played to the adjudication's verdict under the engine's rules
//! ([`super::game`]), quiet positions labelled with the result. The
//! openings are drawn first, one after another from the seed; the games are
//! then played on `threads` threads, each with its own engines, cleared
//! before every game, so a game depends only on its opening and the data is
//! the same for any number of threads.

use xiangqi_core::{Color, MoveList, Position, SplitMix64};
use xiangqi_parallel::PoolError;

use xiangqi_adjudication::Outcome;

use super::game::{engine_rules, play_game, Choice, Endings, GameEnd};
use crate::wdl::{self, game_ply, WdlSample};
use crate::{is_quiet, Engine, Limits, Score, Weights};

/// How self-play games are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlay {
    /// Number of games.
    pub games: usize,
    /// Nodes per move (fixed: the games depend only on the seed).
    pub nodes: u64,
    /// Seed of the random openings.
    pub seed: u64,
    /// Random plies from the start position before the engines take over.
    pub opening_plies: usize,
    /// An opening is kept only when a short search scores it within this many centipawns.
    pub balanced_cp: i32,
    /// A safety net for running time: a game still going after this many
    /// plies is stopped and counted as a draw ([`Endings::capped`] counts
    /// them). The rules end every game without it.
    pub max_plies: usize,
    /// Threads playing games at once (at least one is used); the games do
    /// not depend on it.
    pub threads: usize,
}

impl Default for SelfPlay {
    fn default() -> SelfPlay {
        SelfPlay {
            games: 200,
            nodes: 2_000,
            seed: 1,
            opening_plies: 6,
            balanced_cp: 150,
            max_plies: 1_000,
            threads: 1,
        }
    }
}

/// Red's points of a self-play game: 1, ½ or 0. Its games always end in a
/// win or a draw (never cancelled, never left going on: the cap draws).
pub(crate) fn red_points(result: Outcome) -> f64 {
    result.red_score().unwrap_or(0.5)
}

/// A labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position (quiet: see [`crate::is_quiet`]).
    pub position: Position,
    /// The result of the game it was played in: `Red`, `Black` or `Draw`.
    pub result: Outcome,
    /// A stronger engine's score of the position, in centipawns from Red's
    /// point of view (mates as ±[`TEACHER_MATE_CP`]), when one was asked.
    pub teacher_cp: Option<i32>,
}

/// The centipawns a teacher's mate score stands for.
pub const TEACHER_MATE_CP: i32 = 2_000;

/// A random opening: `plies` random legal plies from the start position,
/// drawn from `rng` and kept only when a 2,000-node search by `probe`
/// (cleared first) scores it within `balanced_cp` centipawns; drawn again
/// otherwise. The same generator state gives the same opening. Self-play
/// here and the NNUE data generation (`xiangqi-nnue-train`) open with it.
pub fn balanced_opening(
    rng: &mut SplitMix64,
    plies: usize,
    balanced_cp: i32,
    probe: &mut Engine,
) -> Position {
    loop {
        let mut pos = Position::startpos();
        let mut moves = MoveList::new();
        let mut ok = true;
        for _ in 0..plies {
            pos.legal_moves(&mut moves);
            match rng.choose(moves.as_slice()) {
                Some(&mv) => pos.make_move(mv),
                None => {
                    ok = false;
                    break;
                }
            };
        }
        if !ok || !pos.has_legal_move() {
            continue;
        }
        probe.new_game();
        let r = probe.search(&pos, &[], &Limits::nodes(2_000), |_| {});
        if matches!(r.score, Score::Cp(v) if v.abs() <= balanced_cp) {
            return pos;
        }
    }
}

/// Runs `play(state, index)` for every index below `count` on `threads`
/// threads (at least one), each with its own `state()`, and returns the
/// answers in index order; `progress` sees each answer in index order.
fn play_all<S: Send, T: Send>(
    count: usize,
    threads: usize,
    state: impl Fn() -> S,
    play: impl Fn(&mut S, usize) -> T + Sync,
    mut progress: impl FnMut(&T),
) -> Vec<T> {
    let workers = (0..threads.clamp(1, count.max(1)))
        .map(|_| state())
        .collect();
    let answers = xiangqi_parallel::ordered_collect(
        workers,
        0..count,
        |state, index| Ok::<T, PoolError>(play(state, index)),
        |_, answer| progress(answer),
    );
    // Games cannot fail: the pool fails only when a game panicked (a bug,
    // already reported by the panic hook), which stops the caller too.
    answers.unwrap_or_else(|e| panic!("self-play: {e}"))
}

/// `n` balanced random openings from `config.seed`, in order.
fn openings(config: &SelfPlay, n: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(config.seed);
    let mut probe = Engine::classical(4);
    (0..n)
        .map(|_| {
            balanced_opening(
                &mut rng,
                config.opening_plies,
                config.balanced_cp,
                &mut probe,
            )
        })
        .collect()
}

/// `engines[0]` plays Red, `engines[1]` Black, each searching `nodes` nodes
/// a move from a clean start.
fn engine_players(
    engines: [&mut Engine; 2],
    nodes: u64,
) -> impl FnMut(&Position, &[Position]) -> Choice + '_ {
    let [red, black] = engines;
    red.new_game();
    black.new_game();
    move |pos, history| {
        let engine: &mut Engine = match pos.side_to_move() {
            Color::Red => &mut *red,
            Color::Black => &mut *black,
        };
        let r = engine.search(pos, history, &Limits::nodes(nodes), |_| {});
        (r.best_move, r.score)
    }
}

/// Plays `config.games` self-play games with `weights`, on
/// `config.threads` threads, keeping what `keep` takes from each position
/// (with the search's score of it); returns each game's kept items and its
/// end, in game order. Calls `progress(games done, items so far)` after
/// each game.
fn play_keeping<T: Send>(
    config: &SelfPlay,
    weights: &Weights,
    keep: impl Fn(&Position, Score) -> Option<T> + Sync,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(Vec<T>, GameEnd)> {
    let rules = engine_rules();
    let starts = openings(config, config.games);
    let engines = || {
        let mut red = Engine::classical(8);
        let mut black = Engine::classical(8);
        red.set_weights(weights.clone());
        black.set_weights(weights.clone());
        (red, black)
    };
    let (mut done, mut kept) = (0, 0);
    play_all(
        config.games,
        config.threads,
        engines,
        |(red, black), game| {
            let mut seen = Vec::new();
            let end = play_game(
                &starts[game],
                &rules,
                config.max_plies,
                engine_players([red, black], config.nodes),
                |p, score| seen.extend(keep(p, score)),
            );
            (seen, end)
        },
        |(seen, _)| {
            done += 1;
            kept += seen.len();
            progress(done, kept);
        },
    )
}

/// The items of every game in order, and how the games ended.
fn collect_games<T, U>(
    games: Vec<(Vec<T>, GameEnd)>,
    label: impl Fn(T, &GameEnd) -> U,
) -> (Vec<U>, Endings) {
    let mut endings = Endings::default();
    let mut items = Vec::new();
    for (seen, end) in games {
        endings.add(&end);
        items.extend(seen.into_iter().map(|item| label(item, &end)));
    }
    (items, endings)
}

/// The quiet positions of a game, labelled with its result.
fn label_quiet(position: Position, end: &GameEnd) -> Sample {
    Sample {
        position,
        result: end.outcome,
        teacher_cp: None,
    }
}

/// Plays `config.games` self-play games with `weights` and returns the quiet
/// positions after the opening, labelled with their game's result. Calls
/// `progress(games done, positions so far)` after each game.
pub fn generate(
    config: &SelfPlay,
    weights: &Weights,
    progress: impl FnMut(usize, usize),
) -> Vec<Sample> {
    generate_with_endings(config, weights, progress).0
}

/// [`generate`], with how the games ended.
pub fn generate_with_endings(
    config: &SelfPlay,
    weights: &Weights,
    progress: impl FnMut(usize, usize),
) -> (Vec<Sample>, Endings) {
    let keep = |p: &Position, _| is_quiet(p).then(|| p.clone());
    collect_games(play_keeping(config, weights, keep, progress), label_quiet)
}

/// Plays `config.games` self-play games as [`generate`] does and returns
/// every position after the opening whose search score is no mate, with that
/// score and ply and the game's result from the mover's side: the data of
/// the win-rate model ([`crate::wdl::fit`]). Calls `progress(games done,
/// positions so far)` after each game.
pub fn generate_scored(
    config: &SelfPlay,
    weights: &Weights,
    progress: impl FnMut(usize, usize),
) -> Vec<WdlSample> {
    generate_scored_with_endings(config, weights, progress).0
}

/// [`generate_scored`], with how the games ended.
pub fn generate_scored_with_endings(
    config: &SelfPlay,
    weights: &Weights,
    progress: impl FnMut(usize, usize),
) -> (Vec<WdlSample>, Endings) {
    let keep = |p: &Position, score| match score {
        Score::Cp(cp) => Some((cp, game_ply(p), p.side_to_move())),
        _ => None,
    };
    let label = |(score_cp, ply, mover): (i32, u32, Color), end: &GameEnd| {
        let red = mover == Color::Red;
        let outcome = match end.outcome {
            Outcome::Red if red => wdl::Outcome::Win,
            Outcome::Black if !red => wdl::Outcome::Win,
            Outcome::Red | Outcome::Black => wdl::Outcome::Loss,
            _ => wdl::Outcome::Draw,
        };
        WdlSample {
            score_cp,
            ply,
            outcome,
        }
    };
    collect_games(play_keeping(config, weights, keep, progress), label)
}

/// Wins, draws and losses of the first weight table of a match.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchTally {
    /// Games the first table won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first table lost.
    pub losses: u32,
    /// Of the draws, games the ply cap stopped before the rules ended them.
    pub capped: u32,
}

/// A fixed-node match of `a` against `b`: `config.games / 2` balanced random
/// openings (seeded), each played twice with colours swapped. Calls
/// `progress(games done, tally so far)` after each game.
pub fn play_match(
    config: &SelfPlay,
    a: &Weights,
    b: &Weights,
    mut progress: impl FnMut(usize, &MatchTally),
) -> MatchTally {
    let rules = engine_rules();
    let starts = openings(config, config.games.div_ceil(2));
    let engines = || {
        let mut first = Engine::classical(8);
        let mut second = Engine::classical(8);
        first.set_weights(a.clone());
        second.set_weights(b.clone());
        (first, second)
    };
    let mut tally = MatchTally::default();
    let mut done = 0;
    // Game 2k and 2k + 1 play opening k, the second with colours swapped.
    play_all(
        starts.len() * 2,
        config.threads,
        engines,
        |(first, second), game| {
            let swap = game % 2 == 1;
            let engines = if swap {
                [second, first]
            } else {
                [first, second]
            };
            let end = play_game(
                &starts[game / 2],
                &rules,
                config.max_plies,
                engine_players(engines, config.nodes),
                |_, _| {},
            );
            let red = red_points(end.outcome);
            (if swap { 1.0 - red } else { red }, end.capped())
        },
        |&(a_points, capped)| {
            tally.capped += u32::from(capped);
            match a_points {
                p if p > 0.75 => tally.wins += 1,
                p if p < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            done += 1;
            progress(done, &tally);
        },
    );
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_is_seeded_and_labels_quiet_positions() {
        let config = SelfPlay {
            games: 2,
            nodes: 300,
            max_plies: 40,
            ..SelfPlay::default()
        };
        let w = Weights::default();
        let mut calls = 0;
        let (a, endings) = generate_with_endings(&config, &w, |_, _| calls += 1);
        let b = generate(&config, &w, |_, _| {});
        assert_eq!(calls, 2);
        assert_eq!(endings.games(), 2);
        assert!(!a.is_empty());
        assert_eq!(a, b, "same seed, same data");
        assert!(a.iter().all(|s| is_quiet(&s.position)));
        let other = generate(&SelfPlay { seed: 2, ..config }, &w, |_, _| {});
        assert_ne!(a, other);
    }

    #[test]
    fn self_play_data_does_not_depend_on_the_threads() {
        let config = SelfPlay {
            games: 5,
            nodes: 300,
            max_plies: 40,
            ..SelfPlay::default()
        };
        let w = Weights::default();
        let one = generate(&config, &w, |_, _| {});
        let mut calls = 0;
        let three = generate(
            &SelfPlay {
                threads: 3,
                ..config.clone()
            },
            &w,
            |done, _| {
                calls += 1;
                assert!(done <= 5);
            },
        );
        assert_eq!(calls, 5);
        assert_eq!(one, three);
        let m1 = play_match(
            &SelfPlay {
                games: 4,
                ..config.clone()
            },
            &w,
            &Weights::default(),
            |_, _| {},
        );
        let m2 = play_match(
            &SelfPlay {
                games: 4,
                threads: 2,
                ..config
            },
            &w,
            &Weights::default(),
            |_, _| {},
        );
        assert_eq!(m1, m2);
    }

    #[test]
    fn a_perpetual_checkers_positions_are_labelled_as_lost() {
        // EX-REP-1 of the rules reference: Red's chariot checks for ever and
        // loses; the old self-play called this a draw.
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap();
        let mut script = "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8".split(' ');
        let choose = |_: &Position, _: &[Position]| {
            (script.next().map(|m| m.parse().unwrap()), Score::Cp(0))
        };
        let mut seen = Vec::new();
        let end = play_game(&start, &engine_rules(), 1_000, choose, |p, _| {
            seen.extend(is_quiet(p).then(|| p.clone()))
        });
        let (samples, endings) = collect_games(vec![(seen, end)], label_quiet);
        assert!(!samples.is_empty());
        assert!(samples.iter().all(|s| s.result == Outcome::Black));
        assert_eq!(
            endings.count(xiangqi_adjudication::Reason::PerpetualCheck),
            1
        );
        assert_eq!(endings.capped, 0);
    }

    #[test]
    fn engines_play_to_the_verdict_and_mate_is_played_out() {
        // Red mates in one (chariot to the back rank); the game ends by the
        // adjudication's checkmate, not by the search's mate score.
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1").unwrap();
        let (mut red, mut black) = (Engine::new(1), Engine::new(1));
        let end = play_game(
            &start,
            &engine_rules(),
            1_000,
            engine_players([&mut red, &mut black], 2_000),
            |_, _| {},
        );
        assert_eq!(end.outcome, Outcome::Red, "{end:?}");
        assert_eq!(end.reason, Some(xiangqi_adjudication::Reason::Checkmate));
    }

    #[test]
    fn a_match_against_itself_counts_every_game() {
        let config = SelfPlay {
            games: 2,
            nodes: 200,
            max_plies: 30,
            ..SelfPlay::default()
        };
        let w = Weights::default();
        let t = play_match(&config, &w, &w, |_, _| {});
        assert_eq!(t.wins + t.draws + t.losses, 2);
    }
}
