//! The one error type of the explorer: every variant that concerns a file
//! names it.

use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;
use xiangqi_gamefile::collection::CollectionError;
use xiangqi_parallel::PoolError;

/// What went wrong building or reading an opening explorer.
#[derive(Debug, thiserror::Error)]
pub enum ExplorerError {
    /// The file could not be opened or read (it does not exist, no permission…).
    #[error("{}: cannot open the opening explorer: {message}", path.display())]
    Open { path: PathBuf, message: String },
    /// The file is an SQLite database or something else, but not an explorer.
    #[error("{}: not an opening explorer (build one with `xiangqi explore build`)", path.display())]
    NotExplorer { path: PathBuf },
    /// An explorer of another format version.
    #[error(
        "{}: opening explorer format version {found}, this program reads version {expected}: rebuild it",
        path.display()
    )]
    Version {
        path: PathBuf,
        found: u32,
        expected: u32,
    },
    /// The file is cut short or its pages are damaged.
    #[error("{}: the opening explorer is truncated or corrupt: {detail}", path.display())]
    Corrupt { path: PathBuf, detail: String },
    /// Any other failure of the database or the file system.
    #[error("{}: {message}", path.display())]
    Database { path: PathBuf, message: String },
    /// A directory or pattern of the inputs that yields no game file.
    #[error(transparent)]
    Collection(CollectionError),
    /// A worker of the pool died.
    #[error(transparent)]
    Pool(PoolError),
    /// Build options that cannot work.
    #[error("invalid build option: {0}")]
    Options(String),
    /// A build that indexed no game: an explorer of nothing is not written
    /// (a file there before is left as it was).
    #[error(
        "no game indexed: {games} games read from {files} files ({skipped} skipped, {unreadable} unreadable files){}",
        first_problem.as_ref().map(|p| format!("; first: {p}")).unwrap_or_default()
    )]
    NothingIndexed {
        files: u64,
        games: u64,
        skipped: u64,
        unreadable: u64,
        first_problem: Option<String>,
    },
}

impl From<CollectionError> for ExplorerError {
    fn from(e: CollectionError) -> ExplorerError {
        ExplorerError::Collection(e)
    }
}

impl From<PoolError> for ExplorerError {
    fn from(e: PoolError) -> ExplorerError {
        ExplorerError::Pool(e)
    }
}

impl ExplorerError {
    /// An SQLite error on the file at `path`: damaged pages are
    /// [`ExplorerError::Corrupt`], the rest [`ExplorerError::Database`].
    pub(crate) fn sqlite(path: &Path, e: rusqlite::Error) -> ExplorerError {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => ExplorerError::Corrupt {
                path: path.to_path_buf(),
                detail: e.to_string(),
            },
            _ => ExplorerError::Database {
                path: path.to_path_buf(),
                message: e.to_string(),
            },
        }
    }

    /// A file-system error on `path`.
    pub(crate) fn io(path: &Path, e: std::io::Error) -> ExplorerError {
        ExplorerError::Database {
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}
