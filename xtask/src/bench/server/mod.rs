//! `cargo xtask bench server`: bot clients play games against a release
//! `xiangqi serve` on loopback at several numbers of concurrent connections
//! (two per game, and a few spectators), each move after a think time or,
//! for a share of the replies, at once as a premove, for a measuring
//! window, after which the side to move resigns. In a share of the games
//! the players chat, and the spectators write in their own chat. Each
//! level gets a fresh server and database and is bounded in time. Reported
//! per level: moves/s, the move round trip (move sent to its `ack`)
//! p50/p99, the chat round trip (message sent to its copy read back), the
//! server's CPU (cores used while playing) and peak memory, protocol
//! errors, lost chat messages and lost games; the command fails unless the
//! last three are zero. With `--think-ms 0` the bots move as fast as the
//! server answers: its saturated throughput.
//!
//! With `--nodes N` (N > 1) each level runs twice on one throwaway
//! PostgreSQL, each time on a fresh database: one process on it (no bus),
//! then N nodes on it and a throwaway NATS, the bots spread so that every
//! game's players sit on different nodes; the difference of the two rows is
//! what the bus hop costs a move.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};

use crate::nats::TestNats;
use crate::postgres::TestPostgres;
use crate::run::{target_dir, Steps};
use play::GameOutcome;

mod bot;
mod client;
mod play;
mod random;
mod serve;

use play::{LevelPlay, Pace, Social};
use serve::{cpu_seconds, peak_memory_mib, raise_open_files, Server, Storage};

#[derive(clap::Args)]
#[group(id = "server")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Server (bots over loopback) options")]
pub struct Options {
    /// Concurrent connections of each level (the spectators, then two per
    /// game), comma separated.
    #[arg(long, value_delimiter = ',', default_values_t = [100, 1000, 10000])]
    pub(super) connections: Vec<usize>,
    /// Time bound of one level, seconds (connecting, playing and ending);
    /// games still running then count as lost.
    #[arg(long, default_value_t = 180)]
    pub(super) level_seconds: u64,
    /// How long the games are played, seconds, before the side to move in
    /// each game still running resigns.
    #[arg(long, default_value_t = 60)]
    play_seconds: u64,
    /// Mean think time of a bot before each move, ms (uniform over half to
    /// one and a half of it); 0 plays as fast as the server answers.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Share of the games, in percent, whose two players chat.
    #[arg(long, default_value_t = 25, value_parser = clap::value_parser!(u32).range(0..=100))]
    chat_games: u32,
    /// A chatting player writes after every this many of its moves (and
    /// never sooner than 2.5 s after its last message: the server takes
    /// one every 2 s after the first 5).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    chat_every_moves: u32,
    /// Share of the replies to an opponent's move, in percent, sent at
    /// once when the move arrives, as a premove.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=100))]
    premove_percent: u32,
    /// Share of each level's connections, in percent, that are accounts
    /// watching a game and writing in its spectators' chat (rounded down
    /// to an even number).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=50))]
    spectator_percent: u32,
    /// Mean time between two messages of a spectator, seconds (uniform
    /// over half to one and a half of it, at least 2.5 s).
    #[arg(long, default_value_t = 10)]
    spectator_chat_seconds: u64,
    /// Frames per second one connection sends at most (the server floods
    /// out a client above 50).
    #[arg(long, default_value_t = 40.0)]
    frames_per_second: f64,
    /// Seed of the bots' random moves.
    #[arg(long, default_value_t = 1)]
    bot_seed: u64,
    /// Worker threads of the bots' runtime (the server has the other cores).
    #[arg(long, default_value_t = 1)]
    bot_threads: usize,
    /// Nodes of a cluster (PostgreSQL and NATS, both started for the run);
    /// above 1, each level also runs on one process on PostgreSQL, for
    /// the comparison.
    #[arg(long, default_value_t = 1)]
    nodes: usize,
    /// Print the results as JSON on stdout (the table goes to stderr).
    #[arg(long)]
    json: bool,
}

