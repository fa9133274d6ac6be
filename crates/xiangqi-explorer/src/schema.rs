//! The file format: an SQLite database whose header carries the explorer's
//! application id and format version, checked before SQLite opens it.
//!
//! Tables: `meta` (key, value), `files` (the input files in order),
//! `games` (every game read, in input order, with its headers), and
//! `moves`, one row per position (Zobrist hash) and move with the tallies
//! and the first example games (game ids, 4 bytes little-endian each).

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::ExplorerError;

/// The version of the tables below; a file of another version is refused.
pub const FORMAT_VERSION: u32 = 1;

/// `PRAGMA application_id`: "XQEX".
pub(crate) const APPLICATION_ID: u32 = 0x5851_4558;

pub(crate) const CREATE: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    red TEXT, black TEXT, red_elo INTEGER, black_elo INTEGER,
    event TEXT, date TEXT,
    result TEXT
);
CREATE TABLE moves (
    position INTEGER NOT NULL,
    move INTEGER NOT NULL,
    games INTEGER NOT NULL,
    red_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    rating_sum INTEGER NOT NULL,
    rated_games INTEGER NOT NULL,
    examples BLOB NOT NULL,
    PRIMARY KEY (position, move)
) WITHOUT ROWID;
";

const MAGIC: &[u8; 16] = b"SQLite format 3\0";
const HEADER_BYTES: usize = 100;

/// Checks the database header of the file at `path` before SQLite reads
/// it: an SQLite file, ours, of our version, and as long as its header
/// says (a file cut short is refused here, not on the first query that
/// reaches a missing page).
pub(crate) fn check_header(path: &Path) -> Result<(), ExplorerError> {
    let open_error = |e: std::io::Error| ExplorerError::Open {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut file = File::open(path).map_err(open_error)?;
    let metadata = file.metadata().map_err(open_error)?;
    if metadata.is_dir() {
        return Err(ExplorerError::Open {
            path: path.to_path_buf(),
            message: "a directory, not a file".to_string(),
        });
    }
    let len = metadata.len();
    let mut header = [0u8; HEADER_BYTES];
    if len < HEADER_BYTES as u64 {
        return Err(ExplorerError::Corrupt {
            path: path.to_path_buf(),
            detail: format!("{len} bytes, shorter than a database header"),
        });
    }
    file.read_exact(&mut header).map_err(open_error)?;
    if &header[..16] != MAGIC {
        return Err(ExplorerError::NotExplorer {
            path: path.to_path_buf(),
        });
    }
    let be32 = |at: usize| u32::from_be_bytes(header[at..at + 4].try_into().expect("4 bytes"));
    if be32(68) != APPLICATION_ID {
        return Err(ExplorerError::NotExplorer {
            path: path.to_path_buf(),
        });
    }
    let version = be32(60);
    if version != FORMAT_VERSION {
        return Err(ExplorerError::Version {
            path: path.to_path_buf(),
            found: version,
            expected: FORMAT_VERSION,
        });
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    // The page count in the header is valid when its "valid for" counter
    // equals the change counter (SQLite file format, offsets 28, 24, 92).
    if be32(92) == be32(24) {
        let expected = page_size * u64::from(be32(28));
        if len < expected {
            return Err(ExplorerError::Corrupt {
                path: path.to_path_buf(),
                detail: format!(
                    "{len} bytes where its header says {expected}: the file is cut short"
                ),
            });
        }
    }
    Ok(())
}
