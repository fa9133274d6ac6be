//! One level of the benchmark: open every connection first, then start all
//! games at once; each pair seeks, accepts, watches and plays random legal
//! moves, each after a think time or, for a share of the replies, at once
//! on the opponent's move as a premove, for the level's measuring window.
//! In a share of the games the players chat, and a few connections watch a
//! game as spectators (accounts) and write in its spectators' chat. A game
//! that ends meanwhile is followed by none: every connection stays open.
//! When the window is over, the side to move in each game still running
//! resigns, so every game ends through the protocol; a game that has not
//! ended by the level's deadline, or whose chat lost a message, is lost.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::bot::{ChatChannel, GameBot, Outgoing, ProtocolError};
use super::client::{account_cookie, guest_cookie, Connection, Received};
use super::random::SplitMix64;

/// Connections opened at once while setting up (the listen backlog and the
/// password-free guest creation are the limits, not the game).
const SETUP_CONCURRENCY: usize = 64;

/// The server takes 5 chat messages of a player at once, then one every
/// 2 s (src/social/mod.rs); a bot writes no sooner than this after its last.
const CHAT_GAP: Duration = Duration::from_millis(2500);

/// Messages a game's channel keeps at most (`chat_full` past it).
const CHAT_PER_CHANNEL: u64 = 500;

/// After the end, how long the acks and chat messages still in flight may take.
const END_GRACE: Duration = Duration::from_secs(5);

/// How the bots play.
#[derive(Clone, Copy)]
pub struct Pace {
    pub frames_per_second: f64,
    pub seed: u64,
    /// Mean wait before each move (uniform over half to one and a half of
    /// it): a player's thinking, so the offered load is about
    /// `games / think` moves a second rather than all the server can take.
    pub think: Duration,
    /// How long the games are played before the bots resign.
    pub window: Duration,
    pub social: Social,
}

/// The players' habits besides moving: chat and premoves.
#[derive(Clone, Copy)]
pub struct Social {
    /// Share of the games, in percent, whose two players chat.
    pub chat_games_percent: u32,
    /// A chatting player writes after every this many of its moves.
    pub chat_every_moves: u32,
    /// Share of the replies to an opponent's move, in percent, sent at
    /// once when the move arrives (a premove) instead of after a think.
    pub premove_percent: u32,
    /// Mean time between two messages of a spectator.
    pub spectator_chat: Duration,
}

/// What one game gave.
#[derive(Default)]
pub struct GameOutcome {
    /// Round trips of this game's moves (move sent to its `ack`), in µs.
    pub round_trips_us: Vec<u32>,
    /// The seeker's among them: in a cluster, moves from the node that
    /// does not run the game, forwarded to its owner over the bus.
    pub seeker_round_trips_us: Vec<u32>,
    /// Round trips of the chat messages written in the game (sent to the
    /// writer's own copy of the `chat` frame read back), in µs.
    pub chat_round_trips_us: Vec<u32>,
    /// Chat messages written (players and spectators).
    pub chats_sent: u64,
    /// `chat` frames read, by every reader of the game.
    pub chat_frames_received: u64,
    /// Chat frames a reader should have read and did not.
    pub lost_chats: u64,
    /// Moves sent at once on the opponent's move.
    pub premoves: u64,
    /// Plies the game reached (the server's count, from the events).
    pub plies: u64,
    /// The `end` event was seen by both sides.
    pub ended: bool,
    /// `reason` of the result, when it ended.
    pub reason: Option<String>,
    /// Protocol errors (error frames, frames off the protocol, closed sockets).
    pub protocol_errors: Vec<String>,
    /// Other failures (connect, deadline, lost chat messages).
    pub failures: Vec<String>,
}

/// Every game of a level, and when play started and stopped.
pub struct LevelPlay {
    pub games: Vec<GameOutcome>,
    /// Games whose players chat.
    pub chat_games: usize,
    /// Connections that watched a game as spectators.
    pub spectators: usize,
    pub setup: Duration,
    pub play: Duration,
}

