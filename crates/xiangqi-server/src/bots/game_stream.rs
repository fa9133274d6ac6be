//! A game's NDJSON stream for one of its bots: the bot watches the room as
//! a socket does (so it is at the board while the stream is open, and the
//! 45 s away rule counts from when it closes), and the room's frames are
//! written as `game_full`, `game_state` and `chat_line` lines. The stream
//! ends after the game's end, when the token is revoked, or when the bot
//! hangs up.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};
use tokio::time::{interval_at, Instant, Interval};
use xiangqi_core::Color;

use crate::game::room::RoomCommand;
use crate::game::view::{reason_code, EventKind, Snapshot};
use crate::game::{ConnId, Outbound, RoomHandle};
use crate::social::Social;
use xiangqi_server_protocol::bot::{
    to_line, GameFull, GameStatus, GameStreamLine, StreamChat, StreamState,
};
use xiangqi_server_protocol::server::{ServerMessage, Side};

use super::ndjson::KEEP_ALIVE;
use super::player_info;

/// Watcher numbers for game streams: apart from sockets' (counted from 0)
/// and a cluster's synthetic ones (from 2^62).
static NEXT_STREAM_CONN: AtomicU64 = AtomicU64::new(1 << 61);

/// A watcher number of the bot API's own.
pub fn stream_conn() -> ConnId {
    NEXT_STREAM_CONN.fetch_add(1, Ordering::Relaxed)
}

fn side(color: Color) -> Side {
    match color {
        Color::Red => Side::Red,
        Color::Black => Side::Black,
    }
}

/// The game as the stream last told it, kept up to date from the events.
struct Tracker {
    moves: Vec<String>,
    clocks: [u64; 2],
    ended: Option<(String, String)>,
    draw_offer: Option<Color>,
    takeback_offer: Option<Color>,
}

impl Tracker {
    fn of(snapshot: &Snapshot) -> Tracker {
        Tracker {
            moves: snapshot.moves.iter().map(ToString::to_string).collect(),
            clocks: snapshot.clock.clocks,
            ended: snapshot.result.as_ref().map(|r| {
                (
                    r.outcome.result().to_string(),
                    reason_code(r.reason).to_string(),
                )
            }),
            draw_offer: snapshot.draw_offer,
            takeback_offer: snapshot.takeback_offer,
        }
    }

    /// Takes in an event; false for one a bot does not hear of (away,
    /// rematch).
    fn apply(&mut self, kind: &EventKind, clocks: [u64; 2]) -> bool {
        self.clocks = clocks;
        match kind {
            EventKind::Move { ply, mv, .. } => {
                self.moves.truncate(*ply as usize);
                self.moves.push(mv.to_string());
                // A move ends a pending takeback request (without an event).
                self.takeback_offer = None;
            }
            EventKind::DrawOffer(by) => self.draw_offer = Some(*by),
            EventKind::DrawDeclined(_) => self.draw_offer = None,
            EventKind::TakebackOffer(by) => self.takeback_offer = Some(*by),
            EventKind::TakebackDeclined(_) => self.takeback_offer = None,
            EventKind::Takeback { ply, .. } => {
                self.moves.truncate(*ply as usize);
                self.takeback_offer = None;
            }
            EventKind::End(result) => {
                self.ended = Some((
                    result.outcome.result().to_string(),
                    reason_code(result.reason).to_string(),
                ));
                self.draw_offer = None;
                self.takeback_offer = None;
            }
            EventKind::Away(_)
            | EventKind::Back(_)
            | EventKind::RematchOffer(_)
            | EventKind::RematchDeclined(_)
            | EventKind::RematchWithdrawn(_)
            | EventKind::Rematch(_) => return false,
        }
        true
    }

    fn state(&self) -> StreamState {
        StreamState {
            moves: self.moves.join(" "),
            red_ms: self.clocks[0],
            black_ms: self.clocks[1],
            status: if self.ended.is_some() {
                GameStatus::Ended
            } else {
                GameStatus::Started
            },
            result: self.ended.as_ref().map(|(result, _)| result.clone()),
            reason: self.ended.as_ref().map(|(_, reason)| reason.clone()),
            draw_offer: self.draw_offer.map(side),
            takeback_offer: self.takeback_offer.map(side),
        }
    }
}

