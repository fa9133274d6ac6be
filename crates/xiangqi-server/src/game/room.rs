//! One game's room: a task that owns the `OnlineGame`, takes commands in
//! order, persists every accepted event before anyone hears of it, sleeps
//! until the next deadline (flag or abandonment) and tells its watchers.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use xiangqi_adjudication::{ClockError, ClockEvent, OnlineGame, Outcome, Reason, TimedEvent};
use xiangqi_core::{Color, Move, Position};

use crate::engine_player::{self, Thinking, Turn};
use crate::game::changes;
use crate::game::view::{ClockView, EventKind, EventOut, GameFacts, ResultView, Seat, Snapshot};
use crate::game::{ConnId, Outbound, Outbox, RoomHandle};
use crate::rules::game_rules;
use crate::state::AppState;
use crate::store::{Ending, EventRow, RatingChangeRow, StoreError, StoredGame};
use crate::time_control::parse_time_control;
use crate::ws::protocol::server::GameSummary;

/// Events kept for reconnecting clients.
const RECENT_EVENTS: usize = 50;

/// Something a player does in a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Play `mv` (ICCS text) with `ply` plies played.
    Move {
        /// Plies already played when the move was chosen.
        ply: u32,
        /// ICCS text.
        mv: String,
    },
    /// Resign.
    Resign,
    /// Call the game off before both sides have moved (unrated).
    Abort,
    /// Offer a draw.
    OfferDraw,
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline the opponent's offer.
    DeclineDraw,
}

/// A refused action: protocol code and words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionError {
    /// The protocol's error code.
    pub code: &'static str,
    /// For a person.
    pub message: String,
}

impl ActionError {
    fn new(code: &'static str, message: impl Into<String>) -> ActionError {
        ActionError {
            code,
            message: message.into(),
        }
    }

    fn internal() -> ActionError {
        ActionError::new("internal", "the server could not record this; try again")
    }
}

/// What a room is told.
pub enum RoomCommand {
    /// A socket joins (`since`: the last version it saw).
    Watch {
        /// The socket.
        conn: ConnId,
        /// Its player.
        player: String,
        /// Where its frames go.
        out: Outbox,
        /// The last version it saw.
        since: Option<u64>,
    },
    /// A socket leaves.
    Unwatch {
        /// The socket.
        conn: ConnId,
    },
    /// A player acts.
    Act {
        /// Who.
        player: String,
        /// What.
        action: Action,
        /// Accepted or why not.
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
    /// The summary, moves and FEN (for `GET /api/games/{id}`).
    Summary {
        /// The answer.
        reply: oneshot::Sender<(GameSummary, Vec<String>, String)>,
    },
    /// The engine's search came back.
    EngineMoved {
        /// The ply it searched.
        ply: u32,
        /// Its move.
        mv: Option<Move>,
    },
}

struct Watcher {
    player: String,
    out: Outbox,
}

struct EngineSeat {
    side: Color,
    level: u8,
    /// The search for the engine's move, while one runs or waits for a slot.
    thinking: Option<Thinking>,
}

struct Room {
    state: AppState,
    facts: Arc<GameFacts>,
    game: OnlineGame,
    /// The monotonic ms at game time 0: negative for a game resumed by a
    /// process whose clock is younger than the game.
    origin: i64,
    next_seq: i64,
    v: u64,
    recent: VecDeque<Arc<EventOut>>,
    watchers: HashMap<ConnId, Watcher>,
    present: [usize; 2],
    result: Option<Arc<ResultView>>,
    engine: Option<EngineSeat>,
    tx: mpsc::UnboundedSender<RoomCommand>,
    /// The room's commands, read once the room runs ([`Room::spawn`]);
    /// made with `tx`, so what is sent before (an engine's move) waits here.
    rx: Option<mpsc::UnboundedReceiver<RoomCommand>>,
}

/// Why a stored game cannot become a room.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored game does not replay.
    #[error("game {0}: {1}")]
    Corrupt(String, String),
}

