//! Reviewing a game with an engine: every position of the main line is
//! searched, each move gets the evaluation after it (Red's view) and, by the
//! drop in the mover's winning chance (the fitted win-rate model's expected
//! score, `xiangqi_core::winrate`), a judgement (`?!`, `?`, `??`) and an
//! accuracy ([`accuracy`]); for a mistake or blunder the engine's best line
//! is kept. [`pgn`] writes the review into a game record as `[%eval …]`
//! comments, NAGs, variations and the players' accuracy tags. The
//! thresholds and formats are documented in `docs/engine-client.md`.

pub mod accuracy;
pub mod pgn;

use xiangqi_core::winrate::game_ply;
use xiangqi_core::{Color, Move, MoveList, Position};

use crate::engine::{Analysis, Engine, SearchOptions};
use crate::error::EngineError;
use crate::score::Score;
use crate::spec::Limit;

/// Something that analyses positions: an external [`Engine`], or any other
/// searcher a caller wraps (the Python bindings wrap the built-in engine).
pub trait Analyser {
    /// A new game starts from `start`.
    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError>;
    /// Searches the position after `moves` from `start`.
    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError>;
}

impl Analyser for Engine {
    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        Engine::new_game(self, start, limit)
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        self.search(start, moves, options)
    }
}

/// Drops in the mover's winning chance (the model's expected score,
/// 0.0-1.0) from which a move is judged an inaccuracy, a mistake or a
/// blunder.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Thresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
    pub blunder: f64,
}

impl Default for Thresholds {
    /// 0.05, 0.10, 0.15 (lichess's 0.1, 0.2, 0.3 on its -1..1 scale).
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 0.05,
            mistake: 0.10,
            blunder: 0.15,
        }
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!` (NAG 6).
    Inaccuracy,
    /// `?` (NAG 2).
    Mistake,
    /// `??` (NAG 4).
    Blunder,
}

impl Judgement {
    /// The PGN numeric annotation glyph.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// `inaccuracy`, `mistake` or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    fn of_drop(drop: f64, t: &Thresholds) -> Option<Judgement> {
        if drop >= t.blunder {
            Some(Judgement::Blunder)
        } else if drop >= t.mistake {
            Some(Judgement::Mistake)
        } else if drop >= t.inaccuracy {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// What a position is worth, from Red's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PositionEval {
    /// The engine's score and the depth it reached.
    Engine { red: Score, depth: Option<u32> },
    /// No legal move: the side to move has lost (mate or stalemate, R-END).
    Over { winner: Color },
    /// The engine gave no score.
    Unknown,
}

impl PositionEval {
    /// The winning chance of `side` (the win-rate model's expected score,
    /// 0.0-1.0) in a position `ply` plies into the game, if known.
    pub fn winning_chance(self, side: Color, ply: u32) -> Option<f64> {
        match self {
            PositionEval::Engine { red, .. } => {
                let red_chance = red.expected_score(ply);
                Some(if side == Color::Red {
                    red_chance
                } else {
                    1.0 - red_chance
                })
            }
            PositionEval::Over { winner } => Some(if winner == side { 1.0 } else { 0.0 }),
            PositionEval::Unknown => None,
        }
    }

    /// The `[%eval …]` comment: Red's view in pawns with two decimals
    /// (`0.35`, `-1.20`) or `#N` / `#-N` (Red mates / is mated in N moves),
    /// then `,DEPTH` when known; `#+0` / `#-0` when the game is over. `None`
    /// without a score.
    pub fn comment(self) -> Option<String> {
        let value = match self {
            PositionEval::Engine { red, depth } => {
                let v = match red {
                    Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
                    Score::Mate(n) => format!("#{n}"),
                };
                match depth {
                    Some(d) => format!("{v},{d}"),
                    None => v,
                }
            }
            PositionEval::Over { winner: Color::Red } => "#+0".into(),
            PositionEval::Over {
                winner: Color::Black,
            } => "#-0".into(),
            PositionEval::Unknown => return None,
        };
        Some(format!("[%eval {value}]"))
    }
}

/// One reviewed move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// 1-based ply of the main line.
    pub ply: usize,
    pub mv: Move,
    pub mover: Color,
    /// The position after the move.
    pub eval_after: PositionEval,
    /// The mover's winning chance lost by the move (negative: gained).
    pub drop: Option<f64>,
    pub judgement: Option<Judgement>,
    /// The engine's line in the position before the move, kept for
    /// mistakes and blunders when it differs from the move played.
    pub best_line: Option<Vec<Move>>,
    /// Its evaluation (Red's view).
    pub best_eval: PositionEval,
}

impl MoveReview {
    /// The move's accuracy, 0 to 100, from its [`drop`](MoveReview::drop)
    /// ([`accuracy::move_accuracy`]); `None` when the drop is unknown.
    pub fn accuracy(&self) -> Option<f64> {
        self.drop.map(accuracy::move_accuracy)
    }
}

