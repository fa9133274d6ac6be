//! Games: one room task per game, the lobby of seeks and games in
//! progress, and the registry of each player's open sockets.

pub mod changes;
pub mod hub;
pub mod lobby;
pub mod room;
pub mod view;

use std::collections::HashMap;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot};

use crate::game::lobby::Lobby;
use crate::game::room::{
    Action, ActionError, RematchAnswer, RematchPlan, RestoreError, RoomCommand, RoomNotices,
    RoomPorts,
};
use crate::game::view::{EventOut, GameFacts, Snapshot};

/// A socket's number.
pub type ConnId = u64;

/// What goes out to a socket; game frames are rendered by the socket for
/// its player (side, notation).
#[derive(Debug, Clone)]
pub enum Outbound {
    /// A ready JSON frame.
    Text(String),
    /// A game event.
    Event(Arc<GameFacts>, Arc<EventOut>),
    /// A game's full state.
    State(Arc<Snapshot>),
}

/// A socket's outgoing queue.
pub type Outbox = mpsc::UnboundedSender<Outbound>;

/// The way into a room.
#[derive(Clone)]
pub struct RoomHandle {
    /// The game's id.
    pub id: String,
    /// Its facts.
    pub facts: Arc<GameFacts>,
    tx: mpsc::UnboundedSender<RoomCommand>,
}

/// The room has stopped (a finished game nobody watches); look it up again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoomGone;

impl RoomHandle {
    /// A handle for a room-like task of game `facts` (a cluster's replica of
    /// a game run elsewhere) and the receiver of its commands.
    pub fn channel(facts: Arc<GameFacts>) -> (RoomHandle, mpsc::UnboundedReceiver<RoomCommand>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let handle = RoomHandle {
            id: facts.id.clone(),
            facts,
            tx,
        };
        (handle, rx)
    }

    /// Sends a command.
    pub fn send(&self, command: RoomCommand) -> Result<(), RoomGone> {
        self.tx.send(command).map_err(|_| RoomGone)
    }

    /// Asks the room to perform `action` for `player`.
    pub async fn act(
        &self,
        player: &str,
        action: Action,
    ) -> Result<Result<(), ActionError>, RoomGone> {
        let (reply, answer) = oneshot::channel();
        self.send(RoomCommand::Act {
            player: player.to_string(),
            action,
            reply,
        })?;
        answer.await.map_err(|_| RoomGone)
    }

    /// Tells the room `player`'s word on a rematch.
    pub async fn rematch(
        &self,
        player: &str,
        answer: RematchAnswer,
    ) -> Result<Result<Option<RematchPlan>, ActionError>, RoomGone> {
        let (reply, waiting) = oneshot::channel();
        self.send(RoomCommand::Rematch {
            player: player.to_string(),
            answer,
            reply,
        })?;
        waiting.await.map_err(|_| RoomGone)
    }
}

/// Where the games not running here are, in a cluster of processes
/// (`crate::cluster`); a single process has none and loads every game itself.
pub trait Placement: Send + Sync {
    /// The room of game `id`, which does not run here: loaded here, or a
    /// replica of its room on the node that owns it; `None` for no game.
    fn find<'a>(
        &'a self,
        ports: &'a RoomPorts,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<RoomHandle>, RestoreError>>;
    /// A new game's room started here.
    fn started<'a>(&'a self, room: &'a RoomHandle) -> BoxFuture<'a, ()>;
}

/// The live rooms by game id; a finished game is loaded on demand.
#[derive(Default)]
pub struct Rooms {
    /// Never held across an await.
    map: std::sync::Mutex<HashMap<String, RoomHandle>>,
    /// Held while a stored game is loaded, so two callers never start two
    /// rooms for one game; the map itself stays free for running rooms.
    restoring: tokio::sync::Mutex<()>,
    /// Set once on a node of a cluster.
    placement: std::sync::OnceLock<Arc<dyn Placement>>,
}

impl Rooms {
    /// The room of game `id`, loading a stored game when none runs;
    /// `None` for an unknown game.
    pub async fn get(
        &self,
        ports: &RoomPorts,
        id: &str,
    ) -> Result<Option<RoomHandle>, RestoreError> {
        if let Some(handle) = self.running(id).await {
            return Ok(Some(handle));
        }
        let _restoring = self.restoring.lock().await;
        if let Some(handle) = self.running(id).await {
            return Ok(Some(handle));
        }
        if let Some(placement) = self.placement.get() {
            return placement.find(ports, id).await;
        }
        let Some(stored) = ports.store.game(id).await? else {
            return Ok(None);
        };
        let handle = room::restore(ports.clone(), stored).await?;
        self.insert(handle.clone()).await;
        Ok(Some(handle))
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, RoomHandle>> {
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The room of game `id` if one runs now (nothing is loaded).
    pub async fn running(&self, id: &str) -> Option<RoomHandle> {
        self.map().get(id).filter(|h| !h.tx.is_closed()).cloned()
    }

    /// Registers a new room.
    pub async fn insert(&self, handle: RoomHandle) {
        self.register(handle.clone());
        if let Some(placement) = self.placement.get() {
            placement.started(&handle).await;
        }
    }

    /// Registers a room (or a replica) without telling the placement.
    pub fn register(&self, handle: RoomHandle) {
        self.map().insert(handle.id.clone(), handle);
    }

    /// Makes this a node of a cluster (once; later calls change nothing).
    pub fn place_with(&self, placement: Arc<dyn Placement>) {
        let _ = self.placement.set(placement);
    }

    /// Forgets `handle`'s room (if it is still the registered one).
    pub fn remove(&self, handle: &RoomHandle) {
        let mut map = self.map();
        if map
            .get(&handle.id)
            .is_some_and(|h| h.tx.same_channel(&handle.tx))
        {
            map.remove(&handle.id);
        }
    }

    /// How many rooms run.
    pub async fn len(&self) -> usize {
        self.map().len()
    }

    /// True when none runs.
    pub async fn is_empty(&self) -> bool {
        self.len().await == 0
    }
}

/// What rooms tell the rest of the server: the lobby drops an ended game,
/// the registry a stopped room.
pub struct GameNotices {
    /// The lobby's games in progress.
    pub lobby: Arc<Lobby>,
    /// The live rooms.
    pub rooms: Arc<Rooms>,
    /// The bots' event streams, which hear of their games' ends.
    pub bots: Arc<crate::bots::Bots>,
}

impl RoomNotices for GameNotices {
    fn game_ended(&self, id: &str) {
        if let Some(game) = self.lobby.game(id) {
            crate::bots::announce_finish(&self.bots, &game);
        }
        self.lobby.remove_game(id);
    }

    fn room_stopped(&self, room: &RoomHandle) {
        self.rooms.remove(room);
    }
}
