//! What can go wrong between the bot, the server and the engine, each kind
//! told apart so that the loop knows what to retry and a user reads what
//! happened. Text from the server is cut before it is quoted.

use std::time::Duration;

use xiangqi_engine_client::EngineError;

/// Characters of server text an error repeats at most.
pub const MAX_QUOTED_CHARS: usize = 120;

/// A bot failure.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// `--server` is no `http://` or `https://` URL.
    #[error("bad server URL {url:?}: {problem}")]
    BadUrl { url: String, problem: String },
    /// The server does not know the token (401): revoked, mistyped, or of
    /// another server. Retrying cannot help.
    #[error(
        "{what}: the server refused the token (401 {code}); make a new one on your account page"
    )]
    BadToken { what: String, code: String },
    /// An HTTP error answer with the server's code and message.
    #[error("{what}: HTTP {status} {code}: {message}")]
    Http {
        what: String,
        status: u16,
        code: String,
        message: String,
        /// The server's `Retry-After`.
        retry_after: Option<Duration>,
    },
    /// No answer at all: refused connection, reset, DNS, TLS.
    #[error("{what}: cannot reach the server: {message}")]
    Network { what: String, message: String },
    /// A stream sent nothing, not even the keep-alive, for too long.
    #[error("{what}: nothing from the server for {} s (not even a keep-alive line)", after.as_secs())]
    Stalled { what: String, after: Duration },
    /// A stream line longer than any the server writes.
    #[error("{what}: a line of more than {max} bytes")]
    LineTooLong { what: String, max: usize },
    /// A line that is not JSON of the documented shape.
    #[error("{what}: line {line_number} is not a valid {expected}: {problem} (line: {text})")]
    BadLine {
        what: String,
        line_number: u64,
        expected: &'static str,
        problem: String,
        text: String,
    },
    /// The server's game makes no sense: a FEN or a move that does not
    /// replay, a colour that is not ours.
    #[error("game {game}: {problem}")]
    BadGame { game: String, problem: String },
    /// The engine failed (it died, hung, or wrote an illegal move).
    #[error("game {game}: engine {engine}: {error}")]
    Engine {
        game: String,
        engine: String,
        error: EngineError,
    },
    /// The engine could not even be started.
    #[error("cannot start the engine: {0}")]
    EngineStart(EngineError),
    /// The bot's own settings contradict each other.
    #[error("{0}")]
    Config(String),
}

impl BotError {
    /// Whether waiting and trying again may help: network trouble, a
    /// stalled stream, 5xx, 429 and 408 answers.
    pub fn is_transient(&self) -> bool {
        match self {
            BotError::Network { .. } | BotError::Stalled { .. } => true,
            BotError::Http { status, .. } => *status >= 500 || matches!(status, 408 | 429),
            _ => false,
        }
    }

    /// The server's wish for the next attempt, if it said one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            BotError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// `text` cut to [`MAX_QUOTED_CHARS`] and quoted, for messages that repeat
/// what the server sent.
pub(crate) fn quote(text: &str) -> String {
    let mut shown: String = text.chars().take(MAX_QUOTED_CHARS).collect();
    let cut = shown.len() < text.len();
    shown = format!("{shown:?}");
    if cut {
        shown.insert(shown.len() - 1, '…');
    }
    shown
}
