//! The net built into the binary, if any (`nets/default.xqnn` at build time).

use std::sync::{Arc, OnceLock};

use crate::file::NetFileError;
use crate::network::Network;

/// The embedded net file's bytes, `None` when this build has none.
#[cfg(embedded_net)]
pub const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!("../nets/default.xqnn"));
/// The embedded net file's bytes, `None` when this build has none.
#[cfg(not(embedded_net))]
pub const EMBEDDED_NET: Option<&[u8]> = None;

/// Why the embedded net is not available.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmbeddedNetError {
    /// This build has no net.
    #[error("no net embedded in this build; set EvalFile")]
    NotEmbedded,
    /// The embedded file does not read (a build from a damaged file).
    #[error("the embedded net is unusable: {0}")]
    Damaged(NetFileError),
}

/// The embedded network, read once per process.
pub fn embedded() -> Result<Arc<Network>, EmbeddedNetError> {
    static NET: OnceLock<Result<Arc<Network>, EmbeddedNetError>> = OnceLock::new();
    NET.get_or_init(|| {
        let bytes = EMBEDDED_NET.ok_or(EmbeddedNetError::NotEmbedded)?;
        Network::read(bytes)
            .map(Arc::new)
            .map_err(EmbeddedNetError::Damaged)
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_reads_or_its_absence_is_said() {
        match (EMBEDDED_NET, embedded()) {
            (Some(_), Ok(net)) => assert!(net.hidden() > 0),
            (Some(_), Err(e)) => panic!("{e}"),
            (None, Err(e)) => {
                assert_eq!(e.to_string(), "no net embedded in this build; set EvalFile")
            }
            (None, Ok(_)) => unreachable!("a net without bytes"),
        }
    }
}
