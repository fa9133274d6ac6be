//! The lobby across nodes: each node publishes its own open seeks (on every
//! change, and every second as its heartbeat) and the games it starts and
//! ends; every node shows the union. A node silent for
//! [`SILENT_LIMIT`] is gone: its seeks leave the lobby and its players'
//! sockets stop counting as present in the games owned here. Also the
//! `started` notice for players whose sockets are on other nodes.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::mpsc;
use xiangqi_server_protocol::ServerMessage;

use crate::cluster::bus::{self, LobbyChange, LobbyNews, WireSeek};
use crate::cluster::{owner, ClusterError, Node};
use crate::game::lobby::{LobbyMirror, Seek};
use crate::game::view::{GameFacts, Seat};
use crate::security::AddressKey;
use crate::time_control::parse_time_control;

/// How often a node publishes its seeks (its heartbeat).
const HEARTBEAT: Duration = Duration::from_secs(1);
/// A node not heard of for this long is gone.
const SILENT_LIMIT: Duration = Duration::from_secs(5);

pub(super) fn bus_error(error: impl std::fmt::Display) -> ClusterError {
    ClusterError::Bus {
        url: "(subscribe)".to_string(),
        error: error.to_string(),
    }
}

pub(super) async fn start(
    node: Arc<Node>,
    mut outgoing: mpsc::UnboundedReceiver<LobbyChange>,
) -> Result<(), ClusterError> {
    let mut news = node.bus.subscribe(bus::LOBBY).await.map_err(bus_error)?;
    let mut started = node.bus.subscribe(bus::STARTED).await.map_err(bus_error)?;
    list_stored_games(&node).await;
    // This node's changes, in order, and its heartbeat.
    let publisher = node.clone();
    tokio::spawn(async move {
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        loop {
            let change = tokio::select! {
                change = outgoing.recv() => match change {
                    Some(change) => change,
                    None => return,
                },
                _ = heartbeat.tick() => LobbyChange::Seeks(publisher.lobby.own_seeks()),
            };
            let news = LobbyNews {
                node: publisher.id.clone(),
                change,
            };
            publisher
                .publish(bus::LOBBY.to_string(), bus::encode(&news))
                .await;
        }
    });
    // The other nodes' changes, and who is still there.
    let listener = node.clone();
    tokio::spawn(async move {
        let mut heard: HashMap<String, Instant> = HashMap::new();
        let mut sweep = tokio::time::interval(HEARTBEAT);
        loop {
            tokio::select! {
                message = news.next() => {
                    let Some(message) = message else { return };
                    let Some(news) = bus::decode::<LobbyNews>(&message.payload) else { continue };
                    if news.node == listener.id {
                        continue;
                    }
                    heard.insert(news.node.clone(), Instant::now());
                    apply(&listener, &news.node, news.change);
                }
                _ = sweep.tick() => {
                    let gone: Vec<String> = heard
                        .iter()
                        .filter(|(_, at)| at.elapsed() > SILENT_LIMIT)
                        .map(|(node, _)| node.clone())
                        .collect();
                    for gone in gone {
                        tracing::warn!("node {}: node {gone} is silent: taken for gone", listener.id);
                        heard.remove(&gone);
                        forget(&listener, &gone);
                    }
                }
            }
        }
    });
    let notifier = node.clone();
    tokio::spawn(async move {
        while let Some(message) = started.next().await {
            let Some(news) = bus::decode::<bus::Started>(&message.payload) else {
                continue;
            };
            if news.node == notifier.id {
                continue;
            }
            let text = ServerMessage::Started { game: news.game }.to_text();
            for player in &news.players {
                notifier.hub.send(player, &text);
            }
        }
    });
    Ok(())
}

fn apply(node: &Node, from: &str, change: LobbyChange) {
    match change {
        LobbyChange::Seeks(seeks) => node.lobby.set_remote_seeks(from, seeks),
        LobbyChange::GameAdded(game) => node
            .lobby
            .remote_game_change(ServerMessage::GameAdded { game: *game }),
        LobbyChange::GameRemoved(id) => node
            .lobby
            .remote_game_change(ServerMessage::GameRemoved { id }),
    }
}

fn forget(node: &Node, gone: &str) {
    node.lobby.set_remote_seeks(gone, Vec::new());
    owner::node_gone(node, gone);
}

/// The games in progress as stored, for a node that starts while others
/// run: the lobby lists them from the first frame on.
async fn list_stored_games(node: &Node) {
    let games = match node.store.unfinished_games().await {
        Ok(games) => games,
        Err(error) => {
            tracing::error!("node {}: listing the games in progress: {error}", node.id);
            return;
        }
    };
    for stored in games {
        let row = &stored.game;
        let mut seats = Vec::new();
        for id in [&row.red, &row.black] {
            let player = match Seat::engine_level(id) {
                Some(_) => None,
                None => node.store.player(id).await.ok().flatten(),
            };
            seats.push(Seat::stored(id, player.as_ref()));
        }
        let (Ok(tc), Ok(start)) = (
            parse_time_control(&row.time_control),
            xiangqi_core::Position::from_fen(&row.start_fen),
        ) else {
            continue;
        };
        let black = seats.pop().unwrap_or(Seat::Engine { level: 0 });
        let red = seats.pop().unwrap_or(Seat::Engine { level: 0 });
        let facts = GameFacts {
            id: row.id.clone(),
            red,
            black,
            tc,
            tc_text: row.time_control.clone(),
            rated: row.rated,
            rules: row.rules.clone(),
            start,
            started_at: row.started_at,
        };
        let ply = stored.events.iter().filter(|e| e.kind == "move").count() as u32;
        node.lobby.remote_game_change(ServerMessage::GameAdded {
            game: facts.summary(None, ply),
        });
    }
}

impl LobbyMirror for Arc<Node> {
    fn changed(&self, frame: ServerMessage) {
        let change = match frame {
            ServerMessage::SeekAdded { .. } | ServerMessage::SeekRemoved { .. } => {
                LobbyChange::Seeks(self.lobby.own_seeks())
            }
            ServerMessage::GameAdded { game } => LobbyChange::GameAdded(Box::new(game)),
            ServerMessage::GameRemoved { id } => LobbyChange::GameRemoved(id),
            _ => return,
        };
        let _ = self.lobby_out.send(change);
    }
}

/// The wire form of a seek taken here for a player on another node.
pub(super) fn wire_seek(seek: &Seek) -> WireSeek {
    WireSeek {
        id: seek.id.clone(),
        seat: (&seek.seat).into(),
        tc: crate::time_control::format_time_control(&seek.tc),
        rated: seek.rated,
        color: seek.color,
        rules: seek.rules.clone(),
    }
}

/// The seek taken on another node, to start its game here; `address` is the
/// accepting socket's (the seek is not listed again).
pub(super) fn seek_of(seek: WireSeek, address: AddressKey) -> Result<Seek, (String, String)> {
    let tc = parse_time_control(&seek.tc)
        .map_err(|e| ("internal".to_string(), format!("the seek's clock: {e}")))?;
    Ok(Seek {
        id: seek.id,
        seat: seek.seat.into(),
        tc,
        rated: seek.rated,
        color: seek.color,
        rules: seek.rules,
        address,
    })
}
