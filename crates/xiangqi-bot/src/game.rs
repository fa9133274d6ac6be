//! One game: its stream read until the game ends, the engine asked for a
//! move with the real clocks whenever it is the bot's turn, offers
//! answered by the policy, and the stream opened again after a cut.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use xiangqi_core::{Color, Move, Position, Score};
use xiangqi_engine_client::Clock;
use xiangqi_server_protocol::bot::{
    GameFull, GameRef, GameStatus, GameStreamLine, OkAnswer, StreamState,
};
use xiangqi_server_protocol::server::Side;
use xiangqi_server_protocol::time_control::parse_time_control;

use crate::api::Api;
use crate::backoff::Backoff;
use crate::error::BotError;
use crate::ndjson::parse_line;
use crate::policy::Policy;
use crate::report::Report;
use crate::seat::{BotEngine, Seat};
use crate::Reporter;

/// What a game task needs from the bot.
#[derive(Clone)]
pub(crate) struct GameSettings {
    pub api: Api,
    pub engine: BotEngine,
    pub policy: Arc<Policy>,
    pub report: Reporter,
    pub backoff: Backoff,
    /// Taken off the bot's clock before the engine sees it: the time the
    /// state and the move spend on the network.
    pub move_overhead: Duration,
}

/// How a game task ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum GameEnd {
    /// The server said the game is over.
    Over,
    /// The bot is shutting down; the game goes on without it.
    ShutDown,
}

fn color_of(side: Side) -> Color {
    match side {
        Side::Red => Color::Red,
        Side::Black => Color::Black,
    }
}

/// The game as the bot follows it.
struct Board {
    id: String,
    color: Color,
    start: Position,
    increment: Duration,
    /// The moves string after which the bot last moved, while the server
    /// has not shown a newer one (a state can repeat: an offer, a chat).
    moved_after: Option<String>,
    draw_answered: Option<String>,
    takeback_answered: Option<String>,
    /// The engine's last evaluation from the bot's side, centipawns.
    last_cp: Option<i32>,
}

impl Board {
    fn new(full: &GameFull, color: Color) -> Result<Board, BotError> {
        let bad = |problem: String| BotError::BadGame {
            game: full.id.clone(),
            problem,
        };
        let start = Position::from_fen(&full.initial_fen)
            .map_err(|e| bad(format!("the start position does not read: {e}")))?;
        let tc = parse_time_control(&full.tc).map_err(|e| bad(e.to_string()))?;
        Ok(Board {
            id: full.id.clone(),
            color,
            start,
            increment: Duration::from_millis(tc.increment_ms),
            moved_after: None,
            draw_answered: None,
            takeback_answered: None,
            last_cp: None,
        })
    }

    /// The moves of `state`, each legal, and the side to move after them.
    fn replay(&self, state: &StreamState) -> Result<(Vec<Move>, Position), BotError> {
        let mut position = self.start.clone();
        let mut moves = Vec::new();
        for text in state.moves.split_ascii_whitespace() {
            let mv: Move = text.parse().map_err(|e| BotError::BadGame {
                game: self.id.clone(),
                problem: format!("the server's move list does not read: {e}"),
            })?;
            position.play(mv).map_err(|e| BotError::BadGame {
                game: self.id.clone(),
                problem: format!(
                    "the server's move {mv} is illegal after {} plies: {e}",
                    moves.len()
                ),
            })?;
            moves.push(mv);
        }
        Ok((moves, position))
    }

    fn clock(&self, state: &StreamState, overhead: Duration) -> Clock {
        let mut clock = Clock::new(Duration::ZERO, self.increment);
        clock.red = Duration::from_millis(state.red_ms);
        clock.black = Duration::from_millis(state.black_ms);
        // The engine plans with what will be left when the move arrives.
        let own = match self.color {
            Color::Red => &mut clock.red,
            Color::Black => &mut clock.black,
        };
        *own = own.saturating_sub(overhead).max(Duration::from_millis(50));
        clock
    }
}

