//! One level of the benchmark: open every connection first, then start all
//! games at once; each pair seeks, accepts, watches and plays random legal
//! moves, each after a think time, for the level's measuring window. A game
//! that ends meanwhile is followed by none: every connection stays open.
//! When the window is over, the side to move in each game still running
//! resigns, so every game ends through the protocol; a game that has not
//! ended by the level's deadline is lost.

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use serde_json::json;
use tokio::sync::Semaphore;
use tokio::time::Instant;

use super::bot::{GameBot, Outgoing, ProtocolError};
use super::client::{guest_cookie, Connection, Received};
use super::random::SplitMix64;

/// Connections opened at once while setting up (the listen backlog and the
/// password-free guest creation are the limits, not the game).
const SETUP_CONCURRENCY: usize = 64;

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
}

/// What one game gave.
#[derive(Default)]
pub struct GameOutcome {
    /// Round trips of this game's moves (move sent to its `ack`), in µs.
    pub round_trips_us: Vec<u32>,
    /// The seeker's among them: in a cluster, moves from the node that
    /// does not run the game, forwarded to its owner over the bus.
    pub seeker_round_trips_us: Vec<u32>,
    /// Plies the game reached (the server's count, from the events).
    pub plies: u64,
    /// The `end` event was seen by both sides.
    pub ended: bool,
    /// `reason` of the result, when it ended.
    pub reason: Option<String>,
    /// Protocol errors (error frames, frames off the protocol, closed sockets).
    pub protocol_errors: Vec<String>,
    /// Other failures (connect, deadline).
    pub failures: Vec<String>,
}

/// Every game of a level, and when play started and stopped.
pub struct LevelPlay {
    pub games: Vec<GameOutcome>,
    pub setup: Duration,
    pub play: Duration,
}

/// How often an accepter on another node than the seeker asks again for a
/// seek its node's lobby has not heard of yet (the bus brings it within
/// milliseconds).
const SEEK_RETRY: Duration = Duration::from_millis(20);

