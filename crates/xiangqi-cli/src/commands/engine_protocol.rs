//! The protocol-independent half of `xiangqi uci` and `xiangqi ucci` (and
//! `xiangqi-engine`): the input loop (bounded lines, garbage tolerated), the
//! game state set by `position`, the search (the search library's
//! [`SearchThread`], which keeps `stop`/`isready`/`ponderhit` responsive and
//! holds an infinite or ponder search's answer), and the Pikafish/Stockfish
//! extensions clients use (`go perft N`, `d`, `eval`, `flip`). Each protocol
//! supplies a [`Dialect`] for the words that differ.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use xiangqi_core::{Move, Position};
use xiangqi_nnue::Network;
use xiangqi_search::{
    evaluate, Engine, Limits, SearchEvent, SearchInfo, SearchResult, SearchThread, Skill,
    MAX_HASH_MB, MAX_MULTI_PV, MAX_SKILL_LEVEL, MAX_THREADS,
};

use xiangqi_search::wdl::{game_ply, Wdl, WinRateModel};

use crate::common::{divide_lines, MAX_PERFT_DEPTH};

/// Longer lines are rejected (and skipped) instead of buffered without bound.
pub const MAX_LINE: usize = 64 * 1024;

/// Thread-safe line output: one locked write and flush per line.
#[derive(Clone)]
pub struct Out(Arc<std::sync::Mutex<io::Stdout>>);

impl Out {
    pub fn line(&self, text: &str) {
        let guard = self.0.lock();
        let mut stdout = match guard {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        // A closed stdout means the GUI is gone; there is nobody to tell.
        let _ = writeln!(stdout, "{text}");
        let _ = stdout.flush();
    }

    pub fn error(&self, message: &str) {
        self.line(&format!("info string error: {message}"));
    }
}

/// What a protocol does with a line after the shared commands had their say.
pub enum Handled {
    Yes,
    No,
    Quit,
}

/// The words of one protocol.
pub trait Dialect {
    /// Handles protocol-specific commands (handshake, options, new game,
    /// banmoves, quit words). Returns `Handled::No` for commands it does not know.
    fn command(&mut self, session: &mut Session, cmd: &str, args: &[&str]) -> Handled;
    /// Parses the arguments of `go`.
    fn parse_go(&self, session: &Session, args: &[&str]) -> Result<Limits, String>;
}

/// The game state and the engine on its search thread.
pub struct Session {
    pub out: Out,
    search: SearchThread,
    root: Position,
    history: Vec<Position>,
    /// Root moves excluded from the next searches (UCCI `banmoves`).
    pub ban_moves: Vec<Move>,
    pub hash_mb: usize,
    /// The hash size the program started with (`--hash`): the `Hash`
    /// (`hashsize`) option's advertised default, the value in effect until set.
    pub default_hash_mb: usize,
    /// Search threads (UCI `Threads`, UCCI `threads`).
    pub threads: usize,
    /// Lines reported per search (UCI `MultiPV`).
    pub multi_pv: usize,
    /// Kept back from each time allotment (UCI `Move Overhead`); `None`: the
    /// search library's default.
    pub move_overhead: Option<Duration>,
    /// Info lines carry `wdl W D L` (UCI `UCI_ShowWDL`).
    pub show_wdl: bool,
    /// UCI `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`.
    pub skill_level: u8,
    pub limit_strength: bool,
    pub uci_elo: i32,
    /// The network the search evaluates with, if it does (UCI `Use NNUE`,
    /// `EvalFile`; none while weakened), kept here so that `eval` needs no
    /// idle engine.
    nnue: Option<Arc<Network>>,
    /// The running search is infinite: only `stop` ends it.
    searching_infinite: bool,
    /// The running search is a ponder search not yet hit.
    searching_ponder: bool,
}

impl Session {
    pub fn new(hash_mb: usize) -> Session {
        let engine = Engine::new(hash_mb);
        let hash_mb = engine.hash_size();
        let nnue = active_network(&engine);
        Session {
            out: Out(Arc::new(std::sync::Mutex::new(io::stdout()))),
            search: SearchThread::new(engine),
            root: Position::startpos(),
            history: Vec::new(),
            ban_moves: Vec::new(),
            hash_mb,
            default_hash_mb: hash_mb,
            threads: 1,
            multi_pv: 1,
            move_overhead: None,
            show_wdl: false,
            skill_level: MAX_SKILL_LEVEL,
            limit_strength: false,
            uci_elo: Skill::elo_range().1,
            nnue,
            searching_infinite: false,
            searching_ponder: false,
        }
    }

