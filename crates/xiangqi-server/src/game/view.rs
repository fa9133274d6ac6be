//! What a room tells its watchers, kept notation-free, and its rendering
//! into protocol frames (`xiangqi-server-protocol`'s typed messages) for
//! one recipient (their side, their notation).

use std::sync::Arc;

use xiangqi_adjudication::{Outcome, Reason, TimeControl};
use xiangqi_core::{Color, Move, Position};
use xiangqi_ecco::Opening;
use xiangqi_server_protocol::server::{
    BySide, EventBody, GameEvent, GameResult, GameState, GameSummary, MoveText, PublicPlayer,
    RatingChange, Side,
};
use xiangqi_server_protocol::ServerMessage;

use crate::notation_setting::NotationSetting;
use crate::store::PlayerRow;

/// Who sits on one side of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Seat {
    /// A person (account or guest), with the rating at the game's start.
    Player {
        /// Player id.
        id: String,
        /// Display name.
        name: String,
        /// True for guests.
        guest: bool,
        /// Rating at the start (accounts only; a bot game's seats carry the
        /// bot pool's).
        rating: Option<i32>,
        /// A bot account.
        bot: bool,
    },
    /// The built-in engine.
    Engine {
        /// 0..=20.
        level: u8,
    },
}

impl From<PlayerRow> for Seat {
    fn from(p: PlayerRow) -> Seat {
        Seat::Player {
            id: p.id,
            name: p.name,
            guest: p.guest,
            // A bot is shown with the pool it plays in.
            rating: if p.bot {
                Some(p.bot_rating.unwrap_or(xiangqi_rating::online::START_RATING))
            } else {
                p.rating
            },
            bot: p.bot,
        }
    }
}

impl Seat {
    /// The engine's display name at `level`, the same on the page and in
    /// the PGN export.
    pub fn engine_name(level: u8) -> String {
        format!("xiangqi engine (level {level})")
    }

    /// The engine level a stored side names (`engine-N`), if it is the engine.
    pub fn engine_level(stored_id: &str) -> Option<u8> {
        stored_id.strip_prefix("engine-")?.parse().ok()
    }

    /// The seat a stored side stands for: the engine, the player of
    /// `player`, or (a player row that is gone) a guest named by the id.
    pub fn stored(stored_id: &str, player: Option<&PlayerRow>) -> Seat {
        if let Some(level) = Seat::engine_level(stored_id) {
            return Seat::Engine { level };
        }
        match player {
            Some(p) => Seat::from(p.clone()),
            None => Seat::Player {
                id: stored_id.to_string(),
                name: stored_id.to_string(),
                guest: true,
                rating: None,
                bot: false,
            },
        }
    }

    /// The id stored in the game row (`engine-N` for the engine).
    pub fn id(&self) -> String {
        match self {
            Seat::Player { id, .. } => id.clone(),
            Seat::Engine { level } => format!("engine-{level}"),
        }
    }

    /// True when `player` sits here.
    pub fn is(&self, player: &str) -> bool {
        matches!(self, Seat::Player { id, .. } if id == player)
    }

    /// An account (rated games need two).
    pub fn is_account(&self) -> bool {
        matches!(self, Seat::Player { guest: false, .. })
    }

    /// A bot account.
    pub fn is_bot(&self) -> bool {
        matches!(self, Seat::Player { bot: true, .. })
    }

    /// `PublicPlayer` or `EnginePlayer`.
    pub fn to_public(&self) -> PublicPlayer {
        match self {
            Seat::Player {
                id,
                name,
                guest,
                rating,
                bot,
            } => PublicPlayer {
                id: id.clone(),
                name: name.clone(),
                guest: *guest,
                rating: *rating,
                engine_level: None,
                bot: *bot,
            },
            Seat::Engine { level } => PublicPlayer {
                id: self.id(),
                name: Seat::engine_name(*level),
                guest: false,
                rating: None,
                engine_level: Some(*level),
                bot: false,
            },
        }
    }
}

/// A game's fixed facts.
#[derive(Clone, Debug)]
pub struct GameFacts {
    /// `g_…`.
    pub id: String,
    /// Red's seat.
    pub red: Seat,
    /// Black's seat.
    pub black: Seat,
    /// The clock.
    pub tc: TimeControl,
    /// Its protocol text.
    pub tc_text: String,
    /// Whether ratings change.
    pub rated: bool,
    /// Rule-set preset name.
    pub rules: String,
    /// Start position.
    pub start: Position,
    /// Unix ms.
    pub started_at: i64,
}

impl GameFacts {
    /// The seat of `side`.
    pub fn seat(&self, side: Color) -> &Seat {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }

