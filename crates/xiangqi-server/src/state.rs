//! What every handler and room shares.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;

use crate::clock::Clock;
use crate::game::hub::Hub;
use crate::game::lobby::Lobby;
use crate::game::Rooms;
use crate::notation_setting::NotationSetting;
use crate::store::Store;

/// The server's shared state; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    /// Persistence.
    pub store: Store,
    /// Time.
    pub clock: Arc<dyn Clock>,
    /// Live games.
    pub rooms: Arc<Rooms>,
    /// Seeks and games in progress.
    pub lobby: Arc<Lobby>,
    /// Each player's open sockets.
    pub hub: Arc<Hub>,
    /// Engine searches running at once (one per core).
    pub engine_slots: Arc<Semaphore>,
    /// The notation setting of players with open sockets, kept current by
    /// `PUT /api/settings` so live games render in the new notation.
    pub notation: Arc<Mutex<HashMap<String, NotationSetting>>>,
    /// The opening explorer behind `GET /api/explorer`, when one was given.
    pub explorer: Option<Arc<xiangqi_explorer::Explorer>>,
}

impl AppState {
    /// State over `store` and `clock`, with `engine_threads` searches at once.
    pub fn new(store: Store, clock: Arc<dyn Clock>, engine_threads: usize) -> AppState {
        AppState {
            store,
            clock,
            rooms: Arc::new(Rooms::default()),
            lobby: Arc::new(Lobby::default()),
            hub: Arc::new(Hub::default()),
            engine_slots: Arc::new(Semaphore::new(engine_threads.max(1))),
            notation: Arc::new(Mutex::new(HashMap::new())),
            explorer: None,
        }
    }

    /// The current notation setting of `player` (default when unknown).
    pub fn notation_of(&self, player: &str) -> NotationSetting {
        self.notation
            .lock()
            .map(|m| m.get(player).copied().unwrap_or_default())
            .unwrap_or_default()
    }

    /// Records `player`'s notation setting for live rendering.
    pub fn set_notation(&self, player: &str, setting: NotationSetting) {
        if let Ok(mut m) = self.notation.lock() {
            m.insert(player.to_string(), setting);
        }
    }
}