/// How to review.
#[derive(Copy, Clone, Debug)]
pub struct ReviewOptions {
    pub search: SearchOptions,
    pub thresholds: Thresholds,
    /// Longest best line kept, in plies.
    pub max_line: usize,
}

impl ReviewOptions {
    pub fn new(search: SearchOptions) -> ReviewOptions {
        ReviewOptions {
            search,
            thresholds: Thresholds::default(),
            max_line: 10,
        }
    }
}

fn has_legal_move(position: &Position) -> bool {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    !list.is_empty()
}

fn eval_of(analysis: &Analysis) -> PositionEval {
    match analysis.lines.first().and_then(|l| l.evaluation) {
        Some(e) => PositionEval::Engine {
            red: e.score.for_red(analysis.turn),
            depth: analysis.depth(),
        },
        None => PositionEval::Unknown,
    }
}

/// Reviews the `moves` played from `start` (all legal: the caller replays
/// them first). `progress(done, total)` is called after each position.
pub fn review_moves(
    engine: &mut dyn Analyser,
    start: &Position,
    moves: &[Move],
    options: &ReviewOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<Vec<MoveReview>, EngineError> {
    engine.new_game(start, options.search.limit)?;
    let total = moves.len() + 1;
    // Position i is the one before move i (0-based); the last is after all moves.
    let mut evals = Vec::with_capacity(total);
    let mut analyses = Vec::with_capacity(total);
    let mut position = start.clone();
    for i in 0..total {
        if has_legal_move(&position) {
            let analysis = engine.analyse(start, &moves[..i], options.search)?;
            evals.push(eval_of(&analysis));
            analyses.push(Some(analysis));
        } else {
            evals.push(PositionEval::Over {
                winner: !position.side_to_move(),
            });
            analyses.push(None);
        }
        progress(i + 1, total);
        if let Some(&mv) = moves.get(i) {
            position.play(mv).map_err(|e| {
                EngineError::Unsupported(format!("ply {}: cannot review {mv}: {e}", i + 1))
            })?;
        }
    }
    let mut reviews = Vec::with_capacity(moves.len());
    let mut mover = start.side_to_move();
    let first_ply = game_ply(start);
    for (i, &mv) in moves.iter().enumerate() {
        let before = evals[i];
        let after = evals[i + 1];
        let ply = first_ply + i as u32;
        let drop = before
            .winning_chance(mover, ply)
            .zip(after.winning_chance(mover, ply + 1))
            .map(|(b, a)| b - a);
        let best = analyses[i].as_ref();
        let played_best = best.is_some_and(|a| a.best_move == mv);
        let judgement = match drop {
            Some(d) if !played_best => Judgement::of_drop(d, &options.thresholds),
            _ => None,
        };
        let best_line = match (judgement, best) {
            (Some(Judgement::Mistake | Judgement::Blunder), Some(a)) => {
                let pv = a.lines.first().map(|l| l.pv.as_slice()).unwrap_or(&[]);
                let mut line: Vec<Move> = if pv.first() == Some(&a.best_move) {
                    pv.to_vec()
                } else {
                    vec![a.best_move]
                };
                line.truncate(options.max_line.max(1));
                Some(line)
            }
            _ => None,
        };
        reviews.push(MoveReview {
            ply: i + 1,
            mv,
            mover,
            eval_after: after,
            drop,
            judgement,
            best_line,
            best_eval: before,
        });
        mover = !mover;
    }
    Ok(reviews)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_comments() {
        let e = |red, depth| PositionEval::Engine { red, depth };
        assert_eq!(
            e(Score::Cp(35), Some(12)).comment().unwrap(),
            "[%eval 0.35,12]"
        );
        assert_eq!(e(Score::Cp(-120), None).comment().unwrap(), "[%eval -1.20]");
        assert_eq!(
            e(Score::Mate(-3), Some(9)).comment().unwrap(),
            "[%eval #-3,9]"
        );
        assert_eq!(
            PositionEval::Over { winner: Color::Red }.comment().unwrap(),
            "[%eval #+0]"
        );
        assert_eq!(PositionEval::Unknown.comment(), None);
    }

    #[test]
    fn judgements_by_drop() {
        let t = Thresholds::default();
        assert_eq!(Judgement::of_drop(0.04, &t), None);
        assert_eq!(Judgement::of_drop(0.05, &t), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_drop(0.12, &t), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_drop(0.5, &t), Some(Judgement::Blunder));
        let even = PositionEval::Engine {
            red: Score::Cp(0),
            depth: None,
        };
        assert_eq!(even.winning_chance(Color::Black, 30), Some(0.5));
        let ahead = PositionEval::Engine {
            red: Score::Cp(150),
            depth: None,
        };
        let red = ahead.winning_chance(Color::Red, 30).unwrap();
        assert_eq!(red, Score::Cp(150).expected_score(30));
        assert!((ahead.winning_chance(Color::Black, 30).unwrap() - (1.0 - red)).abs() < 1e-12);
        let over = PositionEval::Over {
            winner: Color::Black,
        };
        assert_eq!(over.winning_chance(Color::Red, 30), Some(0.0));
    }
}
