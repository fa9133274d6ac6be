//! One player's side of a game, as a state machine over the server's
//! frames (protocol version 1, docs/server.md): it follows the event
//! versions, counts plies, and when the server offers it `legal` moves it
//! picks one at random for the current ply, or resigns there once told to
//! stop (the end of a level's measuring window). No sockets here, so the
//! protocol handling is unit-tested on its own.

use serde_json::{json, Value};

use super::random::SplitMix64;

/// What the bot wants sent, in order.
#[derive(Debug, PartialEq, Eq)]
pub enum Outgoing {
    Pong,
    /// Re-join the room after a gap in the event versions.
    Watch {
        since: u64,
    },
    Move {
        ply: u64,
        iccs: String,
    },
    /// Resign, on our turn, once the level's window is over.
    Resign,
    /// A message in one of the game's two chats.
    Chat {
        channel: ChatChannel,
        text: String,
    },
}

/// The game's two chats (docs/server.md, "Chat and reports"). xtask
/// depends on no workspace crate (ARCHITECTURE.md), so this is not the
/// protocol crate's `ChatChannel`; the bots' tests pin the names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatChannel {
    /// Its two players write and read it.
    Players,
    /// The watchers that do not play write (accounts) and read it.
    Spectators,
}

impl ChatChannel {
    pub fn name(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }
}

/// A `chat` frame the server sent: which chat, and its text.
#[derive(Debug, PartialEq, Eq)]
pub struct ChatSeen {
    pub channel: ChatChannel,
    pub text: String,
}

impl Outgoing {
    /// The frame's text for the game `game`.
    pub fn frame(&self, game: &str) -> String {
        match self {
            Outgoing::Pong => json!({"t": "pong"}),
            Outgoing::Watch { since } => json!({"t": "watch", "game": game, "since": since}),
            Outgoing::Move { ply, iccs } => {
                json!({"t": "move", "game": game, "ply": ply, "move": iccs})
            }
            Outgoing::Resign => json!({"t": "resign", "game": game}),
            Outgoing::Chat { channel, text } => {
                json!({"t": "chat", "game": game, "channel": channel.name(), "text": text})
            }
        }
        .to_string()
    }
}

/// What one frame did: the frames to send, the ply it acknowledged, the
/// chat message it brought, whether it was a move of the game (after which
/// our reply may be a premove), and whether the game is over.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reaction {
    pub send: Vec<Outgoing>,
    pub acked: Option<u64>,
    pub chat: Option<ChatSeen>,
    pub moved: bool,
    pub ended: bool,
}

/// A frame the protocol does not allow here, or an `error` frame.
#[derive(Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One side of one game, from `watch` to the `end` event.
pub struct GameBot {
    game: String,
    rng: SplitMix64,
    /// The last event version seen; 0 before the first `state`.
    version: u64,
    /// Plies played so far, as the server told us.
    plies: u64,
    /// The ply our last move was sent for, so each ply gets one move.
    moved_at: Option<u64>,
    /// The `result` object once the game is over.
    result: Option<Value>,
    /// Resign instead of moving at our next turn.
    stopping: bool,
}

impl GameBot {
    pub fn new(game: &str, seed: u64) -> GameBot {
        GameBot {
            game: game.to_owned(),
            rng: SplitMix64::new(seed),
            version: 0,
            plies: 0,
            moved_at: None,
            result: None,
            stopping: false,
        }
    }

    /// From now on, resign at our turn instead of moving. Only the side to
    /// move acts, so exactly one side resigns and no move of the other is
    /// in flight when the game ends (it would be refused as `game_over`).
    pub fn stop(&mut self) {
        self.stopping = true;
    }

    pub fn game(&self) -> &str {
        &self.game
    }

    pub fn plies(&self) -> u64 {
        self.plies
    }

    /// The game's `result` object, once it ended.
    pub fn result(&self) -> Option<&Value> {
        self.result.as_ref()
    }

