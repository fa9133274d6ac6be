//! This process as one node of a cluster (`xiangqi serve --database
//! postgres://… --bus nats://…`); docs/server.md, "Scaling past one process".
//!
//! Each game has one owning node, which runs its room; ownership is a lease
//! row in the shared store (`lease`). Sockets may be on any node: a node
//! without the room keeps a `replica` of it that forwards actions to the
//! owner over the bus and hears the owner's events (`owner` publishes
//! them), rendering them for its own sockets. The lobby's seeks and games
//! are mirrored between nodes (`lobby_sync`). A single process has no
//! `Node` at all: `Rooms` and `Lobby` then never call into this module.

pub mod bus;
mod chat_relay;
mod lease;
mod lobby_sync;
mod owner;
mod replica;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::future::BoxFuture;
use tokio::sync::mpsc;

use crate::clock::Clock;
use crate::game::hub::Hub;
use crate::game::lobby::{Lobby, Seek};
use crate::game::room::{self, RestoreError, RoomCommand, RoomPorts};
use crate::game::{ConnId, Placement, RoomHandle, Rooms};
use crate::state::AppState;
use crate::store::Store;
use crate::ws::connection::Session;

pub use lease::LEASE_MS;

/// How long a request to another node may take before it counts as lost.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// Why a node cannot join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The bus cannot be reached.
    #[error("cannot reach the bus {url}: {error}")]
    Bus {
        /// `nats://…`.
        url: String,
        /// Why.
        error: String,
    },
}

/// Socket numbers this node makes up for the rooms it owns (relays and
/// players watching from other nodes); far above the sockets' own numbers.
static NEXT_SYNTHETIC_CONN: AtomicU64 = AtomicU64::new(1 << 62);

fn synthetic_conn() -> ConnId {
    NEXT_SYNTHETIC_CONN.fetch_add(1, Ordering::Relaxed)
}

