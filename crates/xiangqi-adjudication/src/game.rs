//! [`Game`]: a start position and moves, adjudicated ply by ply in the order
//! of R-END-ORDER; [`GameRecord`]: the same as plain data.

use xiangqi_core::{
    BoardStatus, Color, FenError, Move, MoveList, ParseMoveError, PieceKind, PlayError, Position,
};

use crate::material::is_insufficient;
use crate::nocapture::NoCaptureCounter;
use crate::repetition::{Repetition, RepetitionTracker};
use crate::report::{describe_pieces, repetition_verdict};
use crate::rules::{EndOrder, RepetitionEnforcement, RuleSet, StalemateRule};
use crate::verdict::{Outcome, Reason, Verdict};

/// Why a move or event cannot be applied to a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// The start position is not valid FEN (N-FEN-VALID).
    #[error("bad start position: {0}")]
    BadFen(FenError),
    /// A move's text is not an ICCS move.
    #[error("ply {ply}: {error}")]
    BadMoveText {
        /// The ply the text was meant to be (1 = the first move of the record).
        ply: u32,
        /// Why it could not be read.
        error: ParseMoveError,
    },
    /// A move is illegal in the position it was played in.
    #[error("ply {ply}: {error}")]
    IllegalMove {
        /// The ply it was meant to be.
        ply: u32,
        /// Why it is illegal.
        error: PlayError,
    },
    /// A move or event after the end of the game (R-END-ORDER: "once a game
    /// has ended, further moves are errors").
    #[error("{action} at ply {ply}: the game already ended after ply {ended_at} ({reason})")]
    GameOver {
        /// What was attempted, e.g. `move h2e2` or `resignation`.
        action: String,
        /// The ply it would have been.
        ply: u32,
        /// The ply at which the game ended.
        ended_at: u32,
        /// Why it ended.
        reason: Reason,
    },
    /// R-REP-ENFORCE `ForbidRepeat`: the move would make a third occurrence
    /// in which its mover is the offender.
    #[error(
        "ply {ply}: {mv} is forbidden (R-REP-ENFORCE): it would make the third occurrence \
         of a position and {side} would be the offender ({reason})"
    )]
    ForbiddenRepetition {
        /// The ply it was meant to be.
        ply: u32,
        /// The move.
        mv: Move,
        /// Its mover.
        side: Color,
        /// The offence.
        reason: Reason,
    },
    /// A takeback of more plies than the game has.
    #[error("cannot take back {plies} plies: only {played} were played")]
    TakeBackTooFar {
        /// The plies asked for.
        plies: u32,
        /// The plies played.
        played: u32,
    },
}

impl From<FenError> for GameError {
    fn from(error: FenError) -> Self {
        GameError::BadFen(error)
    }
}

/// A game being played or replayed: push moves and read the verdict after
/// each ply.
///
/// ```
/// use xiangqi_adjudication::{Game, Outcome, Reason, RuleSet};
/// use xiangqi_core::Position;
/// // EX-REP-3: a horse chases an unprotected cannon.
/// let start = Position::from_fen("4k4/2c6/9/9/1N7/9/9/9/9/3K5 w - - 0 1").unwrap();
/// let mut game = Game::new(start, RuleSet::default());
/// for mv in "b5d6 c8c7 d6b5 c7c8 b5d6 c8c7 d6b5 c7c8".split(' ') {
///     game.push(mv.parse().unwrap()).unwrap();
/// }
/// let verdict = game.verdict();
/// assert_eq!(verdict.outcome, Outcome::Black);
/// assert_eq!(verdict.reason, Some(Reason::PerpetualChase));
/// assert_eq!(verdict.ply, 8);
/// // Moves after the end are errors naming the ply.
/// let err = game.push("b5d6".parse().unwrap()).unwrap_err();
/// assert!(err.to_string().contains("ply 9"));
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    start: Position,
    position: Position,
    moves: Vec<Move>,
    tracker: RepetitionTracker,
    counter: NoCaptureCounter,
    verdict: Verdict,
}

