//! What a room reaches outside itself, and nothing more: the store, the
//! clock, the notices it gives the rest of the server, and the engine seat's
//! own needs. A room never sees the server's shared state.

use std::sync::Arc;

use crate::clock::Clock;
use crate::game::room::engine_seat::EngineDesk;
use crate::game::RoomHandle;
use crate::store::Store;

/// What a room leaves behind for the rest of the server; its watchers'
/// frames go to their own outboxes.
pub trait RoomNotices: Send + Sync {
    /// Game `id` has ended: it is no longer in progress.
    fn game_ended(&self, id: &str);
    /// The room's task has stopped (a finished game nobody watches).
    fn room_stopped(&self, room: &RoomHandle);
}

/// A room's narrow view of the server; cheap to clone.
#[derive(Clone)]
pub struct RoomPorts {
    /// Where events, endings and ratings are stored.
    pub store: Store,
    /// Game time and timestamps.
    pub clock: Arc<dyn Clock>,
    /// The lobby and the room registry, as far as a room tells them.
    pub notices: Arc<dyn RoomNotices>,
    /// The engine's slots and its players' engine games.
    pub engine: EngineDesk,
}
