//! The running server: the listener, the shared state, the games resumed
//! after a restart, and where data lives by default.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::serve::ListenerExt;

use crate::clock::Clock;
use crate::game::room::RoomCommand;
use crate::state::AppState;
use crate::store::{Store, StoreError};

/// Why the server cannot start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {error}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The data directory cannot be made.
    #[error("cannot create the data directory {path}: {error}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// Serving failed.
    #[error("serving failed: {0}")]
    Io(std::io::Error),
    /// The node cannot join its cluster.
    #[error(transparent)]
    Cluster(#[from] crate::cluster::ClusterError),
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    state: AppState,
    resumed: usize,
}

impl Server {
    /// Binds `addr` over `store` with time from `clock` and at most
    /// `engine_threads` engine searches at once, and resumes every game
    /// that was in progress when the server last stopped (restart policy in
    /// `docs/server.md`: the downtime is charged to nobody, and each player
    /// counts as away from now, so one who never comes back loses after
    /// 45 s).
    pub async fn bind(
        addr: SocketAddr,
        store: Store,
        clock: Arc<dyn Clock>,
        engine_threads: usize,
    ) -> Result<Server, ServeError> {
        let listener = listen(addr).await?;
        let state = AppState::new(store, clock, engine_threads);
        let mut resumed = 0;
        for stored in state.store.unfinished_games().await? {
            let id = stored.game.id.clone();
            match state.rooms.get(&state.room_ports, &id).await {
                Ok(Some(room)) => {
                    // A game stored right at its end is finished on load.
                    let (reply, answer) = tokio::sync::oneshot::channel();
                    if room.send(RoomCommand::Summary { reply }).is_ok() {
                        if let Ok((summary, _, _)) = answer.await {
                            if summary.status == "playing" {
                                state.lobby.add_game(summary);
                            }
                        }
                    }
                    resumed += 1;
                }
                Ok(None) => {}
                Err(error) => tracing::error!("game {id} cannot be resumed: {error}"),
            }
        }
        Ok(Server {
            listener,
            state,
            resumed,
        })
    }

    /// Binds `addr` as one node of a cluster whose nodes share `store`
    /// (PostgreSQL) and meet on the NATS bus at `bus` (docs/server.md,
    /// "Scaling past one process"). Games in progress are not resumed here
    /// all at once: each is run by the node holding its lease, and this
    /// node takes over those whose node died within a second.
    pub async fn bind_node(
        addr: SocketAddr,
        store: Store,
        clock: Arc<dyn Clock>,
        engine_threads: usize,
        bus: &str,
    ) -> Result<Server, ServeError> {
        let listener = listen(addr).await?;
        let mut state = AppState::new(store, clock, engine_threads);
        crate::cluster::Node::join(&mut state, bus).await?;
        Ok(Server {
            listener,
            state,
            resumed: 0,
        })
    }

    /// Serves `explorer`'s table at `GET /api/explorer`.
    pub fn with_explorer(mut self, explorer: xiangqi_explorer::Explorer) -> Server {
        self.state.explorer = Some(Arc::new(explorer));
        self
    }

    /// Serves `puzzles` instead of the built-in set.
    pub fn with_puzzles(mut self, puzzles: crate::puzzles::Puzzles) -> Server {
        self.state.puzzles = Arc::new(puzzles);
        self
    }

    /// Applies `security`'s limits and trust settings (the defaults
    /// without this call).
    pub fn with_security(mut self, security: crate::security::Security) -> Server {
        self.state.guards = Arc::new(crate::security::Guards::new(security));
        self
    }

    /// The address it listens on (the port chosen when 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// The URL to open in a browser.
    pub fn url(&self) -> String {
        format!("http://{}/", self.local_addr())
    }

    /// How many games in progress came back at start.
    pub fn resumed_games(&self) -> usize {
        self.resumed
    }

    /// The shared state (tests look at it).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Serves until `shutdown` resolves.
    pub async fn run_until(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let sweeps = tokio::spawn(crate::security::sweep::run(self.state.clone()));
        let analyses = self.state.analyses.clone();
        let app = crate::http::router(self.state);
        // Nagle's algorithm would hold a move's `ack` (written right after
        // its `event`) until the client's delayed ACK of the event, 40 ms on
        // Linux: every frame is a small message whose latency matters.
        let listener = self.listener.tap_io(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::debug!("TCP_NODELAY on an accepted connection: {error}");
            }
        });
        // The peer's address is the key of the per-address limits.
        let app = app.into_make_service_with_connect_info::<SocketAddr>();
        let served = axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
            .map_err(ServeError::Io);
        sweeps.abort();
        // A search thread would hold the runtime's end for the rest of its time.
        analyses.stop_all();
        served
    }
}

async fn listen(addr: SocketAddr) -> Result<tokio::net::TcpListener, ServeError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|error| ServeError::Bind { addr, error })
}

/// Where `xiangqi serve` keeps its data without `--data`:
/// `$XDG_DATA_HOME/xiangqi`, else `~/.local/share/xiangqi`, else
/// `./xiangqi-data`.
pub fn default_data_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("XDG_DATA_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("xiangqi");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".local/share/xiangqi");
    }
    PathBuf::from("xiangqi-data")
}

/// Creates `dir` and gives the URL of the SQLite database inside it.
pub fn sqlite_in(dir: &Path) -> Result<String, ServeError> {
    std::fs::create_dir_all(dir).map_err(|error| ServeError::DataDir {
        path: dir.to_path_buf(),
        error,
    })?;
    Ok(format!(
        "sqlite://{}?mode=rwc",
        dir.join("xiangqi.db").display()
    ))
}
