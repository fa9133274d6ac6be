//! xboard / CECP version 2 (MaxQi from the fairymax package): features,
//! `variant xiangqi`, `force` and moves, `go`, `move …`, thinking output.
//! The engine keeps its own board, so the client remembers what it told it
//! and starts over when a search is not a continuation.

use std::time::{Duration, Instant};

use xiangqi_core::{Move, Position, START_FEN};

use super::{Dialect, RawAnswer, RawInfo, SearchRequest};
use crate::error::EngineError;
use crate::process::Wire;
use crate::score::{Evaluation, Score};
use crate::spec::{EngineSpec, Limit, Protocol};

/// How long to wait for the features of a protocol-2 engine (older ones send none).
const FEATURE_WAIT: Duration = Duration::from_secs(2);
/// Thinking-output scores from this value on are mates: 100000 + N is
/// "mate in N moves" (CECP's convention).
const MATE_SCORE: i32 = 100_000;

/// The xboard side of an engine.
#[derive(Debug, Default)]
pub struct Xboard {
    setboard: bool,
    usermove: bool,
    /// The game the engine knows: its start and the moves it was told or played.
    told: Option<(Position, Vec<Move>)>,
    /// The limit the engine was last set to.
    limit: Option<Limit>,
}

impl Xboard {
    pub fn new() -> Xboard {
        Xboard::default()
    }

    fn ping(&mut self, wire: &mut Wire, deadline: Instant) -> Result<(), EngineError> {
        wire.send("ping 1")?;
        wire.read_until(deadline, "pong", |_, line| (line == "pong 1").then_some(()))
    }

    fn set_limit(&mut self, wire: &mut Wire, limit: Limit) -> Result<(), EngineError> {
        let same_clock = matches!(
            (self.limit, limit),
            (Some(Limit::Clock(_)), Limit::Clock(_))
        );
        if self.limit == Some(limit) || same_clock {
            return Ok(());
        }
        match limit {
            // Set once per game from the clock at its start; the clocks are
            // sent with `time`/`otim` before every move.
            Limit::Clock(c) => {
                let base = c.red.as_secs();
                wire.send(&format!(
                    "level 0 {}:{:02} {}",
                    base / 60,
                    base % 60,
                    c.increment.as_secs_f64()
                ))?
            }
            Limit::MoveTime(t) if t.as_millis() % 1000 == 0 => {
                wire.send(&format!("st {}", t.as_secs()))?
            }
            // `st` takes whole seconds (MaxQi reads `st 0.1` as 0 and
            // searches one ply): a time control of one move per period, the
            // clock set before every move, says the same.
            Limit::MoveTime(t) => wire.send(&format!(
                "level 1 {} 0",
                t.as_millis().div_ceil(1000).max(1)
            ))?,
            Limit::Depth(d) => wire.send(&format!("sd {d}"))?,
            Limit::Nodes(_) => {
                return Err(EngineError::Unsupported(
                    "xboard engines cannot search a node count".into(),
                ))
            }
        }
        self.limit = Some(limit);
        Ok(())
    }

    fn start_game(&mut self, wire: &mut Wire, start: &Position) -> Result<(), EngineError> {
        wire.send("new")?;
        wire.send("variant xiangqi")?;
        wire.send("force")?;
        wire.send("easy")?;
        wire.send("post")?;
        // `new` resets the search limits.
        self.limit = None;
        if start.to_fen() != START_FEN {
            if !self.setboard {
                return Err(EngineError::Unsupported(
                    "this xboard engine does not accept setboard, so it can only play from the start position"
                        .into(),
                ));
            }
            wire.send(&format!("setboard {}", start.to_fen()))?;
        }
        self.told = Some((start.clone(), Vec::new()));
        Ok(())
    }
}