pub fn run(options: &Options, steps: &mut Steps) -> Result<()> {
    if options.connections.is_empty() || options.connections.iter().any(|&c| c < 2 || c % 2 == 1) {
        bail!("--connections takes even numbers of at least 2 (two connections a game)");
    }
    if !options.frames_per_second.is_finite()
        || options.frames_per_second <= 0.0
        || options.bot_threads == 0
        || options.level_seconds == 0
        || options.play_seconds == 0
        || options.nodes == 0
        || options.spectator_chat_seconds == 0
    {
        bail!("--frames-per-second, --bot-threads, --level-seconds, --play-seconds, --nodes and --spectator-chat-seconds must be positive");
    }
    let bin = super::release_cli(steps)?;
    let most = options.connections.iter().copied().max().unwrap_or(0) as u64;
    // Both ends of every connection, plus the server's database and slack.
    raise_open_files(most + 256)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(options.bot_threads)
        .enable_all()
        .build()?;
    // Started once for the run; each row gets a database of its own.
    let cluster = if options.nodes > 1 {
        Some((TestPostgres::start()?, TestNats::start()?))
    } else {
        None
    };
    let mut levels = Vec::new();
    let mut hops = Vec::new();
    for &connections in &options.connections {
        let Some((postgres, nats)) = &cluster else {
            let name = format!("server: {connections} connections");
            steps.step(&name, || {
                let setup = Setup {
                    name: "1 node, SQLite".into(),
                    nodes: 1,
                    storage: Storage::Sqlite,
                };
                let level = runtime.block_on(level(&bin, connections, &setup, options))?;
                eprintln!("{}", table_row(&level));
                levels.push(level);
                Ok(None)
            })?;
            continue;
        };
        let mut pair = Vec::new();
        for nodes in [1, options.nodes] {
            let name = format!("server: {connections} connections, {nodes} node(s)");
            steps.step(&name, || {
                let url = postgres.fresh_database(&format!("bench_c{connections}_n{nodes}"))?;
                let setup = Setup {
                    name: if nodes == 1 {
                        "1 node, PostgreSQL".into()
                    } else {
                        format!("{nodes} nodes, PostgreSQL + NATS")
                    },
                    nodes,
                    storage: Storage::Postgres {
                        url: &url,
                        bus: (nodes > 1).then_some(nats.url()),
                    },
                };
                let level = runtime.block_on(level(&bin, connections, &setup, options))?;
                eprintln!("{}", table_row(&level));
                pair.push(level);
                Ok(None)
            })?;
        }
        hops.push(bus_hop(&pair[0], &pair[1]));
        levels.extend(pair);
    }
    let mut table = table(&levels);
    for hop in &hops {
        table.push_str(&bus_hop_line(hop));
    }
    if options.json {
        eprintln!("{table}");
        let mut results = json!({ "levels": levels });
        if cluster.is_some() {
            results["bus_hop"] = json!(hops);
        }
        println!("{}", serde_json::to_string_pretty(&results)?);
    } else {
        println!("{table}");
    }
    let bad: Vec<String> = levels
        .iter()
        .filter(|l| l["lost_games"] != 0 || l["protocol_errors"] != 0 || l["lost_chats"] != 0)
        .map(|l| {
            format!(
                "{} connections ({})",
                l["connections"],
                l["setup"].as_str().unwrap_or("?")
            )
        })
        .collect();
    if !bad.is_empty() {
        bail!(
            "lost games, protocol errors or lost chat messages at {}",
            bad.join(", ")
        );
    }
    Ok(())
}

/// What serves one row: a process, or a cluster's nodes.
struct Setup<'a> {
    /// For the table: "3 nodes, PostgreSQL + NATS".
    name: String,
    nodes: usize,
    storage: Storage<'a>,
}

