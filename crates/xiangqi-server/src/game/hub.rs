//! Each player's open sockets: for messages to a player (a game started)
//! and to know when a player's last socket is gone (their seeks go).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::game::{ConnId, Outbound, Outbox};

/// Sockets by player id.
#[derive(Default)]
pub struct Hub {
    players: Mutex<HashMap<String, HashMap<ConnId, Outbox>>>,
}

impl Hub {
    /// Registers a socket of `player`.
    pub fn join(&self, player: &str, conn: ConnId, out: Outbox) {
        if let Ok(mut players) = self.players.lock() {
            players
                .entry(player.to_string())
                .or_default()
                .insert(conn, out);
        }
    }

    /// Forgets a socket; true when it was `player`'s last.
    pub fn leave(&self, player: &str, conn: ConnId) -> bool {
        let Ok(mut players) = self.players.lock() else {
            return false;
        };
        let Some(conns) = players.get_mut(player) else {
            return false;
        };
        conns.remove(&conn);
        if conns.is_empty() {
            players.remove(player);
            true
        } else {
            false
        }
    }

    /// Sends `text` to every socket of `player`.
    pub fn send(&self, player: &str, text: &str) {
        if let Ok(players) = self.players.lock() {
            for out in players.get(player).into_iter().flat_map(|c| c.values()) {
                let _ = out.send(Outbound::Text(text.to_string()));
            }
        }
    }
}