/// Starts the room of a new game (its row is already stored). The sides
/// count as away until a socket of theirs watches.
pub async fn start(state: AppState, facts: GameFacts) -> Result<RoomHandle, RestoreError> {
    let rules = game_rules(&facts.rules)
        .map_err(|e| RestoreError::Corrupt(facts.id.clone(), e.to_string()))?;
    let game = OnlineGame::new(facts.start.clone(), rules, facts.tc, 0)
        .map_err(|e| RestoreError::Corrupt(facts.id.clone(), e.to_string()))?;
    let origin = signed(state.clock.now_ms());
    let mut room = Room::new(state, facts, game, origin, 0);
    for side in Color::ALL {
        if matches!(room.facts.seat(side), Seat::Player { .. }) {
            room.commit_logged(ClockEvent::Leave { side }).await;
        }
    }
    room.maybe_start_engine();
    Ok(room.spawn())
}

/// Rebuilds a stored game's room. An unfinished game resumes with the
/// restart policy: the downtime is charged to nobody and both players count
/// as away from now on.
pub async fn restore(state: AppState, stored: StoredGame) -> Result<RoomHandle, RestoreError> {
    let row = &stored.game;
    let corrupt = |what: String| RestoreError::Corrupt(row.id.clone(), what);
    let seat = |id: &str| {
        let state = state.clone();
        let id = id.to_string();
        async move {
            let player = match Seat::engine_level(&id) {
                Some(_) => None,
                None => state.store.player(&id).await?,
            };
            Ok::<Seat, StoreError>(Seat::stored(&id, player.as_ref()))
        }
    };
    let facts = GameFacts {
        id: row.id.clone(),
        red: seat(&row.red).await?,
        black: seat(&row.black).await?,
        tc: parse_time_control(&row.time_control).map_err(|e| corrupt(e.to_string()))?,
        tc_text: row.time_control.clone(),
        rated: row.rated,
        rules: row.rules.clone(),
        start: Position::from_fen(&row.start_fen).map_err(|e| corrupt(e.to_string()))?,
        started_at: row.started_at,
    };
    let rules = game_rules(&facts.rules).map_err(|e| corrupt(e.to_string()))?;
    let game = OnlineGame::new(facts.start.clone(), rules, facts.tc, 0)
        .map_err(|e| corrupt(e.to_string()))?;
    let next_seq = stored.events.iter().map(|e| e.seq + 1).max().unwrap_or(0);
    let mut room = Room::new(state.clone(), facts, game, 0, next_seq);
    let mut ended = false;
    for event_row in &stored.events {
        let event = event_row.to_timed()?;
        let (events, ended_now) =
            changes::apply(&mut room.game, &event).map_err(|e| corrupt(e.to_string()))?;
        for kind in events {
            room.publish(kind);
        }
        ended |= ended_now;
    }
    // Game time goes on from where it stopped: the downtime counts for nobody.
    room.origin = signed(state.clock.now_ms()) - signed(room.game.now());
    if stored.ending.is_some() {
        let ratings = room.stored_ratings().await?;
        let result = Arc::new(room.result_view(ratings));
        room.result = Some(result.clone());
        // The live room published the end as the last event: so does the
        // reloaded one, keeping versions equal and letting a client that
        // resumes with `since` hear of the end.
        if result.outcome != Outcome::Ongoing {
            room.publish(EventKind::End(result));
        }
    } else if ended || room.game.game().is_over() {
        // Stopped between the last event and its ending: finish now.
        room.finish().await;
    } else {
        for side in Color::ALL {
            if matches!(room.facts.seat(side), Seat::Player { .. }) {
                if room.game.away_since(side).is_some() {
                    room.commit_logged(ClockEvent::Return { side }).await;
                }
                room.commit_logged(ClockEvent::Leave { side }).await;
            }
        }
        if let Some(seat) = &room.engine {
            // A resumed engine game is its player's one engine game.
            let player = room.facts.seat(!seat.side).id();
            state.engine_games.started(&player, &room.facts.id);
        }
        room.maybe_start_engine();
    }
    Ok(room.spawn())
}

impl Room {
    fn new(
        state: AppState,
        facts: GameFacts,
        game: OnlineGame,
        origin: i64,
        next_seq: i64,
    ) -> Room {
        let engine = Color::ALL
            .into_iter()
            .find_map(|side| match facts.seat(side) {
                Seat::Engine { level } => Some(EngineSeat {
                    side,
                    level: *level,
                    thinking: None,
                }),
                Seat::Player { .. } => None,
            });
        let (tx, rx) = mpsc::unbounded_channel();
        Room {
            state,
            facts: Arc::new(facts),
            game,
            origin,
            next_seq,
            v: 0,
            recent: VecDeque::new(),
            watchers: HashMap::new(),
            present: [0; 2],
            result: None,
            engine,
            tx,
            rx: Some(rx),
        }
    }