    /// A game with a bot on either side: rated in the bot pool.
    pub fn is_bot_game(&self) -> bool {
        self.red.is_bot() || self.black.is_bot()
    }

    /// The side `player` plays, if any.
    pub fn side_of(&self, player: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.seat(c).is(player))
    }

    /// `GameSummary`.
    pub fn summary(&self, result: Option<&ResultView>, ply: u32) -> GameSummary {
        let (status, result_text, reason) = match result {
            None => ("playing", "*", None),
            Some(r) => (r.status(), r.outcome.result(), Some(reason_code(r.reason))),
        };
        GameSummary {
            id: self.id.clone(),
            red: self.red.to_public(),
            black: self.black.to_public(),
            tc: self.tc_text.clone(),
            rated: self.rated,
            rules: self.rules.clone(),
            status: status.to_string(),
            result: result_text.to_string(),
            reason: reason.map(str::to_string),
            started_at: self.started_at,
            ply,
            bot: self.is_bot_game(),
        }
    }
}

/// The protocol's reason code for an adjudication reason.
pub fn reason_code(reason: Reason) -> &'static str {
    match reason {
        Reason::ThreefoldRepetition => "repetition",
        Reason::NoCaptureRule => "no_capture",
        Reason::InsufficientMaterial => "material",
        other => other.code(),
    }
}

/// How a game ended.
#[derive(Clone, Debug)]
pub struct ResultView {
    /// Winner, draw or cancelled.
    pub outcome: Outcome,
    /// Why.
    pub reason: Reason,
    /// Plies played.
    pub ply: u32,
    /// The last move and the position before it, named in the text when the
    /// move ended the game.
    pub last_move: Option<(Position, Move)>,
    /// Rating before and after, Red then Black, when they changed.
    pub ratings: Option<[(i32, i32); 2]>,
    /// The side that aborted the game, when it was aborted.
    pub aborted_by: Option<Color>,
}

impl ResultView {
    /// "finished" or "cancelled".
    pub fn status(&self) -> &'static str {
        if self.outcome == Outcome::Cancelled {
            "cancelled"
        } else {
            "finished"
        }
    }

    /// The result in words, naming the deciding move in `notation`.
    pub fn text(&self, notation: NotationSetting) -> String {
        let winner = self.outcome.winner();
        let loser = winner.map(Color::opposite);
        let name = |c: Option<Color>| match c {
            Some(Color::Red) => "Red",
            Some(Color::Black) => "Black",
            None => "Nobody",
        };
        let by_move = |words: &str| match self.deciding_move(notation) {
            Some(text) => format!("{words} ({text})"),
            None => words.to_string(),
        };
        let sentence = match self.reason {
            Reason::Checkmate => by_move(&format!("{} wins by checkmate", name(winner))),
            Reason::Stalemate => by_move(&format!(
                "{} has no legal move: {} wins",
                name(loser),
                name(winner)
            )),
            Reason::Resignation => format!("{} resigned: {} wins", name(loser), name(winner)),
            Reason::Timeout if self.outcome == Outcome::Draw => {
                "Time ran out against bare material: draw".to_string()
            }
            Reason::Timeout => format!("{} ran out of time: {} wins", name(loser), name(winner)),
            Reason::Abandonment => format!(
                "{} left the game for more than 45 seconds: {} wins",
                name(loser),
                name(winner)
            ),
            Reason::Agreement => "Draw by agreement".to_string(),
            Reason::ThreefoldRepetition => by_move("Draw by threefold repetition"),
            Reason::PerpetualCheck => by_move(&format!(
                "{} checked perpetually: {} wins",
                name(loser),
                name(winner)
            )),
            Reason::PerpetualChase => by_move(&format!(
                "{} chased perpetually: {} wins",
                name(loser),
                name(winner)
            )),
            Reason::MutualPerpetualCheck => by_move("Draw: both sides checked perpetually"),
            Reason::MutualPerpetualChase => by_move("Draw: both sides chased perpetually"),
            Reason::NoCaptureRule => by_move("Draw: too many moves without a capture"),
            Reason::InsufficientMaterial => by_move("Draw: neither side can win"),
            Reason::Cancelled => {
                "The game was cancelled before both sides moved; it is not rated".to_string()
            }
            Reason::Aborted => format!(
                "{} aborted the game before both sides moved; it is not rated",
                name(self.aborted_by)
            ),
        };
        format!("{sentence}.")
    }

    /// The move the sentence names, in `notation`: the last move when it
    /// decided the game (the reasons `text` writes it beside).
    fn deciding_move(&self, notation: NotationSetting) -> Option<String> {
        let named = matches!(
            self.reason,
            Reason::Checkmate
                | Reason::Stalemate
                | Reason::ThreefoldRepetition
                | Reason::PerpetualCheck
                | Reason::PerpetualChase
                | Reason::MutualPerpetualCheck
                | Reason::MutualPerpetualChase
                | Reason::NoCaptureRule
                | Reason::InsufficientMaterial
        );
        let (before, mv) = self.last_move.as_ref().filter(|_| named)?;
        Some(notation.move_text(before, *mv))
    }

    /// `Result` for one recipient.
    pub fn to_view(&self, notation: NotationSetting) -> GameResult {
        let change = |(before, after)| RatingChange { before, after };
        GameResult {
            result: self.outcome.result().to_string(),
            status: self.status().to_string(),
            reason: reason_code(self.reason).to_string(),
            text: self.text(notation),
            ratings: self.ratings.map(|[red, black]| BySide {
                red: change(red),
                black: change(black),
            }),
            r#move: self.deciding_move(notation),
            aborted_by: self.aborted_by.map(|side| side.name().to_string()),
        }
    }
}

