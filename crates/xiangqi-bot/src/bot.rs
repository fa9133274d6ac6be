//! The bot's main loop: the event stream kept open (reconnecting with
//! backoff), challenges answered by the policy, one task per game, the
//! bot's own challenges when it is told to play someone, and a clean stop.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio::task::JoinSet;
use xiangqi_server_protocol::bot::{
    BotEvent, Challenge, ChallengeCreated, ChallengeRequest, DeclineRequest, GameRef, OkAnswer,
};

use crate::api::Api;
use crate::backoff::Backoff;
use crate::error::BotError;
use crate::game::{self, GameEnd, GameSettings};
use crate::ndjson::{parse_line, LineStream};
use crate::policy::Policy;
use crate::report::Report;
use crate::seat::{start_engine, BotEngine};
use crate::Reporter;

/// Everything a bot runs with.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// `http://HOST:PORT` of `xiangqi serve`.
    pub server: String,
    /// The bot account's API token (`xqb_…`).
    pub token: String,
    /// The engine; one process per game.
    pub engine: BotEngine,
    /// Which challenges to take, how to answer offers.
    pub policy: Policy,
    /// Challenge a player instead of (besides) waiting to be challenged.
    pub challenge: Option<Outgoing>,
    /// The waits between reconnection attempts.
    pub backoff: Backoff,
    /// Taken off the bot's clock before the engine plans its move.
    pub move_overhead: Duration,
    /// The longest silence on a stream (the server's keep-alive is 5 s).
    pub stream_idle: Duration,
}

impl BotConfig {
    /// The defaults for `server`, `token` and `engine`: [`Policy::default`],
    /// 1 s to 60 s between attempts, 300 ms of move overhead, 20 s of silence.
    pub fn new(server: &str, token: &str, engine: BotEngine) -> BotConfig {
        BotConfig {
            server: server.to_string(),
            token: token.to_string(),
            engine,
            policy: Policy::default(),
            challenge: None,
            backoff: Backoff::default(),
            move_overhead: Duration::from_millis(300),
            stream_idle: Duration::from_secs(20),
        }
    }
}

/// Games the bot asks for itself: one challenge at a time to `opponent`
/// until `games` games are over, then the bot stops.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// Whom to challenge.
    pub opponent: String,
    /// The terms.
    pub request: ChallengeRequest,
    /// Games to play.
    pub games: usize,
}

/// How a run went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Games played to their end.
    pub games: usize,
    /// Why the bot stopped: `shutdown` or `games_played`.
    pub reason: &'static str,
}

/// A challenge the bot lets lapse at most this many times in a row
/// before it gives up.
const MAX_LAPSED_CHALLENGES: usize = 3;

