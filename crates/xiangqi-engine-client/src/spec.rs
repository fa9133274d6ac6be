//! How to start an engine: the `CMD[,key=value]...` spec, its protocol, and
//! what a search is limited by.

use std::time::Duration;

use crate::error::SpecError;

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// UCI as Pikafish and Fairy-Stockfish speak it.
    Uci,
    /// UCCI as ElephantEye speaks it.
    Ucci,
    /// xboard / CECP version 2 (e.g. MaxQi from the fairymax package).
    Xboard,
}

impl Protocol {
    /// `uci`, `ucci` or `xboard`.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Xboard => "xboard",
        }
    }
}

/// Everything needed to start and set up one engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command as typed (for messages and PGN).
    pub command: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    pub protocol: Protocol,
    /// `Some(true)`: the engine numbers ranks 1-10; `None`: detect
    /// (Fairy-Stockfish's `UCI_Variant` makes it 1-10).
    pub ranks_from_one: Option<bool>,
    /// Options set after the handshake, in order (`Value` empty for buttons).
    pub options: Vec<(String, String)>,
    /// A name used instead of the engine's own.
    pub name: Option<String>,
    /// How long the start and every handshake may take.
    pub handshake_timeout: Duration,
}

impl EngineSpec {
    /// A spec for `argv` over `protocol`, with defaults for the rest.
    pub fn new(argv: Vec<String>, protocol: Protocol) -> EngineSpec {
        EngineSpec {
            command: argv.join(" "),
            argv,
            protocol,
            ranks_from_one: None,
            options: Vec::new(),
            name: None,
            handshake_timeout: DEFAULT_HANDSHAKE_TIMEOUT,
        }
    }
}

/// How long an engine may take to start and answer `uci`/`isready` and the like.
pub const DEFAULT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// `CMD[,proto=uci|ucci|xboard][,ranks=0|1][,option=Name=Value]...[,name=NAME]`.
///
/// ```
/// use xiangqi_engine_client::{EngineSpec, Protocol};
/// let spec: EngineSpec = "xiangqi ucci --hash 8,proto=ucci".parse().unwrap();
/// assert_eq!(spec.argv, ["xiangqi", "ucci", "--hash", "8"]);
/// assert_eq!(spec.protocol, Protocol::Ucci);
/// ```
impl std::str::FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let bad = |problem: String| SpecError {
            spec: text.to_string(),
            problem,
        };
        let mut parts = text.split(',');
        let command = parts.next().unwrap_or_default().trim().to_string();
        let argv = split_command(&command).map_err(bad)?;
        if argv.is_empty() {
            return Err(bad("the command is empty".into()));
        }
        let mut spec = EngineSpec::new(argv, Protocol::Uci);
        spec.command = command;
        for part in parts {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("expected key=value after a comma, got {part:?}")))?;
            match key.trim() {
                "proto" | "protocol" => {
                    spec.protocol = match value.trim().to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        other => {
                            return Err(bad(format!(
                                "unknown protocol {other:?} (expected uci, ucci or xboard)"
                            )))
                        }
                    }
                }
                "ranks" => {
                    spec.ranks_from_one = match value.trim() {
                        "0" => Some(false),
                        "1" => Some(true),
                        other => {
                            return Err(bad(format!(
                                "ranks must be 0 (ranks 0-9) or 1 (ranks 1-10), got {other:?}"
                            )))
                        }
                    }
                }
                "option" => {
                    let (name, value) = value.split_once('=').unwrap_or((value, ""));
                    if name.trim().is_empty() {
                        return Err(bad("option=Name=Value needs a name".into()));
                    }
                    spec.options
                        .push((name.trim().to_string(), value.trim().to_string()));
                }
                "name" => spec.name = Some(value.trim().to_string()),
                other => {
                    return Err(bad(format!(
                        "unknown key {other:?} (expected proto, ranks, option or name)"
                    )))
                }
            }
        }
        Ok(spec)
    }
}

