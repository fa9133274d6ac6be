//! Engine processes for `xiangqi match`: the `--engine` spec, spawning, the
//! UCI / UCCI / xboard (CECP) dialogues, move text with ranks numbered 0-9
//! or 1-10, deadlines and clean shutdown.
//!
//! Every engine line is read by a thread of its own and handed over a
//! channel, so a silent or dead engine is noticed by a deadline instead of
//! blocking the match.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use xiangqi_core::{Move, Position, START_FEN};

/// How long an engine may take to start, answer `uci`/`isready` and the like.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a `go` refused as "already searching" is repeated.
const BUSY_RETRIES: u32 = 20;
/// How long a `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI as Pikafish and Fairy-Stockfish speak it.
    Uci,
    /// UCCI as ElephantEye speaks it.
    Ucci,
    /// xboard / CECP version 2 (e.g. MaxQi from the fairymax package).
    Xboard,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
            Protocol::Xboard => "xboard",
        }
    }
}

/// One `--engine CMD[,key=value]...` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command as typed (for messages and PGN).
    pub command: String,
    /// Program and arguments.
    pub argv: Vec<String>,
    pub protocol: Protocol,
    /// `Some(true)`: the engine numbers ranks 1-10; `None`: detect.
    pub ranks_from_one: Option<bool>,
    /// `option=Name=Value` pairs, in order (`Value` empty for buttons).
    pub options: Vec<(String, String)>,
    /// `name=…`: the name used in the summary and PGN instead of the engine's own.
    pub name: Option<String>,
}

impl std::str::FromStr for EngineSpec {
    type Err = anyhow::Error;

    fn from_str(text: &str) -> Result<EngineSpec> {
        let mut parts = text.split(',');
        let command = parts.next().unwrap_or_default().trim().to_string();
        let argv = split_command(&command)?;
        if argv.is_empty() {
            bail!("--engine {text:?}: the command is empty");
        }
        let mut spec = EngineSpec {
            command,
            argv,
            protocol: Protocol::Uci,
            ranks_from_one: None,
            options: Vec::new(),
            name: None,
        };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                anyhow!("--engine {text:?}: expected key=value after a comma, got {part:?}")
            })?;
            match key.trim() {
                "proto" | "protocol" => {
                    spec.protocol = match value.trim().to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "ucci" => Protocol::Ucci,
                        "xboard" | "cecp" | "winboard" => Protocol::Xboard,
                        other => bail!("--engine {text:?}: unknown protocol {other:?} (expected uci, ucci or xboard)"),
                    }
                }
                "ranks" => {
                    spec.ranks_from_one = match value.trim() {
                        "0" => Some(false),
                        "1" => Some(true),
                        other => bail!("--engine {text:?}: ranks must be 0 (ranks 0-9) or 1 (ranks 1-10), got {other:?}"),
                    }
                }
                "option" => {
                    let (name, value) = value.split_once('=').unwrap_or((value, ""));
                    if name.trim().is_empty() {
                        bail!("--engine {text:?}: option=Name=Value needs a name");
                    }
                    spec.options.push((name.trim().to_string(), value.trim().to_string()));
                }
                "name" => spec.name = Some(value.trim().to_string()),
                other => bail!("--engine {text:?}: unknown key {other:?} (expected proto, ranks, option or name)"),
            }
        }
        Ok(spec)
    }
}

/// Splits a command line into words: white space separates, single and
/// double quotes group, a backslash escapes the next character.
pub fn split_command(line: &str) -> Result<Vec<String>> {
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
                        .ok_or_else(|| anyhow!("command {line:?} ends with a backslash"))?,
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
        bail!("command {line:?} has an unclosed quote");
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// What an engine is asked to do for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// Milliseconds per move.
    MoveTime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes.
    Nodes(u64),
}

impl SearchLimit {
    /// Human and PGN description.
    pub fn describe(self) -> String {
        match self {
            SearchLimit::MoveTime(ms) => format!("{ms} ms/move"),
            SearchLimit::Depth(d) => format!("depth {d}"),
            SearchLimit::Nodes(n) => format!("{n} nodes"),
        }
    }
}

