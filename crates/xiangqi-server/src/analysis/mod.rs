//! The analysis board's live engine analysis (docs/server.md, "Analysis"):
//! each player has at most one analysis running ([`Analyses`]); a new
//! `analyse` from any of their sockets replaces it, `stop_analysis` or the
//! socket's close ends it. The search runs on the engine slots like an
//! engine opponent's moves, as searches of the player, so it never starves
//! games and reviews ([`run`]); its reports go out at most a few times a
//! second ([`frame`]). The position is checked by the rules core
//! ([`position`]) before anything runs.

pub mod frame;
pub mod position;
pub mod run;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::task::JoinHandle;

use crate::engine_slots::{EngineSlots, SearchControl};
use crate::game::hub::Hub;
use crate::game::{ConnId, Outbound, Outbox};
use crate::ids::new_id;
use crate::security::throttle::Throttle;
use crate::security::{AddressKey, Rate};
use crate::ws::protocol::ServerMessage;
use position::Checked;

/// Search time an analysis gets, at most, for one position: more than a
/// player spends reading one position's lines (past a few seconds the lines
/// change little), and a bound on one player's share of the slots when
/// nobody else waits. Time spent waiting for a slot does not count.
pub const TIME_CAP: Duration = Duration::from_secs(30);
/// Reports go out at most this often (a deepening search completes many
/// shallow iterations within a few milliseconds).
pub const REPORT_EVERY: Duration = Duration::from_millis(250);

/// Position checks (`POST /api/position`) an address may make: a burst of
/// 600, then ten a second. A person setting up a board never comes near it;
/// a client replaying long move lists in a loop does.
pub const POSITION_CHECKS: Rate = Rate::new(
    match std::num::NonZeroU32::new(600) {
        Some(n) => n,
        None => unreachable!(),
    },
    Duration::from_secs(60),
);

/// The running analysis of one player.
struct Current {
    id: String,
    conn: ConnId,
    out: Outbox,
    control: Arc<SearchControl>,
    task: Option<JoinHandle<()>>,
}

impl Current {
    /// Stops the search (or its wait for a slot); the slot is released when
    /// the search has stopped.
    fn stop(&self) {
        self.control.cancel();
        if let Some(task) = &self.task {
            task.abort();
        }
    }

    fn end(&self, reason: &str) {
        let text = ServerMessage::AnalysisEnd {
            id: self.id.clone(),
            reason: reason.to_string(),
        }
        .to_text();
        let _ = self.out.send(Outbound::Text(text));
    }
}

/// Why `stop_analysis` was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no analysis {0} of yours is running")]
pub struct NoSuchAnalysis(pub String);

/// The analyses running now, one per player.
pub struct Analyses {
    /// The limit of `POST /api/position` per address ([`POSITION_CHECKS`]).
    pub checks: Throttle<AddressKey>,
    current: Mutex<HashMap<String, Current>>,
    slots: Arc<EngineSlots>,
    hub: Arc<Hub>,
}

impl Analyses {
    /// Analyses on `slots`, rendered in the notation `hub` knows for each player.
    pub fn new(slots: Arc<EngineSlots>, hub: Arc<Hub>) -> Arc<Analyses> {
        Arc::new(Analyses {
            checks: Throttle::new(POSITION_CHECKS),
            current: Mutex::new(HashMap::new()),
            slots,
            hub,
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Current>> {
        self.current.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts analysing `checked`'s end with `lines` lines for `player`,
    /// reporting to socket `conn`; the player's running analysis, if any,
    /// ends as `replaced`. Returns the new analysis's id.
    pub fn start(
        self: &Arc<Self>,
        player: &str,
        conn: ConnId,
        out: Outbox,
        checked: Checked,
        lines: usize,
    ) -> String {
        let id = new_id("a");
        let control = Arc::new(SearchControl::default());
        let mut current = self.lock();
        if let Some(old) = current.remove(player) {
            old.stop();
            old.end("replaced");
        }
        let job = run::Job {
            analyses: self.clone(),
            player: player.to_string(),
            id: id.clone(),
            checked,
            lines,
            control: control.clone(),
        };
        current.insert(
            player.to_string(),
            Current {
                id: id.clone(),
                conn,
                out,
                control,
                task: None,
            },
        );
        let task = tokio::spawn(run::run(job));
        if let Some(entry) = current.get_mut(player) {
            entry.task = Some(task);
        }
        id
    }

    /// Stops `player`'s analysis (`id`, or whichever runs); it ends as `stopped`.
    pub fn stop(&self, player: &str, id: Option<&str>) -> Result<(), NoSuchAnalysis> {
        let mut current = self.lock();
        let matches = current.get(player).is_some_and(|c| match id {
            Some(id) => c.id == id,
            None => true,
        });
        let named = || id.unwrap_or("").chars().take(40).collect::<String>();
        if !matches {
            return Err(NoSuchAnalysis(named()));
        }
        if let Some(old) = current.remove(player) {
            old.stop();
            old.end("stopped");
        }
        Ok(())
    }

    /// Socket `conn` of `player` closed: the analysis it asked for stops.
    pub fn socket_closed(&self, player: &str, conn: ConnId) {
        let mut current = self.lock();
        if current.get(player).is_some_and(|c| c.conn == conn) {
            if let Some(old) = current.remove(player) {
                old.stop();
            }
        }
    }

    /// The server stops: every analysis stops.
    pub fn stop_all(&self) {
        for (_, analysis) in self.lock().drain() {
            analysis.stop();
        }
    }

    /// The id of `player`'s running analysis.
    pub fn running_of(&self, player: &str) -> Option<String> {
        self.lock().get(player).map(|c| c.id.clone())
    }

    /// How many analyses run (or wait for a slot) now.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// Sends `frame` for analysis `id` of `player`, if it is still theirs
    /// (checked under the lock a replacement takes, so no frame of a
    /// replaced analysis follows the new one's).
    fn report(&self, player: &str, id: &str, frame: ServerMessage) {
        let current = self.lock();
        if let Some(entry) = current.get(player).filter(|c| c.id == id) {
            let _ = entry.out.send(Outbound::Text(frame.to_text()));
        }
    }

    /// Analysis `id` of `player` ended by itself: the last report, then
    /// `analysis_end` with `finished`.
    fn finished(&self, player: &str, id: &str, last: ServerMessage) {
        let mut current = self.lock();
        if current.get(player).is_some_and(|c| c.id == id) {
            if let Some(entry) = current.remove(player) {
                let _ = entry.out.send(Outbound::Text(last.to_text()));
                entry.end("finished");
            }
        }
    }
}