/// Plays `game` until it ends or `shutdown` turns true.
pub(crate) async fn play(
    settings: GameSettings,
    game: GameRef,
    shutdown: watch::Receiver<bool>,
) -> Result<GameEnd, BotError> {
    let mut seat = Seat::new(settings.engine.clone());
    let result = tokio::select! {
        result = follow(&settings, &game, &mut seat) => result,
        _ = crate::bot::stopped(shutdown) => Ok(GameEnd::ShutDown),
    };
    seat.quit().await;
    result
}

/// The game's stream, opened again after each cut, until the game ends.
async fn follow(
    settings: &GameSettings,
    game: &GameRef,
    seat: &mut Seat,
) -> Result<GameEnd, BotError> {
    let path = format!("/api/bot/game/stream/{}", game.id);
    let mut backoff = settings.backoff.clone();
    let mut board: Option<Board> = None;
    loop {
        let outcome = match settings.api.stream(&path).await {
            Ok(mut lines) => {
                backoff.reset();
                read_stream(settings, game, seat, &mut board, &mut lines).await
            }
            Err(e) => Err(e),
        };
        let error = match outcome {
            Ok(Some(end)) => return Ok(end),
            // The server closed the stream of a game still going: open it again.
            Ok(None) => "the stream ended before the game did".to_string(),
            Err(e) if e.is_transient() => e.to_string(),
            Err(e) => return Err(e),
        };
        let wait = backoff.next_wait(None);
        (settings.report)(Report::Reconnecting {
            stream: format!("game {}", game.id),
            error,
            retry_ms: wait.as_millis() as u64,
        });
        tokio::time::sleep(wait).await;
    }
}

/// One connection's lines: `Some` when the game ended, `None` when the
/// stream did first.
async fn read_stream(
    settings: &GameSettings,
    game: &GameRef,
    seat: &mut Seat,
    board: &mut Option<Board>,
    lines: &mut crate::ndjson::LineStream,
) -> Result<Option<GameEnd>, BotError> {
    let color = color_of(game.color);
    while let Some((number, text)) = lines.next_line().await? {
        let line: GameStreamLine = match parse_line(lines.what(), number, &text, "game stream line")
        {
            Ok(line) => line,
            Err(e) => {
                warn(settings, &game.id, e.to_string());
                continue;
            }
        };
        let state = match line {
            GameStreamLine::GameFull(full) => {
                if board.is_none() {
                    *board = Some(Board::new(&full, color)?);
                }
                full.state
            }
            GameStreamLine::GameState(state) => state,
            GameStreamLine::ChatLine(_) => continue,
        };
        let Some(board) = board.as_mut() else {
            warn(
                settings,
                &game.id,
                "a game state before the game_full line; skipped".into(),
            );
            continue;
        };
        if on_state(settings, seat, board, &state).await? {
            return Ok(Some(GameEnd::Over));
        }
    }
    Ok(None)
}

fn warn(settings: &GameSettings, game: &str, message: String) {
    (settings.report)(Report::Warning {
        game: Some(game.to_string()),
        message,
    });
}

