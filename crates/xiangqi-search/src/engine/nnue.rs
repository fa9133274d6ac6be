//! Choosing the evaluation: the classical one or an NNUE network (UCI
//! `Use NNUE` and `EvalFile`). The network is the embedded one until a
//! net file is loaded; a file that does not read leaves everything as it was.

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
        if on != self.use_nnue {
            self.use_nnue = on;
            self.clear_eval_caches();
        }
        Ok(())
    }

    /// Whether positions are evaluated by the NNUE network.
    pub fn uses_nnue(&self) -> bool {
        self.use_nnue
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
        self.clear_eval_caches();
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
    /// view, by the evaluation in use (the `eval` command).
    pub fn static_evaluation(&self, pos: &Position) -> i32 {
        match (&self.network, self.use_nnue) {
            (Some(network), true) => network.evaluate(pos),
            _ => evaluate_with(pos, &self.params),
        }
    }
}