/// How often an accepter on another node than the seeker asks again for a
/// seek its node's lobby has not heard of yet (the bus brings it within
/// milliseconds).
const SEEK_RETRY: Duration = Duration::from_millis(20);

/// Opens `connections` to the servers at `bases`: `spectators` of them
/// accounts that will watch a game, the others (an even number) players of
/// `(connections - spectators) / 2` games; then plays the games at once
/// until they end or `deadline` passes; `at_start` runs when play starts
/// (for the CPU reading). With several servers (a cluster's nodes), game
/// `g` is sought on node `g mod n` and accepted on the next one, so every
/// game's players sit on different nodes and every move crosses the bus to
/// or from the game's owner.
pub async fn run_level(
    bases: &[String],
    connections: usize,
    spectators: usize,
    pace: Pace,
    deadline: Instant,
    at_start: impl FnOnce(),
) -> Result<LevelPlay> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .context("HTTP client")?;
    let games = (connections - spectators) / 2;
    let setup_started = Instant::now();
    let limit = Arc::new(Semaphore::new(SETUP_CONCURRENCY));
    let mut setups = Vec::new();
    for game in 0..games {
        let (seeker_node, accepter_node) = nodes_of_game(game, bases.len());
        let seeker_base = bases[seeker_node].clone();
        let accepter_base = bases[accepter_node].clone();
        let (http, limit) = (http.clone(), limit.clone());
        setups.push(tokio::spawn(async move {
            let _permit = limit.acquire_owned().await?;
            let opening = open_pair(&http, [&seeker_base, &accepter_base], pace);
            let pair = tokio::time::timeout_at(deadline, opening)
                .await
                .map_err(|_| anyhow::anyhow!("not connected before the deadline"))?;
            pair.with_context(|| format!("game {game}: connecting"))
        }));
    }
    let mut watcher_setups = Vec::new();
    for watcher in 0..spectators {
        let base = bases[watcher % bases.len()].clone();
        let (http, limit) = (http.clone(), limit.clone());
        watcher_setups.push(tokio::spawn(async move {
            let _permit = limit.acquire_owned().await?;
            let opening = async {
                let name = format!("watcher_{watcher}");
                let cookie = account_cookie(&http, &base, &name, deadline).await?;
                Connection::open(&base, &cookie, pace.frames_per_second).await
            };
            let connection = tokio::time::timeout_at(deadline, opening)
                .await
                .map_err(|_| anyhow::anyhow!("not connected before the deadline"))?;
            connection.with_context(|| format!("spectator {watcher}: connecting"))
        }));
    }
    let mut pairs = Vec::new();
    for setup in setups {
        pairs.push(setup.await?);
    }
    // Spectator `w` watches game `w * games / spectators`: spread evenly.
    let mut watchers: Vec<Vec<Result<Connection>>> = (0..games).map(|_| Vec::new()).collect();
    for (watcher, setup) in watcher_setups.into_iter().enumerate() {
        watchers[watcher * games / spectators.max(1)].push(setup.await?);
    }
    let setup = setup_started.elapsed();
    at_start();
    let play_started = Instant::now();
    let stop_at = (play_started + pace.window).min(deadline);
    let mut tasks = Vec::new();
    let cross_node = bases.len() > 1;
    let mut chat_games = 0;
    let mut choosing = SplitMix64::new(pace.seed ^ 0x6368_6174_5F67_616D);
    for (index, (pair, watchers)) in pairs.into_iter().zip(watchers).enumerate() {
        let seed = pace.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let chatting = (choosing.below(100) as u32) < pace.social.chat_games_percent;
        chat_games += usize::from(chatting);
        let plan = GamePlan {
            think: pace.think,
            stop_at,
            deadline,
            social: pace.social,
            chatting,
            tag: format!("g{index}"),
        };
        tasks.push(tokio::spawn(async move {
            let mut watching = Vec::new();
            for watcher in watchers {
                match watcher {
                    Ok(connection) => watching.push(connection),
                    Err(e) => return failed(e),
                }
            }
            match pair {
                Ok((seeker, accepter)) => {
                    play_game(seeker, accepter, watching, cross_node, seed, plan).await
                }
                Err(e) => failed(e),
            }
        }));
    }
    let mut outcomes = Vec::new();
    for task in tasks {
        outcomes.push(task.await?);
    }
    Ok(LevelPlay {
        games: outcomes,
        chat_games,
        spectators,
        setup,
        play: play_started.elapsed(),
    })
}

