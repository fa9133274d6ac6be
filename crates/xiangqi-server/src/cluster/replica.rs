//! A replica of a room that runs on another node: to this node's sockets
//! it is the room (the same commands through a `RoomHandle`). It forwards
//! actions to the owner, tells it which players' sockets watch from here,
//! keeps the last events it heard on the game's subject for reconnects, and
//! renders nothing itself: the sockets render as for a local room.
//!
//! When the owner changes (a take-over), the replica re-announces its
//! players to the new owner; when this node takes the game over, the
//! replica hands its watchers to the new local room and ends.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use crate::cluster::bus::{self, GameNews, News, Reply, Request};
use crate::cluster::wire::WireSnapshot;
use crate::cluster::{locked, Node};
use crate::game::room::{Action, ActionError, RoomCommand};
use crate::game::view::{EventKind, EventOut, GameFacts, Snapshot};
use crate::game::{ConnId, Outbound, Outbox, RoomHandle};

/// Events kept for reconnecting sockets (as a room keeps).
const RECENT_EVENTS: usize = 50;
/// A replica nobody here watches stops after this long.
const IDLE_LIMIT: Duration = Duration::from_secs(30);
/// A move's `ack` waits at most this long for the move's event, so a
/// socket hears the event first as it does from a local room.
const ACK_WAIT: Duration = Duration::from_secs(2);

/// Where an action's answer goes.
type Answer = oneshot::Sender<Result<(), ActionError>>;

/// What the replica hears besides its commands.
pub(super) enum Note {
    /// This node runs the game now.
    Handover(RoomHandle),
    /// The bus is back: catch up with the owner.
    CatchUp,
    /// A fresh state from the owner, for `conn` only or (None) everyone.
    Fresh(Box<WireSnapshot>, String, Option<ConnId>),
    /// The owner answered an action.
    Answered {
        ply: Option<u32>,
        answer: Result<(), ActionError>,
        reply: oneshot::Sender<Result<(), ActionError>>,
    },
}

struct Watcher {
    player: String,
    out: Outbox,
    /// The last version this socket has (`None` until its first state).
    seen: Option<u64>,
}

struct Replica {
    node: Arc<Node>,
    facts: Arc<GameFacts>,
    owner: String,
    v: u64,
    /// Plies played, as last heard.
    ply: u32,
    recent: VecDeque<Arc<EventOut>>,
    watchers: HashMap<ConnId, Watcher>,
    /// Accepted moves waiting for their event: (ply, reply, since).
    acks: Vec<(u32, Answer, Instant)>,
    notes: mpsc::UnboundedSender<Note>,
    idle_since: Instant,
}

/// Starts a replica of game `id` owned by node `owner`; `None` when the
/// owner does not answer.
pub(super) async fn start(node: Arc<Node>, id: &str, owner: &str) -> Option<RoomHandle> {
    let events = node.bus.subscribe(bus::game_subject(id)).await.ok()?;
    let snapshot = match node
        .request(
            owner,
            &Request::Snapshot {
                game: id.to_string(),
            },
        )
        .await
    {
        Some(Reply::Snapshot(snapshot)) => snapshot,
        _ => return None,
    };
    let snapshot = match snapshot.read(None) {
        Ok(snapshot) => snapshot,
        Err(error) => {
            tracing::error!("game {id}: {error}");
            return None;
        }
    };
    let (handle, commands) = RoomHandle::channel(snapshot.facts.clone());
    let (notes, notes_rx) = mpsc::unbounded_channel();
    locked(&node.replicas).insert(id.to_string(), notes.clone());
    let replica = Replica {
        node: node.clone(),
        facts: snapshot.facts.clone(),
        owner: owner.to_string(),
        v: snapshot.v,
        ply: snapshot.moves.len() as u32,
        recent: VecDeque::new(),
        watchers: HashMap::new(),
        acks: Vec::new(),
        notes,
        idle_since: Instant::now(),
    };
    node.rooms.register(handle.clone());
    tokio::spawn(replica.run(commands, notes_rx, events, handle.clone()));
    Some(handle)
}

