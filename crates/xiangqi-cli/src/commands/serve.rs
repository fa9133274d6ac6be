//! `xiangqi serve [--addr ADDR] [--data DIR | --database URL] [--explorer FILE]`: the game
//! server and its web client (`xiangqi-server`), until Ctrl-C.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use xiangqi_server::clock::SystemClock;
use xiangqi_server::store::Store;
use xiangqi_server::{default_data_dir, sqlite_in, Server};

#[derive(clap::Args)]
pub struct Args {
    /// Address to listen on (port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Directory of the embedded SQLite database, created when missing
    /// [default: $XDG_DATA_HOME/xiangqi or ~/.local/share/xiangqi].
    #[arg(long, value_name = "DIR", conflicts_with = "database")]
    data: Option<PathBuf>,
    /// A database URL instead: postgres://USER:PASSWORD@HOST/DB (or sqlite://PATH?mode=rwc).
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Engine searches running at once [default: one per core but one, at least 1].
    #[arg(long, value_name = "N")]
    engine_threads: Option<usize>,
    /// An opening explorer file (`xiangqi explore build`) shown beside the board.
    #[arg(long, value_name = "FILE")]
    explorer: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "warn,xiangqi_server=info".into()),
        )
        .init();
    let url = match (&args.database, &args.data) {
        (Some(url), _) => url.clone(),
        (None, dir) => sqlite_in(&dir.clone().unwrap_or_else(default_data_dir))?,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let engine_threads = args
        .engine_threads
        .unwrap_or(cores.saturating_sub(1))
        .max(1);
    // Opened first: a bad file is an error before anything listens.
    let explorer = args
        .explorer
        .as_ref()
        .map(xiangqi_explorer::Explorer::open)
        .transpose()?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = Store::open(&url).await?;
        let server = Server::bind(
            args.addr,
            store,
            Arc::new(SystemClock::new()),
            engine_threads,
        )
        .await?;
        let server = match explorer {
            Some(explorer) => server.with_explorer(explorer),
            None => server,
        };
        if args.database.is_none() {
            eprintln!(
                "data: {}",
                url.trim_start_matches("sqlite://")
                    .trim_end_matches("?mode=rwc")
            );
        }
        if server.resumed_games() > 0 {
            eprintln!("resumed {} games in progress", server.resumed_games());
        }
        println!("xiangqi serve: open {}", server.url());
        server
            .run_until(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    })
}
