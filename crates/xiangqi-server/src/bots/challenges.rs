//! Open challenges to bots: at most [`MAX_OPEN_CHALLENGES`] per
//! challenger, each lapsing after
//! [`xiangqi_server_protocol::bot::CHALLENGE_LAPSE_SECS`] unanswered.
//! Who may answer which is checked here; starting the game is the lobby's
//! `start_game`, as for an accepted seek.

use std::collections::HashMap;
use std::sync::Mutex;

use xiangqi_adjudication::TimeControl;
use xiangqi_server_protocol::bot::{Challenge, MAX_OPEN_CHALLENGES};

/// An open challenge.
#[derive(Clone, Debug)]
pub struct OpenChallenge {
    /// As the streams show it.
    pub view: Challenge,
    /// The challenger's player id.
    pub challenger: String,
    /// Whether the challenger is a bot (told by its event stream) or a
    /// person (told on their sockets).
    pub challenger_bot: bool,
    /// The bot's player id.
    pub dest: String,
    /// The time control, parsed.
    pub tc: TimeControl,
}

/// Open challenges by id.
#[derive(Default)]
pub struct Challenges {
    map: Mutex<HashMap<String, OpenChallenge>>,
}

impl Challenges {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, OpenChallenge>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens `challenge` unless its challenger has the most open already
    /// (`Err` with how many).
    pub fn open(&self, challenge: OpenChallenge) -> Result<(), usize> {
        let mut map = self.map();
        let open = map
            .values()
            .filter(|c| c.challenger == challenge.challenger)
            .count();
        if open >= MAX_OPEN_CHALLENGES {
            return Err(open);
        }
        map.insert(challenge.view.id.clone(), challenge);
        Ok(())
    }

    /// The challenge `id`, if open.
    pub fn get(&self, id: &str) -> Option<OpenChallenge> {
        self.map().get(id).cloned()
    }

    /// Closes challenge `id` (once: a second caller gets `None`).
    pub fn take(&self, id: &str) -> Option<OpenChallenge> {
        self.map().remove(id)
    }

    /// The open challenges to bot `dest`.
    pub fn to(&self, dest: &str) -> Vec<Challenge> {
        self.map()
            .values()
            .filter(|c| c.dest == dest)
            .map(|c| c.view.clone())
            .collect()
    }
}
