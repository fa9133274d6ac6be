//! The chat across nodes: a message posted on one node reaches the readers
//! of its game on every other node (each node knows only its own sockets).

use std::sync::Arc;

use futures_util::StreamExt;

use super::{bus, Node};
use crate::cluster::ClusterError;
use crate::store::GameSides;

/// Listens for the other nodes' chat messages and delivers each to this
/// node's readers of its game.
pub(super) async fn start(node: Arc<Node>) -> Result<(), ClusterError> {
    let mut messages = node
        .bus
        .subscribe(bus::CHAT)
        .await
        .map_err(super::lobby_sync::bus_error)?;
    tokio::spawn(async move {
        while let Some(message) = messages.next().await {
            let Some(news) = bus::decode::<bus::ChatNews>(&message.payload) else {
                continue;
            };
            if news.node == node.id {
                continue;
            }
            let sides = GameSides {
                red: news.red,
                black: news.black,
                over: news.over,
            };
            node.social
                .readers
                .deliver(&news.game, news.channel, &sides, &news.frame);
        }
    });
    Ok(())
}