    /// Applies `Skill Level`, or `UCI_Elo` when `UCI_LimitStrength` is on
    /// (Stockfish's precedence), to the engine.
    pub fn apply_skill(&mut self) {
        let skill = if self.limit_strength {
            Skill::from_elo(self.uci_elo)
        } else {
            Skill::level(self.skill_level)
        };
        let engine = self.engine();
        engine.set_skill(skill);
        self.nnue = active_network(engine);
    }

    /// `ponderhit`: the predicted move was played; the ponder search goes
    /// on as a timed search (or answers at once if it already finished).
    pub fn ponder_hit(&mut self) {
        self.searching_ponder = false;
        self.search.ponderhit();
    }

    /// `go perft N`: each legal move with its count, then the total, as
    /// `xiangqi perft --divide` prints them (Pikafish's form).
    pub fn perft(&mut self, depth: Option<&&str>) -> Result<(), String> {
        let depth: u32 = number("perft", depth)?;
        if depth == 0 || depth > MAX_PERFT_DEPTH {
            return Err(format!("perft needs a depth from 1 to {MAX_PERFT_DEPTH}"));
        }
        if self.is_searching() {
            return Err("already searching; send stop first".into());
        }
        let split = xiangqi_core::divide(&self.root, depth);
        let nodes: u64 = split.iter().map(|(_, n)| n).sum();
        for line in divide_lines(&split) {
            self.out.line(&line);
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {nodes}"));
        self.out.line("");
        Ok(())
    }

    /// `d`: the board, its FEN, Zobrist key and the checking pieces.
    pub fn display(&self) {
        for line in self.root.to_string().lines() {
            self.out.line(line);
        }
        self.out.line("");
        self.out.line(&format!("Fen: {}", self.root.to_fen()));
        self.out.line(&format!("Key: {:016X}", self.root.hash()));
        let checkers: Vec<String> = self.root.checkers().iter().map(|s| s.to_string()).collect();
        self.out.line(&format!("Checkers: {}", checkers.join(" ")));
    }

    /// `eval`: the static evaluation, in pawns from Red's side (Stockfish
    /// says "white side"; Red is `w` in FEN).
    pub fn eval(&self) {
        let stm = match &self.nnue {
            Some(network) => network.evaluate(&self.root),
            None => evaluate(&self.root),
        };
        let red = if self.root.side_to_move() == xiangqi_core::Color::Red {
            stm
        } else {
            -stm
        };
        self.out.line(&format!(
            "Final evaluation       {:+.2} (white side)",
            f64::from(red) / 100.0
        ));
    }

    /// `flip`: the position with colours swapped and the board mirrored.
    pub fn flip(&mut self) {
        self.root = self.root.color_flipped();
        self.history.clear();
        self.ban_moves.clear();
    }

    pub fn root(&self) -> &Position {
        &self.root
    }

    pub fn is_searching(&self) -> bool {
        self.search.is_searching()
    }

    /// Asks a running search to stop (it answers with its best move).
    pub fn stop(&mut self) {
        self.search.stop();
    }

    /// Waits until the search, if any, has answered.
    pub fn join(&mut self) {
        self.searching_infinite = false;
        self.searching_ponder = false;
        if let Err(e) = self.search.wait() {
            self.out.error(&format!("{e}; starting a fresh engine"));
        }
    }

    /// Stops any search and gives access to the idle engine.
    pub fn engine(&mut self) -> &mut Engine {
        self.stop();
        self.join();
        self.search.engine()
    }

    /// Resizes the hash to `value` MiB (UCI `Hash`, UCCI `hashsize`); `option`
    /// names the option in the error. When less memory can be had, the engine
    /// keeps what it got and the error says so.
    pub fn set_hash(&mut self, option: &str, value: Option<&str>) -> Result<(), String> {
        let mb: usize = value
            .and_then(|v| v.parse().ok())
            .filter(|&mb| (1..=MAX_HASH_MB).contains(&mb))
            .ok_or_else(|| format!("{option} needs a size from 1 to {MAX_HASH_MB} MiB"))?;
        self.hash_mb = mb;
        self.engine().set_hash_size(mb);
        let got = self.engine().hash_size();
        if got < mb {
            self.hash_mb = got;
            return Err(format!(
                "only {got} MiB of the {mb} MiB hash could be allocated; using {got} MiB"
            ));
        }
        Ok(())
    }

    /// Evaluates with the NNUE network or the classical evaluation (UCI
    /// `Use NNUE`, UCCI `usennue`); without a network the classical one stays.
    pub fn set_use_nnue(&mut self, on: bool) -> Result<(), String> {
        let engine = self.engine();
        engine.set_use_nnue(on).map_err(|e| e.to_string())?;
        self.nnue = active_network(engine);
        Ok(())
    }

    /// Loads the net file `value` as the NNUE network (UCI `EvalFile`, UCCI
    /// `evalfile`); empty, `<empty>` or `<embedded>` go back to the embedded
    /// net. A file that does not read leaves the evaluation as it was.
    pub fn set_eval_file(&mut self, option: &str, value: Option<&str>) -> Result<(), String> {
        let path = match value.map(str::trim) {
            None | Some("" | "<empty>" | "<embedded>") => None,
            Some(path) => Some(std::path::PathBuf::from(path)),
        };
        let engine = self.engine();
        let loaded = engine
            .load_eval_file(path.as_deref())
            .map_err(|e| format!("{option}: {e}; the evaluation is unchanged"))?;
        self.nnue = active_network(engine);
        let uses = if self.nnue.is_some() {
            "in use"
        } else {
            "used with Use NNUE true"
        };
        let message = match (loaded, path) {
            (Some(info), Some(path)) => format!(
                "loaded net {} (hidden {}, hash {:016x}: {}), {uses}",
                path.display(),
                info.hidden,
                info.hash,
                info.description
            ),
            _ if self.engine().network().is_some() => format!("embedded net, {uses}"),
            _ => "no net embedded; classical evaluation".to_string(),
        };
        self.out.line(&format!("info string {option}: {message}"));
        Ok(())
    }

    /// Sets the number of search threads (UCI `Threads`, UCCI `threads`).
    pub fn set_threads(&mut self, option: &str, value: Option<&str>) -> Result<(), String> {
        let n: usize = value
            .and_then(|v| v.parse().ok())
            .filter(|&n| (1..=MAX_THREADS).contains(&n))
            .ok_or_else(|| format!("{option} needs a number from 1 to {MAX_THREADS}"))?;
        self.threads = n;
        self.engine().set_threads(n);
        Ok(())
    }

    /// Sets the number of lines a search reports (UCI `MultiPV`).
    pub fn set_multi_pv(&mut self, option: &str, value: Option<&str>) -> Result<(), String> {
        self.multi_pv = value
            .and_then(|v| v.parse().ok())
            .filter(|&n| (1..=MAX_MULTI_PV).contains(&n))
            .ok_or_else(|| format!("{option} needs a number from 1 to {MAX_MULTI_PV}"))?;
        Ok(())
    }

    /// `position startpos|fen FEN [moves …]`; on any error the previous position is kept.
    pub fn set_position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&a| a == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"startpos") => {
                return Err(format!(
                    "unexpected text after startpos: {:?}",
                    setup[1..].join(" ")
                ))
            }
            Some(&"fen") if setup.len() > 1 => {
                let fen = setup[1..].join(" ");
                // Lenient, as Pikafish reads GUIs' positions: composed
                // diagrams often have pieces off their points.
                Position::from_fen_lenient(&fen).map_err(|e| format!("bad FEN {fen:?}: {e}"))?
            }
            Some(&"fen") => return Err("position fen needs a FEN".into()),
            Some(other) => return Err(format!("position needs startpos or fen, got {other:?}")),
            None => return Err("position needs startpos or fen".into()),
        };
        let mut parsed = Vec::with_capacity(moves.len());
        for m in moves {
            // The error quotes the move.
            parsed.push(m.parse::<Move>().map_err(|e| e.to_string())?);
        }
        let (root, history) = start.replay(&parsed).map_err(|e| e.to_string())?;
        self.root = root;
        self.history = history;
        self.ban_moves.clear();
        Ok(())
    }

    /// Starts a search on its own thread; results are printed by that thread.
    pub fn start_search(&mut self, limits: Limits, dialect: Arc<dyn SearchOutput>) {
        let out = self.out.clone();
        let wdl_model = self.show_wdl.then(WinRateModel::default);
        let ply = game_ply(&self.root);
        let (infinite, ponder) = (limits.infinite, limits.ponder);
        let started = self.search.go(
            self.root.clone(),
            self.history.clone(),
            limits,
            move |event| match event {
                SearchEvent::Info(info) => {
                    let wdl = wdl_model.map(|m| m.wdl(info.score, ply));
                    out.line(&dialect.info(&info, wdl));
                }
                SearchEvent::BestMove(result) => {
                    if let Some(line) = dialect.no_move_info(&result) {
                        out.line(&line);
                    }
                    out.line(&dialect.bestmove(&result));
                }
            },
        );
        match started {
            Ok(()) => (self.searching_infinite, self.searching_ponder) = (infinite, ponder),
            Err(e) => self.out.error(&e.to_string()),
        }
    }
}