/// One level on fresh servers: its results as JSON.
async fn level(
    bin: &std::path::Path,
    connections: usize,
    setup: &Setup<'_>,
    options: &Options,
) -> Result<Value> {
    let mut servers = Vec::new();
    for node in 0..setup.nodes {
        let dir = target_dir()
            .join("bench-server")
            .join(format!("c{connections}-n{}-{node}", setup.nodes));
        // One after the other: the first one makes the database's tables.
        servers.push(Server::start(bin, &dir, &setup.storage)?);
    }
    let pids: Vec<String> = servers.iter().map(|s| s.pid().to_string()).collect();
    let bases: Vec<String> = servers.iter().map(|s| s.url.clone()).collect();
    let servers_cpu =
        |pids: &[String]| -> Result<f64> { pids.iter().map(|pid| cpu_seconds(pid)).sum() };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(options.level_seconds);
    let pace = Pace {
        frames_per_second: options.frames_per_second,
        seed: options.bot_seed,
        think: Duration::from_millis(options.think_ms),
        window: Duration::from_secs(options.play_seconds),
        social: Social {
            chat_games_percent: options.chat_games,
            chat_every_moves: options.chat_every_moves,
            premove_percent: options.premove_percent,
            spectator_chat: Duration::from_secs(options.spectator_chat_seconds),
        },
    };
    let spectators = spectators_of(connections, options.spectator_percent);
    let mut cpu_at_start = (0.0, 0.0);
    let play = play::run_level(&bases, connections, spectators, pace, deadline, || {
        cpu_at_start = (
            servers_cpu(&pids).unwrap_or(f64::NAN),
            cpu_seconds("self").unwrap_or(f64::NAN),
        );
    })
    .await?;
    let server_cpu = servers_cpu(&pids).context("the servers' CPU time")? - cpu_at_start.0;
    let bots_cpu = cpu_seconds("self")? - cpu_at_start.1;
    let peak = pids
        .iter()
        .map(|pid| peak_memory_mib(pid))
        .sum::<Result<f64>>()
        .context("the servers' memory")?;
    let logs: Vec<String> = servers
        .iter()
        .map(|s| s.log.display().to_string())
        .collect();
    for server in servers {
        server.stop()?;
    }
    let mut result = summarize(connections, &play);
    result["setup"] = json!(setup.name);
    result["nodes"] = json!(setup.nodes);
    result["think_ms"] = json!(options.think_ms);
    result["premove_percent"] = json!(options.premove_percent);
    result["chat_games_percent"] = json!(options.chat_games);
    let seconds = play.play.as_secs_f64();
    // Summed over the nodes: what the cluster spends, not one node.
    result["server_cpu_cores"] = json!(round(server_cpu / seconds, 2));
    let moves = result["moves"].as_f64().unwrap_or(0.0);
    result["server_cpu_ms_per_move"] = json!(round(server_cpu * 1000.0 / moves.max(1.0), 3));
    result["bots_cpu_cores"] = json!(round(bots_cpu / seconds, 2));
    result["server_peak_mib"] = json!(round(peak, 1));
    result["server_logs"] = json!(logs);
    Ok(result)
}

/// Spectators among `connections`: `percent` of them, rounded down to an
/// even number so the players make whole games, and at least one game left.
fn spectators_of(connections: usize, percent: u32) -> usize {
    let share = connections * percent as usize / 100;
    (share - share % 2).min(connections - 2)
}

/// What the bus hop adds to a move: the cluster's row less the one
/// process's, at the same connections on the same PostgreSQL.
fn bus_hop(one: &Value, cluster: &Value) -> Value {
    let less = |a: &Value, b: &Value| match (a.as_f64(), b.as_f64()) {
        (Some(a), Some(b)) => json!(round(a - b, 3)),
        _ => Value::Null,
    };
    // The seeker's moves: forwarded over the bus in the cluster, local in
    // the one process; the acceptor's are local in both.
    let (rt, rt1) = (
        &cluster["seeker_round_trip_ms"],
        &one["seeker_round_trip_ms"],
    );
    json!({
        "connections": one["connections"],
        "nodes": cluster["nodes"],
        "p50_ms": less(&rt["p50"], &rt1["p50"]),
        "p99_ms": less(&rt["p99"], &rt1["p99"]),
        "server_cpu_ms_per_move": less(
            &cluster["server_cpu_ms_per_move"],
            &one["server_cpu_ms_per_move"],
        ),
    })
}

fn bus_hop_line(hop: &Value) -> String {
    let signed = |v: &Value| v.as_f64().map_or("n/a".to_owned(), |x| format!("{x:+}"));
    format!(
        "bus hop at {} connections ({} nodes less 1): a forwarded move's p50 {} ms, p99 {} ms; server CPU {} ms a move\n",
        hop["connections"],
        hop["nodes"],
        signed(&hop["p50_ms"]),
        signed(&hop["p99_ms"]),
        signed(&hop["server_cpu_ms_per_move"]),
    )
}

