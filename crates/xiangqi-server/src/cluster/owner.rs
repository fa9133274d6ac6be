//! The owner's side: answers the requests other nodes send about the games
//! it runs (actions, presence of players' sockets, snapshots, summaries)
//! and about its seeks, and relays each of its rooms' events to the bus.

use std::sync::Arc;

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use crate::cluster::bus::{self, GameNews, News, Reply, Request};
use crate::cluster::wire::{WireEvent, WireSnapshot};
use crate::cluster::{lobby_sync, locked, synthetic_conn, ClusterError, Node};
use crate::game::room::RoomCommand;
use crate::game::view::EventKind;
use crate::game::{Outbound, RoomHandle};

/// Subscribes to this node's requests and answers each in its own task.
pub(super) async fn serve_requests(node: Arc<Node>) -> Result<(), ClusterError> {
    let mut requests = node
        .bus
        .subscribe(bus::node_subject(&node.id))
        .await
        .map_err(|error| ClusterError::Bus {
            url: "(subscribe)".to_string(),
            error: error.to_string(),
        })?;
    tokio::spawn(async move {
        while let Some(message) = requests.next().await {
            let node = node.clone();
            tokio::spawn(async move {
                let Some(reply_to) = message.reply else {
                    return;
                };
                let Some(request) = bus::decode::<Request>(&message.payload) else {
                    return;
                };
                let reply = answer(&node, request).await;
                if let Err(error) = node.bus.publish(reply_to, bus::encode(&reply).into()).await {
                    tracing::warn!("answering a node failed: {error}");
                }
            });
        }
    });
    Ok(())
}

fn owned(node: &Node, game: &str) -> Option<RoomHandle> {
    locked(&node.owned).get(game).cloned()
}

async fn answer(node: &Node, request: Request) -> Reply {
    match request {
        Request::Act {
            game,
            player,
            action,
        } => {
            let Some(room) = owned(node, &game) else {
                return Reply::NotOwner;
            };
            match room.act(&player, action).await {
                Ok(answer) => Reply::Done(answer.map_err(|e| (e.code.to_string(), e.message))),
                Err(_) => Reply::NotOwner,
            }
        }
        Request::Present {
            game,
            player,
            node: from,
            conn,
        } => {
            let Some(room) = owned(node, &game) else {
                return Reply::NotOwner;
            };
            let local = synthetic_conn();
            let known = locked(&node.presences).insert((from, conn), (game, local));
            if let Some((game, old)) = known {
                if let Some(room) = owned(node, &game) {
                    let _ = room.send(RoomCommand::Unwatch { conn: old });
                }
            }
            // The player's frames go to their own node through the relay:
            // this socket only makes them present.
            let (out, _dropped) = mpsc::unbounded_channel();
            let watch = RoomCommand::Watch {
                conn: local,
                player,
                out,
                since: None,
            };
            match room.send(watch) {
                Ok(()) => Reply::Done(Ok(())),
                Err(_) => Reply::NotOwner,
            }
        }
        Request::Absent {
            game: _,
            node: from,
            conn,
        } => {
            absent(node, &from, conn);
            Reply::Done(Ok(()))
        }
        Request::Snapshot { game } => match owned(node, &game) {
            Some(room) => match snapshot(&room).await {
                Some(snapshot) => Reply::Snapshot(Box::new(snapshot)),
                None => Reply::NotOwner,
            },
            None => Reply::NotOwner,
        },
        Request::Summary { game } => {
            let Some(room) = owned(node, &game) else {
                return Reply::NotOwner;
            };
            let (reply, answer) = oneshot::channel();
            if room.send(RoomCommand::Summary { reply }).is_err() {
                return Reply::NotOwner;
            }
            match answer.await {
                Ok((summary, moves, fen)) => Reply::Summary(Box::new(summary), moves, fen),
                Err(_) => Reply::NotOwner,
            }
        }
        Request::TakeSeek { id, player } => Reply::Seek(
            node.lobby
                .take_seek(&id, &player)
                .map(|seek| lobby_sync::wire_seek(&seek))
                .map_err(|(code, message)| (code.to_string(), message)),
        ),
    }
}

/// A socket of node `from` is gone: its player no longer watches here.
pub(super) fn absent(node: &Node, from: &str, conn: u64) {
    let known = locked(&node.presences).remove(&(from.to_string(), conn));
    if let Some((game, local)) = known {
        if let Some(room) = owned(node, &game) {
            let _ = room.send(RoomCommand::Unwatch { conn: local });
        }
    }
}

/// Node `from` is gone (silent too long): its sockets watch no more.
pub(super) fn node_gone(node: &Node, from: &str) {
    let gone: Vec<u64> = locked(&node.presences)
        .keys()
        .filter(|(n, _)| n == from)
        .map(|(_, conn)| *conn)
        .collect();
    for conn in gone {
        absent(node, from, conn);
    }
}

/// The room's full state, as a watcher that joins and leaves at once sees it.
async fn snapshot(room: &RoomHandle) -> Option<WireSnapshot> {
    let conn = synthetic_conn();
    let (out, mut frames) = mpsc::unbounded_channel();
    let watch = RoomCommand::Watch {
        conn,
        player: String::new(),
        out,
        since: None,
    };
    room.send(watch).ok()?;
    let first = frames.recv().await;
    let _ = room.send(RoomCommand::Unwatch { conn });
    match first? {
        Outbound::State(snapshot) => Some(WireSnapshot::of(&snapshot)),
        _ => None,
    }
}

/// Relays `room`'s events to its subject, in order, as a watcher without a
/// side; at the game's end gives the lease up (a finished game is any
/// node's to load) and leaves the room.
pub(super) fn relay(node: &Node, room: &RoomHandle) {
    let conn = synthetic_conn();
    let (out, mut frames) = mpsc::unbounded_channel();
    let watch = RoomCommand::Watch {
        conn,
        player: String::new(),
        out,
        since: None,
    };
    if room.send(watch).is_err() {
        return;
    }
    let bus = node.bus.clone();
    let store = node.store.clone();
    let me = node.id.clone();
    let room = room.clone();
    let owned = node.owned.clone();
    tokio::spawn(async move {
        let subject = bus::game_subject(&room.id);
        while let Some(frame) = frames.recv().await {
            let (news, over) = match frame {
                Outbound::Event(_, event) => (
                    News::Event(WireEvent::of(&event)),
                    matches!(event.kind, EventKind::End(_)),
                ),
                Outbound::State(snapshot) => (
                    News::State(Box::new(WireSnapshot::of(&snapshot))),
                    snapshot.result.is_some(),
                ),
                Outbound::Text(_) => continue,
            };
            let news = GameNews {
                node: me.clone(),
                news,
            };
            if let Err(error) = bus
                .publish(subject.clone(), bus::encode(&news).into())
                .await
            {
                tracing::warn!("game {}: publishing an event failed: {error}", room.id);
            }
            if over {
                break;
            }
        }
        let _ = room.send(RoomCommand::Unwatch { conn });
        locked(&owned).remove(&room.id);
        if let Err(error) = store.release_lease(&room.id, &me).await {
            tracing::warn!("game {}: giving its lease up: {error}", room.id);
        }
    });
}