/// `bestmove M [ponder P]`, or `none` when the side to move has no move
/// (the text differs between UCI and UCCI).
pub fn bestmove_line(r: &SearchResult, none: &str) -> String {
    match (r.best_move, r.ponder) {
        (Some(m), Some(p)) => format!("bestmove {m} ponder {p}"),
        (Some(m), None) => format!("bestmove {m}"),
        (None, _) => none.to_string(),
    }
}

/// The `id` lines both protocols start their handshake with.
pub fn identify(out: &Out) {
    out.line(concat!("id name xiangqi ", env!("CARGO_PKG_VERSION")));
    out.line("id author the xiangqi developers");
}

/// The output half of a dialect, shared with the search thread.
pub trait SearchOutput: Send + Sync {
    /// One `info` line; `wdl`: the win/draw/loss estimate to show, if the
    /// protocol has a syntax for it.
    fn info(&self, info: &SearchInfo, wdl: Option<Wdl>) -> String;
    /// The line sent before `bestmove` when there is no move to play (the
    /// side to move is mated or stalemated), if the protocol has one.
    fn no_move_info(&self, _result: &SearchResult) -> Option<String> {
        None
    }
    fn bestmove(&self, result: &SearchResult) -> String;
}

/// Reads one line of at most `MAX_LINE` bytes. `Ok(None)` at end of input;
/// `Ok(Some(Err(len)))` for an over-long line (already skipped).
fn read_line_capped(input: &mut impl BufRead) -> io::Result<Option<Result<String, usize>>> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if len == 0 {
                None
            } else if len > MAX_LINE {
                Some(Err(len))
            } else {
                Some(Ok(String::from_utf8_lossy(&buf).into_owned()))
            });
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if len + take <= MAX_LINE + 1 {
            buf.extend_from_slice(&chunk[..take]);
        }
        len += take;
        input.consume(take);
        if done {
            return Ok(Some(if len > MAX_LINE + 1 {
                Err(len)
            } else {
                Ok(String::from_utf8_lossy(&buf).into_owned())
            }));
        }
    }
}