/// The nodes of game `game`'s seeker and acceptor among `nodes`: round
/// robin, the acceptor on the next node (the same one when alone).
fn nodes_of_game(game: usize, nodes: usize) -> (usize, usize) {
    (game % nodes, (game + 1) % nodes)
}

async fn open_pair(
    http: &reqwest::Client,
    bases: [&str; 2],
    pace: Pace,
) -> Result<(Connection, Connection)> {
    let mut sides = Vec::new();
    for base in bases {
        let cookie = guest_cookie(http, base).await?;
        sides.push(Connection::open(base, &cookie, pace.frames_per_second).await?);
    }
    let accepter = sides.pop().expect("two sides");
    let seeker = sides.pop().expect("two sides");
    Ok((seeker, accepter))
}

/// When a game's sides think, stop and give up, and how they chat.
#[derive(Clone)]
struct GamePlan {
    /// Mean think time before a move.
    think: Duration,
    /// From then on, resign at our turn and write no more.
    stop_at: Instant,
    /// The level's hard bound: a game not over by then is lost.
    deadline: Instant,
    social: Social,
    /// The players of this game chat.
    chatting: bool,
    /// Starts the tag of each side's messages: `g12`.
    tag: String,
}

/// What a game's readers share about its chat: how many messages each
/// channel got, and how many of its sides may still write. A reader is
/// done when no side may write any more and it has read every message of
/// its channel.
#[derive(Default)]
struct ChatTally {
    sent: [AtomicU64; 2],
    writers: AtomicUsize,
}

fn channel_index(channel: ChatChannel) -> usize {
    match channel {
        ChatChannel::Players => 0,
        ChatChannel::Spectators => 1,
    }
}

/// One side's part in a game's chat.
#[derive(Clone)]
struct Voice {
    /// The chat this side reads, and writes in when it writes.
    channel: ChatChannel,
    /// When it writes, if it does.
    writes: Option<Writes>,
    /// Starts each of its messages, so it knows its own copy: `g12r`.
    tag: String,
}

#[derive(Clone, Copy)]
enum Writes {
    /// A player: after every this many of its moves.
    EveryMoves(u32, u64),
    /// A spectator: about this often.
    Every(Duration, u64),
}

impl Writes {
    /// Messages this side writes at most, so the channel stays under the
    /// server's `chat_full`.
    fn most(self) -> u64 {
        match self {
            Writes::EveryMoves(_, most) | Writes::Every(_, most) => most,
        }
    }
}

