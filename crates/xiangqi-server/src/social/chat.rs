//! A game's two chats: the players' (only its two players write and read
//! it) and the spectators' (accounts that do not play it write, every
//! watcher but the players reads: no help from the audience during the
//! game). A socket reads a game's chat while it watches the game; a
//! message is checked (text, rate, who may write), stored with the game,
//! then sent to the readers allowed to see it.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::game::{ConnId, Outbound, Outbox};
use crate::ids::new_id;
use crate::social::text::{clean_text, TextError};
use crate::social::{MAX_CHAT_CHARS, MAX_CHAT_PER_CHANNEL};
use crate::state::AppState;
use crate::store::{ChatRow, GameSides, PlayerRow};
use xiangqi_server_protocol::echo::quoted;
use xiangqi_server_protocol::server::ChatLine;
use xiangqi_server_protocol::{ChatChannel, ServerMessage};

/// A socket reading a game's chat.
struct Reader {
    player: String,
    out: Outbox,
}

/// The sockets reading each game's chat.
#[derive(Default)]
pub struct ChatReaders {
    games: Mutex<HashMap<String, HashMap<ConnId, Reader>>>,
}

impl ChatReaders {
    /// Socket `conn` of `player` reads `game`'s chat.
    pub fn join(&self, game: &str, conn: ConnId, player: &str, out: Outbox) {
        if let Ok(mut games) = self.games.lock() {
            let reader = Reader {
                player: player.to_string(),
                out,
            };
            games
                .entry(game.to_string())
                .or_default()
                .insert(conn, reader);
        }
    }

    /// Socket `conn` stops reading `game`'s chat.
    pub fn leave(&self, game: &str, conn: ConnId) {
        if let Ok(mut games) = self.games.lock() {
            if let Some(readers) = games.get_mut(game) {
                readers.remove(&conn);
                if readers.is_empty() {
                    games.remove(game);
                }
            }
        }
    }

    /// Sends the chat `frame` of `channel` to the readers of `game` here.
    /// Live, the spectators' chat never reaches the players (the game may
    /// still run); they read it in the game's page once it is over.
    pub fn deliver(&self, game: &str, channel: ChatChannel, sides: &GameSides, frame: &str) {
        self.send(game, frame, |reader| match channel {
            ChatChannel::Players => sides.plays(reader),
            ChatChannel::Spectators => !sides.plays(reader),
        });
    }

    /// Sends `text` to the readers of `game` for whom `allowed(player)`.
    fn send(&self, game: &str, text: &str, allowed: impl Fn(&str) -> bool) {
        if let Ok(games) = self.games.lock() {
            for reader in games.get(game).into_iter().flat_map(|r| r.values()) {
                if allowed(&reader.player) {
                    let _ = reader.out.send(Outbound::Text(text.to_string()));
                }
            }
        }
    }
}

/// Whether `reader` may read `channel` of the game `sides`: the players'
/// chat its two players only; the spectators' chat everyone but the
/// players, and the players too once the game is over.
pub fn may_read(sides: &GameSides, channel: ChatChannel, reader: Option<&str>) -> bool {
    let plays = reader.is_some_and(|id| sides.plays(id));
    match channel {
        ChatChannel::Players => plays,
        ChatChannel::Spectators => !plays || sides.over,
    }
}

/// A refused message: the protocol's code and words.
pub type Refusal = (&'static str, String);

/// Checks and stores `player`'s message in `channel` of `game`, then sends
/// it to its readers.
pub async fn post(
    state: &AppState,
    player: &PlayerRow,
    game: &str,
    channel: ChatChannel,
    text: &str,
) -> Result<(), Refusal> {
    let text = clean_text(text, MAX_CHAT_CHARS).map_err(|e| match e {
        TextError::Empty => ("chat_empty", "a chat message needs some text".to_string()),
        TextError::TooLong(..) => ("chat_too_long", e.to_string()),
    })?;
    let social = &state.social;
    if let Err(wait) = social.chat_rate.check(&player.id) {
        let seconds = wait.as_secs() + 1;
        return Err((
            "rate_limited",
            format!("too many chat messages; wait {seconds} s"),
        ));
    }
    let sides = match state.store.game_sides(game).await {
        Ok(Some(sides)) => sides,
        Ok(None) => return Err(("unknown_game", format!("no game {}", quoted(game)))),
        Err(e) => {
            tracing::error!("reading game {game} for chat: {e}");
            return Err(("internal", "the chat could not be read".to_string()));
        }
    };
    let plays = sides.plays(&player.id);
    match channel {
        ChatChannel::Players if !plays => {
            return Err((
                "not_your_chat",
                "the players' chat is for the two players of the game".to_string(),
            ))
        }
        ChatChannel::Spectators if plays => {
            return Err((
                "not_your_chat",
                "players write in the players' chat, not the spectators'".to_string(),
            ))
        }
        ChatChannel::Spectators if player.guest => {
            return Err((
                "guest_chat",
                "the spectators' chat is for accounts: register to write in it".to_string(),
            ))
        }
        _ => {}
    }
    let row = ChatRow {
        id: new_id("m"),
        game: game.to_string(),
        channel: channel.name().to_string(),
        author: player.id.clone(),
        author_name: player.name.clone(),
        body: text,
        at: state.clock.unix_ms(),
    };
    match state.store.insert_chat(&row, MAX_CHAT_PER_CHANNEL).await {
        Ok(true) => {}
        Ok(false) => {
            return Err((
                "chat_full",
                format!("a game's chat keeps at most {MAX_CHAT_PER_CHANNEL} messages"),
            ))
        }
        Err(e) => {
            tracing::error!("storing a chat message of game {game}: {e}");
            return Err(("internal", "the message could not be stored".to_string()));
        }
    }
    let frame = ServerMessage::Chat {
        game: game.to_string(),
        message: chat_line(&row, channel),
    }
    .to_text();
    social.readers.deliver(game, channel, &sides, &frame);
    // In a cluster, the readers on the other nodes get it from the bus.
    if let Some(node) = &state.cluster {
        node.chat(game, channel, &sides, frame);
    }
    Ok(())
}

/// A stored message as the protocol's `ChatLine`.
pub fn chat_line(row: &ChatRow, channel: ChatChannel) -> ChatLine {
    ChatLine {
        id: row.id.clone(),
        channel,
        author: row.author.clone(),
        name: row.author_name.clone(),
        text: row.body.clone(),
        at: row.at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_reads_which_chat() {
        let mut sides = GameSides {
            red: "p_r".into(),
            black: "p_b".into(),
            over: false,
        };
        let players = ChatChannel::Players;
        let spectators = ChatChannel::Spectators;
        assert!(may_read(&sides, players, Some("p_r")));
        assert!(!may_read(&sides, players, Some("p_s")));
        assert!(!may_read(&sides, players, None));
        assert!(!may_read(&sides, spectators, Some("p_b")));
        assert!(may_read(&sides, spectators, Some("p_s")));
        assert!(may_read(&sides, spectators, None));
        sides.over = true;
        assert!(may_read(&sides, spectators, Some("p_b")));
        assert!(!may_read(&sides, players, Some("p_s")));
    }
}
