//! Bots: accounts an engine plays through the bot API (`docs/server.md`,
//! "Bots"). API tokens and the Bearer check ([`tokens`]), each bot's event
//! stream ([`events`]), challenges to bots ([`challenges`]) and a game's
//! NDJSON stream ([`game_stream`]); the HTTP endpoints are `http::bot`.
//! Bots play in the same rooms as everyone: nothing here decides a move.

pub mod challenges;
pub mod events;
pub mod game_stream;
pub mod ndjson;
pub mod tokens;

use tokio::sync::broadcast;

use crate::game::view::Seat;
use crate::game::RoomHandle;
use crate::state::AppState;
use xiangqi_core::Color;
use xiangqi_server_protocol::bot::{BotEvent, GameRef, PlayerInfo};
use xiangqi_server_protocol::server::{ServerMessage, Side};

/// The bots' live state: event streams, open challenges, and the news of a
/// revoked token, which ends every stream opened with it.
pub struct Bots {
    /// Each bot's event stream.
    pub events: events::EventStreams,
    /// Open challenges.
    pub challenges: challenges::Challenges,
    revoked: broadcast::Sender<String>,
}

impl Default for Bots {
    fn default() -> Bots {
        Bots {
            events: events::EventStreams::default(),
            challenges: challenges::Challenges::default(),
            revoked: broadcast::channel(64).0,
        }
    }
}

impl Bots {
    /// Ends the streams opened with token `id`.
    pub fn revoke(&self, id: &str) {
        self.events.end_token(id);
        let _ = self.revoked.send(id.to_string());
    }

    /// News of revoked tokens, for a stream to end on its own.
    pub fn revocations(&self) -> broadcast::Receiver<String> {
        self.revoked.subscribe()
    }
}

/// A seat as challenges and streams show it.
pub fn player_info(seat: &Seat) -> PlayerInfo {
    let public = seat.to_public();
    PlayerInfo {
        name: public.name,
        rating: public.rating,
        bot: public.bot,
    }
}

fn side(color: Color) -> Side {
    match color {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    }
}

/// The game as `game_start` and `game_finish` show it to the player of `color`.
pub fn game_ref(room: &RoomHandle, color: Color) -> GameRef {
    GameRef {
        id: room.id.clone(),
        color: side(color),
        opponent: player_info(room.facts.seat(color.opposite())),
    }
}

/// Tells the bots of the game `summary` (just ended) that it finished.
pub fn announce_finish(bots: &Bots, summary: &xiangqi_server_protocol::server::GameSummary) {
    let sides = [
        (Side::Red, &summary.red, &summary.black),
        (Side::Black, &summary.black, &summary.red),
    ];
    for (color, me, opponent) in sides {
        if me.bot {
            let game = GameRef {
                id: summary.id.clone(),
                color,
                opponent: PlayerInfo {
                    name: opponent.name.clone(),
                    rating: opponent.rating,
                    bot: opponent.bot,
                },
            };
            bots.events.send(&me.id, BotEvent::GameFinish { game });
        }
    }
}

/// Tells both players that a game started: a person's sockets get
/// `started` (the page opens the game), a bot's event stream `game_start`.
pub fn announce_start(state: &AppState, room: &RoomHandle) {
    let text = ServerMessage::Started {
        game: room.id.clone(),
    }
    .to_text();
    for color in Color::ALL {
        if let Seat::Player { id, bot, .. } = room.facts.seat(color) {
            if *bot {
                state.bots.events.send(
                    id,
                    BotEvent::GameStart {
                        game: game_ref(room, color),
                    },
                );
            } else {
                state.hub.send(id, &text);
            }
        }
    }
}