/// What happened, in the order of versions.
#[derive(Clone, Debug)]
pub enum EventKind {
    /// A move: `ply` plies were played before it.
    Move {
        /// Plies before the move.
        ply: u32,
        /// The position it was played from (boxed: it is most of the event).
        before: Box<Position>,
        /// The move.
        mv: Move,
        /// FEN after it.
        fen: String,
        /// The opening of the moves up to it (boxed, as `before`).
        opening: Option<Box<Opening>>,
    },
    /// A side offered a draw.
    DrawOffer(Color),
    /// A side declined (or, by moving, let lapse) the opponent's offer.
    DrawDeclined(Color),
    /// A side's sockets are all gone.
    Away(Color),
    /// A side is back.
    Back(Color),
    /// The end.
    End(Arc<ResultView>),
    /// A side asks for a takeback.
    TakebackOffer(Color),
    /// A side refused the opponent's takeback request.
    TakebackDeclined(Color),
    /// A takeback asked by `by`: the game is back at `ply` plies.
    Takeback {
        /// The side that asked.
        by: Color,
        /// Plies played now.
        ply: u32,
        /// FEN now.
        fen: String,
        /// The opening of the moves that remain (boxed, as in `Move`).
        opening: Option<Box<Opening>>,
    },
    /// After the end, a side offers a rematch.
    RematchOffer(Color),
    /// A side declined the opponent's rematch offer.
    RematchDeclined(Color),
    /// The offering side left: its rematch offer is gone.
    RematchWithdrawn(Color),
    /// The rematch game started.
    Rematch(String),
}

/// Clocks and turn as of some moment.
#[derive(Clone, Debug)]
pub struct ClockView {
    /// Red's and Black's remaining ms.
    pub clocks: [u64; 2],
    /// The side whose clock runs, `None` when over.
    pub running: Option<Color>,
    /// The side to move.
    pub turn: Color,
    /// Its permitted moves (empty when over).
    pub legal: Vec<Move>,
    /// Unix ms.
    pub now: i64,
}

/// One versioned event as the room publishes it.
#[derive(Clone, Debug)]
pub struct EventOut {
    /// Version, from 1.
    pub v: u64,
    /// What happened.
    pub kind: EventKind,
    /// Clocks right after it.
    pub clock: ClockView,
}

/// The full state of a game.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The last event version.
    pub v: u64,
    /// The game's facts.
    pub facts: Arc<GameFacts>,
    /// Moves played.
    pub moves: Vec<Move>,
    /// FEN now.
    pub fen: String,
    /// Clocks now.
    pub clock: ClockView,
    /// The side with a pending offer.
    pub draw_offer: Option<Color>,
    /// The side with a pending takeback request.
    pub takeback_offer: Option<Color>,
    /// After the end: the side with a pending rematch offer.
    pub rematch_offer: Option<Color>,
    /// After the end: the rematch game, once started.
    pub rematch: Option<String>,
    /// How long each side has been away, ms.
    pub away: [Option<u64>; 2],
    /// The end, when over.
    pub result: Option<Arc<ResultView>>,
}

/// The ECCO opening of `moves` played from `start`: `None` before the
/// first move and for a game from a set-up position. A move the
/// classification cannot read (the room only plays legal ones) names none.
pub fn opening_of(start: &Position, moves: &[Move]) -> Option<Opening> {
    xiangqi_ecco::classify(start, moves).ok().flatten()
}

/// The protocol's name of a side.
pub fn side(color: Color) -> Side {
    match color {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    }
}

fn legal_for(clock: &ClockView, you: Option<Color>) -> Vec<String> {
    if you == Some(clock.turn) && clock.running.is_some() {
        clock.legal.iter().map(Move::to_string).collect()
    } else {
        Vec::new()
    }
}