/// Why an engine failed to produce a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// No answer before the deadline.
    Timeout(Duration),
    /// The process ended or closed its output.
    Crashed(String),
    /// Move text that is no move at all.
    Unreadable(String),
    /// The engine said it has no move (`bestmove (none)`, `nobestmove`).
    NoMove(String),
    /// xboard `resign`.
    Resigned,
    /// xboard `Illegal move: …` for a move the runner sent (all moves sent are legal).
    Refused(String),
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Timeout(d) => write!(f, "no move within {} ms", d.as_millis()),
            EngineFailure::Crashed(why) => write!(f, "the engine died ({why})"),
            EngineFailure::Unreadable(text) => write!(f, "unreadable move {text:?}"),
            EngineFailure::NoMove(line) => write!(f, "the engine had no move ({line:?})"),
            EngineFailure::Resigned => f.write_str("the engine resigned"),
            EngineFailure::Refused(line) => write!(f, "the engine refused a legal move ({line:?})"),
        }
    }
}

/// The engine's move and what it said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineMove {
    /// The move as the engine wrote it.
    pub text: String,
    /// The move read as ICCS (not yet checked for legality).
    pub mv: Move,
    /// The last reported score (side to move's view), e.g. `cp 35` or `mate 3`.
    pub score: Option<String>,
    /// The last reported depth.
    pub depth: Option<u32>,
    /// Wall-clock time from the request to the answer.
    pub time: Duration,
}

/// A running engine process.
pub struct EngineProcess {
    spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The engine's own name (`id name`, `feature myname`), else the command.
    pub name: String,
    ranks_from_one: bool,
    /// xboard: the engine accepts `setboard`.
    setboard: bool,
    /// xboard: the engine wants `usermove` before moves.
    usermove: bool,
    /// xboard: plies of the current game the engine has been told.
    told: usize,
    /// False after a timeout or garbage: restart before the next game.
    pub healthy: bool,
    log: Option<ProcessLog>,
}

/// `--log FILE`: every line sent to and read from every engine, with the
/// milliseconds since the match started.
#[derive(Clone)]
pub struct TrafficLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl TrafficLog {
    pub fn create(path: &Path) -> Result<TrafficLog> {
        let file = File::create(path)
            .with_context(|| format!("cannot create --log {}", path.display()))?;
        Ok(TrafficLog {
            file: Arc::new(Mutex::new(file)),
            start: Instant::now(),
        })
    }

    fn for_process(&self, command: &str, pid: u32) -> ProcessLog {
        ProcessLog {
            log: self.clone(),
            tag: format!("{command} [{pid}]"),
        }
    }
}

/// The log as one process writes to it.
#[derive(Clone)]
struct ProcessLog {
    log: TrafficLog,
    tag: String,
}

impl ProcessLog {
    /// `direction` is `>` for lines sent to the engine, `<` for lines read.
    fn write(&self, direction: char, line: &str) {
        let ms = self.log.start.elapsed().as_millis();
        if let Ok(mut f) = self.log.file.lock() {
            // A failing log must not stop the match.
            let _ = writeln!(f, "{ms:>9} {} {direction} {line}", self.tag);
        }
    }
}

impl EngineProcess {
    /// Spawns the engine and completes the protocol handshake.
    pub fn start(spec: &EngineSpec, log: Option<&TrafficLog>) -> Result<EngineProcess> {
        let mut child = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {:?}", spec.command))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, lines) = mpsc::channel();
        let log = log.map(|l| l.for_process(&spec.command, child.id()));
        let reader_log = log.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        if let Some(log) = &reader_log {
                            log.write('<', "(end of output)");
                        }
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if let Some(log) = &reader_log {
                            log.write('<', &line);
                        }
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut engine = EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            lines,
            name: spec.argv[0]
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .to_string(),
            ranks_from_one: spec.ranks_from_one.unwrap_or(false),
            setboard: false,
            usermove: false,
            told: 0,
            healthy: true,
            log,
        };
        engine
            .handshake()
            .with_context(|| format!("engine {:?} ({})", spec.command, spec.protocol.name()))?;
        if let Some(name) = &spec.name {
            engine.name = name.clone();
        }
        Ok(engine)
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether the engine can start from any FEN (all but xboard engines without `setboard`).
    pub fn can_set_up_positions(&self) -> bool {
        self.spec.protocol != Protocol::Xboard || self.setboard
    }