impl Replica {
    async fn run(
        mut self,
        mut commands: mpsc::UnboundedReceiver<RoomCommand>,
        mut notes: mpsc::UnboundedReceiver<Note>,
        events: async_nats::Subscriber,
        me: RoomHandle,
    ) {
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        // The subscription ends when the bus connection is lost for good;
        // it is made again (and the replica catches up) once it is back.
        let mut events = Some(events);
        let handed_to = loop {
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.command(command),
                    None => break None,
                },
                note = notes.recv() => match note {
                    Some(Note::Handover(room)) => break Some(room),
                    Some(note) => self.note(note),
                    None => break None,
                },
                message = next_news(&mut events) => match message {
                    Some(message) => {
                        if let Some(news) = bus::decode::<GameNews>(&message.payload) {
                            self.news(news);
                        }
                    }
                    None => events = None,
                },
                _ = tick.tick() => {
                    if events.is_none() {
                        let subject = bus::game_subject(&self.facts.id);
                        if let Ok(Ok(subscriber)) = tokio::time::timeout(
                            Duration::from_secs(1),
                            self.node.bus.subscribe(subject),
                        )
                        .await
                        {
                            events = Some(subscriber);
                            self.present_all();
                            self.fetch(None);
                        }
                    }
                    self.release_acks(true);
                    if self.watchers.is_empty() && self.idle_since.elapsed() > IDLE_LIMIT {
                        break None;
                    }
                }
            }
        };
        if let Some(mut events) = events {
            let _ = events.unsubscribe().await;
        }
        {
            let mut replicas = locked(&self.node.replicas);
            if replicas
                .get(&self.facts.id)
                .is_some_and(|n| n.same_channel(&self.notes))
            {
                replicas.remove(&self.facts.id);
            }
        }
        match handed_to {
            Some(room) => self.hand_over(room, commands),
            None => self.node.rooms.remove(&me),
        }
    }

    fn command(&mut self, command: RoomCommand) {
        match command {
            RoomCommand::Watch {
                conn,
                player,
                out,
                since,
            } => self.watch(conn, player, out, since),
            RoomCommand::Unwatch { conn } => {
                if let Some(watcher) = self.watchers.remove(&conn) {
                    if self.facts.side_of(&watcher.player).is_some() {
                        self.tell_owner(Request::Absent {
                            game: self.facts.id.clone(),
                            node: self.node.id.clone(),
                            conn,
                        });
                    }
                }
                if self.watchers.is_empty() {
                    self.idle_since = Instant::now();
                }
            }
            RoomCommand::Act {
                player,
                action,
                reply,
            } => self.act(player, action, reply),
            RoomCommand::Summary { reply } => {
                let node = self.node.clone();
                let owner = self.owner.clone();
                let game = self.facts.id.clone();
                tokio::spawn(async move {
                    match node
                        .request(&owner, &Request::Summary { game: game.clone() })
                        .await
                    {
                        Some(Reply::Summary(summary, moves, fen)) => {
                            let _ = reply.send((*summary, moves, fen));
                        }
                        // Over (its owner let it go): as stored.
                        _ => stored_summary(&node, &game, reply).await,
                    }
                });
            }
            // The engine plays on the owner only.
            RoomCommand::EngineMoved { .. } => {}
            // Rematch offers live in the owner's room and are not forwarded
            // yet (docs/server.md, "Scaling past one process"): say so.
            RoomCommand::Rematch { reply, .. } => {
                let _ = reply.send(Err(ActionError {
                    code: "unavailable",
                    message: "a rematch is offered on the server that ran the game; \
                              this one cannot reach its offers yet: start a new seek"
                        .to_string(),
                }));
            }
            RoomCommand::RematchStarted { .. } => {}
            #[allow(unreachable_patterns)]
            _ => tracing::warn!("game {}: a command a replica cannot forward", self.facts.id),
        }
    }

    fn watch(&mut self, conn: ConnId, player: String, out: Outbox, since: Option<u64>) {
        let first = self.recent.front().map_or(self.v + 1, |e| e.v);
        let seen = match since {
            Some(since) if since <= self.v && since + 1 >= first => {
                for event in self.recent.iter().filter(|e| e.v > since) {
                    let _ = out.send(Outbound::Event(self.facts.clone(), event.clone()));
                }
                Some(self.v)
            }
            _ => {
                self.fetch(Some(conn));
                None
            }
        };
        let is_player = self.facts.side_of(&player).is_some();
        let known = self
            .watchers
            .insert(
                conn,
                Watcher {
                    player: player.clone(),
                    out,
                    seen,
                },
            )
            .is_some();
        if is_player && !known {
            self.tell_owner(Request::Present {
                game: self.facts.id.clone(),
                player,
                node: self.node.id.clone(),
                conn,
            });
        }
    }

    fn act(
        &mut self,
        player: String,
        action: Action,
        reply: oneshot::Sender<Result<(), ActionError>>,
    ) {
        let ply = match &action {
            Action::Move { ply, .. } => Some(*ply),
            _ => None,
        };
        let node = self.node.clone();
        let owner = self.owner.clone();
        let notes = self.notes.clone();
        let request = Request::Act {
            game: self.facts.id.clone(),
            player,
            action,
        };
        tokio::spawn(async move {
            let answer = match node.request(&owner, &request).await {
                Some(Reply::Done(answer)) => {
                    answer.map_err(|(code, message)| ActionError {
                        code: intern(&code),
                        message,
                    })
                }
                Some(Reply::NotOwner) => Err(ActionError {
                    code: "unavailable",
                    message: "the game is moving to another server; try again in a few seconds"
                        .to_string(),
                }),
                _ => Err(ActionError {
                    code: "unavailable",
                    message: if node.bus_up() {
                        "the game's server does not answer; try again in a few seconds"
                    } else {
                        "this server has lost its link to the game's server; try again in a few seconds"
                    }
                    .to_string(),
                }),
            };
            if let Err(mpsc::error::SendError(Note::Answered { answer, reply, .. })) =
                notes.send(Note::Answered { ply, answer, reply })
            {
                let _ = reply.send(answer);
            }
        });
    }

    fn note(&mut self, note: Note) {
        match note {
            Note::Handover(_) => {}
            Note::CatchUp => {
                // The owner may have taken this node for gone meanwhile.
                self.present_all();
                self.fetch(None);
            }
            Note::Fresh(snapshot, from, conn) => self.fresh(*snapshot, &from, conn),
            Note::Answered { ply, answer, reply } => match (ply, &answer) {
                (Some(ply), Ok(())) if ply >= self.ply => {
                    self.acks.push((ply, reply, Instant::now()));
                }
                _ => {
                    let _ = reply.send(answer);
                }
            },
        }
    }

    /// Answers the moves whose event has come (or, with `overdue`, that
    /// waited too long for it).
    fn release_acks(&mut self, overdue: bool) {
        let played = self.ply;
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.acks)
            .into_iter()
            .partition(|(ply, _, at)| *ply < played || (overdue && at.elapsed() > ACK_WAIT));
        self.acks = waiting;
        for (_, reply, _) in done {
            let _ = reply.send(Ok(()));
        }
    }

    /// Asks the owner for the state, for socket `conn` or everyone.
    fn fetch(&self, conn: Option<ConnId>) {
        let node = self.node.clone();
        let owner = self.owner.clone();
        let game = self.facts.id.clone();
        let notes = self.notes.clone();
        tokio::spawn(async move {
            // The owner named in the lease now, should it have changed.
            let holder = node
                .store
                .lease_holder(&game, node.now())
                .await
                .ok()
                .flatten()
                .unwrap_or(owner);
            if let Some(Reply::Snapshot(snapshot)) =
                node.request(&holder, &Request::Snapshot { game }).await
            {
                let _ = notes.send(Note::Fresh(snapshot, holder, conn));
            }
        });
    }

    fn news(&mut self, news: GameNews) {
        match news.news {
            News::Event(event) => {
                if news.node != self.owner {
                    self.new_owner(news.node.clone());
                }
                if event.v <= self.v {
                    return;
                }
                if event.v > self.v + 1 {
                    // Missed some (the bus was away): catch up.
                    self.fetch(None);
                    return;
                }
                let event = match event.read() {
                    Ok(event) => Arc::new(event),
                    Err(error) => {
                        tracing::error!("game {}: {error}", self.facts.id);
                        return;
                    }
                };
                self.v = event.v;
                if let EventKind::Move { ply, .. } = &event.kind {
                    self.ply = ply + 1;
                }
                if self.recent.len() == RECENT_EVENTS {
                    self.recent.pop_front();
                }
                self.recent.push_back(event.clone());
                for watcher in self.watchers.values_mut() {
                    if watcher.seen.is_some_and(|seen| seen < event.v) {
                        let _ = watcher
                            .out
                            .send(Outbound::Event(self.facts.clone(), event.clone()));
                        watcher.seen = Some(event.v);
                    }
                }
                self.release_acks(false);
            }
            News::State(snapshot) => self.fresh(*snapshot, &news.node, None),
        }
    }

    /// A full state from `from`: to socket `conn`, or to everyone when it is
    /// news (another version, or a new owner).
    fn fresh(&mut self, snapshot: WireSnapshot, from: &str, conn: Option<ConnId>) {
        if from != self.owner {
            self.new_owner(from.to_string());
        }
        let snapshot: Snapshot = match snapshot.read(Some(self.facts.clone())) {
            Ok(snapshot) => snapshot,
            Err(error) => {
                tracing::error!("game {}: {error}", self.facts.id);
                return;
            }
        };
        let v = snapshot.v;
        if conn.is_none() && v <= self.v && !self.watchers.values().any(|w| w.seen.is_none()) {
            return;
        }
        if v > self.v {
            // Newer than every event kept: they no longer lead up to now.
            self.recent.clear();
            self.v = v;
            self.ply = snapshot.moves.len() as u32;
        }
        let snapshot = Arc::new(snapshot);
        for (id, watcher) in self.watchers.iter_mut() {
            let wanted = match (conn, watcher.seen) {
                (Some(conn), _) => conn == *id,
                (None, None) => true,
                (None, Some(seen)) => seen < v,
            };
            if !wanted {
                continue;
            }
            let _ = watcher.out.send(Outbound::State(snapshot.clone()));
            // Events heard after the state was taken follow it.
            for event in self.recent.iter().filter(|e| e.v > v) {
                let _ = watcher
                    .out
                    .send(Outbound::Event(self.facts.clone(), event.clone()));
            }
            watcher.seen = Some(v.max(self.v));
        }
        self.release_acks(false);
    }

    /// Another node runs the game now: it learns which players watch here.
    fn new_owner(&mut self, owner: String) {
        tracing::info!("game {}: now run by node {owner}", self.facts.id);
        self.owner = owner;
        self.present_all();
    }

    /// Tells the owner which players' sockets watch from here.
    fn present_all(&self) {
        let players: Vec<(ConnId, String)> = self
            .watchers
            .iter()
            .filter(|(_, w)| self.facts.side_of(&w.player).is_some())
            .map(|(conn, w)| (*conn, w.player.clone()))
            .collect();
        for (conn, player) in players {
            self.tell_owner(Request::Present {
                game: self.facts.id.clone(),
                player,
                node: self.node.id.clone(),
                conn,
            });
        }
    }

    fn tell_owner(&self, request: Request) {
        let node = self.node.clone();
        let owner = self.owner.clone();
        tokio::spawn(async move {
            node.request(&owner, &request).await;
        });
    }

    /// This node runs the game now: its sockets watch the room from the
    /// version they have, and what was sent to the replica goes on there.
    fn hand_over(self, room: RoomHandle, mut commands: mpsc::UnboundedReceiver<RoomCommand>) {
        for (conn, watcher) in self.watchers {
            let _ = room.send(RoomCommand::Watch {
                conn,
                player: watcher.player,
                out: watcher.out,
                since: watcher.seen,
            });
        }
        for (_, reply, _) in self.acks {
            let _ = reply.send(Ok(()));
        }
        tokio::spawn(async move {
            while let Ok(command) = commands.try_recv() {
                let _ = room.send(command);
            }
        });
    }
}

/// The summary of a finished game from the store, through a room loaded
/// for the question (it stops at once, nobody watching).
async fn stored_summary(
    node: &Node,
    game: &str,
    reply: oneshot::Sender<(
        xiangqi_server_protocol::server::GameSummary,
        Vec<String>,
        String,
    )>,
) {
    let Ok(Some(stored)) = node.store.game(game).await else {
        return;
    };
    if stored.ending.is_none() {
        return;
    }
    if let Ok(room) = crate::game::room::restore(node.ports.clone(), stored).await {
        let _ = room.send(RoomCommand::Summary { reply });
    }
}

/// The next message of the game's subject; pending while there is no
/// subscription.
async fn next_news(events: &mut Option<async_nats::Subscriber>) -> Option<async_nats::Message> {
    match events {
        Some(events) => events.next().await,
        None => std::future::pending().await,
    }
}

/// An error code from another node as the `&'static str` the protocol
/// types use: codes are few and fixed, so each is kept once.
fn intern(code: &str) -> &'static str {
    static CODES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut codes = locked(&CODES);
    if let Some(known) = codes.iter().find(|c| **c == code) {
        return known;
    }
    let kept: &'static str = Box::leak(code.to_string().into_boxed_str());
    codes.push(kept);
    kept
}