    /// Handles one frame from the server.
    pub fn on_frame(&mut self, frame: &Value) -> Result<Reaction, ProtocolError> {
        let mut reaction = Reaction::default();
        match kind(frame)? {
            "ping" => reaction.send.push(Outgoing::Pong),
            "pong" => {}
            "error" => return Err(error_text(frame)),
            "ack" => {
                self.check_game(frame)?;
                reaction.acked = Some(field_u64(frame, "ply")?);
            }
            "state" => {
                self.check_game(frame)?;
                self.version = field_u64(frame, "v")?;
                self.plies = frame["moves"]
                    .as_array()
                    .ok_or_else(|| bad(frame, "no `moves` list"))?
                    .len() as u64;
                if !frame["result"].is_null() {
                    self.result = Some(frame["result"].clone());
                }
                self.after_update(frame, &mut reaction)?;
            }
            "event" => {
                self.check_game(frame)?;
                let version = field_u64(frame, "v")?;
                if version <= self.version {
                    return Ok(reaction); // seen already (a resent event)
                }
                if version > self.version + 1 {
                    // Missed events: ask for them instead of guessing.
                    reaction.send.push(Outgoing::Watch {
                        since: self.version,
                    });
                    return Ok(reaction);
                }
                self.version = version;
                let event = &frame["event"];
                match event["kind"].as_str() {
                    Some("move") => {
                        let ply = field_u64(event, "ply")?;
                        if ply != self.plies {
                            return Err(bad(
                                frame,
                                &format!("move event for ply {ply}, expected {}", self.plies),
                            ));
                        }
                        self.plies += 1;
                        reaction.moved = true;
                    }
                    Some("end") => self.result = Some(event["result"].clone()),
                    Some("draw_offer" | "draw_declined" | "away" | "back") => {}
                    _ => return Err(bad(frame, "unknown event kind")),
                }
                self.after_update(frame, &mut reaction)?;
            }
            "chat" => {
                self.check_game(frame)?;
                let message = &frame["message"];
                let channel = match message["channel"].as_str() {
                    Some("players") => ChatChannel::Players,
                    Some("spectators") => ChatChannel::Spectators,
                    _ => return Err(bad(frame, "a chat message of no known channel")),
                };
                let text = message["text"]
                    .as_str()
                    .ok_or_else(|| bad(frame, "a chat message without text"))?;
                reaction.chat = Some(ChatSeen {
                    channel,
                    text: text.to_owned(),
                });
            }
            // Lobby news reaches a socket only if it subscribed; harmless.
            "seek_added" | "seek_removed" | "game_added" | "game_removed" => {}
            _ => return Err(bad(frame, "unexpected frame during a game")),
        }
        reaction.ended = self.result.is_some();
        Ok(reaction)
    }

    /// After a `state` or an `event`: move if the server offers us moves
    /// for a ply we have not moved at yet.
    fn after_update(
        &mut self,
        frame: &Value,
        reaction: &mut Reaction,
    ) -> Result<(), ProtocolError> {
        if self.result.is_some() || self.moved_at == Some(self.plies) {
            return Ok(());
        }
        let legal = match frame["legal"].as_array() {
            Some(legal) => legal,
            None => return Err(bad(frame, "no `legal` list")),
        };
        if legal.is_empty() {
            return Ok(());
        }
        self.moved_at = Some(self.plies);
        if self.stopping {
            reaction.send.push(Outgoing::Resign);
            return Ok(());
        }
        let pick = &legal[self.rng.below(legal.len())];
        let iccs = pick
            .as_str()
            .ok_or_else(|| bad(frame, "a legal move that is not a string"))?;
        reaction.send.push(Outgoing::Move {
            ply: self.plies,
            iccs: iccs.to_owned(),
        });
        Ok(())
    }

    fn check_game(&self, frame: &Value) -> Result<(), ProtocolError> {
        match frame["game"].as_str() {
            Some(g) if g == self.game => Ok(()),
            _ => Err(bad(frame, "a frame for another game")),
        }
    }
}

/// The `t` of a frame.
pub fn kind(frame: &Value) -> Result<&str, ProtocolError> {
    frame["t"]
        .as_str()
        .ok_or_else(|| bad(frame, "a frame without `t`"))
}