    /// Whether the engine writes ranks 1-10.
    pub fn ranks_from_one(&self) -> bool {
        self.ranks_from_one
    }

    fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        if let Some(log) = &self.log {
            log.write('>', line);
        }
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| EngineFailure::Crashed(format!("cannot write to it: {e}")))
    }

    /// Reads lines until `accept` returns a value or `deadline` passes.
    fn read_until<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&mut Self, &str) -> Option<T>,
    ) -> Result<T, EngineFailure> {
        let start = Instant::now();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(v) = accept(self, &line) {
                        return Ok(v);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(EngineFailure::Timeout(deadline - start))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineFailure::Crashed(self.exit_status()))
                }
            }
        }
    }

    fn exit_status(&mut self) -> String {
        // The output closes a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.to_string();
            }
            thread::sleep(Duration::from_millis(10));
        }
        "output closed".to_string()
    }

    fn handshake(&mut self) -> Result<()> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let fail = |e: EngineFailure| anyhow!("handshake failed: {e}");
        match self.spec.protocol {
            Protocol::Uci => {
                self.send("uci").map_err(fail)?;
                let mut has_variant = false;
                self.read_until(deadline, |me, line| {
                    if let Some(name) = line.strip_prefix("id name ") {
                        me.name = name.trim().to_string();
                    } else if line.starts_with("option name UCI_Variant ") {
                        has_variant = true;
                    }
                    (line == "uciok").then_some(())
                })
                .map_err(fail)?;
                if has_variant {
                    // Fairy-Stockfish plays chess unless told otherwise, and
                    // numbers the ten ranks of its xiangqi board 1-10.
                    self.send("setoption name UCI_Variant value xiangqi")
                        .map_err(fail)?;
                    if self.spec.ranks_from_one.is_none() {
                        self.ranks_from_one = true;
                    }
                }
                for (name, value) in self.spec.options.clone() {
                    let line = if value.is_empty() {
                        format!("setoption name {name}")
                    } else {
                        format!("setoption name {name} value {value}")
                    };
                    self.send(&line).map_err(fail)?;
                }
                self.send("isready").map_err(fail)?;
                let explicit = self.spec.ranks_from_one.is_some();
                self.read_until(deadline, |me, line| {
                    // Newer Fairy-Stockfish versions confirm the variant; a board
                    // of ten ranks is then numbered 1-10 in its move text.
                    if !explicit && line.starts_with("info string variant xiangqi") {
                        me.ranks_from_one = true;
                    }
                    (line == "readyok").then_some(())
                })
                .map_err(fail)?;
            }
            Protocol::Ucci => {
                self.send("ucci").map_err(fail)?;
                self.read_until(deadline, |me, line| {
                    if let Some(name) = line.strip_prefix("id name ") {
                        me.name = name.trim().to_string();
                    }
                    (line == "ucciok").then_some(())
                })
                .map_err(fail)?;
                self.send("setoption usemillisec true").map_err(fail)?;
                for (name, value) in self.spec.options.clone() {
                    self.send(format!("setoption {name} {value}").trim_end())
                        .map_err(fail)?;
                }
                self.sync(deadline).map_err(fail)?;
            }
            Protocol::Xboard => {
                self.send("xboard").map_err(fail)?;
                self.send("protover 2").map_err(fail)?;
                let mut variants: Option<String> = None;
                let mut accepted = Vec::new();
                // Engines that do not speak protover 2 send no features at all.
                let done = self.read_until(
                    deadline.min(Instant::now() + Duration::from_secs(2)),
                    |me, line| {
                        let rest = line.strip_prefix("feature ")?;
                        let mut done = None;
                        for (key, value) in parse_features(rest) {
                            match key.as_str() {
                                "myname" => me.name = value.clone(),
                                "setboard" => me.setboard = value == "1",
                                "usermove" => me.usermove = value == "1",
                                "variants" => variants = Some(value.clone()),
                                "done" => done = Some(value == "1"),
                                _ => {}
                            }
                            accepted.push(key);
                        }
                        done.filter(|&d| d)
                    },
                );
                for key in accepted {
                    if key != "done" {
                        self.send(&format!("accepted {key}")).map_err(fail)?;
                    }
                }
                match done {
                    Ok(_) | Err(EngineFailure::Timeout(_)) => {}
                    Err(e) => return Err(fail(e)),
                }
                if let Some(v) = &variants {
                    if !v.split(',').any(|v| v.trim() == "xiangqi") {
                        bail!("the engine does not play xiangqi (its variants: {v})");
                    }
                }
                for (name, value) in self.spec.options.clone() {
                    self.send(&format!("option {name}={value}")).map_err(fail)?;
                }
                self.sync(deadline).map_err(fail)?;
            }
        }
        Ok(())
    }

    /// Waits until the engine has processed everything sent so far.
    fn sync(&mut self, deadline: Instant) -> Result<(), EngineFailure> {
        match self.spec.protocol {
            Protocol::Uci | Protocol::Ucci => {
                self.send("isready")?;
                self.read_until(deadline, |_, line| (line == "readyok").then_some(()))
            }
            Protocol::Xboard => {
                self.send("ping 1")?;
                self.read_until(deadline, |_, line| (line == "pong 1").then_some(()))
            }
        }
    }

    /// Prepares a new game from `start`.
    pub fn new_game(&mut self, start: &Position, limit: SearchLimit) -> Result<(), EngineFailure> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        self.told = 0;
        match self.spec.protocol {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci => self.send("setoption newgame")?,
            Protocol::Xboard => {
                self.send("new")?;
                self.send("variant xiangqi")?;
                self.send("force")?;
                self.send("easy")?;
                self.send("post")?;
                match limit {
                    SearchLimit::MoveTime(ms) if ms % 1000 == 0 => {
                        self.send(&format!("st {}", ms / 1000))?
                    }
                    // `st` takes whole seconds (MaxQi reads `st 0.1` as 0 and
                    // searches one ply): a time control of one move per
                    // period, the clock set before every move, says the same.
                    SearchLimit::MoveTime(ms) => {
                        self.send(&format!("level 1 {} 0", ms.div_ceil(1000)))?
                    }
                    SearchLimit::Depth(d) => self.send(&format!("sd {d}"))?,
                    SearchLimit::Nodes(_) => {
                        return Err(EngineFailure::Crashed(
                            "xboard engines cannot search a node count".into(),
                        ))
                    }
                }
                if start.to_fen() != START_FEN {
                    if !self.setboard {
                        return Err(EngineFailure::Crashed(
                            "this xboard engine does not accept setboard, so it can only play from the start position"
                                .into(),
                        ));
                    }
                    self.send(&format!("setboard {}", start.to_fen()))?;
                }
            }
        }
        self.sync(deadline)
    }

    /// Asks for a move in the position after `moves` from `start`.
    /// `timeout` is the whole time the engine gets to answer.
    pub fn best_move(
        &mut self,
        start: &Position,
        moves: &[Move],
        limit: SearchLimit,
        timeout: Duration,
    ) -> Result<EngineMove, EngineFailure> {
        let asked = Instant::now();
        let deadline = asked + timeout;
        let mut go_line: Option<String> = None;
        match self.spec.protocol {
            Protocol::Uci | Protocol::Ucci => {
                let mut line = if start.to_fen() == START_FEN {
                    "position startpos".to_string()
                } else {
                    format!("position fen {}", start.to_fen())
                };
                if !moves.is_empty() {
                    line.push_str(" moves");
                    for &mv in moves {
                        line.push(' ');
                        line.push_str(&self.move_text(mv));
                    }
                }
                self.send(&line)?;
                let go = match (self.spec.protocol, limit) {
                    (Protocol::Ucci, SearchLimit::MoveTime(ms)) => {
                        format!("go time {ms} movestogo 1")
                    }
                    (_, SearchLimit::MoveTime(ms)) => format!("go movetime {ms}"),
                    (_, SearchLimit::Depth(d)) => format!("go depth {d}"),
                    (_, SearchLimit::Nodes(n)) => format!("go nodes {n}"),
                };
                self.send(&go)?;
                go_line = Some(go);
            }
            Protocol::Xboard => {
                self.send("force")?;
                for &mv in &moves[self.told.min(moves.len())..] {
                    let text = self.move_text(mv);
                    if self.usermove {
                        self.send(&format!("usermove {text}"))?;
                    } else {
                        self.send(&text)?;
                    }
                }
                self.told = moves.len();
                if let SearchLimit::MoveTime(ms) = limit {
                    if ms % 1000 != 0 {
                        let centiseconds = ms.div_ceil(10);
                        self.send(&format!("time {centiseconds}"))?;
                        self.send(&format!("otim {centiseconds}"))?;
                    }
                }
                self.send("go")?;
            }
        }
        let (mut score, mut depth) = (None, None);
        let mut retries = 0;
        let answer = self.read_until(deadline, |me, line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match me.spec.protocol {
                Protocol::Uci | Protocol::Ucci => match words.first() {
                    // Workaround: `xiangqi uci` may print `bestmove` a moment
                    // before its search thread is idle and then refuses the next
                    // `go`; it says so, and the `go` is sent again.
                    Some(&"info")
                        if line.contains("already searching") && retries < BUSY_RETRIES =>
                    {
                        retries += 1;
                        thread::sleep(Duration::from_millis(5));
                        go_line.as_deref().and_then(|go| me.send(go).err().map(Err))
                    }
                    Some(&"info") => {
                        read_info(&words, &mut score, &mut depth);
                        None
                    }
                    Some(&"bestmove") => Some(Ok(words.get(1).unwrap_or(&"").to_string())),
                    Some(&"nobestmove") => Some(Err(EngineFailure::NoMove(line.to_string()))),
                    _ => None,
                },
                Protocol::Xboard => {
                    if let ["move", text, ..] = words.as_slice() {
                        Some(Ok(text.to_string()))
                    } else if words.first() == Some(&"resign") {
                        Some(Err(EngineFailure::Resigned))
                    } else if line.starts_with("Illegal move") {
                        Some(Err(EngineFailure::Refused(line.to_string())))
                    } else {
                        // Thinking output: ply score time nodes pv.
                        if let [d, s, _, _, ..] = words.as_slice() {
                            if let (Ok(d), Ok(s)) = (d.parse::<u32>(), s.parse::<i32>()) {
                                depth = Some(d);
                                score = Some(format!("cp {s}"));
                            }
                        }
                        None
                    }
                }
            }
        });
        let answer = match answer {
            Err(EngineFailure::Timeout(_)) => {
                self.healthy = false;
                return Err(EngineFailure::Timeout(timeout));
            }
            Err(e) => {
                self.healthy = false;
                return Err(e);
            }
            Ok(Err(e)) => {
                // An engine that refused a move no longer knows the game.
                self.healthy = !matches!(e, EngineFailure::Refused(_));
                return Err(e);
            }
            Ok(Ok(answer)) => answer,
        };
        self.told = moves.len() + 1;
        if matches!(answer.as_str(), "" | "(none)" | "0000" | "none") {
            return Err(EngineFailure::NoMove(format!("bestmove {answer}")));
        }
        let mv = to_iccs(&answer, self.ranks_from_one)
            .and_then(|t| t.parse().ok())
            .ok_or_else(|| {
                self.healthy = false;
                EngineFailure::Unreadable(answer.clone())
            })?;
        Ok(EngineMove {
            text: answer,
            mv,
            score,
            depth,
            time: asked.elapsed(),
        })
    }

    /// Tells an xboard engine the game is over (the others need nothing).
    pub fn game_over(&mut self, result: &str, why: &str) {
        if self.spec.protocol == Protocol::Xboard {
            let _ = self.send(&format!("result {result} {{{why}}}"));
            let _ = self.send("force");
        }
    }

    /// The move as this engine writes it.
    fn move_text(&self, mv: Move) -> String {
        from_iccs(mv, self.ranks_from_one)
    }

    /// Asks the engine to quit, then kills it if it lingers.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let until = Instant::now() + QUIT_GRACE;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Picks the score and depth out of a UCI/UCCI `info` line.
