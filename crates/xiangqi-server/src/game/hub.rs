//! Each player's open sockets: for messages to a player (a game started),
//! to know when a player's last socket is gone (their seeks go), and the
//! notation their frames are rendered in. A player's entry lives exactly as
//! long as their sockets, so the map never outgrows the connected players.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::game::{ConnId, Outbound, Outbox};
use crate::notation_setting::NotationSetting;

/// A connected player: their sockets and their notation setting.
struct Connected {
    sockets: HashMap<ConnId, Outbox>,
    notation: NotationSetting,
}

/// Connected players by id.
#[derive(Default)]
pub struct Hub {
    players: Mutex<HashMap<String, Connected>>,
}

impl Hub {
    /// Registers a socket of `player`, whose stored notation setting is
    /// `notation`. A player already connected keeps the setting in the hub,
    /// which `PUT /api/settings` has kept current.
    pub fn join(&self, player: &str, conn: ConnId, out: Outbox, notation: NotationSetting) {
        if let Ok(mut players) = self.players.lock() {
            players
                .entry(player.to_string())
                .or_insert_with(|| Connected {
                    sockets: HashMap::new(),
                    notation,
                })
                .sockets
                .insert(conn, out);
        }
    }

    /// The notation `player`'s frames are rendered in (the default when
    /// they have no socket).
    pub fn notation_of(&self, player: &str) -> NotationSetting {
        self.players
            .lock()
            .ok()
            .and_then(|players| players.get(player).map(|p| p.notation))
            .unwrap_or_default()
    }

    /// A connected player changed their setting: their live games render
    /// in it from now on. (The store holds it for their next connection.)
    pub fn set_notation(&self, player: &str, notation: NotationSetting) {
        if let Ok(mut players) = self.players.lock() {
            if let Some(connected) = players.get_mut(player) {
                connected.notation = notation;
            }
        }
    }

    /// The players with a socket open now.
    pub fn online(&self) -> std::collections::HashSet<String> {
        match self.players.lock() {
            Ok(players) => players.keys().cloned().collect(),
            Err(poisoned) => poisoned.into_inner().keys().cloned().collect(),
        }
    }

    /// Forgets a socket; true when it was `player`'s last.
    pub fn leave(&self, player: &str, conn: ConnId) -> bool {
        let Ok(mut players) = self.players.lock() else {
            return false;
        };
        let Some(connected) = players.get_mut(player) else {
            return false;
        };
        connected.sockets.remove(&conn);
        if connected.sockets.is_empty() {
            players.remove(player);
            true
        } else {
            false
        }
    }

    /// Sends `text` to every socket of `player`.
    pub fn send(&self, player: &str, text: &str) {
        if let Ok(players) = self.players.lock() {
            let sockets = players
                .get(player)
                .into_iter()
                .flat_map(|p| p.sockets.values());
            for out in sockets {
                let _ = out.send(Outbound::Text(text.to_string()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::mpsc;

    use super::*;

    #[test]
    fn a_players_notation_lives_as_long_as_their_sockets() {
        let hub = Hub::default();
        let (out, _outbox) = mpsc::unbounded_channel();
        hub.join("p1", 1, out.clone(), NotationSetting::Wxf);
        // A second tab keeps the setting the hub already has.
        hub.join("p1", 2, out, NotationSetting::Coordinate);
        assert_eq!(hub.notation_of("p1"), NotationSetting::Wxf);
        hub.set_notation("p1", NotationSetting::Vietnamese);
        assert!(!hub.leave("p1", 1));
        assert_eq!(hub.notation_of("p1"), NotationSetting::Vietnamese);
        assert!(hub.leave("p1", 2));
        assert_eq!(hub.notation_of("p1"), NotationSetting::Coordinate);
        assert!(hub.players.lock().unwrap().is_empty());
        // A setting changed with no socket open waits in the store.
        hub.set_notation("p1", NotationSetting::Chinese);
        assert!(hub.players.lock().unwrap().is_empty());
    }
}