fn field_u64(frame: &Value, name: &str) -> Result<u64, ProtocolError> {
    frame[name]
        .as_u64()
        .ok_or_else(|| bad(frame, &format!("no number `{name}`")))
}

/// An `error` frame as a protocol error.
pub fn error_text(frame: &Value) -> ProtocolError {
    ProtocolError(format!(
        "error frame {}: {}",
        frame["code"].as_str().unwrap_or("?"),
        frame["message"].as_str().unwrap_or("")
    ))
}

/// A frame that breaks the protocol, shortened for the report.
pub fn bad(frame: &Value, why: &str) -> ProtocolError {
    let mut text = frame.to_string();
    if text.len() > 200 {
        let cut = (0..=200)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        text.truncate(cut);
        text.push('…');
    }
    ProtocolError(format!("{why}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(moves: usize, v: u64, legal: &[&str]) -> Value {
        let moves: Vec<Value> = (0..moves)
            .map(|_| json!({"iccs": "h2e2", "text": "h2e2"}))
            .collect();
        json!({"t": "state", "game": "g_1", "v": v, "moves": moves, "legal": legal,
               "result": null, "you": "red", "turn": "red"})
    }

    fn move_event(v: u64, ply: u64, legal: &[&str]) -> Value {
        json!({"t": "event", "game": "g_1", "v": v, "legal": legal,
               "event": {"kind": "move", "ply": ply, "move": {"iccs": "a0a1", "text": "x"}, "fen": "…"}})
    }

    #[test]
    fn moves_from_the_offered_list_at_the_current_ply() {
        let mut bot = GameBot::new("g_1", 1);
        let r = bot.on_frame(&state(0, 1, &["h2e2", "b0c2"])).unwrap();
        match &r.send[..] {
            [Outgoing::Move { ply: 0, iccs }] => assert!(iccs == "h2e2" || iccs == "b0c2"),
            other => panic!("{other:?}"),
        }
        assert!(!r.ended);
        // Our move comes back as an event; the opponent's turn: nothing to send.
        let r = bot.on_frame(&move_event(2, 0, &[])).unwrap();
        assert!(r.send.is_empty());
        assert_eq!(bot.plies(), 1);
        // The opponent moves; we get moves for ply 2.
        let r = bot.on_frame(&move_event(3, 1, &["c3c4"])).unwrap();
        assert_eq!(
            r.send,
            vec![Outgoing::Move {
                ply: 2,
                iccs: "c3c4".into()
            }]
        );
        // The same offer again (a draw offer event) sends no second move.
        let offer = json!({"t": "event", "game": "g_1", "v": 4, "legal": ["c3c4"],
                           "event": {"kind": "draw_offer", "by": "black"}});
        assert!(bot.on_frame(&offer).unwrap().send.is_empty());
        let ack = json!({"t": "ack", "game": "g_1", "ply": 2});
        assert_eq!(bot.on_frame(&ack).unwrap().acked, Some(2));
    }

    #[test]
    fn same_seed_same_choices() {
        let legal: Vec<String> = (0..40)
            .map(|i| format!("a{}a{}", i % 10, (i + 1) % 10))
            .collect();
        let legal: Vec<&str> = legal.iter().map(String::as_str).collect();
        let pick = |seed| {
            GameBot::new("g_1", seed)
                .on_frame(&state(0, 1, &legal))
                .unwrap()
                .send
        };
        assert_eq!(pick(5), pick(5));
        assert!((0..20).any(|s| pick(s) != pick(5)));
    }

    #[test]
    fn gaps_ask_for_the_missed_events_and_duplicates_are_ignored() {
        let mut bot = GameBot::new("g_1", 1);
        bot.on_frame(&state(3, 7, &[])).unwrap();
        assert_eq!(bot.plies(), 3);
        let r = bot.on_frame(&move_event(9, 4, &["a0a1"])).unwrap();
        assert_eq!(r.send, vec![Outgoing::Watch { since: 7 }]);
        assert_eq!(bot.plies(), 3);
        assert!(bot
            .on_frame(&move_event(7, 2, &[]))
            .unwrap()
            .send
            .is_empty());
        bot.on_frame(&move_event(8, 3, &[])).unwrap();
        assert_eq!(bot.plies(), 4);
        assert_eq!(
            Outgoing::Watch { since: 7 }.frame("g_1"),
            r#"{"t":"watch","game":"g_1","since":7}"#
        );
    }

    #[test]
    fn end_event_ends_and_stops_moving() {
        let mut bot = GameBot::new("g_1", 1);
        bot.on_frame(&state(0, 1, &[])).unwrap();
        let end = json!({"t": "event", "game": "g_1", "v": 2, "legal": ["h2e2"],
                         "event": {"kind": "end", "result": {"result": "1-0", "reason": "checkmate"}}});
        let r = bot.on_frame(&end).unwrap();
        assert!(r.ended && r.send.is_empty());
        assert_eq!(bot.result().unwrap()["reason"], "checkmate");
    }

    #[test]
    fn a_stopped_bot_resigns_at_its_turn_only() {
        let mut bot = GameBot::new("g_1", 1);
        bot.on_frame(&state(0, 1, &[])).unwrap();
        bot.stop();
        // Not our turn: nothing to send.
        assert!(bot
            .on_frame(&move_event(2, 0, &[]))
            .unwrap()
            .send
            .is_empty());
        // Our turn: a resignation instead of a move, and only once.
        let r = bot.on_frame(&move_event(3, 1, &["c3c4"])).unwrap();
        assert_eq!(r.send, vec![Outgoing::Resign]);
        let offer = json!({"t": "event", "game": "g_1", "v": 4, "legal": ["c3c4"],
                           "event": {"kind": "draw_offer", "by": "black"}});
        assert!(bot.on_frame(&offer).unwrap().send.is_empty());
        assert_eq!(
            Outgoing::Resign.frame("g_1"),
            r#"{"t":"resign","game":"g_1"}"#
        );
    }

    #[test]
    fn chat_frames_are_read_and_written() {
        let mut bot = GameBot::new("g_1", 1);
        bot.on_frame(&state(0, 1, &[])).unwrap();
        let chat = json!({"t": "chat", "game": "g_1", "message": {"id": "m_1", "channel": "players",
                          "author": "p_1", "name": "a", "text": "hi", "at": 1}});
        let r = bot.on_frame(&chat).unwrap();
        assert_eq!(
            r.chat,
            Some(ChatSeen {
                channel: ChatChannel::Players,
                text: "hi".into()
            })
        );
        assert!(r.send.is_empty() && !r.moved);
        let mut odd = chat.clone();
        odd["message"]["channel"] = json!("everyone");
        assert!(bot.on_frame(&odd).is_err());
        let mut foreign = chat;
        foreign["game"] = json!("g_2");
        assert!(bot.on_frame(&foreign).is_err());
        assert_eq!(
            Outgoing::Chat {
                channel: ChatChannel::Spectators,
                text: "nice".into()
            }
            .frame("g_1"),
            r#"{"t":"chat","game":"g_1","channel":"spectators","text":"nice"}"#
        );
        // A move event says a move was played (a premove may answer it).
        assert!(bot.on_frame(&move_event(2, 0, &[])).unwrap().moved);
    }

    #[test]
    fn errors_and_foreign_frames_are_protocol_errors() {
        let mut bot = GameBot::new("g_1", 1);
        let err = json!({"t": "error", "code": "stale_ply", "message": "late", "ref": {"game": "g_1", "ply": 3}});
        assert!(bot.on_frame(&err).unwrap_err().0.contains("stale_ply"));
        assert!(bot
            .on_frame(&json!({"t": "ack", "game": "g_2", "ply": 0}))
            .is_err());
        assert!(bot.on_frame(&json!({"t": "surprise"})).is_err());
        assert!(bot.on_frame(&json!({"no": "type"})).is_err());
        // A move event for a ply the bot does not expect is caught.
        bot.on_frame(&state(0, 1, &[])).unwrap();
        assert!(bot.on_frame(&move_event(2, 5, &[])).is_err());
        assert_eq!(
            bot.on_frame(&json!({"t": "ping"})).unwrap().send,
            vec![Outgoing::Pong]
        );
    }
}