fn read_info(words: &[&str], score: &mut Option<String>, depth: &mut Option<u32>) {
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|d| d.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => match (words.get(i + 1), words.get(i + 2)) {
                (Some(&kind @ ("cp" | "mate")), Some(v)) if v.parse::<i32>().is_ok() => {
                    *score = Some(format!("{kind} {v}"));
                    i += 1;
                }
                // UCCI: `score N`.
                (Some(v), _) if v.parse::<i32>().is_ok() => *score = Some(format!("cp {v}")),
                _ => {}
            },
            // The rest of the line is moves and text.
            "pv" | "string" => break,
            _ => {}
        }
        i += 1;
    }
}

/// Reads `feature a=1 b="x y"` pairs.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], &quoted[end + 1..]),
                None => (quoted, ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (&after[..end], &after[end..]),
                None => (after, ""),
            }
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// An engine's move text (`h2e2`, `h3e3` with ranks 1-10, `h2-e2`) as ICCS.
pub fn to_iccs(text: &str, ranks_from_one: bool) -> Option<String> {
    let t: String = text
        .chars()
        .filter(|&c| c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    let bytes = t.as_bytes();
    let mut squares = Vec::with_capacity(2);
    let mut i = 0;
    while i < bytes.len() {
        let file = bytes[i];
        if !(b'a'..=b'i').contains(&file) {
            return None;
        }
        let digits_start = i + 1;
        let mut j = digits_start;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let rank: u32 = t.get(digits_start..j)?.parse().ok()?;
        let rank = if ranks_from_one {
            rank.checked_sub(1)?
        } else {
            rank
        };
        if rank > 9 {
            return None;
        }
        squares.push(format!("{}{rank}", file as char));
        i = j;
    }
    (squares.len() == 2).then(|| squares.concat())
}

/// `mv` written with ranks 0-9 (ICCS) or 1-10.
pub fn from_iccs(mv: Move, ranks_from_one: bool) -> String {
    let iccs = mv.to_string();
    if !ranks_from_one {
        return iccs;
    }
    let b = iccs.as_bytes();
    format!(
        "{}{}{}{}",
        b[0] as char,
        (b[1] - b'0') + 1,
        b[2] as char,
        (b[3] - b'0') + 1
    )
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
        let spec: EngineSpec = "xiangqi uci --hash 8,proto=ucci".parse().unwrap();
        assert_eq!(spec.argv, ["xiangqi", "uci", "--hash", "8"]);
        assert_eq!(spec.protocol, Protocol::Ucci);
        for bad in ["", "x,proto=foo", "x,ranks=2", "x,colour=red", "x,flag"] {
            assert!(bad.parse::<EngineSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn command_words() {
        assert_eq!(
            split_command(r#"'/opt/my engine' --x "a b" c\ d"#).unwrap(),
            ["/opt/my engine", "--x", "a b", "c d"]
        );
        assert!(split_command("'open").is_err());
    }

    #[test]
    fn rank_conversion() {
        assert_eq!(to_iccs("h10g8", true).as_deref(), Some("h9g7"));
        assert_eq!(to_iccs("a1a2", true).as_deref(), Some("a0a1"));
        assert_eq!(to_iccs("H2-E2", false).as_deref(), Some("h2e2"));
        assert_eq!(to_iccs("a0a1", true), None);
        assert_eq!(to_iccs("h10g8", false), None);
        assert_eq!(to_iccs("j2e2", false), None);
        assert_eq!(to_iccs("h2", false), None);
        let mv: Move = "h9g7".parse().unwrap();
        assert_eq!(from_iccs(mv, true), "h10g8");
        assert_eq!(from_iccs(mv, false), "h9g7");
    }

    #[test]
    fn xboard_features() {
        let f = parse_features(
            r#"setboard=0 ping=1 myname="MaxQi 4.8G" variants="xiangqi,shogi" done=1"#,
        );
        assert_eq!(f[2], ("myname".to_string(), "MaxQi 4.8G".to_string()));
        assert_eq!(f[3].1, "xiangqi,shogi");
        assert_eq!(f.len(), 5);
    }

    #[test]
    fn info_lines() {
        let (mut s, mut d) = (None, None);
        let line = "info depth 7 seldepth 9 score cp -35 nodes 100 pv h2e2 h9g7";
        read_info(&line.split_whitespace().collect::<Vec<_>>(), &mut s, &mut d);
        assert_eq!((s.as_deref(), d), (Some("cp -35"), Some(7)));
        let line = "info depth 3 score 120 pv h2e2";
        read_info(&line.split_whitespace().collect::<Vec<_>>(), &mut s, &mut d);
        assert_eq!((s.as_deref(), d), (Some("cp 120"), Some(3)));
    }
}