/// Leaves the room and the chat when the stream is dropped (the bot hung
/// up, or the stream ended).
struct Seat {
    room: RoomHandle,
    social: Arc<Social>,
    conn: ConnId,
}

impl Drop for Seat {
    fn drop(&mut self) {
        let _ = self.room.send(RoomCommand::Unwatch { conn: self.conn });
        self.social.readers.leave(&self.room.id, self.conn);
    }
}

struct Feed {
    inbox: mpsc::UnboundedReceiver<Outbound>,
    revoked: broadcast::Receiver<String>,
    token: String,
    ticks: Interval,
    tracker: Option<Tracker>,
    pending: VecDeque<String>,
    done: bool,
    _seat: Seat,
}

impl Feed {
    /// The lines of one frame from the room.
    fn take(&mut self, out: Outbound) {
        match out {
            Outbound::State(snapshot) => {
                let tracker = Tracker::of(&snapshot);
                let line = match &self.tracker {
                    None => {
                        let facts = &snapshot.facts;
                        GameStreamLine::GameFull(Box::new(GameFull {
                            id: facts.id.clone(),
                            rated: facts.rated,
                            rules: facts.rules.clone(),
                            tc: facts.tc_text.clone(),
                            red: player_info(&facts.red),
                            black: player_info(&facts.black),
                            initial_fen: facts.start.to_fen(),
                            state: tracker.state(),
                        }))
                    }
                    Some(_) => GameStreamLine::GameState(tracker.state()),
                };
                self.done = tracker.ended.is_some();
                self.tracker = Some(tracker);
                self.pending.push_back(to_line(&line));
            }
            Outbound::Event(_, event) => {
                let Some(tracker) = self.tracker.as_mut() else {
                    return;
                };
                if tracker.apply(&event.kind, event.clock.clocks) {
                    self.pending
                        .push_back(to_line(&GameStreamLine::GameState(tracker.state())));
                    self.done = tracker.ended.is_some();
                }
            }
            Outbound::Text(text) => {
                if let Ok(ServerMessage::Chat { message, .. }) = serde_json::from_str(&text) {
                    self.pending
                        .push_back(to_line(&GameStreamLine::ChatLine(StreamChat {
                            room: message.channel,
                            name: message.name,
                            text: message.text,
                        })));
                }
            }
        }
    }

    async fn next_line(&mut self) -> Option<String> {
        loop {
            if let Some(line) = self.pending.pop_front() {
                return Some(line);
            }
            if self.done {
                return None;
            }
            tokio::select! {
                out = self.inbox.recv() => self.take(out?),
                _ = self.ticks.tick() => return Some("\n".to_string()),
                revoked = self.revoked.recv() => match revoked {
                    Ok(id) if id == self.token => return None,
                    Err(broadcast::error::RecvError::Closed) => return None,
                    _ => {}
                },
            }
        }
    }
}

/// The lines of `room`'s stream for bot `player`, whose token is `token`
/// (the caller has checked that the bot plays the game).
pub fn lines(
    room: RoomHandle,
    player: &str,
    token: String,
    social: Arc<Social>,
    revoked: broadcast::Receiver<String>,
) -> impl futures_util::Stream<Item = String> + Send + 'static {
    let conn = stream_conn();
    let (out, inbox) = mpsc::unbounded_channel();
    social.readers.join(&room.id, conn, player, out.clone());
    let _ = room.send(RoomCommand::Watch {
        conn,
        player: player.to_string(),
        out,
        since: None,
    });
    let feed = Feed {
        inbox,
        revoked,
        token,
        ticks: interval_at(Instant::now() + KEEP_ALIVE, KEEP_ALIVE),
        tracker: None,
        pending: VecDeque::new(),
        done: false,
        _seat: Seat { room, social, conn },
    };
    futures_util::stream::unfold(feed, |mut feed| async move {
        let line = feed.next_line().await?;
        Some((line, feed))
    })
}