impl Game {
    /// A game from `start` (which may already be over: a side without moves,
    /// a counter at the limit, dead material).
    pub fn new(start: Position, rules: RuleSet) -> Game {
        let tracker = RepetitionTracker::new(&start, rules.cycle_rules());
        let counter = NoCaptureCounter::new(
            start.halfmove_clock(),
            rules.no_capture_limit,
            rules.no_capture_checks,
        );
        let mut game = Game {
            rules,
            position: start.clone(),
            start,
            moves: Vec::new(),
            tracker,
            counter,
            verdict: Verdict::ongoing(0),
        };
        game.verdict = game.evaluate(None, None, false);
        game
    }

    /// The rules in force.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plies played.
    pub fn ply(&self) -> u32 {
        self.moves.len() as u32
    }

    /// The verdict after the last ply or event.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }

    /// True once the game has ended.
    pub fn is_over(&self) -> bool {
        self.verdict.is_over()
    }

    /// The no-capture counter (effective plies since the last capture).
    pub fn no_capture_count(&self) -> u32 {
        self.counter.count()
    }

    /// The repetition bookkeeping (for engines and tools that want the classified plies).
    pub fn tracker(&self) -> &RepetitionTracker {
        &self.tracker
    }

    fn over_error(&self, action: String) -> GameError {
        GameError::GameOver {
            action,
            ply: self.ply() + 1,
            ended_at: self.verdict.ply,
            reason: self.verdict.reason.unwrap_or(Reason::Cancelled),
        }
    }

    /// Checks that the game is still running, or names what was attempted.
    pub(crate) fn ensure_running(&self, action: impl FnOnce() -> String) -> Result<(), GameError> {
        if self.is_over() {
            Err(self.over_error(action()))
        } else {
            Ok(())
        }
    }

