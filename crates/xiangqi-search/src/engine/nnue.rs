//! Choosing the evaluation: the classical one or an NNUE network (UCI
//! `Use NNUE` and `EvalFile`). The network is the embedded one until a
//! net file is loaded; a file that does not read leaves everything as it was.
//! NNUE is on from the start when a net is embedded. Weakened play
//! ([`crate::Skill`]) evaluates classically: its levels, and the `UCI_Elo`
//! they are rated at, were measured with the classical evaluation.

use std::path::Path;
use std::sync::Arc;

use xiangqi_core::Position;
use xiangqi_nnue::{embedded, EmbeddedNetError, NetFileError, NetFileInfo, Network};

use super::Engine;
use crate::eval::evaluate_with;

/// Why the NNUE evaluation cannot be used or loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NnueError {
    /// NNUE was asked for with no network: none embedded and no file loaded.
    #[error("no net embedded; set EvalFile")]
    NoNetwork,
    /// The net file does not read.
    #[error(transparent)]
    File(NetFileError),
    /// The embedded net does not read.
    #[error(transparent)]
    Embedded(EmbeddedNetError),
}

impl Engine {
    /// Evaluates with the NNUE network (`true`) or the classical evaluation.
    /// Turning NNUE on without a network is refused and changes nothing.
    pub fn set_use_nnue(&mut self, on: bool) -> Result<(), NnueError> {
        if on && self.network.is_none() {
            return Err(NnueError::NoNetwork);
        }
        let before = self.evaluates_with_nnue();
        self.use_nnue = on;
        if before != self.evaluates_with_nnue() {
            self.evaluation_changed();
        }
        Ok(())
    }

    /// Whether a new engine has NNUE on: when this build embeds a net that
    /// reads (the `Use NNUE` option's default).
    pub fn nnue_by_default() -> bool {
        embedded().is_ok()
    }

    /// Whether NNUE is on (UCI `Use NNUE`): full-strength searches then
    /// evaluate with the network.
    pub fn uses_nnue(&self) -> bool {
        self.use_nnue
    }

    /// Whether the search evaluates with the network now: NNUE on, a
    /// network there and no [`crate::Skill`] set (weakened play evaluates
    /// classically, as its levels were measured).
    pub fn evaluates_with_nnue(&self) -> bool {
        self.use_nnue && self.network.is_some() && self.skill.is_none()
    }

    /// The NNUE network in use when NNUE is on.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Replaces the NNUE network (`None`: none; NNUE is then turned off).
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        if network.is_none() {
            self.use_nnue = false;
        }
        self.network = network;
        self.evaluation_changed();
    }

    /// Loads the net file at `path` as the NNUE network (UCI `EvalFile`);
    /// `None` goes back to the embedded net, or to none when this build has
    /// none (NNUE is then turned off). On an error nothing changes.
    pub fn load_eval_file(
        &mut self,
        path: Option<&Path>,
    ) -> Result<Option<NetFileInfo>, NnueError> {
        match path {
            Some(path) => {
                let (network, info) = xiangqi_nnue::file::load(path).map_err(NnueError::File)?;
                self.set_network(Some(Arc::new(network)));
                Ok(Some(info))
            }
            None => {
                match embedded() {
                    Ok(network) => self.set_network(Some(network)),
                    Err(EmbeddedNetError::NotEmbedded) => self.set_network(None),
                    Err(e) => return Err(NnueError::Embedded(e)),
                }
                Ok(None)
            }
        }
    }

    /// The static evaluation of `pos` in centipawns from the side to move's
    /// view, by the evaluation the search uses now (the `eval` command).
    pub fn static_evaluation(&self, pos: &Position) -> i32 {
        match &self.network {
            Some(network) if self.evaluates_with_nnue() => network.evaluate(pos),
            _ => evaluate_with(pos, &self.params),
        }
    }
}