/// The figures of a level's games.
fn summarize(connections: usize, play: &LevelPlay) -> Value {
    // One kind of round trip of every game, sorted.
    let sorted = |of: fn(&GameOutcome) -> &Vec<u32>| {
        let mut all: Vec<u32> = play
            .games
            .iter()
            .flat_map(|g| of(g).iter().copied())
            .collect();
        all.sort_unstable();
        all
    };
    let round_trips = sorted(|g| &g.round_trips_us);
    let seekers = sorted(|g| &g.seeker_round_trips_us);
    let chats = sorted(|g| &g.chat_round_trips_us);
    let sum = |f: fn(&GameOutcome) -> u64| play.games.iter().map(f).sum::<u64>();
    let lost: Vec<_> = play
        .games
        .iter()
        .filter(|g| !g.ended || !g.protocol_errors.is_empty() || !g.failures.is_empty())
        .collect();
    let unfinished = play.games.iter().filter(|g| !g.ended).count();
    let protocol_errors: usize = play.games.iter().map(|g| g.protocol_errors.len()).sum();
    let examples: Vec<&String> = lost
        .iter()
        .flat_map(|g| g.protocol_errors.iter().chain(&g.failures))
        .take(5)
        .collect();
    let plies: Vec<u64> = play.games.iter().map(|g| g.plies).collect();
    let mut reasons = std::collections::BTreeMap::<&str, usize>::new();
    for game in &play.games {
        *reasons
            .entry(game.reason.as_deref().unwrap_or("none"))
            .or_default() += 1;
    }
    let seconds = play.play.as_secs_f64();
    let ms = |q: f64| percentile(&round_trips, q).map(|us| round(us as f64 / 1000.0, 2));
    let seeker_ms = |q: f64| percentile(&seekers, q).map(|us| round(us as f64 / 1000.0, 2));
    let chat_ms = |q: f64| percentile(&chats, q).map(|us| round(us as f64 / 1000.0, 2));
    json!({
        "connections": connections,
        "games": play.games.len(),
        "finished_games": play.games.len() - unfinished,
        "lost_games": lost.len(),
        "unfinished_games": unfinished,
        "protocol_errors": protocol_errors,
        "moves": round_trips.len(),
        "mean_plies": round(plies.iter().sum::<u64>() as f64 / plies.len().max(1) as f64, 1),
        "setup_seconds": round(play.setup.as_secs_f64(), 2),
        "play_seconds": round(seconds, 2),
        "moves_per_second": round(round_trips.len() as f64 / seconds, 0),
        "round_trip_ms": {"p50": ms(0.50), "p90": ms(0.90), "p99": ms(0.99), "max": ms(1.0)},
        // In a cluster the moves that cross the bus; the rest are local.
        "seeker_round_trip_ms": {"p50": seeker_ms(0.50), "p99": seeker_ms(0.99)},
        "premoves": sum(|g| g.premoves),
        "spectators": play.spectators,
        "chat_games": play.chat_games,
        "chats_sent": sum(|g| g.chats_sent),
        "chat_frames_received": sum(|g| g.chat_frames_received),
        "lost_chats": sum(|g| g.lost_chats),
        // Each message to its writer's own copy: chat, not moves.
        "chat_round_trip_ms": {"p50": chat_ms(0.50), "p90": chat_ms(0.90), "p99": chat_ms(0.99), "max": chat_ms(1.0)},
        "end_reasons": reasons,
        "problems": examples,
    })
}

/// The `q` quantile (nearest rank) of sorted values.
fn percentile(sorted: &[u32], q: f64) -> Option<u32> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

fn table_row(level: &Value) -> String {
    let rt = &level["round_trip_ms"];
    // serde_json's Display ignores widths: the cells are strings first.
    let cell = |v: &Value| v.to_string();
    format!(
        "{:<30} {:>7} {:>6} {:>6} {:>5} {:>6} {:>9} {:>8} {:>8} {:>8} {:>6} {:>7} {:>8} {:>7} {:>8} {:>8.1}",
        level["setup"].as_str().unwrap_or("?"),
        cell(&level["connections"]),
        cell(&level["games"]),
        cell(&level["finished_games"]),
        cell(&level["lost_games"]),
        cell(&level["protocol_errors"]),
        cell(&level["moves_per_second"]),
        cell(&rt["p50"]),
        cell(&rt["p99"]),
        cell(&rt["max"]),
        cell(&level["chats_sent"]),
        cell(&level["lost_chats"]),
        cell(&level["chat_round_trip_ms"]["p99"]),
        cell(&level["server_cpu_cores"]),
        cell(&level["bots_cpu_cores"]),
        level["server_peak_mib"].as_f64().unwrap_or(f64::NAN),
    )
}