    /// The moves the side to move may play: the legal moves, less those
    /// R-REP-ENFORCE `ForbidRepeat` forbids.
    pub fn permitted_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.position.legal_moves(&mut list);
        list.iter()
            .copied()
            .filter(|&mv| self.forbidden(mv).is_none())
            .collect()
    }

    /// The offence `mv` would commit under `ForbidRepeat`, if any.
    fn forbidden(&self, mv: Move) -> Option<Reason> {
        if self.rules.repetition != RepetitionEnforcement::ForbidRepeat {
            return None;
        }
        let mut after = self.position.clone();
        after.make_move(mv);
        let j = self.tracker.judge_candidate(&self.position, mv, &after)?;
        (j.loser == Some(self.position.side_to_move())).then_some(j.reason)
    }

    /// Plays `mv` and returns the verdict after it (R-END-ORDER).
    pub fn push(&mut self, mv: Move) -> Result<&Verdict, GameError> {
        let ply = self.ply() + 1;
        self.ensure_running(|| format!("move {mv}"))?;
        self.position
            .check_legal(mv)
            .map_err(|error| GameError::IllegalMove { ply, error })?;
        let mover = self.position.side_to_move();
        if let Some(reason) = self.forbidden(mv) {
            return Err(GameError::ForbiddenRepetition {
                ply,
                mv,
                side: mover,
                reason,
            });
        }
        let before = self.position.clone();
        self.position.make_move(mv);
        let captured = before.piece_at(mv.to()).is_some();
        let repetition = self.tracker.push(&before, mv, &self.position);
        self.counter.push(mover, captured, self.position.is_check());
        self.moves.push(mv);
        self.verdict = self.evaluate(repetition, Some(mv), captured);
        Ok(&self.verdict)
    }

    /// Takes back the last `plies` moves: the game is rebuilt from its start
    /// by replaying the moves that remain, so the repetition record and the
    /// no-capture counter are those of the shorter game (an online takeback).
    /// Taking back more plies than were played is an error, as is taking
    /// back after the end.
    pub fn take_back(&mut self, plies: u32) -> Result<&Verdict, GameError> {
        self.ensure_running(|| format!("taking back {plies} plies"))?;
        if plies > self.ply() {
            return Err(GameError::TakeBackTooFar {
                plies,
                played: self.ply(),
            });
        }
        let keep = (self.ply() - plies) as usize;
        let mut replayed = Game::new(self.start.clone(), self.rules.clone());
        for &mv in &self.moves[..keep] {
            replayed.push(mv)?;
        }
        *self = replayed;
        Ok(&self.verdict)
    }

    /// Parses an ICCS move and plays it.
    pub fn push_text(&mut self, text: &str) -> Result<&Verdict, GameError> {
        let mv = text.parse().map_err(|error| GameError::BadMoveText {
            ply: self.ply() + 1,
            error,
        })?;
        self.push(mv)
    }

    /// R-END-RESIGN: `side` resigns and loses.
    pub fn resign(&mut self, side: Color) -> Result<&Verdict, GameError> {
        self.ensure_running(|| format!("resignation by {side}"))?;
        let detail = format!("{side} resigned after ply {}: {} wins", self.ply(), !side);
        self.finish(Verdict::ended(
            Outcome::win_for(!side),
            Reason::Resignation,
            self.ply(),
            detail,
        ));
        Ok(&self.verdict)
    }

    /// R-END-AGREE: both sides agree to a draw.
    pub fn agree_draw(&mut self) -> Result<&Verdict, GameError> {
        self.ensure_running(|| "draw by agreement".to_string())?;
        let detail = format!("the players agreed to a draw after ply {}", self.ply());
        self.finish(Verdict::ended(
            Outcome::Draw,
            Reason::Agreement,
            self.ply(),
            detail,
        ));
        Ok(&self.verdict)
    }

    /// Ends the game with `verdict` (clock and player events, section 8).
    pub(crate) fn finish(&mut self, verdict: Verdict) {
        self.verdict = verdict;
    }

    /// The board rules after a ply, in the order of R-END-ORDER. `captured`:
    /// the ply was a capture, the only way material can become dead.
    fn evaluate(
        &self,
        repetition: Option<Repetition>,
        last: Option<Move>,
        captured: bool,
    ) -> Verdict {
        let pos = &self.position;
        let ply = self.ply();
        let to_move = pos.side_to_move();
        let after = match last {
            Some(mv) => format!("after ply {ply} ({mv}) "),
            None => "in the start position ".to_string(),
        };
        // 1. No legal move: R-END-MATE or R-END-STALEMATE.
        match pos.status() {
            BoardStatus::Checkmate => {
                let checkers = describe_pieces(pos, pos.checkers());
                let detail = format!(
                    "{after}{to_move} is in check by the {checkers} and has no legal move: \
                     {} wins by checkmate (R-END-MATE)",
                    !to_move
                );
                return Verdict::ended(Outcome::win_for(!to_move), Reason::Checkmate, ply, detail);
            }
            BoardStatus::Stalemate => {
                let (outcome, result) = match self.rules.stalemate {
                    StalemateRule::Loses => {
                        (Outcome::win_for(!to_move), format!("{} wins", !to_move))
                    }
                    StalemateRule::Draw => {
                        (Outcome::Draw, "draw (stalemate-draw option)".to_string())
                    }
                };
                let detail = format!(
                    "{after}{to_move} is not in check but has no legal move: {result} (R-END-STALEMATE)"
                );
                return Verdict::ended(outcome, Reason::Stalemate, ply, detail);
            }
            BoardStatus::Ongoing => {}
        }
        // 1b. ForbidRepeat: an offender whose every legal move is forbidden loses.
        if self.rules.repetition == RepetitionEnforcement::ForbidRepeat && repetition.is_none() {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let offences: Vec<Option<Reason>> = list.iter().map(|&m| self.forbidden(m)).collect();
            if let Some(Some(reason)) = offences.first().copied() {
                if offences.iter().all(Option::is_some) {
                    let detail = format!(
                        "{after}every legal move of {to_move} would repeat a position for the \
                         third time as the offender ({reason}), which R-REP-ENFORCE forbids: {} wins",
                        !to_move
                    );
                    return Verdict::ended(Outcome::win_for(!to_move), reason, ply, detail);
                }
            }
        }
        let repetition_verdict = repetition.map(|r| repetition_verdict(&r, pos, ply));
        let no_capture = self.counter.reached().then(|| {
            let detail = format!(
                "{after}{} plies have been played without a capture (limit {}): draw (R-DRAW-NOCAPTURE)",
                self.counter.count(),
                self.counter.limit().unwrap_or_default()
            );
            Verdict::ended(Outcome::Draw, Reason::NoCaptureRule, ply, detail)
        });
        let (first, second) = match self.rules.order {
            EndOrder::RepetitionFirst => (repetition_verdict, no_capture),
            EndOrder::NoCaptureFirst => (no_capture, repetition_verdict),
        };
        // 2. and 3.
        if let Some(v) = first.or(second) {
            return v;
        }
        // 4. R-DRAW-MATERIAL, tested on the capture that leaves the material dead
        // (R-END-ORDER note: it can only become true through a capture). A record
        // set up in an already dead position is not adjudicated on material; it
        // ends by repetition or the no-capture rule (endings.jsonl p-end-010).
        if captured && is_insufficient(pos, self.rules.material) {
            let left = pos
                .pieces()
                .filter(|(_, p)| p.kind != PieceKind::General)
                .count();
            let detail = if left == 0 || crate::material::is_dead(pos) {
                format!(
                    "{after}neither side has a chariot, horse, cannon or soldier left, so no mate \
                     is possible: draw (R-DRAW-MATERIAL)"
                )
            } else {
                format!("{after}the material left cannot win (R-DRAW-MATERIAL-EXT): draw")
            };
            return Verdict::ended(Outcome::Draw, Reason::InsufficientMaterial, ply, detail);
        }
        Verdict::ongoing(ply)
    }
}