/// Reads `feature a=1 b="x y"` pairs.
pub fn parse_features(text: &str) -> Vec<(String, String)> {
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

/// Thinking output: `ply score time nodes pv…` (time in centiseconds).
fn read_thinking(words: &[&str]) -> Option<RawInfo> {
    let [depth, score, time, nodes, pv @ ..] = words else {
        return None;
    };
    let depth: u32 = depth.trim_end_matches(['.', '&']).parse().ok()?;
    let score: i32 = score.parse().ok()?;
    let score = if score >= MATE_SCORE {
        Score::Mate(score - MATE_SCORE)
    } else if score <= -MATE_SCORE {
        Score::Mate(score + MATE_SCORE)
    } else {
        Score::Cp(score)
    };
    Some(RawInfo {
        multipv: 1,
        depth: Some(depth),
        evaluation: Some(Evaluation::exact(score)),
        time: time
            .parse::<u64>()
            .ok()
            .map(|cs| Duration::from_millis(cs * 10)),
        nodes: nodes.parse().ok(),
        pv: pv.iter().map(|w| w.to_string()).collect(),
        ..RawInfo::default()
    })
}

impl Dialect for Xboard {
    fn protocol(&self) -> Protocol {
        Protocol::Xboard
    }

    fn handshake(
        &mut self,
        wire: &mut Wire,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<Option<String>, EngineError> {
        wire.send("xboard")?;
        wire.send("protover 2")?;
        let mut name = None;
        let mut variants: Option<String> = None;
        let mut accepted = Vec::new();
        // Engines that do not speak protover 2 send no features at all.
        wire.read_optional(deadline.min(Instant::now() + FEATURE_WAIT), |_, line| {
            let rest = line.strip_prefix("feature ")?;
            let mut done = None;
            for (key, value) in parse_features(rest) {
                match key.as_str() {
                    "myname" => name = Some(value.clone()),
                    "setboard" => self.setboard = value == "1",
                    "usermove" => self.usermove = value == "1",
                    "variants" => variants = Some(value.clone()),
                    "done" => done = Some(value == "1"),
                    _ => {}
                }
                accepted.push(key);
            }
            done.filter(|&d| d)
        })?;
        for key in accepted {
            if key != "done" {
                wire.send(&format!("accepted {key}"))?;
            }
        }
        if let Some(v) = &variants {
            if !v.split(',').any(|v| v.trim() == "xiangqi") {
                return Err(EngineError::Unsupported(format!(
                    "the engine does not play xiangqi (its variants: {v})"
                )));
            }
        }
        for (name, value) in &spec.options {
            wire.send(&format!("option {name}={value}"))?;
        }
        self.ping(wire, deadline)?;
        Ok(name)
    }

    fn configure(
        &mut self,
        wire: &mut Wire,
        name: &str,
        value: &str,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        wire.send(&format!("option {name}={value}"))?;
        self.ping(wire, deadline)
    }

    fn new_game(
        &mut self,
        wire: &mut Wire,
        start: &Position,
        limit: Limit,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        self.start_game(wire, start)?;
        self.set_limit(wire, limit)?;
        self.ping(wire, deadline)
    }

    fn search(
        &mut self,
        wire: &mut Wire,
        request: &SearchRequest<'_>,
    ) -> Result<RawAnswer, EngineError> {
        let continues = self
            .told
            .as_ref()
            .is_some_and(|(start, told)| start == request.start && request.moves.starts_with(told));
        if !continues {
            self.start_game(wire, request.start)?;
        }
        self.set_limit(wire, request.limit)?;
        wire.send("force")?;
        let told = self.told.as_ref().map_or(0, |(_, t)| t.len());
        for &mv in &request.moves[told..] {
            let text = wire.move_text.write(mv);
            if self.usermove {
                wire.send(&format!("usermove {text}"))?;
            } else {
                wire.send(&text)?;
            }
        }
        // Until the engine's move is known, what it knows is unknown.
        let moves = request.moves.to_vec();
        self.told = None;
        if let Limit::Clock(c) = request.limit {
            let mover = request.mover();
            wire.send(&format!("time {}", c.left(mover).as_millis() / 10))?;
            wire.send(&format!("otim {}", c.left(!mover).as_millis() / 10))?;
        }
        if let Limit::MoveTime(t) = request.limit {
            if t.as_millis() % 1000 != 0 {
                let centiseconds = t.as_millis().div_ceil(10);
                wire.send(&format!("time {centiseconds}"))?;
                wire.send(&format!("otim {centiseconds}"))?;
            }
        }
        wire.send("go")?;
        let mut answer = RawAnswer::default();
        let mut failure = None;
        wire.read_until(request.deadline, "move", |_, line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            if let ["move", text, ..] = words.as_slice() {
                answer.best = text.to_string();
                Some(())
            } else if words.first() == Some(&"resign") {
                failure = Some(EngineError::Resigned);
                Some(())
            } else if line.starts_with("Illegal move") {
                failure = Some(EngineError::Refused {
                    line: line.to_string(),
                });
                Some(())
            } else {
                answer.infos.extend(read_thinking(&words));
                None
            }
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        if let Some(mv) = wire.move_text.read(&answer.best) {
            let mut moves = moves;
            moves.push(mv);
            self.told = Some((request.start.clone(), moves));
        }
        Ok(answer)
    }

    fn game_over(&mut self, wire: &mut Wire, result: &str, why: &str) {
        let _ = wire.send(&format!("result {result} {{{why}}}"));
        let _ = wire.send("force");
        self.told = None;
    }

    fn can_set_up_positions(&self) -> bool {
        self.setboard
    }

    fn supports(&self, limit: Limit) -> bool {
        !matches!(limit, Limit::Nodes(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn thinking_lines() {
        let words: Vec<&str> = "5 -31 12 3456 h2e2 h9g7".split_whitespace().collect();
        let info = read_thinking(&words).unwrap();
        assert_eq!(info.depth, Some(5));
        assert_eq!(info.evaluation.unwrap().score, Score::Cp(-31));
        assert_eq!(info.time, Some(Duration::from_millis(120)));
        assert_eq!(info.pv, ["h2e2", "h9g7"]);
        let words: Vec<&str> = "9 100003 1 1".split_whitespace().collect();
        assert_eq!(
            read_thinking(&words).unwrap().evaluation.unwrap().score,
            Score::Mate(3)
        );
        let words: Vec<&str> = "tellusererror x y z".split_whitespace().collect();
        assert_eq!(read_thinking(&words), None);
    }
}