fn table(levels: &[Value]) -> String {
    let mut text = format!(
        "{:<30} {:>7} {:>6} {:>6} {:>5} {:>6} {:>9} {:>8} {:>8} {:>8} {:>6} {:>7} {:>8} {:>7} {:>8} {:>8}\n",
        "setup",
        "conns",
        "games",
        "ended",
        "lost",
        "errors",
        "moves/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "chats",
        "ch lost",
        "chat p99",
        "srv cpu",
        "bots cpu",
        "peak MiB"
    );
    for level in levels {
        text.push_str(&table_row(level));
        text.push('\n');
        for problem in level["problems"].as_array().into_iter().flatten() {
            text.push_str(&format!(
                "        problem: {}\n",
                problem.as_str().unwrap_or("?")
            ));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let xs: Vec<u32> = (1..=100).collect();
        assert_eq!(percentile(&xs, 0.5), Some(50));
        assert_eq!(percentile(&xs, 0.99), Some(99));
        assert_eq!(percentile(&xs, 1.0), Some(100));
        assert_eq!(percentile(&[7], 0.01), Some(7));
        assert_eq!(percentile(&[], 0.5), None);
    }

    #[test]
    fn the_bus_hop_is_the_cluster_less_the_one_process() {
        let one = json!({"connections": 100, "nodes": 1, "server_cpu_ms_per_move": 0.4,
            "seeker_round_trip_ms": {"p50": 0.7, "p99": 2.0}});
        let cluster = json!({"connections": 100, "nodes": 3, "server_cpu_ms_per_move": 1.1,
            "seeker_round_trip_ms": {"p50": 1.2, "p99": null}});
        let hop = bus_hop(&one, &cluster);
        assert_eq!(hop["nodes"], 3);
        assert_eq!(hop["p50_ms"], 0.5);
        assert_eq!(hop["p99_ms"], Value::Null);
        assert_eq!(hop["server_cpu_ms_per_move"], 0.7);
        let line = bus_hop_line(&hop);
        assert!(line.contains("p50 +0.5 ms, p99 n/a ms"), "{line}");
        assert!(line.contains("CPU +0.7 ms a move"), "{line}");
    }

    #[test]
    fn unfinished_and_erroneous_games_are_lost() {
        let ok = GameOutcome {
            round_trips_us: vec![1000, 3000],
            seeker_round_trips_us: vec![3000],
            chat_round_trips_us: vec![9000],
            chats_sent: 1,
            chat_frames_received: 2,
            premoves: 1,
            plies: 2,
            ended: true,
            reason: Some("checkmate".into()),
            ..GameOutcome::default()
        };
        let unfinished = GameOutcome {
            round_trips_us: vec![2000],
            plies: 1,
            failures: vec!["unfinished at the deadline after 1 plies".into()],
            ..GameOutcome::default()
        };
        let erroneous = GameOutcome {
            ended: true,
            protocol_errors: vec!["error frame stale_ply: late".into()],
            ..GameOutcome::default()
        };
        let lost_chat = GameOutcome {
            ended: true,
            chats_sent: 2,
            chat_frames_received: 3,
            lost_chats: 1,
            failures: vec!["lost chat: read 1 of the 2 messages".into()],
            ..GameOutcome::default()
        };
        let play = LevelPlay {
            games: vec![ok, unfinished, erroneous, lost_chat],
            chat_games: 2,
            spectators: 2,
            setup: Duration::from_secs(1),
            play: Duration::from_secs(2),
        };
        let s = summarize(10, &play);
        assert_eq!(s["games"], 4);
        assert_eq!(s["lost_games"], 3);
        assert_eq!(s["unfinished_games"], 1);
        assert_eq!(s["protocol_errors"], 1);
        assert_eq!(s["moves"], 3);
        assert_eq!(s["moves_per_second"], 2.0);
        assert_eq!(s["round_trip_ms"]["p50"], 2.0);
        assert_eq!(s["seeker_round_trip_ms"]["p50"], 3.0);
        assert_eq!(s["end_reasons"]["checkmate"], 1);
        assert_eq!(s["problems"].as_array().unwrap().len(), 3);
        // Chat is counted apart from the moves.
        assert_eq!(s["chats_sent"], 3);
        assert_eq!(s["chat_frames_received"], 5);
        assert_eq!(s["lost_chats"], 1);
        assert_eq!(s["chat_round_trip_ms"]["p99"], 9.0);
        assert_eq!(s["premoves"], 1);
        assert_eq!(s["spectators"], 2);
        assert_eq!(s["chat_games"], 2);
    }

    #[test]
    fn spectators_are_an_even_share_and_leave_a_game() {
        assert_eq!(spectators_of(1000, 2), 20);
        assert_eq!(spectators_of(100, 2), 2);
        assert_eq!(spectators_of(100, 5), 4);
        assert_eq!(spectators_of(10, 1), 0);
        assert_eq!(spectators_of(4, 50), 2);
        assert_eq!(spectators_of(2, 50), 0);
    }
}