/// Seek, accept, then both sides play to the end (or the deadline) while
/// the spectators watch.
async fn play_game(
    mut seeker: Connection,
    mut accepter: Connection,
    spectators: Vec<Connection>,
    cross_node: bool,
    seed: u64,
    plan: GamePlan,
) -> GameOutcome {
    let game = match start_game(&mut seeker, &mut accepter, cross_node, plan.deadline).await {
        Ok(game) => game,
        Err(e) => return failed(e),
    };
    let tally = Arc::new(ChatTally::default());
    let players_write = plan.chatting.then_some(Writes::EveryMoves(
        plan.social.chat_every_moves.max(1),
        CHAT_PER_CHANNEL / 2,
    ));
    let watcher_share = CHAT_PER_CHANNEL / (spectators.len() as u64).max(1);
    let player = |tag: &str| Voice {
        channel: ChatChannel::Players,
        writes: players_write,
        tag: format!("{}{tag}", plan.tag),
    };
    let writers = 2 + spectators.len();
    tally.writers.store(writers, Ordering::SeqCst);
    // The seed of each side differs, so the two do not mirror each other.
    let sides = [
        (seeker, GameBot::new(&game, seed), seed, player("s")),
        (accepter, GameBot::new(&game, !seed), !seed, player("a")),
    ];
    let [(c1, b1, s1, v1), (c2, b2, s2, v2)] = sides;
    let watching = spectators.into_iter().enumerate().map(|(i, connection)| {
        let seed = seed.rotate_left(17) ^ i as u64;
        let voice = Voice {
            channel: ChatChannel::Spectators,
            writes: Some(Writes::Every(plan.social.spectator_chat, watcher_share)),
            tag: format!("{}w{i}", plan.tag),
        };
        play_side(
            connection,
            GameBot::new(&game, seed),
            seed,
            plan.clone(),
            voice,
            tally.clone(),
        )
    });
    let (a, b, watchers) = tokio::join!(
        play_side(c1, b1, s1, plan.clone(), v1, tally.clone()),
        play_side(c2, b2, s2, plan.clone(), v2, tally.clone()),
        futures_util::future::join_all(watching),
    );
    let mut outcome = GameOutcome {
        plies: a.plies.max(b.plies),
        ended: a.ended && b.ended && watchers.iter().all(|w| w.ended),
        reason: a.reason.clone().or(b.reason.clone()),
        seeker_round_trips_us: a.round_trips_us.clone(),
        ..GameOutcome::default()
    };
    for side in [a, b].into_iter().chain(watchers) {
        outcome.round_trips_us.extend(side.round_trips_us);
        outcome.chat_round_trips_us.extend(side.chat_round_trips_us);
        outcome.chats_sent += side.chats_sent;
        outcome.chat_frames_received += side.chat_frames_received;
        outcome.lost_chats += side.lost_chats;
        outcome.premoves += side.premoves;
        outcome.protocol_errors.extend(side.protocol_errors);
        outcome.failures.extend(side.failures);
    }
    outcome
}

/// The seeker's casual seek with a long clock (nobody flags), accepted by
/// the other bot: the game's id. An accepter on another node asks again
/// while its node answers `unknown_seek`: the seek reaches that node's
/// lobby over the bus a moment after `seek_created`.
async fn start_game(
    seeker: &mut Connection,
    accepter: &mut Connection,
    cross_node: bool,
    deadline: Instant,
) -> Result<String> {
    let seek =
        json!({"t": "seek", "tc": "180+0", "rated": false, "color": "random", "rules": "online"});
    seeker.send(&seek.to_string()).await?;
    let created = seeker.expect("seek_created", Some(deadline)).await?;
    let seek_id = created["seek"]["id"]
        .as_str()
        .context("seek_created without seek.id")?
        .to_owned();
    let accept = json!({"t": "accept", "id": seek_id}).to_string();
    let not_yet_known = cross_node.then_some("unknown_seek");
    let started = loop {
        accepter.send(&accept).await?;
        match accepter
            .expect_unless("started", not_yet_known, Some(deadline))
            .await?
        {
            Some(started) => break started,
            None if Instant::now() + SEEK_RETRY < deadline => tokio::time::sleep(SEEK_RETRY).await,
            None => anyhow::bail!("the accepter's node never heard of seek {seek_id}"),
        }
    };
    let game = started["game"]
        .as_str()
        .context("started without game")?
        .to_owned();
    let seeker_started = seeker.expect("started", Some(deadline)).await?;
    if seeker_started["game"] != started["game"] {
        return Err(ProtocolError(format!(
            "the two players were told of different games: {seeker_started} and {started}"
        ))
        .into());
    }
    Ok(game)
}

fn failed(error: anyhow::Error) -> GameOutcome {
    let text = format!("{error:#}");
    let mut outcome = GameOutcome::default();
    if error.downcast_ref::<ProtocolError>().is_some() {
        outcome.protocol_errors.push(text);
    } else {
        outcome.failures.push(text);
    }
    outcome
}

