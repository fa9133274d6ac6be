//! One self-play game, judged by `xiangqi-adjudication`'s [`Game`] under
//! the rule set the engine's own search assumes ([`engine_rules`]): checkmate
//! and stalemate lose, perpetual check and perpetual chase lose, other
//! threefold repetitions draw, 120 plies without capture draw, dead
//! material draws. The labels of the data and the points of a match are
//! therefore what the search plays for. [`Endings`] counts how games ended.

use std::fmt;

use xiangqi_adjudication::{Game, Outcome, Preset, Reason, RuleSet};
use xiangqi_core::{Move, Position};

use crate::Score;

/// The rules the search scores by: the default repetition judge
/// ([`crate::AdjudicationJudge::default`], the default rule set's cycle
/// rules), the no-capture limit of 120 plies, stalemate losing and dead
/// material drawn. That is the `plain` preset (the online rules without a clock).
pub fn engine_rules() -> RuleSet {
    RuleSet::preset(Preset::Plain)
}

/// How a self-play game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `Red`, `Black` or `Draw`.
    pub outcome: Outcome,
    /// The adjudication's reason; `None` when the ply cap stopped the game.
    pub reason: Option<Reason>,
    /// Plies played from the opening position.
    pub plies: u32,
}

impl GameEnd {
    /// True when the safety cap stopped the game before the rules ended it.
    pub fn capped(&self) -> bool {
        self.reason.is_none()
    }
}

/// What a side to move chose: the move (`None` only without a legal move)
/// and its search score.
pub type Choice = (Option<Move>, Score);

/// Plays one game from `start`, asking `choose(position, history)` for every
/// move (`history`: the positions before it since `start`, oldest first),
/// and calls `visit` on every position reached with the mover's score. The
/// game ends only by the adjudication verdict under `rules`; `max_plies` is a
/// safety net for running time (the rules end every game: at most 120 plies
/// pass between captures), and a game it stops counts as a draw.
pub fn play_game(
    start: &Position,
    rules: &RuleSet,
    max_plies: usize,
    mut choose: impl FnMut(&Position, &[Position]) -> Choice,
    mut visit: impl FnMut(&Position, Score),
) -> GameEnd {
    let mut game = Game::new(start.clone(), rules.clone());
    let mut history: Vec<Position> = Vec::new();
    while !game.is_over() {
        if game.ply() as usize >= max_plies {
            return GameEnd {
                outcome: Outcome::Draw,
                reason: None,
                plies: game.ply(),
            };
        }
        let pos = game.position().clone();
        let (best, score) = choose(&pos, &history);
        visit(&pos, score);
        let mover = pos.side_to_move();
        // The search returns a legal move whenever one exists, and these
        // rules forbid no legal move; a side that still has none to give
        // resigns rather than stopping the whole run.
        let played = best.is_some_and(|mv| game.push(mv).is_ok());
        if !played {
            // The game is running, so resigning cannot fail.
            let _ = game.resign(mover);
        }
        history.push(pos);
    }
    let verdict = game.verdict();
    GameEnd {
        outcome: verdict.outcome,
        reason: verdict.reason,
        plies: game.ply(),
    }
}

/// How many games ended for each reason, and how many the ply cap stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Endings {
    /// Reasons in order of first appearance, with their counts.
    pub reasons: Vec<(Reason, usize)>,
    /// Games the safety cap stopped (counted as draws).
    pub capped: usize,
    /// Plies of all games together.
    pub plies: u64,
}

impl Endings {
    /// Adds one game.
    pub fn add(&mut self, end: &GameEnd) {
        self.plies += u64::from(end.plies);
        match end.reason {
            None => self.capped += 1,
            Some(reason) => match self.reasons.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, n)) => *n += 1,
                None => self.reasons.push((reason, 1)),
            },
        }
    }

    /// Games counted.
    pub fn games(&self) -> usize {
        self.capped + self.reasons.iter().map(|(_, n)| n).sum::<usize>()
    }

    /// Games that ended for `reason`.
    pub fn count(&self, reason: Reason) -> usize {
        self.reasons
            .iter()
            .find(|(r, _)| *r == reason)
            .map_or(0, |&(_, n)| n)
    }
}

impl fmt::Display for Endings {
    /// `checkmate 80, no_capture_rule 12, …, ply cap 0 (mean 143 plies)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut reasons = self.reasons.clone();
        reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code().cmp(b.0.code())));
        for (reason, n) in &reasons {
            write!(f, "{reason} {n}, ")?;
        }
        let games = self.games().max(1) as u64;
        write!(
            f,
            "ply cap {} (mean {} plies)",
            self.capped,
            self.plies / games
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_adjudication::CycleRules;

    #[test]
    fn the_engine_rules_are_the_rules_the_search_scores_by() {
        let rules = engine_rules();
        assert_eq!(rules.cycle_rules(), CycleRules::default());
        assert_eq!(
            rules.no_capture_limit,
            Some(crate::search::NO_CAPTURE_LIMIT)
        );
        assert_eq!(rules.stalemate, xiangqi_adjudication::StalemateRule::Loses);
        assert_eq!(rules.clock, None);
    }

    /// A player that plays `moves` in turn, each with score 0.
    fn scripted(moves: &str) -> impl FnMut(&Position, &[Position]) -> Choice + '_ {
        let mut moves = moves.split(' ');
        move |_, _| (moves.next().map(|m| m.parse().unwrap()), Score::Cp(0))
    }

    #[test]
    fn a_perpetual_check_loses_for_the_checker() {
        // EX-REP-1 of the rules reference: the chariot checks on i9/i8 for ever.
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap();
        let moves = "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8";
        let mut visited = 0;
        let end = play_game(&start, &engine_rules(), 300, scripted(moves), |_, _| {
            visited += 1
        });
        assert_eq!(end.outcome, Outcome::Black, "{end:?}");
        assert_eq!(end.reason, Some(Reason::PerpetualCheck));
        assert_eq!(end.plies, 9, "the game stops at the third occurrence");
        assert_eq!(visited, 9);
        assert!(!end.capped());
    }

    #[test]
    fn a_plain_repetition_draws_and_the_cap_only_stops_long_games() {
        // Both kings walk to and fro: no check, no chase, a draw by repetition.
        let start = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let moves = "d0d1 e9e8 d1d0 e8e9 d0d1 e9e8 d1d0 e8e9 d0d1";
        let end = play_game(&start, &engine_rules(), 300, scripted(moves), |_, _| {});
        assert_eq!(end.outcome, Outcome::Draw);
        assert_eq!(end.reason, Some(Reason::ThreefoldRepetition));
        let capped = play_game(&start, &engine_rules(), 4, scripted(moves), |_, _| {});
        assert!(capped.capped());
        assert_eq!((capped.outcome, capped.plies), (Outcome::Draw, 4));
        let mut endings = Endings::default();
        endings.add(&end);
        endings.add(&capped);
        assert_eq!(endings.games(), 2);
        assert_eq!(endings.count(Reason::ThreefoldRepetition), 1);
        assert_eq!(endings.capped, 1);
        assert_eq!(
            endings.to_string(),
            "threefold_repetition 1, ply cap 1 (mean 6 plies)"
        );
    }

    #[test]
    fn a_side_without_a_move_to_give_resigns() {
        let start = Position::startpos();
        let end = play_game(&start, &engine_rules(), 300, scripted("h2e2"), |_, _| {});
        // Red played h2e2; Black's player had nothing more to say.
        assert_eq!(end.outcome, Outcome::Red);
        assert_eq!(end.reason, Some(Reason::Resignation));
        assert_eq!(end.plies, 1);
    }
}