/// This node: its id, the bus, and what it shares with the rest of the server.
pub struct Node {
    /// `n_…`, new at every start.
    pub id: String,
    bus: async_nats::Client,
    store: Store,
    clock: Arc<dyn Clock>,
    rooms: Arc<Rooms>,
    lobby: Arc<Lobby>,
    hub: Arc<Hub>,
    social: Arc<crate::social::Social>,
    ports: RoomPorts,
    /// The rooms this node owns (holds the lease of).
    owned: Arc<Mutex<HashMap<String, RoomHandle>>>,
    /// Players' sockets on other nodes watching rooms owned here:
    /// (node, socket there) → (game, the socket number the room knows).
    presences: Mutex<HashMap<(String, u64), (String, ConnId)>>,
    /// The replicas running here, by game: where a take-over is announced.
    replicas: Mutex<HashMap<String, mpsc::UnboundedSender<replica::Note>>>,
    /// One take-over at a time (the keeper and a socket may race for one).
    taking: tokio::sync::Mutex<()>,
    /// Whether the bus is connected now.
    bus_up: AtomicBool,
    /// Whether the store answered the last lease renewal.
    store_up: AtomicBool,
    /// The lobby's changes to publish, in order.
    lobby_out: mpsc::UnboundedSender<bus::LobbyChange>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Node {
    /// Joins the cluster on the bus at `url`: connects, installs this node
    /// into `state` (rooms, lobby) and starts its background tasks. Games
    /// whose lease has lapsed are taken over by the keeper within a second.
    pub async fn join(state: &mut AppState, url: &str) -> Result<Arc<Node>, ClusterError> {
        let (events_tx, events_rx) = mpsc::unbounded_channel();
        let bus = async_nats::ConnectOptions::new()
            .name("xiangqi serve")
            .request_timeout(Some(REQUEST_TIMEOUT))
            // Reconnect for ever: an outage of the bus is waited out.
            .max_reconnects(None)
            .event_callback(move |event| {
                let events_tx = events_tx.clone();
                async move {
                    let _ = events_tx.send(event);
                }
            })
            .connect(url)
            .await
            .map_err(|error| ClusterError::Bus {
                url: url.to_string(),
                error: error.to_string(),
            })?;
        let (lobby_out, lobby_rx) = mpsc::unbounded_channel();
        let node = Arc::new(Node {
            id: crate::ids::new_id("n"),
            bus,
            store: state.store.clone(),
            clock: state.clock.clone(),
            rooms: state.rooms.clone(),
            lobby: state.lobby.clone(),
            hub: state.hub.clone(),
            social: state.social.clone(),
            ports: state.room_ports.clone(),
            owned: Arc::new(Mutex::new(HashMap::new())),
            presences: Mutex::new(HashMap::new()),
            replicas: Mutex::new(HashMap::new()),
            taking: tokio::sync::Mutex::new(()),
            bus_up: AtomicBool::new(true),
            store_up: AtomicBool::new(true),
            lobby_out,
        });
        state.rooms.place_with(Arc::new(node.clone()));
        state.lobby.mirror_to(Arc::new(node.clone()));
        state.cluster = Some(node.clone());
        owner::serve_requests(node.clone()).await?;
        lobby_sync::start(node.clone(), lobby_rx).await?;
        chat_relay::start(node.clone()).await?;
        tokio::spawn(connection_events(node.clone(), events_rx));
        lease::start_keeper(node.clone());
        tracing::info!("node {} joined the cluster on {url}", node.id);
        Ok(node)
    }

    fn now(&self) -> i64 {
        self.clock.unix_ms()
    }

    /// Publishes `payload` on `subject` (queued while the bus is away).
    async fn publish(&self, subject: String, payload: Vec<u8>) {
        let published =
            tokio::time::timeout(REQUEST_TIMEOUT, self.bus.publish(subject, payload.into())).await;
        if !matches!(published, Ok(Ok(()))) {
            tracing::warn!("node {}: a message was not published on the bus", self.id);
        }
    }

    /// Asks node `to`; `None` when it cannot be reached.
    async fn request(&self, to: &str, request: &bus::Request) -> Option<bus::Reply> {
        // The client's own timeout covers only the wait for the answer;
        // while the bus is away, handing the request over may wait too.
        let asked = self
            .bus
            .request(bus::node_subject(to), bus::encode(request).into());
        match tokio::time::timeout(REQUEST_TIMEOUT, asked).await {
            Ok(Ok(message)) => bus::decode(&message.payload),
            Ok(Err(error)) => {
                tracing::debug!("a request to node {to} failed: {error}");
                None
            }
            Err(_) => {
                tracing::debug!("a request to node {to} timed out");
                None
            }
        }
    }

    /// Takes over game `id` when nobody holds its lease: claims it, rebuilds
    /// the room from the stored events (the restart policy: the time until
    /// now is charged to nobody) and hands a replica here over to it. The
    /// room, or `None` when another node holds the game or it is over.
    async fn take_over(&self, id: &str) -> Result<Option<RoomHandle>, RestoreError> {
        let _taking = self.taking.lock().await;
        if let Some(room) = locked(&self.owned).get(id).cloned() {
            return Ok(Some(room));
        }
        let now = self.now();
        if !self
            .store
            .claim_lease(id, &self.id, now, now + LEASE_MS)
            .await?
        {
            return Ok(None);
        }
        let Some(stored) = self.store.game(id).await? else {
            self.store.release_lease(id, &self.id).await?;
            return Ok(None);
        };
        if stored.ending.is_some() {
            self.store.release_lease(id, &self.id).await?;
            return Ok(None);
        }
        let room = room::restore(self.ports.clone(), stored).await?;
        self.adopt(&room).await;
        tracing::info!("node {} runs game {id} now", self.id);
        Ok(Some(room))
    }

    /// Makes `room`, whose lease this node holds, one of its own: registered,
    /// relayed to the bus, listed in the lobby, and any replica here handed
    /// over to it.
    async fn adopt(&self, room: &RoomHandle) {
        locked(&self.owned).insert(room.id.clone(), room.clone());
        self.rooms.register(room.clone());
        owner::relay(self, room);
        let (reply, answer) = tokio::sync::oneshot::channel();
        if room.send(RoomCommand::Summary { reply }).is_ok() {
            if let Ok((summary, _, _)) = answer.await {
                if summary.status == "playing" {
                    self.lobby.add_game(summary);
                }
            }
        }
        let replica = locked(&self.replicas).remove(&room.id);
        if let Some(replica) = replica {
            let _ = replica.send(replica::Note::Handover(room.clone()));
        }
    }

    /// The room of a game this node does not run: a finished game loaded
    /// here, the game taken over, or a replica of the owner's room.
    async fn find_room(
        self: Arc<Self>,
        ports: &RoomPorts,
        id: &str,
    ) -> Result<Option<RoomHandle>, RestoreError> {
        let Some(stored) = self.store.game(id).await? else {
            return Ok(None);
        };
        if stored.ending.is_some() {
            // A finished game changes no more: any node may load it.
            let room = room::restore(ports.clone(), stored).await?;
            self.rooms.register(room.clone());
            return Ok(Some(room));
        }
        for _ in 0..3 {
            match self.store.lease_holder(id, self.now()).await? {
                Some(holder) if holder != self.id => {
                    if let Some(room) = replica::start(self.clone(), id, &holder).await {
                        return Ok(Some(room));
                    }
                    // The holder does not answer: wait for its lease to lapse.
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                _ => {
                    if let Some(room) = self.take_over(id).await? {
                        return Ok(Some(room));
                    }
                }
            }
        }
        Err(RestoreError::Store(crate::store::StoreError::Database(
            format!("game {id}: its node does not answer; try again in a few seconds"),
        )))
    }

    /// Tells the other nodes that `room`'s game started, for its players'
    /// sockets there.
    pub fn started(&self, room: &RoomHandle) {
        let players = [&room.facts.red, &room.facts.black]
            .into_iter()
            .filter(|seat| matches!(seat, crate::game::view::Seat::Player { .. }))
            .map(|seat| seat.id())
            .collect();
        let started = bus::Started {
            node: self.id.clone(),
            game: room.id.clone(),
            players,
        };
        let bus = self.bus.clone();
        tokio::spawn(async move {
            let _ = bus
                .publish(bus::STARTED, bus::encode(&started).into())
                .await;
        });
    }

    /// Sends a chat message posted here to its game's readers on the other
    /// nodes (it is stored already: a node that misses it while the bus is
    /// away still shows it in the game's stored chat).
    pub fn chat(
        &self,
        game: &str,
        channel: xiangqi_server_protocol::ChatChannel,
        sides: &crate::store::GameSides,
        frame: String,
    ) {
        let news = bus::ChatNews {
            node: self.id.clone(),
            game: game.to_string(),
            channel,
            red: sides.red.clone(),
            black: sides.black.clone(),
            over: sides.over,
            frame,
        };
        let bus = self.bus.clone();
        tokio::spawn(async move {
            let _ = bus.publish(bus::CHAT, bus::encode(&news).into()).await;
        });
    }

    /// Whether the bus is connected now.
    pub fn bus_up(&self) -> bool {
        self.bus_up.load(Ordering::Relaxed)
    }

    /// Whether the store answered the last lease renewal.
    pub fn store_up(&self) -> bool {
        self.store_up.load(Ordering::Relaxed)
    }

    /// The games this node owns now.
    pub fn owned_games(&self) -> Vec<String> {
        locked(&self.owned).keys().cloned().collect()
    }
}

impl Placement for Arc<Node> {
    fn find<'a>(
        &'a self,
        ports: &'a RoomPorts,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomHandle>, RestoreError>> {
        Box::pin(self.clone().find_room(ports, id))
    }

    fn started<'a>(&'a self, room: &'a RoomHandle) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let _taking = self.taking.lock().await;
            let now = self.now();
            match self
                .store
                .claim_lease(&room.id, &self.id, now, now + LEASE_MS)
                .await
            {
                Ok(true) => {
                    locked(&self.owned).insert(room.id.clone(), room.clone());
                    owner::relay(self, room);
                }
                Ok(false) => tracing::error!("game {}: another node holds it", room.id),
                Err(error) => tracing::error!("game {}: its lease: {error}", room.id),
            }
        })
    }
}