/// Splits a command line into words: white space separates, single and
/// double quotes group, a backslash escapes the next character.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None | Some('"'), '\\') => {
                word.push(
                    chars
                        .next()
                        .ok_or_else(|| format!("command {line:?} ends with a backslash"))?,
                );
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("command {line:?} has an unclosed quote"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// What a search is limited by: any combination of a time for the move, a
/// depth, a node count, a mate to find and the game's clocks; the search
/// stops at whichever it reaches first (python-chess's `Limit`, UCI's `go
/// movetime … depth … nodes … mate … wtime …`). Each protocol writes what
/// it can express and refuses the rest with [`EngineError::Unsupported`]
/// (docs/engine-client.md, "Limits").
///
/// [`EngineError::Unsupported`]: crate::EngineError::Unsupported
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limit {
    /// Time for the move.
    pub move_time: Option<Duration>,
    /// Plies.
    pub depth: Option<u32>,
    /// Nodes (UCI and UCCI engines).
    pub nodes: Option<u64>,
    /// A mate in at most this many of the mover's moves (UCI `go mate`).
    pub mate: Option<u32>,
    /// The game's clocks when the search is asked for: the engine manages
    /// its own time (UCI `wtime btime winc binc`).
    pub clock: Option<Clock>,
}

/// The clocks of a game with a Fischer increment per side and, if the time
/// control has periods, the moves left until the next one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// Red's time left.
    pub red: Duration,
    /// Black's time left.
    pub black: Duration,
    /// Added to Red's clock after each of its moves.
    pub red_increment: Duration,
    /// Added to Black's clock after each of its moves.
    pub black_increment: Duration,
    /// Moves until the next time control (UCI `movestogo`); `None`: the
    /// rest of the game.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// Both sides start with `base` and get the same `increment`.
    pub fn new(base: Duration, increment: Duration) -> Clock {
        Clock {
            red: base,
            black: base,
            red_increment: increment,
            black_increment: increment,
            moves_to_go: None,
        }
    }

    /// The time `side` has left.
    pub fn left(&self, side: xiangqi_core::Color) -> Duration {
        match side {
            xiangqi_core::Color::Red => self.red,
            xiangqi_core::Color::Black => self.black,
        }
    }

    /// What `side` gets back after each of its moves.
    pub fn increment(&self, side: xiangqi_core::Color) -> Duration {
        match side {
            xiangqi_core::Color::Red => self.red_increment,
            xiangqi_core::Color::Black => self.black_increment,
        }
    }

    /// Charges `side` for a move that took `used`: `None` when its flag fell
    /// (it used more than it had), else the clocks after the increment.
    pub fn after_move(&self, side: xiangqi_core::Color, used: Duration) -> Option<Clock> {
        let left = self.left(side).checked_sub(used)? + self.increment(side);
        let mut next = *self;
        match side {
            xiangqi_core::Color::Red => next.red = left,
            xiangqi_core::Color::Black => next.black = left,
        }
        Some(next)
    }
}

impl Limit {
    /// Only a time for the move.
    pub fn move_time(time: Duration) -> Limit {
        Limit {
            move_time: Some(time),
            ..Limit::default()
        }
    }

    /// Only a depth in plies.
    pub fn depth(plies: u32) -> Limit {
        Limit {
            depth: Some(plies),
            ..Limit::default()
        }
    }

    /// Only a node count.
    pub fn nodes(nodes: u64) -> Limit {
        Limit {
            nodes: Some(nodes),
            ..Limit::default()
        }
    }

    /// Only a mate in at most `moves` of the mover's moves.
    pub fn mate(moves: u32) -> Limit {
        Limit {
            mate: Some(moves),
            ..Limit::default()
        }
    }

    /// Only the game's clocks.
    pub fn clock(clock: Clock) -> Limit {
        Limit {
            clock: Some(clock),
            ..Limit::default()
        }
    }

    /// No limit at all: a search that would never end, refused by every
    /// engine.
    pub fn is_empty(&self) -> bool {
        *self == Limit::default()
    }

    /// Human and PGN description, its parts joined by `, `: `500 ms/move`,
    /// `depth 6`, `1000 nodes`, `mate 3`, `10+0.1 s` (a clock, described by
    /// Red's time left and increment).
    pub fn describe(self) -> String {
        let mut parts = Vec::new();
        if let Some(t) = self.move_time {
            parts.push(format!("{} ms/move", t.as_millis()));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth {d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(m) = self.mate {
            parts.push(format!("mate {m}"));
        }
        if let Some(c) = self.clock {
            parts.push(format!(
                "{}+{} s",
                c.red.as_secs_f64(),
                c.red_increment.as_secs_f64()
            ));
        }
        if parts.is_empty() {
            return "no limit".to_string();
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_spec_keys() {
        let spec: EngineSpec =
            "/usr/games/fairy-stockfish,ranks=1,option=Hash=64,option=Clear Hash,name=FS"
                .parse()
                .unwrap();
        assert_eq!(spec.argv, ["/usr/games/fairy-stockfish"]);
        assert_eq!(spec.ranks_from_one, Some(true));
        assert_eq!(
            spec.options,
            [
                ("Hash".to_string(), "64".to_string()),
                ("Clear Hash".to_string(), String::new())
            ]
        );
        assert_eq!(spec.name.as_deref(), Some("FS"));
        for bad in ["", "x,proto=foo", "x,ranks=2", "x,colour=red", "x,flag"] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_the_mover_and_adds_the_increment() {
        use xiangqi_core::Color;
        let clock = Clock::new(Duration::from_secs(10), Duration::from_millis(100));
        let next = clock
            .after_move(Color::Red, Duration::from_millis(600))
            .unwrap();
        assert_eq!(next.red, Duration::from_millis(9_500));
        assert_eq!(next.black, Duration::from_secs(10));
        assert_eq!(
            clock.after_move(Color::Black, Duration::from_secs(11)),
            None
        );
        assert_eq!(Limit::clock(clock).describe(), "10+0.1 s");
        let combined = Limit {
            depth: Some(30),
            move_time: Some(Duration::from_millis(200)),
            ..Limit::default()
        };
        assert_eq!(combined.describe(), "200 ms/move, depth 30");
        assert!(Limit::default().is_empty() && !combined.is_empty());
    }

    #[test]
    fn command_words() {
        assert_eq!(
            split_command(r#"'/opt/my engine' --x "a b" c\ d"#).unwrap(),
            ["/opt/my engine", "--x", "a b", "c d"]
        );
        assert!(split_command("'open").is_err());
    }
}