/// The input loop shared by both protocols, reading stdin.
pub fn run_loop<D: Dialect>(
    dialect: D,
    output: Arc<dyn SearchOutput>,
    hash_mb: usize,
) -> Result<()> {
    run_loop_on(dialect, output, hash_mb, io::stdin().lock())
}

/// Reads the first non-blank line of `input` (`None` at its end), for a
/// program that picks its protocol by the first command.
pub fn first_line(input: &mut impl BufRead) -> Result<Option<String>> {
    loop {
        match read_line_capped(input)? {
            None => return Ok(None),
            Some(Ok(line)) if !line.trim().is_empty() => return Ok(Some(line)),
            Some(_) => {}
        }
    }
}

/// The input loop shared by both protocols.
pub fn run_loop_on<D: Dialect>(
    mut dialect: D,
    output: Arc<dyn SearchOutput>,
    hash_mb: usize,
    mut input: impl BufRead,
) -> Result<()> {
    let mut session = Session::new(hash_mb);
    loop {
        let line = match read_line_capped(&mut input)? {
            None => break,
            Some(Err(len)) => {
                session.out.error(&format!(
                    "line of {len} bytes is longer than {MAX_LINE}; ignored"
                ));
                continue;
            }
            Some(Ok(line)) => line,
        };
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            continue;
        };
        match cmd {
            "isready" => session.out.line("readyok"),
            "stop" => session.stop(),
            "ponderhit" => session.ponder_hit(),
            "d" => session.display(),
            "eval" => session.eval(),
            "flip" => session.flip(),
            "go" if args.first() == Some(&"perft") => {
                if let Err(e) = session.perft(args.get(1)) {
                    session.out.error(&e);
                }
            }
            "position" => {
                if let Err(e) = session.set_position(args) {
                    session.out.error(&format!("{e}; position unchanged"));
                }
            }
            "go" => match dialect.parse_go(&session, args) {
                Ok(mut limits) => {
                    limits.ban_moves.extend(session.ban_moves.iter().copied());
                    limits.multi_pv = session.multi_pv;
                    limits.move_overhead = session.move_overhead;
                    session.start_search(limits, Arc::clone(&output));
                }
                Err(e) => session.out.error(&e),
            },
            _ => match dialect.command(&mut session, cmd, args) {
                Handled::Yes => {}
                Handled::Quit => {
                    session.stop();
                    session.join();
                    return Ok(());
                }
                Handled::No => session
                    .out
                    .error(&format!("unknown command {:?}", truncate(cmd))),
            },
        }
    }
    // End of input: a bounded search finishes and answers; an infinite one is stopped.
    if session.searching_infinite || session.searching_ponder {
        session.stop();
    }
    session.join();
    Ok(())
}

/// Parses a non-negative integer argument of `go`/`setoption`.
pub fn number<T: std::str::FromStr>(name: &str, value: Option<&&str>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{name} needs a value"))?;
    v.parse::<T>()
        .map_err(|_| format!("{name} needs a non-negative integer, got {:?}", truncate(v)))
}

/// Shortens echoed garbage.
pub fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        let head: String = s.chars().take(40).collect();
        format!("{head}…")
    } else {
        s.to_string()
    }
}

/// The moves of a PV as ICCS text.
pub fn pv_text(pv: &[Move]) -> String {
    let moves: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
    moves.join(" ")
}

/// The `EvalFile` option's advertised default: `<embedded>` when this build
/// carries a net, `<empty>` otherwise.
pub fn embedded_net_name() -> &'static str {
    if xiangqi_nnue::embedded::EMBEDDED_NET.is_some() {
        "<embedded>"
    } else {
        "<empty>"
    }
}

/// The engine's network when it evaluates with it.
fn active_network(engine: &Engine) -> Option<Arc<Network>> {
    engine
        .network()
        .filter(|_| engine.evaluates_with_nnue())
        .cloned()
}
