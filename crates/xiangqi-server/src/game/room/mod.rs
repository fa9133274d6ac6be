//! One game's room: a task that owns the `OnlineGame`, takes commands in
//! order, persists every accepted event before anyone hears of it, sleeps
//! until the next deadline (flag or abandonment) and tells its watchers.
//! It sees only [`RoomPorts`]: the store, the clock, its notices to the
//! lobby and the registry, and the engine seat. `OnlineGame` alone decides
//! what a player may do; [`actions`] turns its answers into the protocol's.
//! Beginnings are in [`restore`], the end and ratings in [`ending`], the
//! engine's side in [`engine_seat`], takebacks against the engine in
//! [`takeback`], rematches in [`rematch`].

mod actions;
mod ending;
pub mod engine_seat;
pub mod ports;
mod rematch;
mod restore;
mod takeback;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};
use xiangqi_adjudication::{ClockEvent, OnlineGame, TimedEvent};
use xiangqi_core::{Color, Move};

use crate::game::changes;
use crate::game::view::{ClockView, EventKind, EventOut, GameFacts, ResultView, Snapshot};
use crate::game::{ConnId, Outbound, Outbox, RoomHandle};
use crate::store::EventRow;
use xiangqi_server_protocol::server::GameSummary;

use actions::{effect, event_of, refusal, Effect};
pub use actions::{Action, ActionError};
use engine_seat::EngineSeat;
pub use ports::{RoomNotices, RoomPorts};
use rematch::Rematch;
pub use rematch::{RematchAnswer, RematchPlan, MAX_REMATCH_OFFERS};
pub use restore::{restore, start, RestoreError};

/// Events kept for reconnecting clients.
const RECENT_EVENTS: usize = 50;

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
    /// A player's word on a rematch (after the end).
    Rematch {
        /// Who.
        player: String,
        /// What.
        answer: RematchAnswer,
        /// The game to start when agreed, nothing more, or why not.
        reply: oneshot::Sender<Result<Option<RematchPlan>, ActionError>>,
    },
    /// The agreed rematch started (its id), or could not (`None`).
    RematchStarted {
        /// The new game.
        game: Option<String>,
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

struct Room {
    ports: RoomPorts,
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
    rematch: Rematch,
    tx: mpsc::UnboundedSender<RoomCommand>,
    /// The room's commands, read once the room runs ([`Room::spawn`]);
    /// made with `tx`, so what is sent before (an engine's move) waits here.
    rx: Option<mpsc::UnboundedReceiver<RoomCommand>>,
}

impl Room {
    fn new(
        ports: RoomPorts,
        facts: GameFacts,
        game: OnlineGame,
        origin: i64,
        next_seq: i64,
    ) -> Room {
        let engine = EngineSeat::of(&facts, &ports.engine);
        let (tx, rx) = mpsc::unbounded_channel();
        Room {
            ports,
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
            rematch: Rematch::default(),
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
                .map(|t| self.ports.clock.sleep_until(self.monotonic_at(t)));
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
        self.ports.notices.room_stopped(&me);
    }

    /// Game time now, in ms (never before the last event).
    fn game_now(&self) -> u64 {
        let elapsed = signed(self.ports.clock.now_ms()).saturating_sub(self.origin);
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
            now: self.ports.clock.unix_ms(),
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
            takeback_offer: self.game.takeback_request(),
            rematch_offer: self.rematch.offer(),
            rematch: self.rematch.started().map(str::to_string),
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
            RoomCommand::Rematch {
                player,
                answer,
                reply,
            } => {
                let _ = reply.send(self.rematch(&player, answer));
            }
            RoomCommand::RematchStarted { game } => match game {
                Some(game) => self.rematch_started(game),
                None => self.rematch_failed(),
            },
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
                } else {
                    self.withdraw_rematch(side);
                }
            }
        }
    }

    /// `player`'s action: whether the move's `ply` matches the game is the
    /// protocol's (a repeated move is answered again); everything else is
    /// for `OnlineGame` to decide.
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
                // A move sent again (a reconnect): accepted if it is the one
                // this side played at that ply.
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
            if *ply > played {
                return Err(ActionError::new(
                    "stale_ply",
                    format!("the game is at ply {played}, not {ply}"),
                ));
            }
        }
        if action == Action::OfferTakeback && self.engine.is_some() {
            return self.takeback_from_engine(side).await;
        }
        self.commit(event_of(side, action)?).await
    }

    /// Applies `event` now on a copy; stores it; then makes it the game's
    /// state and tells the watchers. Refused events change nothing.
    async fn commit(&mut self, event: ClockEvent) -> Result<(), ActionError> {
        let timed = TimedEvent {
            at: self.game_now(),
            event,
        };
        let mut next = self.game.clone();
        let (events, ended) = changes::apply(&mut next, &timed).map_err(|error| {
            refusal(&error, &timed.event).unwrap_or_else(|| {
                tracing::error!("game {}: {error}", self.facts.id);
                ActionError::internal()
            })
        })?;
        if effect(&timed.event, &events, ended)? == Effect::Nothing {
            return Ok(());
        }
        let row = EventRow::from_timed(self.next_seq, &timed);
        if let Err(error) = self.ports.store.append_event(&self.facts.id, &row).await {
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

    /// Lets the engine think when it is to move, with its clock as of now.
    fn maybe_start_engine(&mut self) {
        let to_move = self.game.game().position().side_to_move();
        let elapsed = self.game_now().saturating_sub(self.game.now());
        let time_left = self.game.clocks()[to_move.index()].saturating_sub(elapsed);
        let Some(seat) = self.engine.as_mut() else {
            return;
        };
        let tx = self.tx.clone();
        seat.think_if_to_move(&self.facts, &self.game, time_left, move |ply, mv| {
            let _ = tx.send(RoomCommand::EngineMoved { ply, mv });
        });
    }

    async fn engine_moved(&mut self, ply: u32, mv: Option<Move>) {
        let Some(seat) = self.engine.as_mut() else {
            return;
        };
        seat.answered();
        let side = seat.side();
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