/// A game as plain data: where it started and the moves played.
///
/// ```
/// use xiangqi_adjudication::{GameRecord, Reason, RuleSet};
/// // EX-NC-1.
/// let record = GameRecord::parse(Some("5k3/9/9/9/8R/9/9/9/9/3K5 w - - 117 80"), "i5i4 f9f8 i4i3").unwrap();
/// let verdict = record.adjudicate(&RuleSet::default()).unwrap();
/// assert_eq!(verdict.reason, Some(Reason::NoCaptureRule));
/// assert_eq!(verdict.ply, 3);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameRecord {
    /// The start position (serialised as FEN).
    pub start: Position,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// A record from a start position and moves.
    pub fn new(start: Position, moves: Vec<Move>) -> GameRecord {
        GameRecord { start, moves }
    }

    /// Reads a FEN (`None` = the start position) and ICCS moves separated by
    /// white space or commas.
    pub fn parse(fen: Option<&str>, moves: &str) -> Result<GameRecord, GameError> {
        let start = match fen {
            Some(f) => Position::from_fen(f)?,
            None => Position::startpos(),
        };
        let moves = moves
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, t)| {
                t.parse().map_err(|error| GameError::BadMoveText {
                    ply: i as u32 + 1,
                    error,
                })
            })
            .collect::<Result<Vec<Move>, _>>()?;
        Ok(GameRecord { start, moves })
    }

    /// Replays the record under `rules`.
    pub fn play(&self, rules: &RuleSet) -> Result<Game, GameError> {
        let mut game = Game::new(self.start.clone(), rules.clone());
        for &mv in &self.moves {
            game.push(mv)?;
        }
        Ok(game)
    }

    /// The verdict after the last move. Moves after the end are an error.
    pub fn adjudicate(&self, rules: &RuleSet) -> Result<Verdict, GameError> {
        Ok(self.play(rules)?.verdict().clone())
    }
}
