//! CCBridge (象棋桥) files: CBR, one game in binary; CBL, a library of
//! CBR records in 4096-byte slots; CBF, one game in XML.
//! `docs/gamefile.md` describes the layouts.

mod cbf;
mod cbl;
mod cbr;

pub(crate) use cbf::read_cbf;
pub(crate) use cbl::Library;
pub(crate) use cbr::read_cbr;

use crate::GameResult;

/// The result codes CBR and CBF share.
fn result(code: u32) -> GameResult {
    match code {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        _ => GameResult::Unknown,
    }
}

pub(crate) use cbl::MAGIC as LIBRARY_MAGIC;
pub(crate) use cbr::MAGIC as RECORD_MAGIC;