/// Lines a bot writes, short to long (the server takes 300 characters).
const CHAT_LINES: [&str; 6] = [
    "gl hf",
    "nice move",
    "hmm, interesting opening",
    "I did not see that cannon coming",
    "your horse is strong in the centre; I will have to trade it off before the endgame",
    "well played so far. The rooks are about to come out on both sides, and whoever gets to the open file first should have the better of the middlegame, I think",
];

/// The number of one of our own messages, `TAG #N …`, or `None` for another's.
fn own_message(text: &str, tag: &str) -> Option<u64> {
    let rest = text.strip_prefix(tag)?.strip_prefix(" #")?;
    rest.split(' ').next()?.parse().ok()
}

/// The duration in µs, as the figures keep it.
fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

/// One side from `watch` to `end`: a player, or a spectator (whose bot is
/// offered no moves, so never moves). Reads all the time, also while it
/// thinks, so a frame is read when it arrives.
async fn play_side(
    mut connection: Connection,
    mut bot: GameBot,
    seed: u64,
    plan: GamePlan,
    voice: Voice,
    tally: Arc<ChatTally>,
) -> GameOutcome {
    let mut outcome = GameOutcome::default();
    let mut side = Side {
        thinking: SplitMix64::new(seed ^ 0x7468_696E_6B5F_7469),
        sent: Vec::new(),
        pending_move: None,
        chat_due: None,
        last_chat: None,
        chats_waiting: HashMap::new(),
        read: 0,
        own_moves: 0,
        done_writing: false,
    };
    if let Some(Writes::Every(mean, _)) = voice.writes {
        side.chat_due = Some(Instant::now() + side.around(mean));
    }
    let result = side
        .run(
            &mut connection,
            &mut bot,
            &plan,
            &voice,
            &tally,
            &mut outcome,
        )
        .await;
    if !side.done_writing {
        tally.writers.fetch_sub(1, Ordering::SeqCst);
    }
    if let Err(problem) = result {
        outcome.protocol_errors.push(problem);
    }
    outcome.plies = bot.plies();
    outcome.reason = bot
        .result()
        .and_then(|r| r["reason"].as_str())
        .map(str::to_owned);
    connection.close().await;
    outcome
}

/// The running state of one side.
struct Side {
    /// Its own sequence, so think times and premoves do not change the
    /// bot's moves.
    thinking: SplitMix64,
    /// When each of our moves was sent, by ply (a game is a few hundred plies).
    sent: Vec<Option<Instant>>,
    /// A move decided and waiting for its think time to pass.
    pending_move: Option<(Instant, Outgoing)>,
    /// When the next chat message is due.
    chat_due: Option<Instant>,
    last_chat: Option<Instant>,
    /// Our messages not read back yet, by number: when each was sent.
    chats_waiting: HashMap<u64, Instant>,
    /// Messages of our channel read.
    read: u64,
    own_moves: u64,
    /// This side will write no more (counted off the tally's writers).
    done_writing: bool,
}

impl Side {
    /// Uniform over half to one and a half of `mean`.
    fn around(&mut self, mean: Duration) -> Duration {
        let mean = mean.as_micros() as u64;
        Duration::from_micros(mean / 2 + self.thinking.below(mean as usize + 1) as u64)
    }

