//! What every handler and room shares.

use std::sync::Arc;

use crate::clock::Clock;
use crate::engine_player::EngineGames;
use crate::engine_slots::EngineSlots;
use crate::game::hub::Hub;
use crate::game::lobby::{GameStart, Lobby};
use crate::game::room::engine_seat::EngineDesk;
use crate::game::room::RoomPorts;
use crate::game::{GameNotices, Rooms};
use crate::review::Reviews;
use crate::security::Guards;
use crate::social::Social;
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
    /// What a room may reach (built from the fields above): rooms see
    /// this, never the whole state.
    pub room_ports: RoomPorts,
    /// The engine's reviews running now.
    pub reviews: Arc<Reviews>,
    /// The opening explorer behind `GET /api/explorer`, when one was given.
    pub explorer: Option<Arc<xiangqi_explorer::Explorer>>,
    /// Limits, trust settings and the password-hashing pool.
    pub guards: Arc<Guards>,
    /// Chat readers, chat and report limits, accounts deleted while online.
    pub social: Arc<Social>,
    /// The puzzle set and its ratings (the built-in set unless `--puzzles`).
    pub puzzles: Arc<crate::puzzles::Puzzles>,
    /// Bots' event streams and open challenges.
    pub bots: Arc<crate::bots::Bots>,
    /// This process as a node of a cluster (`--bus`); `None` alone.
    pub cluster: Option<Arc<crate::cluster::Node>>,
}

impl AppState {
    /// State over `store` and `clock`, with `engine_threads` searches at once.
    pub fn new(store: Store, clock: Arc<dyn Clock>, engine_threads: usize) -> AppState {
        let rooms = Arc::new(Rooms::default());
        let lobby = Arc::new(Lobby::default());
        let engine_slots = EngineSlots::new(engine_threads);
        let engine_games = Arc::new(EngineGames::default());
        let bots = Arc::new(crate::bots::Bots::default());
        let room_ports = RoomPorts {
            store: store.clone(),
            clock: clock.clone(),
            notices: Arc::new(GameNotices {
                lobby: lobby.clone(),
                rooms: rooms.clone(),
                bots: bots.clone(),
            }),
            engine: EngineDesk {
                slots: engine_slots.clone(),
                games: engine_games.clone(),
            },
        };
        let reviews = Arc::new(Reviews::new(
            engine_slots.clone(),
            store.clone(),
            clock.clone(),
        ));
        AppState {
            store,
            clock,
            rooms,
            lobby,
            hub: Arc::new(Hub::default()),
            engine_slots,
            engine_games,
            room_ports,
            reviews,
            explorer: None,
            guards: Arc::new(Guards::default()),
            social: Arc::new(Social::default()),
            puzzles: Arc::new(crate::puzzles::Puzzles::built_in()),
            bots,
            cluster: None,
        }
    }

    /// Where a new game goes.
    pub fn game_start(&self) -> GameStart<'_> {
        GameStart {
            ports: &self.room_ports,
            rooms: &self.rooms,
            lobby: &self.lobby,
        }
    }
}
