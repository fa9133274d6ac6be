//! `xiangqi bot --engine CMD --server URL --token T [policy…] [--challenge
//! NAME --tc MIN+INC --games N] [--json]`: an engine playing as a bot of
//! `xiangqi serve` (docs/bots.md), on `xiangqi-bot`. This parses the
//! flags, prints the bot's reports (stderr lines, or `--json` lines on
//! stdout) and turns Ctrl-C into the bot's clean stop.

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use xiangqi_bot::{BotConfig, BotEngine, DrawPolicy, Outgoing, Policy, Report};
use xiangqi_engine_client::EngineSpec;
use xiangqi_server_protocol::bot::ChallengeRequest;
use xiangqi_server_protocol::time_control::offered_time_control;
use xiangqi_server_protocol::ColorChoice;

/// The environment variable read when `--token` is not given (a token on
/// the command line shows in `ps`).
pub const TOKEN_VAR: &str = "XIANGQI_BOT_TOKEN";

#[derive(clap::Args)]
pub struct Args {
    /// The engine: `CMD[,proto=uci|ucci|xboard][,ranks=0|1][,option=Name=Value]…`
    /// as `xiangqi match` takes it, or `builtin` for this program's search in process.
    #[arg(long, value_name = "SPEC")]
    engine: String,
    /// The server: http://HOST:PORT.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The bot account's API token (xqb_…) [default: $XIANGQI_BOT_TOKEN].
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// First make the token's account a bot account (for good; only before it has played).
    #[arg(long)]
    upgrade: bool,
    /// Reports as JSON lines on stdout instead of text on stderr.
    #[arg(long)]
    json: bool,
    /// Take rated challenges only.
    #[arg(long, conflicts_with = "casual_only")]
    rated_only: bool,
    /// Take casual challenges only.
    #[arg(long)]
    casual_only: bool,
    /// Decline challenges from other bots.
    #[arg(long)]
    no_bots: bool,
    /// Decline challenges from people.
    #[arg(long)]
    no_people: bool,
    /// The shortest base time taken, minutes.
    #[arg(long, value_name = "MIN")]
    min_base: Option<f64>,
    /// The longest base time taken, minutes.
    #[arg(long, value_name = "MIN")]
    max_base: Option<f64>,
    /// The smallest increment taken, seconds.
    #[arg(long, value_name = "S")]
    min_increment: Option<f64>,
    /// The largest increment taken, seconds.
    #[arg(long, value_name = "S")]
    max_increment: Option<f64>,
    /// The rule sets taken, comma-separated (online, asian, pikafish, fairy, plain) [default: all].
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    rules: Vec<String>,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1)]
    max_games: usize,
    /// Accept a draw offer when the engine's last evaluation for the bot is at
    /// or below CP centipawns [default: decline every draw offer].
    #[arg(long, value_name = "CP", allow_hyphen_values = true)]
    draw_below: Option<i32>,
    /// Agree to the opponent's takeback requests.
    #[arg(long)]
    accept_takebacks: bool,
    /// Milliseconds taken off the bot's clock before the engine plans (network time).
    #[arg(long, value_name = "MS", default_value_t = 300)]
    move_overhead: u64,
    /// The hash table of `--engine builtin`, MiB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    hash: usize,
    /// Challenge this player (a bot with its event stream open) instead of waiting.
    #[arg(long, value_name = "NAME")]
    challenge: Option<String>,
    /// The challenge's time control, MIN+INC.
    #[arg(
        long,
        value_name = "MIN+INC",
        default_value = "3+2",
        requires = "challenge"
    )]
    tc: String,
    /// A rated challenge (bot pool).
    #[arg(long, requires = "challenge")]
    rated: bool,
    /// The challenge's rule set.
    #[arg(
        long = "challenge-rules",
        value_name = "RULES",
        default_value = "online",
        requires = "challenge"
    )]
    challenge_rules: String,
    /// The colour asked for: red, black or random.
    #[arg(
        long,
        value_name = "COLOR",
        default_value = "random",
        requires = "challenge"
    )]
    color: String,
    /// Games to play against --challenge's player; then the bot stops.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "challenge")]
    games: usize,
}

