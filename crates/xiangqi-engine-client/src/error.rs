//! What can go wrong with an engine. The engine's own failures (it died, it
//! was silent, it wrote nonsense or an illegal move) are told apart, so that
//! a match can score them and a user can see what happened.

use std::time::Duration;

/// An engine failure.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start engine {command:?}: {error}")]
    Spawn {
        command: String,
        error: std::io::Error,
    },
    /// No expected answer before the deadline. The process is killed: its
    /// state is unknown.
    #[error("no {waiting_for} within {} ms", after.as_millis())]
    Timeout {
        waiting_for: &'static str,
        after: Duration,
    },
    /// The engine answered, but after its clock ran out (a clock game).
    #[error("the flag fell: the move took {} ms with {} ms left", used.as_millis(), left.as_millis())]
    FlagFell { used: Duration, left: Duration },
    /// The process ended or closed its output.
    #[error("the engine died ({status})")]
    Died { status: String },
    /// A move text that is no move at all.
    #[error("the engine sent the unreadable move {text:?}")]
    UnreadableMove { text: String },
    /// A well-formed move that is illegal in the position.
    #[error("the engine sent the illegal move {text}")]
    IllegalMove { text: String },
    /// The engine said it has no move (`bestmove (none)`, `nobestmove`).
    #[error("the engine had no move ({line:?})")]
    NoMove { line: String },
    /// xboard `resign`.
    #[error("the engine resigned")]
    Resigned,
    /// xboard `Illegal move: …` for a legal move it was sent.
    #[error("the engine refused a legal move ({line:?})")]
    Refused { line: String },
    /// The engine cannot do what was asked (a node limit over xboard,
    /// a set-up position without `setboard`, another variant).
    #[error("{0}")]
    Unsupported(String),
    /// An earlier failure left the engine unusable.
    #[error("the engine was stopped after an earlier failure")]
    Stopped,
}

impl EngineError {
    /// A short stable code: `timeout`, `crash`, `illegal_move`, `no_move`,
    /// `resignation`, `refused_move`, `unsupported`, `spawn`.
    pub fn code(&self) -> &'static str {
        match self {
            EngineError::Spawn { .. } => "spawn",
            EngineError::Timeout { .. } | EngineError::FlagFell { .. } => "timeout",
            EngineError::Died { .. } | EngineError::Stopped => "crash",
            EngineError::UnreadableMove { .. } | EngineError::IllegalMove { .. } => "illegal_move",
            EngineError::NoMove { .. } => "no_move",
            EngineError::Resigned => "resignation",
            EngineError::Refused { .. } => "refused_move",
            EngineError::Unsupported(_) => "unsupported",
        }
    }

    /// Whether the engine process is gone or was killed because of this.
    pub fn is_fatal(&self) -> bool {
        matches!(
            self,
            EngineError::Spawn { .. }
                | EngineError::Timeout { .. }
                | EngineError::Died { .. }
                | EngineError::Stopped
        )
    }
}

/// A bad `--engine` text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine spec {spec:?}: {problem}")]
pub struct SpecError {
    pub spec: String,
    pub problem: String,
}
