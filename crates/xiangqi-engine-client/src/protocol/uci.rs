//! UCI, with the dialect of Pikafish and Fairy-Stockfish: an engine that
//! offers `UCI_Variant` is told `xiangqi` and then numbers ranks 1-10
//! (unless the spec says otherwise).

use std::time::Instant;

use xiangqi_core::Position;

use super::info::read_info;
use super::{position_line, sync_ready, Dialect, RawAnswer, SearchRequest};
use crate::error::EngineError;
use crate::process::Wire;
use crate::spec::{EngineSpec, Limit, Protocol};

/// UCI's `go` for `limit`: every part at once, the engine stops at the
/// first reached; Red is UCI's white (`wtime`, `winc`).
pub(crate) fn go_line(limit: Limit) -> Result<String, EngineError> {
    if limit.is_empty() {
        return Err(EngineError::Unsupported(
            "a search needs a limit (time, depth, nodes, mate or clocks)".into(),
        ));
    }
    let mut go = String::from("go");
    if let Some(t) = limit.move_time {
        go += &format!(" movetime {}", t.as_millis().max(1));
    }
    if let Some(d) = limit.depth {
        go += &format!(" depth {d}");
    }
    if let Some(n) = limit.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(m) = limit.mate {
        go += &format!(" mate {m}");
    }
    if let Some(c) = limit.clock {
        go += &format!(
            " wtime {} btime {} winc {} binc {}",
            c.red.as_millis(),
            c.black.as_millis(),
            c.red_increment.as_millis(),
            c.black_increment.as_millis()
        );
        if let Some(m) = c.moves_to_go {
            go += &format!(" movestogo {m}");
        }
    }
    Ok(go)
}

/// How often a `go` refused as "already searching" is repeated. Each repeat
/// waits for the engine's next refusal, so no pause is needed (a pause of a
/// millisecond made the client four times slower than a raw exchange with
/// `xiangqi uci` in the overhead bench); the deadline bounds the whole.
const BUSY_RETRIES: u32 = 1000;

/// The UCI side of an engine.
#[derive(Debug, Default)]
pub struct Uci {
    /// The engine offers `MultiPV`.
    has_multipv: bool,
    /// The `MultiPV` value last set.
    multipv: u32,
}

impl Uci {
    pub fn new() -> Uci {
        Uci {
            has_multipv: false,
            multipv: 1,
        }
    }
}

fn setoption(name: &str, value: &str) -> String {
    if value.is_empty() {
        format!("setoption name {name}")
    } else {
        format!("setoption name {name} value {value}")
    }
}

impl Dialect for Uci {
    fn protocol(&self) -> Protocol {
        Protocol::Uci
    }

    fn check_limit(&self, limit: Limit) -> Result<(), EngineError> {
        go_line(limit).map(|_| ())
    }

