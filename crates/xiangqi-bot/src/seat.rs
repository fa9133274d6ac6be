//! The engine at one game's board: an external engine's blocking client,
//! or our search in process, run on tokio's blocking threads; started when
//! the game's first search comes, started again once after a failure,
//! quit when the game ends.

use xiangqi_core::{Move, Position};
use xiangqi_engine_client::builtin::BuiltinEngine;
use xiangqi_engine_client::{
    Analysis, Clock, Engine, EngineError, EngineSpec, Limit, SearchOptions,
};

/// The engine a bot plays with: one process (or one search) per game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotEngine {
    /// A UCI, UCCI or xboard program (`xiangqi-engine`, Pikafish,
    /// Fairy-Stockfish), by its `CMD[,key=value]` spec.
    External(EngineSpec),
    /// Our search in process, with a hash table of this many MiB.
    Builtin { hash_mb: usize },
}

impl BotEngine {
    /// The command, or `builtin`, for messages.
    pub fn describe(&self) -> String {
        match self {
            BotEngine::External(spec) => spec.command.clone(),
            BotEngine::Builtin { .. } => "builtin".to_string(),
        }
    }
}

/// A started engine.
pub enum Player {
    External(Box<Engine>),
    Builtin(Box<BuiltinEngine>),
}

impl Player {
    /// Its name: the engine's own (`id name`) or the spec's.
    pub fn name(&self) -> String {
        match self {
            Player::External(engine) => engine.name().to_string(),
            Player::Builtin(_) => BuiltinEngine::name(),
        }
    }

    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        match self {
            Player::External(engine) => engine.new_game(start, limit),
            Player::Builtin(engine) => {
                engine.new_game();
                Ok(())
            }
        }
    }

    fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        match self {
            Player::External(engine) => engine.search(start, moves, options),
            Player::Builtin(engine) => engine.search(start, moves, options),
        }
    }

    /// Quits (an external engine is asked to, then killed if it lingers).
    pub fn quit(self) {
        if let Player::External(engine) = self {
            engine.quit();
        }
    }
}

/// Starts `engine` (on a blocking thread: the handshake waits).
pub async fn start_engine(engine: &BotEngine) -> Result<Player, EngineError> {
    let engine = engine.clone();
    tokio::task::spawn_blocking(move || match engine {
        BotEngine::External(spec) => {
            Engine::start(&spec, None).map(|e| Player::External(Box::new(e)))
        }
        BotEngine::Builtin { hash_mb } => {
            Ok(Player::Builtin(Box::new(BuiltinEngine::new(hash_mb))))
        }
    })
    .await
    .unwrap_or_else(|e| {
        Err(EngineError::Died {
            status: format!("the engine's thread failed: {e}"),
        })
    })
}

/// An engine call on a blocking thread, the engine handed there and back
/// (kept only if the call left it usable).
async fn blocking<T: Send + 'static>(
    player: Player,
    call: impl FnOnce(&mut Player) -> Result<T, EngineError> + Send + 'static,
) -> (Option<Player>, Result<T, EngineError>) {
    let joined = tokio::task::spawn_blocking(move || {
        let mut player = player;
        let result = call(&mut player);
        let keep = match &result {
            Err(e) if e.is_fatal() => None,
            _ => Some(player),
        };
        (keep, result)
    })
    .await;
    joined.unwrap_or_else(|e| {
        (
            None,
            Err(EngineError::Died {
                status: format!("the engine's thread failed: {e}"),
            }),
        )
    })
}

/// One game's engine.
pub struct Seat {
    engine: BotEngine,
    player: Option<Player>,
}

impl Seat {
    /// A seat whose engine starts at the first search.
    pub fn new(engine: BotEngine) -> Seat {
        Seat {
            engine,
            player: None,
        }
    }

    /// The engine's best move after `moves` from `start` with the game's
    /// clocks. An engine that died or hung is started again for one more
    /// try; its second failure is the answer.
    pub async fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        clock: Clock,
    ) -> Result<Analysis, EngineError> {
        let mut last = None;
        for _ in 0..2 {
            let player = match self.player.take() {
                Some(player) => player,
                None => {
                    let player = match start_engine(&self.engine).await {
                        Ok(player) => player,
                        Err(e) => {
                            last = Some(e);
                            continue;
                        }
                    };
                    let from = start.clone();
                    let (player, prepared) =
                        blocking(player, move |p| p.new_game(&from, Limit::clock(clock))).await;
                    match (player, prepared) {
                        (Some(player), Ok(())) => player,
                        (_, Err(e)) => {
                            last = Some(e);
                            continue;
                        }
                        (None, Ok(())) => continue,
                    }
                }
            };
            let (from, played) = (start.clone(), moves.to_vec());
            let (player, result) = blocking(player, move |p| {
                p.search(&from, &played, SearchOptions::new(Limit::clock(clock)))
            })
            .await;
            self.player = player;
            match result {
                Err(e) if e.is_fatal() => last = Some(e),
                result => return result,
            }
        }
        Err(last.unwrap_or(EngineError::Stopped))
    }

    /// Quits the engine (on a blocking thread: quitting waits a moment).
    pub async fn quit(&mut self) {
        if let Some(player) = self.player.take() {
            let _ = tokio::task::spawn_blocking(move || player.quit()).await;
        }
    }
}