/// Acts on one state; true once the game is over.
async fn on_state(
    settings: &GameSettings,
    seat: &mut Seat,
    board: &mut Board,
    state: &StreamState,
) -> Result<bool, BotError> {
    if state.status == GameStatus::Ended {
        (settings.report)(Report::GameFinish {
            game: board.id.clone(),
            result: state.result.clone().unwrap_or_else(|| "*".into()),
            reason: state.reason.clone().unwrap_or_else(|| "unknown".into()),
        });
        return Ok(true);
    }
    if board.moved_after.as_deref() != Some(state.moves.as_str()) {
        board.moved_after = None;
    }
    let (moves, position) = match board.replay(state) {
        Ok(replayed) => replayed,
        Err(e) => {
            warn(settings, &board.id, e.to_string());
            return Ok(false);
        }
    };
    let opponent = color_of_opponent(board.color);
    if state.draw_offer == Some(opponent) && board.draw_answered.as_deref() != Some(&state.moves) {
        board.draw_answered = Some(state.moves.clone());
        let accept = settings.policy.accepts_draw(board.last_cp);
        answer(settings, board, "draw", accept).await;
    }
    if state.takeback_offer == Some(opponent)
        && board.takeback_answered.as_deref() != Some(&state.moves)
    {
        board.takeback_answered = Some(state.moves.clone());
        answer(settings, board, "takeback", settings.policy.takebacks).await;
        if settings.policy.takebacks {
            // The next state shows the position after the takeback.
            return Ok(false);
        }
    }
    if position.side_to_move() != board.color || board.moved_after.is_some() {
        return Ok(false);
    }
    if position.legal_move_vec().is_empty() {
        // Mated or stalemated: the server's verdict is on its way.
        return Ok(false);
    }
    let clock = board.clock(state, settings.move_overhead);
    let thinking = Instant::now();
    let analysis = seat
        .search(&board.start, &moves, clock)
        .await
        .map_err(|error| BotError::Engine {
            game: board.id.clone(),
            engine: settings.engine.describe(),
            error,
        })?;
    let (score_cp, mate) = match analysis.evaluation().map(|e| e.score) {
        Some(Score::Cp(cp)) => (Some(cp), None),
        Some(Score::Mate(n)) => (None, Some(n)),
        None => (None, None),
    };
    board.last_cp = match (score_cp, mate) {
        (Some(cp), _) => Some(cp),
        (None, Some(n)) => Some(if n > 0 { 100_000 } else { -100_000 }),
        (None, None) => board.last_cp,
    };
    let mv = analysis.best_move.to_string();
    board.moved_after = Some(state.moves.clone());
    match post_move(settings, &board.id, &mv).await {
        Ok(()) => (settings.report)(Report::Move {
            game: board.id.clone(),
            ply: moves.len() + 1,
            mv,
            think_ms: thinking.elapsed().as_millis() as u64,
            score_cp,
            mate,
        }),
        Err(e @ BotError::BadToken { .. }) => return Err(e),
        // Refused (the game ended, a takeback came between): the next state says what now.
        Err(e) => {
            board.moved_after = None;
            warn(settings, &board.id, format!("move {mv} not played: {e}"));
        }
    }
    Ok(false)
}

fn color_of_opponent(color: Color) -> Side {
    match color {
        Color::Red => Side::Black,
        Color::Black => Side::Red,
    }
}

/// Posts a move, trying again twice after network trouble.
async fn post_move(settings: &GameSettings, game: &str, mv: &str) -> Result<(), BotError> {
    let path = format!("/api/bot/game/{game}/move/{mv}");
    let mut backoff = Backoff::new(Duration::from_millis(200), Duration::from_secs(1));
    let mut tries = 0;
    loop {
        match settings.api.post::<(), OkAnswer>(&path, None).await {
            Ok(_) => return Ok(()),
            Err(e) if e.is_transient() && tries < 2 => {
                tries += 1;
                tokio::time::sleep(backoff.next_wait(e.retry_after())).await;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Accepts or declines the opponent's `kind` offer (`draw`, `takeback`).
async fn answer(settings: &GameSettings, board: &Board, kind: &str, accept: bool) {
    let verb = if accept { "accept" } else { "decline" };
    let path = format!("/api/bot/game/{}/{kind}/{verb}", board.id);
    match settings.api.post::<(), OkAnswer>(&path, None).await {
        Ok(_) => (settings.report)(Report::Offer {
            game: board.id.clone(),
            kind: kind.to_string(),
            accepted: accept,
        }),
        Err(e) => warn(
            settings,
            &board.id,
            format!("cannot {verb} the {kind} offer: {e}"),
        ),
    }
}
