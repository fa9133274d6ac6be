//! The lobby: open seeks, games in progress, and the sockets that follow
//! them; and the start of a game from a seek or against the engine.

use std::collections::HashMap;
use std::sync::Mutex;

use xiangqi_adjudication::TimeControl;
use xiangqi_core::{Color, Position};

use crate::game::room::{self, RestoreError, RoomPorts};
use crate::game::view::{GameFacts, Seat};
use crate::game::{ConnId, Outbound, Outbox, RoomHandle, Rooms};
use crate::ids::new_id;
use crate::security::AddressKey;
use crate::store::GameRow;
use crate::time_control::format_time_control;
use xiangqi_server_protocol::echo::quoted;
use xiangqi_server_protocol::server::{GameSummary, SeekView};
use xiangqi_server_protocol::{ColorChoice, ServerMessage};

/// Open seeks per player at most.
pub const MAX_SEEKS_PER_PLAYER: usize = 3;
/// Open seeks in the whole lobby at most, so the list every follower
/// receives (and the web client filters and pages) stays bounded.
pub const MAX_OPEN_SEEKS: usize = 1_000;

/// An open seek.
#[derive(Clone, Debug)]
pub struct Seek {
    /// `s_…`.
    pub id: String,
    /// Who seeks (always a person).
    pub seat: Seat,
    /// Clock.
    pub tc: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The colour the seeker wants.
    pub color: ColorChoice,
    /// Rule-set preset.
    pub rules: String,
    /// The address of the socket that opened it.
    pub address: AddressKey,
}

impl Seek {
    /// `Seek`.
    pub fn to_view(&self) -> SeekView {
        SeekView {
            id: self.id.clone(),
            player: self.seat.to_public(),
            tc: format_time_control(&self.tc),
            rated: self.rated,
            color: self.color,
            rules: self.rules.clone(),
        }
    }
}

