//! What every handler and room shares.

use std::sync::Arc;

use crate::clock::Clock;
use crate::engine_player::EngineGames;
use crate::engine_slots::EngineSlots;
use crate::game::hub::Hub;
use crate::game::lobby::Lobby;
use crate::game::Rooms;
use crate::review::Reviews;
use crate::security::Guards;
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
    /// The engine slots: searches running at once, shared fairly.
    pub engine_slots: Arc<EngineSlots>,
    /// The players with a game against the engine going.
    pub engine_games: Arc<EngineGames>,
    /// The engine's reviews running now.
    pub reviews: Arc<Reviews>,
    /// The opening explorer behind `GET /api/explorer`, when one was given.
    pub explorer: Option<Arc<xiangqi_explorer::Explorer>>,
    /// Limits, trust settings and the password-hashing pool.
    pub guards: Arc<Guards>,
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
            engine_slots: EngineSlots::new(engine_threads),
            engine_games: Arc::new(EngineGames::default()),
            reviews: Arc::new(Reviews::default()),
            explorer: None,
            guards: Arc::new(Guards::default()),
        }
    }
}
