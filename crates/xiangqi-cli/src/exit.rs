//! Exit statuses other than 0 and 2 (docs/cli.md, "Exit status"): an
//! error carrying its status, which `main` reads back. Any other error
//! exits with 2.

/// A run that failed with `status`, and why.
#[derive(Debug)]
pub struct Failed {
    pub status: u8,
    pub message: String,
}

impl Failed {
    pub fn new(status: u8, message: impl Into<String>) -> Failed {
        Failed {
            status,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failed {}

/// The exit status of a failed run: its [`Failed`] status, else 2.
pub fn status_of(error: &anyhow::Error) -> u8 {
    error.downcast_ref::<Failed>().map_or(2, |f| f.status)
}