/// A refusal: protocol code and words.
pub type Refusal = (&'static str, String);

#[derive(Default)]
struct Inner {
    seeks: Vec<Seek>,
    games: Vec<GameSummary>,
    subscribers: HashMap<ConnId, Outbox>,
    /// The open seeks of the other nodes of a cluster, by node.
    remote_seeks: HashMap<String, Vec<SeekView>>,
    /// This node's own changes, for the other nodes (see [`LobbyMirror`]).
    outgoing: Vec<ServerMessage>,
}

impl Inner {
    /// Tells this node's followers of a change made here, and the other
    /// nodes of a cluster.
    fn announce(&mut self, frame: ServerMessage) {
        self.broadcast(frame.clone());
        self.outgoing.push(frame);
    }

    fn all_seeks(&self) -> Vec<SeekView> {
        let remote = self.remote_seeks.values().flatten().cloned();
        self.seeks.iter().map(Seek::to_view).chain(remote).collect()
    }

    /// Sends `frame` to every follower, written once.
    fn broadcast(&self, frame: ServerMessage) {
        let text = frame.to_text();
        for out in self.subscribers.values() {
            let _ = out.send(Outbound::Text(text.clone()));
        }
    }
}

/// Where the lobby's own changes go besides its followers here: the other
/// nodes of a cluster (`crate::cluster`), whose lobbies show them too.
pub trait LobbyMirror: Send + Sync {
    /// A change made on this node (`seek_added`, `game_removed`, …).
    fn changed(&self, frame: ServerMessage);
}

/// Seeks, games in progress and the lobby's followers.
#[derive(Default)]
pub struct Lobby {
    inner: Mutex<Inner>,
    mirror: std::sync::OnceLock<std::sync::Arc<dyn LobbyMirror>>,
}

impl Lobby {
    fn with<T>(&self, f: impl FnOnce(&mut Inner) -> T) -> T {
        let mut inner = self
            .inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let answer = f(&mut inner);
        let outgoing = std::mem::take(&mut inner.outgoing);
        drop(inner);
        if let Some(mirror) = self.mirror.get() {
            for frame in outgoing {
                mirror.changed(frame);
            }
        }
        answer
    }

    /// Sends this node's changes to `mirror` from now on (once).
    pub fn mirror_to(&self, mirror: std::sync::Arc<dyn LobbyMirror>) {
        let _ = self.mirror.set(mirror);
    }

    /// This node's own open seeks.
    pub fn own_seeks(&self) -> Vec<SeekView> {
        self.with(|inner| inner.seeks.iter().map(Seek::to_view).collect())
    }

    /// The node of a cluster where open seek `id` was made, when elsewhere.
    pub fn seek_home(&self, id: &str) -> Option<String> {
        self.with(|inner| {
            inner
                .remote_seeks
                .iter()
                .find(|(_, seeks)| seeks.iter().any(|s| s.id == id))
                .map(|(node, _)| node.clone())
        })
    }

    /// Node `node`'s open seeks are now `seeks` (its followers here hear of
    /// the difference).
    pub fn set_remote_seeks(&self, node: &str, seeks: Vec<SeekView>) {
        self.with(|inner| {
            let before = inner.remote_seeks.remove(node).unwrap_or_default();
            for gone in before
                .iter()
                .filter(|s| !seeks.iter().any(|n| n.id == s.id))
            {
                inner.broadcast(ServerMessage::SeekRemoved {
                    id: gone.id.clone(),
                });
            }
            for new in seeks
                .iter()
                .filter(|s| !before.iter().any(|b| b.id == s.id))
            {
                inner.broadcast(ServerMessage::SeekAdded { seek: new.clone() });
            }
            if !seeks.is_empty() {
                inner.remote_seeks.insert(node.to_string(), seeks);
            }
        });
    }

    /// A change another node made to the games in progress.
    pub fn remote_game_change(&self, frame: ServerMessage) {
        self.with(|inner| match frame {
            ServerMessage::GameAdded { game } if !inner.games.iter().any(|g| g.id == game.id) => {
                inner.games.push(game.clone());
                inner.broadcast(ServerMessage::GameAdded { game });
            }
            ServerMessage::GameRemoved { id } if inner.games.iter().any(|g| g.id == id) => {
                inner.games.retain(|g| g.id != id);
                inner.broadcast(ServerMessage::GameRemoved { id });
            }
            _ => {}
        });
    }

    /// Follows the lobby: the current lists now, changes later.
    pub fn subscribe(&self, conn: ConnId, out: Outbox) {
        self.with(|inner| {
            let frame = ServerMessage::Lobby {
                seeks: inner.all_seeks(),
                games: inner.games.clone(),
            };
            let _ = out.send(Outbound::Text(frame.to_text()));
            inner.subscribers.insert(conn, out);
        });
    }

    /// Stops following.
    pub fn unsubscribe(&self, conn: ConnId) {
        self.with(|inner| inner.subscribers.remove(&conn));
    }

    /// Opens a seek, unless its player has [`MAX_SEEKS_PER_PLAYER`] open
    /// or its address `per_address` (so many guests from one place cannot
    /// fill the lobby).
    pub fn add_seek(&self, seek: Seek, per_address: usize) -> Result<SeekView, Refusal> {
        self.with(|inner| {
            if inner.seeks.len() >= MAX_OPEN_SEEKS {
                return Err((
                    "lobby_full",
                    format!("the lobby holds {MAX_OPEN_SEEKS} open seeks; accept one or try later"),
                ));
            }
            let player = seek.seat.id();
            let open = inner.seeks.iter().filter(|s| s.seat.id() == player).count();
            if open >= MAX_SEEKS_PER_PLAYER {
                return Err((
                    "too_many_seeks",
                    format!("you have {open} open seeks, the most allowed"),
                ));
            }
            let from_address = inner
                .seeks
                .iter()
                .filter(|s| s.address == seek.address)
                .count();
            if from_address >= per_address {
                return Err((
                    "too_many_seeks",
                    format!("your address has {from_address} open seeks, the most allowed"),
                ));
            }
            let view = seek.to_view();
            inner.seeks.push(seek);
            inner.announce(ServerMessage::SeekAdded { seek: view.clone() });
            Ok(view)
        })
    }

    /// Withdraws `player`'s seek `id`.
    pub fn cancel_seek(&self, id: &str, player: &str) -> Result<(), Refusal> {
        self.with(|inner| {
            let Some(i) = inner
                .seeks
                .iter()
                .position(|s| s.id == id && s.seat.is(player))
            else {
                return Err((
                    "unknown_seek",
                    format!("you have no open seek {}", quoted(id)),
                ));
            };
            inner.seeks.remove(i);
            inner.announce(ServerMessage::SeekRemoved { id: id.to_string() });
            Ok(())
        })
    }

    /// Takes seek `id` for `player` to accept.
    pub fn take_seek(&self, id: &str, player: &str) -> Result<Seek, Refusal> {
        self.with(|inner| {
            let Some(i) = inner.seeks.iter().position(|s| s.id == id) else {
                return Err(("unknown_seek", format!("no open seek {}", quoted(id))));
            };
            if inner.seeks[i].seat.is(player) {
                return Err(("own_seek", "you cannot accept your own seek".to_string()));
            }
            let seek = inner.seeks.remove(i);
            inner.announce(ServerMessage::SeekRemoved { id: id.to_string() });
            Ok(seek)
        })
    }

    /// Puts back a seek whose game could not start.
    pub fn restore_seek(&self, seek: Seek) {
        self.with(|inner| {
            let view = seek.to_view();
            inner.seeks.push(seek);
            inner.announce(ServerMessage::SeekAdded { seek: view });
        });
    }

    /// Withdraws every seek of `player` (their last socket is gone).
    pub fn remove_seeks_of(&self, player: &str) {
        self.with(|inner| {
            let (gone, kept): (Vec<Seek>, Vec<Seek>) =
                inner.seeks.drain(..).partition(|s| s.seat.is(player));
            inner.seeks = kept;
            for seek in gone {
                inner.announce(ServerMessage::SeekRemoved { id: seek.id });
            }
        });
    }

    /// A game in progress (listed once, however often it is added).
    pub fn add_game(&self, summary: GameSummary) {
        self.with(|inner| {
            if inner.games.iter().any(|g| g.id == summary.id) {
                return;
            }
            inner.games.push(summary.clone());
            inner.announce(ServerMessage::GameAdded { game: summary });
        });
    }

    /// The game in progress `id`, if listed.
    pub fn game(&self, id: &str) -> Option<GameSummary> {
        self.with(|inner| inner.games.iter().find(|g| g.id == id).cloned())
    }

    /// The games in progress `player` plays.
    pub fn games_of(&self, player: &str) -> Vec<GameSummary> {
        self.with(|inner| {
            inner
                .games
                .iter()
                .filter(|g| g.red.id == player || g.black.id == player)
                .cloned()
                .collect()
        })
    }

    /// A game is over.
    pub fn remove_game(&self, id: &str) {
        self.with(|inner| {
            let before = inner.games.len();
            inner.games.retain(|g| g.id != id);
            if inner.games.len() != before {
                inner.announce(ServerMessage::GameRemoved { id: id.to_string() });
            }
        });
    }
}

/// Draws the colours: `choice` is what `chooser` asked for.
pub fn seat_colors(chooser: Seat, other: Seat, choice: ColorChoice) -> (Seat, Seat) {
    let chooser_red = match choice {
        ColorChoice::Red => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random::<bool>(),
    };
    if chooser_red {
        (chooser, other)
    } else {
        (other, chooser)
    }
}

/// Where a new game goes: its room's ports, the registry, the lobby.
pub struct GameStart<'a> {
    /// The new room's view of the server.
    pub ports: &'a RoomPorts,
    /// The live rooms.
    pub rooms: &'a Rooms,
    /// The lobby, which lists the game.
    pub lobby: &'a Lobby,
}

