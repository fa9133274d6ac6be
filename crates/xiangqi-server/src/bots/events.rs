//! Each bot's event stream: at most one per bot (a newer one ends the
//! older), the bots online for the lobby, and the lines sent to them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use tokio::sync::mpsc;
use xiangqi_server_protocol::bot::BotEvent;

struct Listener {
    stream: u64,
    name: String,
    token: String,
    tx: mpsc::UnboundedSender<BotEvent>,
}

/// The open event streams, by bot id.
#[derive(Default)]
pub struct EventStreams {
    map: Mutex<HashMap<String, Listener>>,
    next: AtomicU64,
}

impl EventStreams {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Listener>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens bot `player`'s stream (opened with token `token`): the older
    /// one, if any, ends (its sender is dropped). Returns the stream's
    /// number and its receiver.
    pub fn open(
        &self,
        player: &str,
        name: &str,
        token: &str,
    ) -> (u64, mpsc::UnboundedReceiver<BotEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let stream = self.next.fetch_add(1, Ordering::Relaxed);
        self.map().insert(
            player.to_string(),
            Listener {
                stream,
                name: name.to_string(),
                token: token.to_string(),
                tx,
            },
        );
        (stream, rx)
    }

    /// Forgets stream `stream` of `player` (a newer one stays).
    pub fn close(&self, player: &str, stream: u64) {
        let mut map = self.map();
        if map.get(player).is_some_and(|l| l.stream == stream) {
            map.remove(player);
        }
    }

    /// Ends the streams opened with token `token`.
    pub fn end_token(&self, token: &str) {
        self.map().retain(|_, l| l.token != token);
    }

    /// Sends `event` to bot `player`'s stream; false when it has none.
    pub fn send(&self, player: &str, event: BotEvent) -> bool {
        self.map()
            .get(player)
            .is_some_and(|l| l.tx.send(event).is_ok())
    }

    /// Whether bot `player` has a stream open.
    pub fn is_online(&self, player: &str) -> bool {
        self.map().get(player).is_some_and(|l| !l.tx.is_closed())
    }

    /// The bots online: (id, name), by name.
    pub fn online(&self) -> Vec<(String, String)> {
        let mut bots: Vec<_> = self
            .map()
            .iter()
            .filter(|(_, l)| !l.tx.is_closed())
            .map(|(id, l)| (id.clone(), l.name.clone()))
            .collect();
        bots.sort_by_key(|(_, name)| name.to_lowercase());
        bots
    }
}

/// The lines of bot `player`'s event stream: first a `game_start` for each
/// of its games in progress and a `challenge` for each open challenge to
/// it, then what comes, with keep-alives; the stream ends when a newer one
/// opens, its token is revoked, or the bot hangs up.
pub fn lines(
    state: &crate::state::AppState,
    player: &crate::store::PlayerRow,
    token: String,
) -> impl futures_util::Stream<Item = String> + Send + 'static {
    use std::collections::VecDeque;
    use tokio::sync::broadcast;
    use tokio::time::{interval_at, Instant};
    use xiangqi_server_protocol::bot::{to_line, GameRef, PlayerInfo};
    use xiangqi_server_protocol::server::Side;

    let (stream, inbox) = state.bots.events.open(&player.id, &player.name, &token);
    let mut pending = VecDeque::new();
    for game in state.lobby.games_of(&player.id) {
        let (color, opponent) = if game.red.id == player.id {
            (Side::Red, game.black)
        } else {
            (Side::Black, game.red)
        };
        let event = BotEvent::GameStart {
            game: GameRef {
                id: game.id,
                color,
                opponent: PlayerInfo {
                    name: opponent.name,
                    rating: opponent.rating,
                    bot: opponent.bot,
                },
            },
        };
        pending.push_back(to_line(&event));
    }
    for challenge in state.bots.challenges.to(&player.id) {
        pending.push_back(to_line(&BotEvent::Challenge { challenge }));
    }

    /// Forgets the stream when it is dropped.
    struct Registration {
        bots: std::sync::Arc<super::Bots>,
        player: String,
        stream: u64,
    }
    impl Drop for Registration {
        fn drop(&mut self) {
            self.bots.events.close(&self.player, self.stream);
        }
    }
    struct Feed {
        inbox: mpsc::UnboundedReceiver<BotEvent>,
        revoked: broadcast::Receiver<String>,
        token: String,
        ticks: tokio::time::Interval,
        pending: VecDeque<String>,
        _registration: Registration,
    }
    let keep_alive = super::ndjson::KEEP_ALIVE;
    let feed = Feed {
        inbox,
        revoked: state.bots.revocations(),
        token,
        ticks: interval_at(Instant::now() + keep_alive, keep_alive),
        pending,
        _registration: Registration {
            bots: state.bots.clone(),
            player: player.id.clone(),
            stream,
        },
    };
    futures_util::stream::unfold(feed, |mut feed| async move {
        loop {
            if let Some(line) = feed.pending.pop_front() {
                return Some((line, feed));
            }
            tokio::select! {
                event = feed.inbox.recv() => feed.pending.push_back(to_line(&event?)),
                _ = feed.ticks.tick() => return Some(("\n".to_string(), feed)),
                revoked = feed.revoked.recv() => match revoked {
                    Ok(id) if id == feed.token => return None,
                    Err(broadcast::error::RecvError::Closed) => return None,
                    _ => {}
                },
            }
        }
    })
}