    fn spawn(mut self) -> RoomHandle {
        let rx = self.rx.take().unwrap_or_else(|| {
            // Only `new` makes a room, with its receiver; never taken twice.
            let (tx, rx) = mpsc::unbounded_channel();
            self.tx = tx;
            rx
        });
        let handle = RoomHandle {
            id: self.facts.id.clone(),
            facts: self.facts.clone(),
            tx: self.tx.clone(),
        };
        let me = handle.clone();
        tokio::spawn(self.run(rx, me));
        handle
    }

    async fn run(mut self, mut rx: mpsc::UnboundedReceiver<RoomCommand>, me: RoomHandle) {
        loop {
            let wake = self
                .next_deadline()
                .map(|t| self.state.clock.sleep_until(self.monotonic_at(t)));
            tokio::select! {
                command = rx.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                () = async move {
                    match wake {
                        Some(wake) => wake.await,
                        None => std::future::pending().await,
                    }
                } => self.settle().await,
            }
            if self.result.is_some() && self.watchers.is_empty() {
                break;
            }
        }
        self.state.rooms.remove(&me).await;
    }

    /// Game time now, in ms (never before the last event).
    fn game_now(&self) -> u64 {
        let elapsed = signed(self.state.clock.now_ms()).saturating_sub(self.origin);
        u64::try_from(elapsed).unwrap_or(0).max(self.game.now())
    }

    /// The monotonic ms of game time `t`.
    fn monotonic_at(&self, t: u64) -> u64 {
        u64::try_from(self.origin.saturating_add(signed(t))).unwrap_or(0)
    }

    /// When the next flag or abandonment falls due, in game ms (an
    /// abandonment is due strictly after its limit).
    fn next_deadline(&self) -> Option<u64> {
        if self.game.game().is_over() {
            return None;
        }
        let to_move = self.game.game().position().side_to_move();
        let mut due = self.game.now() + self.game.clocks()[to_move.index()];
        let rules = self.game.game().rules().clock?;
        for side in Color::ALL {
            if let Some(since) = self.game.away_since(side) {
                due = due.min(since + rules.abandon_after_ms + 1);
            }
        }
        Some(due)
    }

    fn clock_view(&self, at: u64) -> ClockView {
        let mut clocks = self.game.clocks();
        let turn = self.game.game().position().side_to_move();
        let over = self.game.game().is_over();
        if !over {
            let elapsed = at.saturating_sub(self.game.now());
            clocks[turn.index()] = clocks[turn.index()].saturating_sub(elapsed);
        }
        ClockView {
            clocks,
            running: (!over).then_some(turn),
            turn,
            legal: if over {
                Vec::new()
            } else {
                self.game.game().permitted_moves()
            },
            now: self.state.clock.unix_ms(),
        }
    }

    fn snapshot(&self) -> Snapshot {
        let now = self.game_now();
        let away = Color::ALL.map(|c| {
            self.game
                .away_since(c)
                .map(|since| now.saturating_sub(since))
        });
        let draw_offer = Color::ALL
            .into_iter()
            .find(|&c| self.game.has_draw_offer(c));
        Snapshot {
            v: self.v,
            facts: self.facts.clone(),
            moves: self.game.game().moves().to_vec(),
            fen: self.game.game().position().to_fen(),
            clock: self.clock_view(if self.result.is_some() {
                self.game.now()
            } else {
                now
            }),
            draw_offer,
            away,
            result: self.result.clone(),
        }
    }

    /// Numbers `kind`, keeps it for reconnects and sends it to every watcher.
    fn publish(&mut self, kind: EventKind) {
        self.v += 1;
        let event = Arc::new(EventOut {
            v: self.v,
            kind,
            clock: self.clock_view(self.game.now()),
        });
        if self.recent.len() == RECENT_EVENTS {
            self.recent.pop_front();
        }
        self.recent.push_back(event.clone());
        for watcher in self.watchers.values() {
            let _ = watcher
                .out
                .send(Outbound::Event(self.facts.clone(), event.clone()));
        }
    }

