//! `xiangqi serve [--addr ADDR] [--data DIR | --database URL] [--explorer FILE] [--puzzles FILE]
//! [--bus nats://…]
//! [--allowed-origin ORIGIN] [--behind-tls] [--trusted-proxy IP] [--limit-… N]`: the game
//! server and its web client (`xiangqi-server`), until Ctrl-C.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use xiangqi_server::clock::SystemClock;
use xiangqi_server::http::guard::normal_origin;
use xiangqi_server::security::{Rate, Security};
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
    /// Run as one node of a cluster: the NATS bus the nodes meet on
    /// (nats://HOST:PORT); needs --database postgres://… shared by every node.
    #[arg(long, value_name = "URL", requires = "database")]
    bus: Option<String>,
    /// Engine searches running at once [default: one per core but one, at least 1].
    #[arg(long, value_name = "N")]
    engine_threads: Option<usize>,
    /// An opening explorer file (`xiangqi explore build`) shown beside the board.
    #[arg(long, value_name = "FILE")]
    explorer: Option<PathBuf>,
    /// A puzzle-set file (`xiangqi puzzles build`) for /puzzles instead of the built-in set.
    #[arg(long, value_name = "FILE")]
    puzzles: Option<PathBuf>,
    /// An origin besides the server's own whose pages may open the socket and
    /// send requests (`https://xiangqi.example`), for a proxy that changes the Host; repeatable.
    #[arg(long, value_name = "ORIGIN")]
    allowed_origin: Vec<String>,
    /// Browsers reach the server over HTTPS (a TLS proxy in front): Secure cookies, https:// origin.
    #[arg(long)]
    behind_tls: bool,
    /// A proxy whose X-Forwarded-For and X-Forwarded-Proto are believed; repeatable.
    #[arg(long, value_name = "IP")]
    trusted_proxy: Vec<IpAddr>,
    /// New guests per client address, as N/UNIT (s, min, h, d).
    #[arg(long, value_name = "RATE", default_value_t = Security::GUESTS)]
    limit_guests: Rate,
    /// Sign-in attempts (login and registration) per client address.
    #[arg(long, value_name = "RATE", default_value_t = Security::SIGN_INS)]
    limit_sign_ins: Rate,
    /// Login attempts per account name.
    #[arg(long, value_name = "RATE", default_value_t = Security::ACCOUNT_SIGN_INS)]
    limit_account_sign_ins: Rate,
    /// Open seeks per client address (each player has at most 3 besides).
    #[arg(long, value_name = "N", default_value_t = Security::SEEKS_PER_ADDRESS)]
    limit_seeks_per_address: usize,
    /// Password hashes computed at once (each holds 19 MiB).
    #[arg(long, value_name = "N", default_value_t = Security::HASH_WORKERS)]
    hash_workers: usize,
    /// Sign-ins waiting for a hashing worker at most; more are answered 503.
    #[arg(long, value_name = "N", default_value_t = Security::HASH_QUEUE)]
    hash_queue: usize,
}

impl Args {
    fn security(&self) -> Result<Security> {
        for origin in &self.allowed_origin {
            if normal_origin(origin).is_none() {
                bail!(
                    "--allowed-origin {origin:?} is not an origin such as https://xiangqi.example"
                );
            }
        }
        Ok(Security {
            allowed_origins: self.allowed_origin.clone(),
            behind_tls: self.behind_tls,
            trusted_proxies: self.trusted_proxy.clone(),
            guests: self.limit_guests,
            sign_ins: self.limit_sign_ins,
            account_sign_ins: self.limit_account_sign_ins,
            seeks_per_address: self.limit_seeks_per_address,
            hash_workers: self.hash_workers.max(1),
            hash_queue: self.hash_queue,
        })
    }
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
    let security = args.security()?;
    // Opened first: a bad file is an error before anything listens.
    let explorer = args
        .explorer
        .as_ref()
        .map(xiangqi_explorer::Explorer::open)
        .transpose()?;
    let puzzles = args
        .puzzles
        .as_ref()
        .map(|path| -> Result<xiangqi_server::puzzles::Puzzles> {
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot open --puzzles {}", path.display()))?;
            let puzzles = xiangqi_server::puzzles::Puzzles::read(std::io::BufReader::new(file))
                .with_context(|| format!("--puzzles {}", path.display()))?;
            if puzzles.is_empty() {
                bail!("--puzzles {}: the file holds no puzzle", path.display());
            }
            Ok(puzzles)
        })
        .transpose()?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let store = Store::open(&url).await?;
        let clock = Arc::new(SystemClock::new());
        let server = match &args.bus {
            Some(bus) => {
                if !url.starts_with("postgres") {
                    bail!("--bus needs a database every node shares: --database postgres://…");
                }
                Server::bind_node(args.addr, store, clock, engine_threads, bus).await?
            }
            None => Server::bind(args.addr, store, clock, engine_threads).await?,
        }
        .with_security(security);
        let server = match explorer {
            Some(explorer) => server.with_explorer(explorer),
            None => server,
        };
        let server = match puzzles {
            Some(puzzles) => server.with_puzzles(puzzles),
            None => server,
        };
        eprintln!("puzzles: {}", server.state().puzzles.len());
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