    fn handshake(
        &mut self,
        wire: &mut Wire,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<Option<String>, EngineError> {
        wire.send("uci")?;
        let (mut name, mut has_variant, mut has_multipv) = (None, false, false);
        wire.read_until(deadline, "uciok", |_, line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            } else if line.starts_with("option name UCI_Variant ") {
                has_variant = true;
            } else if line.starts_with("option name MultiPV ") {
                has_multipv = true;
            }
            (line == "uciok").then_some(())
        })?;
        self.has_multipv = has_multipv;
        if has_variant {
            // Fairy-Stockfish plays chess unless told otherwise, and numbers
            // the ten ranks of its xiangqi board 1-10.
            wire.send(&setoption("UCI_Variant", "xiangqi"))?;
            if spec.ranks_from_one.is_none() {
                wire.move_text.ranks_from_one = true;
            }
        }
        for (name, value) in &spec.options {
            wire.send(&setoption(name, value))?;
        }
        wire.send("isready")?;
        let explicit = spec.ranks_from_one.is_some();
        wire.read_until(deadline, "readyok", |wire, line| {
            // Newer Fairy-Stockfish versions confirm the variant; a board of
            // ten ranks is then numbered 1-10 in its move text.
            if !explicit && line.starts_with("info string variant xiangqi") {
                wire.move_text.ranks_from_one = true;
            }
            (line == "readyok").then_some(())
        })?;
        Ok(name)
    }

    fn configure(
        &mut self,
        wire: &mut Wire,
        name: &str,
        value: &str,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        wire.send(&setoption(name, value))?;
        if name.eq_ignore_ascii_case("MultiPV") {
            self.multipv = value.trim().parse().unwrap_or(1);
        }
        sync_ready(wire, deadline)
    }

    fn new_game(
        &mut self,
        wire: &mut Wire,
        _start: &Position,
        _limit: Limit,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        wire.send("ucinewgame")?;
        sync_ready(wire, deadline)
    }

    fn search(
        &mut self,
        wire: &mut Wire,
        request: &SearchRequest<'_>,
    ) -> Result<RawAnswer, EngineError> {
        if self.has_multipv && request.multipv != self.multipv {
            wire.send(&setoption("MultiPV", &request.multipv.to_string()))?;
            self.multipv = request.multipv;
        }
        wire.send(&position_line(wire, request.start, request.moves))?;
        let go = go_line(request.limit)?;
        wire.send(&go)?;
        read_bestmove(wire, request.deadline, Some(&go))
    }
}

/// Reads `info` lines up to `bestmove` (or UCCI's `nobestmove`).
pub(crate) fn read_bestmove(
    wire: &mut Wire,
    deadline: Instant,
    go: Option<&str>,
) -> Result<RawAnswer, EngineError> {
    let mut answer = RawAnswer::default();
    let mut retries = 0;
    let mut failure = None;
    wire.read_until(deadline, "move", |wire, line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            // Workaround: `xiangqi uci` may print `bestmove` a moment before
            // its search thread is idle and then refuses the next `go`; it
            // says so, and the `go` is sent again.
            Some(&"info") if line.contains("already searching") && retries < BUSY_RETRIES => {
                retries += 1;
                if let Some(Err(e)) = go.map(|go| wire.send(go)) {
                    failure = Some(e);
                    return Some(());
                }
                None
            }
            Some(&"info") => {
                answer.infos.extend(read_info(&words));
                None
            }
            Some(&"bestmove") => {
                answer.best = words.get(1).unwrap_or(&"").to_string();
                if let (Some(&"ponder"), Some(p)) = (words.get(2), words.get(3)) {
                    answer.ponder = Some(p.to_string());
                }
                Some(())
            }
            Some(&"nobestmove") => {
                failure = Some(EngineError::NoMove {
                    line: line.to_string(),
                });
                Some(())
            }
            _ => None,
        }
    })?;
    match failure {
        Some(e) => Err(e),
        None => Ok(answer),
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::spec::Clock;

    #[test]
    fn go_writes_every_part_of_a_combined_limit() {
        let clock = Clock {
            red: Duration::from_secs(60),
            black: Duration::from_millis(30_500),
            red_increment: Duration::from_secs(1),
            black_increment: Duration::from_millis(500),
            moves_to_go: Some(12),
        };
        let limit = Limit {
            move_time: Some(Duration::from_millis(200)),
            depth: Some(30),
            nodes: Some(100_000),
            mate: Some(3),
            clock: Some(clock),
        };
        assert_eq!(
            go_line(limit).unwrap(),
            "go movetime 200 depth 30 nodes 100000 mate 3 \
             wtime 60000 btime 30500 winc 1000 binc 500 movestogo 12"
        );
        assert_eq!(go_line(Limit::depth(6)).unwrap(), "go depth 6");
        assert_eq!(go_line(Limit::mate(2)).unwrap(), "go mate 2");
        assert!(go_line(Limit::default()).is_err());
    }
}