    async fn handle(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Watch {
                conn,
                player,
                out,
                since,
            } => self.watch(conn, player, out, since).await,
            RoomCommand::Unwatch { conn } => self.unwatch(conn).await,
            RoomCommand::Act {
                player,
                action,
                reply,
            } => {
                let answer = self.act(&player, action).await;
                let _ = reply.send(answer);
            }
            RoomCommand::Summary { reply } => {
                let moves = self
                    .game
                    .game()
                    .moves()
                    .iter()
                    .map(Move::to_string)
                    .collect();
                let summary = self
                    .facts
                    .summary(self.result.as_deref(), self.game.game().ply());
                let _ = reply.send((summary, moves, self.game.game().position().to_fen()));
            }
            RoomCommand::EngineMoved { ply, mv } => self.engine_moved(ply, mv).await,
        }
    }

    async fn watch(&mut self, conn: ConnId, player: String, out: Outbox, since: Option<u64>) {
        let first = self.recent.front().map_or(self.v + 1, |e| e.v);
        match since {
            Some(since) if since <= self.v && since + 1 >= first => {
                for event in self.recent.iter().filter(|e| e.v > since) {
                    let _ = out.send(Outbound::Event(self.facts.clone(), event.clone()));
                }
            }
            _ => {
                let _ = out.send(Outbound::State(Arc::new(self.snapshot())));
            }
        }
        let side = self.facts.side_of(&player);
        let known = self
            .watchers
            .insert(conn, Watcher { player, out })
            .is_some();
        if let (Some(side), false) = (side, known) {
            self.present[side.index()] += 1;
            if self.present[side.index()] == 1 && self.game.away_since(side).is_some() {
                self.settle().await;
                if !self.game.game().is_over() {
                    self.commit_logged(ClockEvent::Return { side }).await;
                }
            }
        }
    }

    async fn unwatch(&mut self, conn: ConnId) {
        let Some(watcher) = self.watchers.remove(&conn) else {
            return;
        };
        if let Some(side) = self.facts.side_of(&watcher.player) {
            self.present[side.index()] = self.present[side.index()].saturating_sub(1);
            if self.present[side.index()] == 0 {
                self.settle().await;
                if !self.game.game().is_over() {
                    self.commit_logged(ClockEvent::Leave { side }).await;
                }
            }
        }
    }

    async fn act(&mut self, player: &str, action: Action) -> Result<(), ActionError> {
        let Some(side) = self.facts.side_of(player) else {
            return Err(ActionError::new(
                "not_your_game",
                "you do not play in this game",
            ));
        };
        self.settle().await;
        if let Action::Move { ply, mv } = &action {
            let played = self.game.game().ply();
            if *ply < played {
                let same = self.game.game().moves()[*ply as usize].to_string() == *mv;
                let mover = if ply % 2 == 0 {
                    self.facts.start.side_to_move()
                } else {
                    self.facts.start.side_to_move().opposite()
                };
                return if same && mover == side {
                    Ok(())
                } else {
                    Err(ActionError::new(
                        "stale_ply",
                        format!("ply {ply} was already played; the game is at ply {played}"),
                    ))
                };
            }
        }
        if self.game.game().is_over() {
            return Err(ActionError::new("game_over", "the game is over"));
        }
        let to_move = self.game.game().position().side_to_move();
        let event = match action {
            Action::Move { ply, mv } => {
                let played = self.game.game().ply();
                if ply > played {
                    return Err(ActionError::new(
                        "stale_ply",
                        format!("the game is at ply {played}, not {ply}"),
                    ));
                }
                if side != to_move {
                    return Err(ActionError::new(
                        "not_your_turn",
                        format!("it is {}'s turn", to_move.name()),
                    ));
                }
                let parsed: Move = mv.parse().map_err(|_| {
                    ActionError::new(
                        "illegal_move",
                        format!(
                            "{} is not a move in coordinates such as h2e2",
                            crate::ws::protocol::echo::quoted(&mv)
                        ),
                    )
                })?;
                if let Err(why) = self.game.game().position().check_legal(parsed) {
                    return Err(ActionError::new(
                        "illegal_move",
                        format!("{parsed} is illegal: {why}"),
                    ));
                }
                ClockEvent::Move {
                    side: Some(side),
                    mv: parsed,
                }
            }
            Action::Resign => ClockEvent::Resign { side },
            Action::Abort => ClockEvent::Abort { side },
            Action::OfferDraw => {
                if self.game.has_draw_offer(side) {
                    return Ok(());
                }
                ClockEvent::OfferDraw { side }
            }
            Action::AcceptDraw | Action::DeclineDraw if !self.game.has_draw_offer(!side) => {
                return Err(ActionError::new(
                    "no_draw_offer",
                    "your opponent has not offered a draw",
                ));
            }
            Action::AcceptDraw => ClockEvent::AcceptDraw { side },
            Action::DeclineDraw => ClockEvent::DeclineDraw { side },
        };
        self.commit(event).await
    }

    /// Applies `event` now on a copy; stores it; then makes it the game's
    /// state and tells the watchers. Refused events change nothing.
    async fn commit(&mut self, event: ClockEvent) -> Result<(), ActionError> {
        let timed = TimedEvent {
            at: self.game_now(),
            event,
        };
        let mut next = self.game.clone();
        let (events, ended) = changes::apply(&mut next, &timed).map_err(|e| match e {
            ClockError::NotYourTurn { .. } => ActionError::new("not_your_turn", e.to_string()),
            ClockError::Game(_) if next.game().is_over() => {
                ActionError::new("game_over", e.to_string())
            }
            ClockError::Game(_) => ActionError::new("illegal_move", e.to_string()),
            ClockError::NoDrawOffer { .. } => ActionError::new("no_draw_offer", e.to_string()),
            ClockError::NotAbortable { .. } => ActionError::new("not_abortable", e.to_string()),
            other => {
                tracing::error!("game {}: {other}", self.facts.id);
                ActionError::internal()
            }
        })?;
        let row = EventRow::from_timed(self.next_seq, &timed);
        if let Err(error) = self.state.store.append_event(&self.facts.id, &row).await {
            tracing::error!("game {}: storing an event failed: {error}", self.facts.id);
            return Err(ActionError::internal());
        }
        self.next_seq += 1;
        self.game = next;
        for kind in events {
            self.publish(kind);
        }
        if ended {
            self.finish().await;
        } else {
            self.maybe_start_engine();
        }
        Ok(())
    }

    async fn commit_logged(&mut self, event: ClockEvent) {
        if let Err(error) = self.commit(event).await {
            tracing::warn!("game {}: {}", self.facts.id, error.message);
        }
    }

    /// Applies the deadlines due by now (flag, abandonment).
    async fn settle(&mut self) {
        if self.game.game().is_over() {
            return;
        }
        let due = self.next_deadline().is_some_and(|t| t <= self.game_now());
        if due {
            self.commit_logged(ClockEvent::Poll).await;
        }
    }

    fn result_view(&self, ratings: Option<[(i32, i32); 2]>) -> ResultView {
        let verdict = self.game.verdict();
        let reason = verdict.reason.unwrap_or(Reason::Cancelled);
        let by_move = !matches!(
            reason,
            Reason::Resignation
                | Reason::Timeout
                | Reason::Abandonment
                | Reason::Agreement
                | Reason::Cancelled
                | Reason::Aborted
        );
        let moves = self.game.game().moves();
        let last_move = match moves.split_last() {
            Some((&last, earlier)) if by_move => {
                let mut before = self.facts.start.clone();
                for &mv in earlier {
                    before.make_move(mv);
                }
                Some((before, last))
            }
            _ => None,
        };
        ResultView {
            outcome: verdict.outcome,
            reason,
            ply: self.game.game().ply(),
            last_move,
            ratings,
            aborted_by: self.game.aborted_by(),
        }
    }

    /// The rating changes a finished rated game made (from the store).
    async fn stored_ratings(&self) -> Result<Option<[(i32, i32); 2]>, StoreError> {
        if !self.facts.rated {
            return Ok(None);
        }
        let mut pair = [(0, 0); 2];
        for side in Color::ALL {
            let history = self
                .state
                .store
                .rating_history(&self.facts.seat(side).id())
                .await?;
            let Some(change) = history.iter().find(|c| c.game == self.facts.id) else {
                return Ok(None);
            };
            pair[side.index()] = (change.before, change.after);
        }
        Ok(Some(pair))
    }

    /// Rating changes for the ending, read from the players' current ratings.
    async fn rating_changes(&self) -> Result<Vec<RatingChangeRow>, StoreError> {
        if !(self.facts.rated && self.facts.red.is_account() && self.facts.black.is_account()) {
            return Ok(Vec::new());
        }
        let Some(red_score) = xiangqi_rating::online::rated_score(&self.game) else {
            return Ok(Vec::new());
        };
        let mut before = [xiangqi_rating::online::START_RATING; 2];
        for side in Color::ALL {
            let id = self.facts.seat(side).id();
            if let Some(rating) = self.state.store.player(&id).await?.and_then(|p| p.rating) {
                before[side.index()] = rating;
            }
        }
        let (red_after, black_after) =
            xiangqi_rating::online::elo_update(before[0], before[1], red_score);
        let at = self.state.clock.unix_ms();
        Ok([(Color::Red, red_after), (Color::Black, black_after)]
            .into_iter()
            .map(|(side, after)| RatingChangeRow {
                player: self.facts.seat(side).id(),
                game: self.facts.id.clone(),
                before: before[side.index()],
                after,
                at,
            })
            .collect())
    }

    /// Stores the ending and rating changes in one step, then announces it.
    async fn finish(&mut self) {
        let changes = match self.rating_changes().await {
            Ok(changes) => changes,
            Err(error) => {
                tracing::error!("game {}: reading ratings failed: {error}", self.facts.id);
                Vec::new()
            }
        };
        let ratings = match changes.as_slice() {
            [red, black] => Some([(red.before, red.after), (black.before, black.after)]),
            _ => None,
        };
        let result = Arc::new(self.result_view(ratings));
        let clocks = self.game.clocks();
        let ending = Ending {
            status: result.status().to_string(),
            result: result.outcome.result().to_string(),
            reason: crate::game::view::reason_code(result.reason).to_string(),
            ply: result.ply as i32,
            red_clock: clocks[0] as i64,
            black_clock: clocks[1] as i64,
            ended_at: self.state.clock.unix_ms(),
        };
        if let Err(error) = self
            .state
            .store
            .finish_game(&self.facts.id, &ending, &changes)
            .await
        {
            tracing::error!("game {}: storing the ending failed: {error}", self.facts.id);
        }
        self.result = Some(result.clone());
        self.state.lobby.remove_game(&self.facts.id);
        self.engine_game_over();
        if result.outcome != Outcome::Ongoing {
            self.publish(EventKind::End(result));
        }
    }

    /// The game is over: a search for it stops, and its player may start
    /// another engine game.
    fn engine_game_over(&mut self) {
        let Some(seat) = self.engine.as_mut() else {
            return;
        };
        if let Some(thinking) = seat.thinking.take() {
            thinking.stop();
        }
        let player = self.facts.seat(!seat.side).id();
        self.state.engine_games.ended(&player, Some(&self.facts.id));
    }

    fn maybe_start_engine(&mut self) {
        if self.game.game().is_over() {
            return;
        }
        let to_move = self.game.game().position().side_to_move();
        let clocks = self.clock_view(self.game_now()).clocks;
        let Some(seat) = self.engine.as_mut() else {
            return;
        };
        if seat.side != to_move || seat.thinking.is_some() {
            return;
        }
        let turn = Turn {
            start: self.facts.start.clone(),
            moves: self.game.game().moves().to_vec(),
            level: seat.level,
            time_left: Duration::from_millis(clocks[to_move.index()]),
            increment: Duration::from_millis(self.facts.tc.increment_ms),
        };
        let ply = self.game.game().ply();
        // The searches of an engine game count as its player's.
        let owner = self.facts.seat(!seat.side).id();
        let tx = self.tx.clone();
        seat.thinking = Some(engine_player::think(
            &self.state.engine_slots,
            &owner,
            turn,
            move |mv| {
                let _ = tx.send(RoomCommand::EngineMoved { ply, mv });
            },
        ));
    }

    async fn engine_moved(&mut self, ply: u32, mv: Option<Move>) {
        let Some(seat) = self.engine.as_mut() else {
            return;
        };
        seat.thinking = None;
        let side = seat.side;
        self.settle().await;
        if self.game.game().is_over() || self.game.game().ply() != ply {
            return;
        }
        match mv {
            Some(mv) => {
                if let Err(error) = self
                    .commit(ClockEvent::Move {
                        side: Some(side),
                        mv,
                    })
                    .await
                {
                    tracing::error!(
                        "game {}: the engine's move {mv} was refused: {}",
                        self.facts.id,
                        error.message
                    );
                }
            }
            None => tracing::error!("game {}: the engine found no move", self.facts.id),
        }
    }
}

/// Milliseconds as a signed count (saturating; no clock gets that far).
fn signed(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}