    /// Plays until the game ended and every message of the channel was
    /// read; a protocol error ends it early.
    async fn run(
        &mut self,
        connection: &mut Connection,
        bot: &mut GameBot,
        plan: &GamePlan,
        voice: &Voice,
        tally: &ChatTally,
        outcome: &mut GameOutcome,
    ) -> Result<(), String> {
        let channel = channel_index(voice.channel);
        let watch = json!({"t": "watch", "game": bot.game()}).to_string();
        connection
            .send(&watch)
            .await
            .map_err(|e| format!("{e:#}"))?;
        let mut read_until = plan.deadline;
        loop {
            let ended = bot.result().is_some();
            if ended && self.sent.iter().all(Option::is_none) && self.chats_waiting.is_empty() {
                if !self.done_writing {
                    self.done_writing = true;
                    tally.writers.fetch_sub(1, Ordering::SeqCst);
                }
                if tally.writers.load(Ordering::SeqCst) == 0
                    && self.read >= tally.sent[channel].load(Ordering::SeqCst)
                {
                    outcome.ended = true;
                    return Ok(());
                }
            }
            let mut wake = read_until;
            if let Some((at, _)) = &self.pending_move {
                wake = wake.min(*at);
            }
            if let Some(at) = self.chat_due {
                wake = wake.min(at);
            }
            if self.done_writing {
                // Waiting for the other sides: look again shortly.
                wake = wake.min(Instant::now() + Duration::from_millis(10));
            }
            let frame = match connection.receive(Some(wake)).await {
                Received::Frame(frame) => frame,
                Received::Closed(why) => return Err(why),
                Received::TimedOut => {
                    let now = Instant::now();
                    if self.pending_move.as_ref().is_some_and(|(at, _)| *at <= now) {
                        let (_, out) = self.pending_move.take().expect("a pending move");
                        self.send(connection, bot, &out).await?;
                    } else if self.chat_due.is_some_and(|at| at <= now) {
                        self.chat(connection, bot, plan, voice, tally, outcome)
                            .await?;
                    } else if now >= read_until {
                        self.timed_out(bot, tally, channel, outcome);
                        return Ok(());
                    }
                    continue;
                }
            };
            let now = Instant::now();
            if now >= plan.stop_at {
                bot.stop();
            }
            let reaction = bot.on_frame(&frame).map_err(|e| e.0)?;
            if let Some(ply) = reaction.acked {
                let at = self
                    .sent
                    .get_mut(ply as usize)
                    .and_then(Option::take)
                    .ok_or_else(|| format!("an ack for ply {ply}, which this side did not send"))?;
                outcome.round_trips_us.push(micros(at.elapsed()));
                self.own_moves += 1;
                if let Some(Writes::EveryMoves(every, _)) = voice.writes {
                    if self.own_moves.is_multiple_of(u64::from(every)) {
                        let earliest = self.last_chat.map_or(now, |at| at + CHAT_GAP);
                        self.chat_due = Some(earliest.max(now));
                    }
                }
            }
            if let Some(chat) = reaction.chat {
                outcome.chat_frames_received += 1;
                if chat.channel != voice.channel {
                    return Err(format!(
                        "a {} chat message reached a reader of the {} chat",
                        chat.channel.name(),
                        voice.channel.name()
                    ));
                }
                self.read += 1;
                if let Some(number) = own_message(&chat.text, &voice.tag) {
                    let at = self
                        .chats_waiting
                        .remove(&number)
                        .ok_or_else(|| format!("our message #{number} came back twice"))?;
                    outcome.chat_round_trips_us.push(micros(at.elapsed()));
                }
            }
            for out in reaction.send {
                match out {
                    Outgoing::Pong => connection
                        .send_now(&out.frame(bot.game()))
                        .await
                        .map_err(|e| format!("{e:#}"))?,
                    Outgoing::Move { .. } => {
                        let premove = reaction.moved
                            && (self.thinking.below(100) as u32) < plan.social.premove_percent;
                        if premove {
                            outcome.premoves += 1;
                            self.send(connection, bot, &out).await?;
                        } else {
                            let at = now + self.around(plan.think);
                            self.pending_move = Some((at, out));
                        }
                    }
                    _ => self.send(connection, bot, &out).await?,
                }
            }
            if reaction.ended && !ended {
                self.pending_move = None;
                self.chat_due = None;
                read_until = plan.deadline.min(Instant::now() + END_GRACE);
            }
        }
    }

    /// Sends one of the bot's frames, noting when a move went out.
    async fn send(
        &mut self,
        connection: &mut Connection,
        bot: &GameBot,
        out: &Outgoing,
    ) -> Result<(), String> {
        let at = connection
            .send(&out.frame(bot.game()))
            .await
            .map_err(|e| format!("{e:#}"))?;
        if let Outgoing::Move { ply, .. } = out {
            let ply = *ply as usize;
            if self.sent.len() <= ply {
                self.sent.resize(ply + 1, None);
            }
            self.sent[ply] = Some(at);
        }
        Ok(())
    }