/// Stores and starts a new game between `red` and `black` from the start
/// position, and lists it in the lobby.
pub async fn start_game(
    to: GameStart<'_>,
    red: Seat,
    black: Seat,
    tc: TimeControl,
    rated: bool,
    rules: &str,
) -> Result<RoomHandle, RestoreError> {
    let start = Position::startpos();
    let facts = GameFacts {
        id: new_id("g"),
        red,
        black,
        tc,
        tc_text: format_time_control(&tc),
        rated,
        rules: rules.to_string(),
        start: start.clone(),
        started_at: to.ports.clock.unix_ms(),
    };
    let row = GameRow {
        id: facts.id.clone(),
        red: facts.seat(Color::Red).id(),
        black: facts.seat(Color::Black).id(),
        time_control: facts.tc_text.clone(),
        rated,
        rules: rules.to_string(),
        start_fen: start.to_fen(),
        started_at: facts.started_at,
    };
    to.ports.store.insert_game(&row).await?;
    let summary = facts.summary(None, 0);
    let handle = room::start(to.ports.clone(), facts).await?;
    to.rooms.insert(handle.clone()).await;
    to.lobby.add_game(summary);
    Ok(handle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::parse_time_control;
    use std::net::{IpAddr, Ipv4Addr};

    fn seek(n: usize) -> Seek {
        Seek {
            id: format!("s_{n}"),
            seat: Seat::Player {
                id: format!("p_{n}"),
                name: format!("player{n}"),
                guest: false,
                rating: Some(1500),
                bot: false,
            },
            tc: parse_time_control("5+3").unwrap(),
            rated: false,
            color: ColorChoice::Random,
            rules: "online".into(),
            // Each from an address of its own: only the lobby's cap counts.
            address: AddressKey::of(IpAddr::V4(Ipv4Addr::from(n as u32 + 1))),
        }
    }

    #[test]
    fn the_lobby_holds_a_bounded_number_of_seeks() {
        let lobby = Lobby::default();
        for n in 0..MAX_OPEN_SEEKS {
            lobby.add_seek(seek(n), 10).unwrap();
        }
        let (code, _) = lobby.add_seek(seek(MAX_OPEN_SEEKS), 10).unwrap_err();
        assert_eq!(code, "lobby_full");
        lobby.cancel_seek("s_0", "p_0").unwrap();
        assert!(lobby.add_seek(seek(MAX_OPEN_SEEKS), 10).is_ok());
    }
}