/// Open seek `id` when it was made on another node: taken there for
/// `session`'s player. `None` when no other node has it.
pub async fn take_remote_seek(
    state: &AppState,
    session: &Session,
    id: &str,
) -> Option<Result<Seek, (String, String)>> {
    let node = state.cluster.as_ref()?;
    let home = state.lobby.seek_home(id)?;
    let request = bus::Request::TakeSeek {
        id: id.to_string(),
        player: session.player.id.clone(),
    };
    Some(match node.request(&home, &request).await {
        Some(bus::Reply::Seek(Ok(seek))) => lobby_sync::seek_of(seek, session.address),
        Some(bus::Reply::Seek(Err(refusal))) => Err(refusal),
        _ => Err((
            "unavailable".to_string(),
            "the node holding this seek does not answer; try again".to_string(),
        )),
    })
}

/// Follows the bus connection: says when it is lost and back, and on its
/// return has every replica catch up and the seeks published again.
async fn connection_events(
    node: Arc<Node>,
    mut events: mpsc::UnboundedReceiver<async_nats::Event>,
) {
    while let Some(event) = events.recv().await {
        match event {
            async_nats::Event::Disconnected => {
                node.bus_up.store(false, Ordering::Relaxed);
                tracing::error!(
                    "node {}: the bus is unreachable: games owned by other nodes cannot be \
                     played from here, and other nodes do not hear this node's games until it is back",
                    node.id
                );
            }
            async_nats::Event::Connected => {
                if node.bus_up.swap(true, Ordering::Relaxed) {
                    continue; // the first connection
                }
                tracing::info!("node {}: the bus is back", node.id);
                let replicas: Vec<_> = locked(&node.replicas).values().cloned().collect();
                for replica in replicas {
                    let _ = replica.send(replica::Note::CatchUp);
                }
                let _ = node
                    .lobby_out
                    .send(bus::LobbyChange::Seeks(node.lobby.own_seeks()));
            }
            other => tracing::debug!("bus: {other}"),
        }
    }
}