    /// Writes the message that is due, if the game still runs, and says
    /// when the next one is.
    async fn chat(
        &mut self,
        connection: &mut Connection,
        bot: &GameBot,
        plan: &GamePlan,
        voice: &Voice,
        tally: &ChatTally,
        outcome: &mut GameOutcome,
    ) -> Result<(), String> {
        self.chat_due = None;
        let Some(writes) = voice.writes else {
            return Ok(());
        };
        let now = Instant::now();
        if now >= plan.stop_at || bot.result().is_some() || outcome.chats_sent >= writes.most() {
            return Ok(());
        }
        let number = outcome.chats_sent;
        let line = CHAT_LINES[self.thinking.below(CHAT_LINES.len())];
        let text = format!("{} #{number} {line}", voice.tag);
        // Counted before it is sent: a reader never sees more than the count.
        tally.sent[channel_index(voice.channel)].fetch_add(1, Ordering::SeqCst);
        outcome.chats_sent += 1;
        let out = Outgoing::Chat {
            channel: voice.channel,
            text,
        };
        let at = connection
            .send(&out.frame(bot.game()))
            .await
            .map_err(|e| format!("{e:#}"))?;
        self.chats_waiting.insert(number, at);
        self.last_chat = Some(at);
        if let Writes::Every(mean, _) = writes {
            self.chat_due = Some(at + self.around(mean).max(CHAT_GAP));
        }
        Ok(())
    }

    /// Notes why the side gave up at its reading deadline, and counts the
    /// chat messages it should have read and did not.
    fn timed_out(
        &mut self,
        bot: &GameBot,
        tally: &ChatTally,
        channel: usize,
        outcome: &mut GameOutcome,
    ) {
        if bot.result().is_none() {
            outcome.failures.push(format!(
                "unfinished at the deadline after {} plies",
                bot.plies()
            ));
            return;
        }
        if self.sent.iter().any(Option::is_some) {
            outcome
                .protocol_errors
                .push("a move without its ack after the end".into());
            return;
        }
        outcome.ended = true;
        let written = tally.sent[channel].load(Ordering::SeqCst);
        let lost = written.saturating_sub(self.read);
        if lost > 0 || !self.chats_waiting.is_empty() {
            outcome.lost_chats += lost.max(self.chats_waiting.len() as u64);
            outcome.failures.push(format!(
                "lost chat: read {} of the {written} messages of the game's chat, {} of our own not back",
                self.read,
                self.chats_waiting.len()
            ));
        }
        // Otherwise another side stopped early, and says why itself.
    }
}
#[cfg(test)]
mod tests {
    use super::{nodes_of_game, own_message, CHAT_LINES};

    #[test]
    fn a_games_players_sit_on_different_nodes_spread_evenly() {
        assert_eq!(nodes_of_game(7, 1), (0, 0));
        let mut seekers = [0; 3];
        for game in 0..30 {
            let (seeker, accepter) = nodes_of_game(game, 3);
            assert_ne!(seeker, accepter);
            assert!(accepter < 3);
            seekers[seeker] += 1;
        }
        assert_eq!(seekers, [10, 10, 10]);
    }

    #[test]
    fn a_side_knows_its_own_messages_by_tag_and_number() {
        assert_eq!(own_message("g12s #3 gl hf", "g12s"), Some(3));
        assert_eq!(own_message("g12s #40", "g12s"), Some(40));
        // Another side's, or a longer tag that starts the same.
        assert_eq!(own_message("g12a #3 gl hf", "g12s"), None);
        assert_eq!(own_message("g12s #3 gl hf", "g1"), None);
        assert_eq!(own_message("g120s #3 gl hf", "g12"), None);
        // Every line fits the server's 300 characters with its tag.
        assert!(CHAT_LINES
            .iter()
            .all(|line| format!("g99999w9 #499 {line}").chars().count() <= 300));
    }
}