/// Opens `connections` (an even number) to the servers at `bases`, then plays
/// `connections / 2` games at once until they end or `deadline` passes;
/// `at_start` runs when play starts (for the CPU reading). With several
/// servers (a cluster's nodes), game `g` is sought on node `g mod n` and
/// accepted on the next one, so every game's players sit on different
/// nodes and every move crosses the bus to or from the game's owner.
pub async fn run_level(
    bases: &[String],
    connections: usize,
    pace: Pace,
    deadline: Instant,
    at_start: impl FnOnce(),
) -> Result<LevelPlay> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .context("HTTP client")?;
    let setup_started = Instant::now();
    let limit = Arc::new(Semaphore::new(SETUP_CONCURRENCY));
    let mut setups = Vec::new();
    for game in 0..connections / 2 {
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
    let mut pairs = Vec::new();
    for setup in setups {
        pairs.push(setup.await?);
    }
    let setup = setup_started.elapsed();
    at_start();
    let play_started = Instant::now();
    let stop_at = (play_started + pace.window).min(deadline);
    let mut tasks = Vec::new();
    let cross_node = bases.len() > 1;
    for (index, pair) in pairs.into_iter().enumerate() {
        let seed = pace.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let times = Times {
            think: pace.think,
            stop_at,
            deadline,
        };
        tasks.push(tokio::spawn(async move {
            match pair {
                Ok((seeker, accepter)) => {
                    play_game(seeker, accepter, cross_node, seed, times).await
                }
                Err(e) => GameOutcome {
                    failures: vec![format!("{e:#}")],
                    ..GameOutcome::default()
                },
            }
        }));
    }
    let mut games = Vec::new();
    for task in tasks {
        games.push(task.await?);
    }
    Ok(LevelPlay {
        games,
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

/// When a side thinks, stops and gives up.
#[derive(Clone, Copy)]
struct Times {
    /// Mean think time before a move.
    think: Duration,
    /// From then on, resign at our turn.
    stop_at: Instant,
    /// The level's hard bound: a game not over by then is lost.
    deadline: Instant,
}

/// Seek, accept, then both sides play to the end (or the deadline).
async fn play_game(
    mut seeker: Connection,
    mut accepter: Connection,
    cross_node: bool,
    seed: u64,
    times: Times,
) -> GameOutcome {
    let game = match start_game(&mut seeker, &mut accepter, cross_node, times.deadline).await {
        Ok(game) => game,
        Err(e) => return failed(e),
    };
    // The seed of each side differs, so the two do not mirror each other.
    let (a, b) = tokio::join!(
        play_side(seeker, GameBot::new(&game, seed), seed, times),
        play_side(accepter, GameBot::new(&game, !seed), !seed, times),
    );
    let mut outcome = GameOutcome {
        plies: a.plies.max(b.plies),
        ended: a.ended && b.ended,
        reason: a.reason.clone().or(b.reason.clone()),
        seeker_round_trips_us: a.round_trips_us.clone(),
        ..GameOutcome::default()
    };
    for side in [a, b] {
        outcome.round_trips_us.extend(side.round_trips_us);
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

/// One side from `watch` to `end`.
async fn play_side(
    mut connection: Connection,
    mut bot: GameBot,
    seed: u64,
    times: Times,
) -> GameOutcome {
    let deadline = times.deadline;
    // Its own sequence, so think times do not change the bot's moves.
    let mut thinking = SplitMix64::new(seed ^ 0x7468_696E_6B5F_7469);
    let mut outcome = GameOutcome::default();
    // When each of our moves was sent, by ply (a game is a few hundred plies).
    let mut sent: Vec<Option<Instant>> = Vec::new();
    let watch = json!({"t": "watch", "game": bot.game()}).to_string();
    if let Err(e) = connection.send(&watch).await {
        return failed(e);
    }
    // After the end, how long the acks of moves still in flight may take.
    let mut read_until = deadline;
    loop {
        let frame = match connection.receive(Some(read_until)).await {
            Received::Frame(frame) => frame,
            Received::Closed(why) => {
                outcome.protocol_errors.push(why);
                break;
            }
            Received::TimedOut if bot.result().is_some() => {
                outcome
                    .protocol_errors
                    .push("a move without its ack after the end".into());
                break;
            }
            Received::TimedOut => {
                outcome.failures.push(format!(
                    "unfinished at the deadline after {} plies",
                    bot.plies()
                ));
                break;
            }
        };
        if Instant::now() >= times.stop_at {
            bot.stop();
        }
        let reaction = match bot.on_frame(&frame) {
            Ok(reaction) => reaction,
            Err(e) => {
                outcome.protocol_errors.push(e.0);
                break;
            }
        };
        if let Some(ply) = reaction.acked {
            match sent.get_mut(ply as usize).and_then(Option::take) {
                Some(at) => outcome
                    .round_trips_us
                    .push(at.elapsed().as_micros().min(u32::MAX as u128) as u32),
                None => {
                    outcome.protocol_errors.push(format!(
                        "an ack for ply {ply}, which this side did not send"
                    ));
                    break;
                }
            }
        }
        if reaction
            .send
            .iter()
            .any(|out| matches!(out, Outgoing::Move { .. }))
        {
            let mean = times.think.as_micros() as u64;
            let wait = mean / 2 + thinking.below(mean as usize + 1) as u64;
            tokio::time::sleep(Duration::from_micros(wait)).await;
        }
        if let Err(e) = send_all(&mut connection, &bot, &reaction.send, &mut sent).await {
            outcome.protocol_errors.push(format!("{e:#}"));
            break;
        }
        if reaction.ended {
            if sent.iter().all(Option::is_none) {
                outcome.ended = true;
                break;
            }
            read_until = deadline.min(Instant::now() + Duration::from_secs(5));
        }
    }
    outcome.plies = bot.plies();
    outcome.reason = bot
        .result()
        .and_then(|r| r["reason"].as_str())
        .map(str::to_owned);
    connection.close().await;
    outcome
}

/// Sends the bot's frames, noting when each move went out.
async fn send_all(
    connection: &mut Connection,
    bot: &GameBot,
    frames: &[Outgoing],
    sent: &mut Vec<Option<Instant>>,
) -> Result<()> {
    for out in frames {
        if let Outgoing::Pong = out {
            connection.send_now(&out.frame(bot.game())).await?;
            continue;
        }
        let at = connection.send(&out.frame(bot.game())).await?;
        if let Outgoing::Move { ply, .. } = out {
            let ply = *ply as usize;
            if sent.len() <= ply {
                sent.resize(ply + 1, None);
            }
            sent[ply] = Some(at);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::nodes_of_game;

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
}