/// Resolves once `shutdown` turns true (never if its sender is gone
/// without saying so).
pub(crate) async fn stopped(mut shutdown: watch::Receiver<bool>) {
    if shutdown.wait_for(|stop| *stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// How long an accepted challenge counts as a game about to start.
const ACCEPTED_GAME_WAIT: Duration = Duration::from_secs(30);

/// How often and how long the bot waits for an opponent's bot to come
/// online before challenging it fails.
const MAX_OFFLINE_WAITS: usize = 20;
const OFFLINE_WAIT: Duration = Duration::from_secs(3);

/// The loop's state.
struct Bot {
    api: Api,
    config: BotConfig,
    report: Reporter,
    settings: GameSettings,
    shutdown: watch::Receiver<bool>,
    /// What the game tasks watch: the owner's shutdown, or the bot done.
    stop_games: watch::Sender<bool>,
    games: JoinSet<(String, Result<GameEnd, BotError>)>,
    playing: HashSet<String>,
    /// Challenges accepted whose game has not started yet, and when (a
    /// game starts on the accept; one that never came stops counting).
    accepted: Vec<(String, Instant)>,
    finished: usize,
    /// The bot's own open challenge.
    sent: Option<String>,
    lapsed: usize,
}

/// Runs the bot until `shutdown` turns true, the games it was told to
/// play are over, or a failure that retrying cannot mend (a refused token,
/// an engine that does not start, a declined challenge).
pub async fn run(
    config: BotConfig,
    report: Reporter,
    shutdown: watch::Receiver<bool>,
) -> Result<Summary, BotError> {
    if let Some(outgoing) = &config.challenge {
        if outgoing.games == 0 {
            return Err(BotError::Config("--games must be at least 1".into()));
        }
    }
    let mut api = Api::new(&config.server, &config.token)?;
    api.stream_idle = config.stream_idle;
    // A bad engine fails here, before the bot takes any challenge.
    let engine = start_engine(&config.engine)
        .await
        .map_err(BotError::EngineStart)?;
    let engine_name = engine.name();
    tokio::task::spawn_blocking(move || engine.quit());
    let settings = GameSettings {
        api: api.clone(),
        engine: config.engine.clone(),
        policy: Arc::new(config.policy.clone()),
        report: report.clone(),
        backoff: config.backoff.clone(),
        move_overhead: config.move_overhead,
    };
    let mut bot = Bot {
        api,
        config,
        report,
        settings,
        shutdown,
        stop_games: watch::channel(false).0,
        games: JoinSet::new(),
        playing: HashSet::new(),
        accepted: Vec::new(),
        finished: 0,
        sent: None,
        lapsed: 0,
    };
    let result = bot.run(&engine_name).await;
    bot.stop_games().await;
    // Games that ended while the bot stopped count too.
    let summary = Summary {
        games: bot.finished,
        ..result?
    };
    (bot.report)(Report::Stopped {
        reason: summary.reason.to_string(),
        games: summary.games,
    });
    Ok(summary)
}

impl Bot {
    async fn run(&mut self, engine_name: &str) -> Result<Summary, BotError> {
        let mut backoff = self.config.backoff.clone();
        loop {
            if *self.shutdown.borrow() {
                return Ok(self.summary("shutdown"));
            }
            let connected = tokio::select! {
                opened = self.api.stream("/api/stream/event") => opened,
                _ = stopped(self.shutdown.clone()) => return Ok(self.summary("shutdown")),
            };
            let error = match connected {
                Ok(mut lines) => {
                    backoff.reset();
                    (self.report)(Report::Connected {
                        server: self.config.server.clone(),
                        engine: engine_name.to_string(),
                    });
                    match self.serve(&mut lines).await {
                        Ok(Some(summary)) => return Ok(summary),
                        Ok(None) => "the server closed the event stream".to_string(),
                        Err(e) if e.is_transient() => e.to_string(),
                        Err(e) => return Err(e),
                    }
                }
                Err(e) if e.is_transient() => e.to_string(),
                Err(e) => return Err(e),
            };
            let wait = backoff.next_wait(None);
            (self.report)(Report::Reconnecting {
                stream: "event stream".into(),
                error,
                retry_ms: wait.as_millis() as u64,
            });
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = stopped(self.shutdown.clone()) => return Ok(self.summary("shutdown")),
            }
        }
    }

    fn summary(&self, reason: &'static str) -> Summary {
        Summary {
            games: self.finished,
            reason,
        }
    }

    /// One connection of the event stream: `Some` when the bot is done,
    /// `None` when the stream ended.
    async fn serve(&mut self, lines: &mut LineStream) -> Result<Option<Summary>, BotError> {
        self.challenge_if_due().await?;
        loop {
            tokio::select! {
                line = lines.next_line() => {
                    let Some((number, text)) = line? else { return Ok(None) };
                    match parse_line::<BotEvent>(lines.what(), number, &text, "event") {
                        Ok(event) => self.on_event(event).await?,
                        Err(e) => (self.report)(Report::Warning { game: None, message: e.to_string() }),
                    }
                }
                Some(joined) = self.games.join_next(), if !self.games.is_empty() => {
                    if let Some(summary) = self.on_game_end(joined).await? {
                        return Ok(Some(summary));
                    }
                }
                _ = stopped(self.shutdown.clone()) => return Ok(Some(self.summary("shutdown"))),
            }
        }
    }

    async fn on_event(&mut self, event: BotEvent) -> Result<(), BotError> {
        match event {
            BotEvent::Challenge { challenge } => {
                if self.sent.as_deref() != Some(challenge.id.as_str()) {
                    self.answer(challenge).await?;
                }
            }
            BotEvent::ChallengeCanceled { challenge } => {
                self.accepted.retain(|(id, _)| *id != challenge.id);
                if self.sent.as_deref() == Some(challenge.id.as_str()) {
                    self.sent = None;
                    self.lapsed += 1;
                    (self.report)(Report::ChallengeRefused {
                        id: challenge.id,
                        to: challenge.dest.name.clone(),
                        reason: "canceled (unanswered)".into(),
                    });
                    if self.lapsed >= MAX_LAPSED_CHALLENGES {
                        return Err(BotError::Config(format!(
                            "{} left {MAX_LAPSED_CHALLENGES} challenges unanswered; is it online?",
                            challenge.dest.name
                        )));
                    }
                    self.challenge_if_due().await?;
                }
            }
            BotEvent::ChallengeDeclined { challenge, reason } => {
                if self.sent.as_deref() == Some(challenge.id.as_str()) {
                    self.sent = None;
                    (self.report)(Report::ChallengeRefused {
                        id: challenge.id,
                        to: challenge.dest.name.clone(),
                        reason: format!("declined ({})", reason.name()),
                    });
                    return Err(BotError::Config(format!(
                        "{} declined the challenge ({})",
                        challenge.dest.name,
                        reason.name()
                    )));
                }
            }
            BotEvent::GameStart { game } => self.start_game(game),
            // The game's own stream says the same and ends its task.
            BotEvent::GameFinish { .. } => {}
        }
        Ok(())
    }

    /// Accepts or declines a challenge to the bot.
    async fn answer(&mut self, challenge: Challenge) -> Result<(), BotError> {
        self.accepted
            .retain(|(_, when)| when.elapsed() < ACCEPTED_GAME_WAIT);
        let busy = self.playing.len() + self.accepted.len() + usize::from(self.sent.is_some());
        let verdict = if self.draining() {
            Err(xiangqi_server_protocol::bot::DeclineReason::Later)
        } else {
            self.config.policy.judge(&challenge, busy)
        };
        let answered = match verdict {
            Ok(()) => {
                let path = format!("/api/challenge/{}/accept", challenge.id);
                self.api.post::<(), OkAnswer>(&path, None).await.map(|_| ())
            }
            Err(reason) => {
                let path = format!("/api/challenge/{}/decline", challenge.id);
                let body = DeclineRequest { reason };
                self.api
                    .post::<_, OkAnswer>(&path, Some(&body))
                    .await
                    .map(|_| ())
            }
        };
        match answered {
            Ok(()) => {
                if verdict.is_ok() {
                    self.accepted.push((challenge.id.clone(), Instant::now()));
                }
                (self.report)(Report::Challenge {
                    id: challenge.id,
                    from: challenge.challenger.name,
                    tc: challenge.tc,
                    rated: challenge.rated,
                    rules: challenge.rules,
                    accepted: verdict.is_ok(),
                    decline_reason: verdict.err().map(|r| r.name().to_string()),
                });
                Ok(())
            }
            Err(e @ BotError::BadToken { .. }) => Err(e),
            // Withdrawn or lapsed meanwhile: nothing to do.
            Err(e) => {
                (self.report)(Report::Warning {
                    game: None,
                    message: format!("challenge {}: {e}", challenge.id),
                });
                Ok(())
            }
        }
    }

    /// True when the bot plays a fixed number of games and has them all
    /// under way: it takes no more.
    fn draining(&self) -> bool {
        self.config
            .challenge
            .as_ref()
            .is_some_and(|o| self.finished + self.playing.len() >= o.games)
    }

    fn start_game(&mut self, game: GameRef) {
        // On every reconnection the server names the games in progress again.
        if !self.playing.insert(game.id.clone()) {
            return;
        }
        if !self.accepted.is_empty() {
            self.accepted.remove(0);
        }
        if self.sent.is_some() && game.opponent.name == self.outgoing_opponent() {
            self.sent = None;
            self.lapsed = 0;
        }
        (self.report)(Report::GameStart {
            game: game.id.clone(),
            color: match game.color {
                xiangqi_server_protocol::server::Side::Red => "red".into(),
                xiangqi_server_protocol::server::Side::Black => "black".into(),
            },
            opponent: game.opponent.name.clone(),
        });
        let settings = self.settings.clone();
        let shutdown = self.stop_games.subscribe();
        self.games.spawn(async move {
            let id = game.id.clone();
            (id, game::play(settings, game, shutdown).await)
        });
    }

    fn outgoing_opponent(&self) -> String {
        self.config
            .challenge
            .as_ref()
            .map(|o| o.opponent.clone())
            .unwrap_or_default()
    }

    async fn on_game_end(
        &mut self,
        joined: Result<(String, Result<GameEnd, BotError>), tokio::task::JoinError>,
    ) -> Result<Option<Summary>, BotError> {
        let (id, ended) = match joined {
            Ok(joined) => joined,
            Err(e) => {
                (self.report)(Report::Warning {
                    game: None,
                    message: format!("a game's task failed: {e}"),
                });
                return Ok(None);
            }
        };
        self.playing.remove(&id);
        match ended {
            Ok(GameEnd::Over) => self.finished += 1,
            Ok(GameEnd::ShutDown) => {}
            Err(e @ BotError::BadToken { .. }) => return Err(e),
            Err(e) => {
                (self.report)(Report::Warning {
                    game: Some(id.clone()),
                    message: e.to_string(),
                });
                // An engine that failed twice cannot go on: resign rather than
                // leave the opponent waiting for the flag.
                if matches!(e, BotError::Engine { .. }) {
                    let path = format!("/api/bot/game/{id}/resign");
                    if let Err(e) = self.api.post::<(), OkAnswer>(&path, None).await {
                        (self.report)(Report::Warning {
                            game: Some(id.clone()),
                            message: format!("cannot resign: {e}"),
                        });
                    }
                }
                self.finished += 1;
            }
        }
        if let Some(outgoing) = &self.config.challenge {
            if self.finished >= outgoing.games && self.playing.is_empty() {
                return Ok(Some(self.summary("games_played")));
            }
        }
        self.challenge_if_due().await?;
        Ok(None)
    }

    /// Sends the next challenge when the bot plays a set number of games,
    /// has none under way and none open.
    async fn challenge_if_due(&mut self) -> Result<(), BotError> {
        let Some(outgoing) = self.config.challenge.clone() else {
            return Ok(());
        };
        if self.sent.is_some() || !self.playing.is_empty() || self.finished >= outgoing.games {
            return Ok(());
        }
        let path = format!("/api/challenge/{}", outgoing.opponent);
        let mut attempts = 0;
        let created: ChallengeCreated = loop {
            match self.api.post(&path, Some(&outgoing.request)).await {
                Ok(created) => break created,
                // The opponent's bot may not be connected yet: wait for it a while.
                Err(BotError::Http { code, message, .. })
                    if code == "bot_offline" && attempts < MAX_OFFLINE_WAITS =>
                {
                    attempts += 1;
                    (self.report)(Report::Warning {
                        game: None,
                        message: format!(
                            "{}: {message}; trying again in {} s",
                            outgoing.opponent,
                            OFFLINE_WAIT.as_secs()
                        ),
                    });
                    tokio::select! {
                        _ = tokio::time::sleep(OFFLINE_WAIT) => {}
                        _ = stopped(self.shutdown.clone()) => return Ok(()),
                    }
                }
                Err(e) => return Err(e),
            }
        };
        (self.report)(Report::ChallengeSent {
            id: created.challenge.id.clone(),
            to: outgoing.opponent.clone(),
            tc: outgoing.request.tc.clone(),
            rated: outgoing.request.rated,
        });
        self.sent = Some(created.challenge.id);
        Ok(())
    }

    /// Tells every game task to stop and waits for their engines to quit.
    async fn stop_games(&mut self) {
        self.stop_games.send_replace(true);
        let stop = async {
            while let Some(joined) = self.games.join_next().await {
                if let Ok((_, Ok(GameEnd::Over))) = joined {
                    self.finished += 1;
                }
            }
        };
        if tokio::time::timeout(Duration::from_secs(10), stop)
            .await
            .is_err()
        {
            self.games.abort_all();
        }
    }
}