fn clocks(clock: &ClockView) -> BySide<u64> {
    BySide {
        red: clock.clocks[0],
        black: clock.clocks[1],
    }
}

fn move_text(before: &Position, mv: Move, notation: NotationSetting) -> MoveText {
    MoveText {
        iccs: mv.to_string(),
        text: notation.move_text(before, mv),
    }
}

/// An `event` frame for a player (`viewer`, `None` for spectators without
/// a side) writing moves in `notation`.
pub fn event_frame(
    facts: &GameFacts,
    event: &EventOut,
    viewer: Option<&str>,
    notation: NotationSetting,
) -> ServerMessage {
    let you = viewer.and_then(|p| facts.side_of(p));
    let body = match &event.kind {
        EventKind::Move {
            ply,
            before,
            mv,
            fen,
            opening,
        } => EventBody::Move {
            ply: *ply,
            fen: fen.clone(),
            mv: move_text(before, *mv, notation),
            opening: opening.as_deref().map(|o| notation.opening(o)),
        },
        EventKind::DrawOffer(by) => EventBody::DrawOffer { by: side(*by) },
        EventKind::DrawDeclined(by) => EventBody::DrawDeclined { by: side(*by) },
        EventKind::Away(who) => EventBody::Away { side: side(*who) },
        EventKind::Back(who) => EventBody::Back { side: side(*who) },
        EventKind::End(result) => EventBody::End {
            result: result.to_view(notation),
        },
        EventKind::TakebackOffer(by) => EventBody::TakebackOffer { by: side(*by) },
        EventKind::TakebackDeclined(by) => EventBody::TakebackDeclined { by: side(*by) },
        EventKind::Takeback {
            by,
            ply,
            fen,
            opening,
        } => EventBody::Takeback {
            by: side(*by),
            ply: *ply,
            fen: fen.clone(),
            opening: opening.as_deref().map(|o| notation.opening(o)),
        },
        EventKind::RematchOffer(by) => EventBody::RematchOffer { by: side(*by) },
        EventKind::RematchDeclined(by) => EventBody::RematchDeclined { by: side(*by) },
        EventKind::RematchWithdrawn(by) => EventBody::RematchWithdrawn { by: side(*by) },
        EventKind::Rematch(game) => EventBody::Rematch { game: game.clone() },
    };
    ServerMessage::Event(Box::new(GameEvent {
        game: facts.id.clone(),
        v: event.v,
        event: body,
        clocks: clocks(&event.clock),
        running: event.clock.running.map(side),
        now: event.clock.now,
        legal: legal_for(&event.clock, you),
    }))
}

/// A `state` frame for one recipient.
pub fn state_frame(
    snapshot: &Snapshot,
    viewer: Option<&str>,
    notation: NotationSetting,
) -> ServerMessage {
    let facts = &snapshot.facts;
    let you = viewer.and_then(|p| facts.side_of(p));
    let mut pos = facts.start.clone();
    let mut moves = Vec::with_capacity(snapshot.moves.len());
    for &mv in &snapshot.moves {
        moves.push(move_text(&pos, mv, notation));
        pos.make_move(mv);
    }
    let ply = snapshot.moves.len() as u32;
    ServerMessage::State(Box::new(GameState {
        game: facts.id.clone(),
        v: snapshot.v,
        summary: facts.summary(snapshot.result.as_deref(), ply),
        start_fen: facts.start.to_fen(),
        fen: snapshot.fen.clone(),
        moves,
        clocks: clocks(&snapshot.clock),
        turn: side(snapshot.clock.turn),
        running: snapshot.clock.running.map(side),
        draw_offer: snapshot.draw_offer.map(side),
        away: BySide {
            red: snapshot.away[0],
            black: snapshot.away[1],
        },
        you: you.map(side),
        legal: legal_for(&snapshot.clock, you),
        result: snapshot.result.as_ref().map(|r| r.to_view(notation)),
        takeback_offer: snapshot.takeback_offer.map(side),
        rematch_offer: snapshot.rematch_offer.map(side),
        rematch: snapshot.rematch.clone(),
        now: snapshot.clock.now,
        opening: opening_of(&facts.start, &snapshot.moves).map(|o| notation.opening(&o)),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_game_from_the_initial_position_has_an_opening() {
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let initial = Position::startpos();
        assert!(opening_of(&initial, &[]).is_none());
        assert!(opening_of(&initial, &moves).is_some());
        // The same moves from a set-up position (a Red pawn off the board).
        let set_up = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P3P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        assert!(opening_of(&set_up, &moves).is_none());
    }
}