fn minutes(value: f64) -> u64 {
    (value * 60_000.0).round().max(0.0) as u64
}

fn seconds(value: f64) -> u64 {
    (value * 1_000.0).round().max(0.0) as u64
}

impl Args {
    fn engine(&self) -> Result<BotEngine> {
        if self.engine == "builtin" {
            return Ok(BotEngine::Builtin { hash_mb: self.hash });
        }
        let spec: EngineSpec = self.engine.parse().context("--engine")?;
        Ok(BotEngine::External(spec))
    }

    fn policy(&self) -> Result<Policy> {
        if self.max_games == 0 {
            bail!("--max-games must be at least 1");
        }
        if self.no_bots && self.no_people {
            bail!("--no-bots and --no-people together decline every challenge");
        }
        let policy = Policy {
            rated: !self.casual_only,
            casual: !self.rated_only,
            people: !self.no_people,
            bots: !self.no_bots,
            min_base_ms: self.min_base.map_or(0, minutes),
            max_base_ms: self.max_base.map_or(u64::MAX, minutes),
            min_increment_ms: self.min_increment.map_or(0, seconds),
            max_increment_ms: self.max_increment.map_or(u64::MAX, seconds),
            rules: self.rules.iter().map(|r| r.trim().to_string()).collect(),
            max_games: self.max_games,
            draws: self
                .draw_below
                .map_or(DrawPolicy::Never, DrawPolicy::AtOrBelow),
            takebacks: self.accept_takebacks,
        };
        if policy.min_base_ms > policy.max_base_ms
            || policy.min_increment_ms > policy.max_increment_ms
        {
            bail!("the time-control bounds exclude every game (a minimum above its maximum)");
        }
        Ok(policy)
    }

    fn outgoing(&self) -> Result<Option<Outgoing>> {
        let Some(opponent) = &self.challenge else {
            return Ok(None);
        };
        offered_time_control(&self.tc).context("--tc")?;
        let color = match self.color.as_str() {
            "red" => ColorChoice::Red,
            "black" => ColorChoice::Black,
            "random" => ColorChoice::Random,
            other => bail!("--color {other:?}: expected red, black or random"),
        };
        if self.games == 0 {
            bail!("--games must be at least 1");
        }
        Ok(Some(Outgoing {
            opponent: opponent.clone(),
            request: ChallengeRequest {
                tc: self.tc.clone(),
                rated: self.rated,
                rules: self.challenge_rules.clone(),
                color,
            },
            games: self.games,
        }))
    }
}

pub fn run(args: Args) -> Result<()> {
    let token = match &args.token {
        Some(token) => token.clone(),
        None => std::env::var(TOKEN_VAR)
            .ok()
            .filter(|t| !t.trim().is_empty())
            .with_context(|| format!("no token: give --token or set {TOKEN_VAR} (docs/bots.md)"))?,
    };
    let mut config = BotConfig::new(&args.server, &token, args.engine()?);
    config.policy = args.policy()?;
    config.challenge = args.outgoing()?;
    config.move_overhead = Duration::from_millis(args.move_overhead);
    let json = args.json;
    let report: xiangqi_bot::Reporter = Arc::new(move |report: Report| {
        if json {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", report.to_json_line());
            let _ = out.flush();
        } else {
            eprintln!("bot: {report}");
        }
    });
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        if args.upgrade {
            let api = xiangqi_bot::Api::new(&config.server, &config.token)?;
            api.upgrade_to_bot().await?;
            if !json {
                eprintln!("bot: the account is now a bot account");
            }
        }
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        tokio::spawn(async move {
            // Ctrl-C (or SIGTERM from a service manager): stop cleanly.
            wait_for_signal().await;
            stop.send_replace(true);
        });
        xiangqi_bot::run(config, report, shutdown).await?;
        Ok(())
    })
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
