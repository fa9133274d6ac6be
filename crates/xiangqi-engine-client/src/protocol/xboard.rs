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
use crate::spec::{Clock, EngineSpec, Limit, Protocol};

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
        // The clocks' times go with every move (`time`/`otim`): a limit
        // differing only in them needs no new time control.
        let settings = |l: Limit| Limit {
            clock: l.clock.map(|c| Clock {
                red: Duration::ZERO,
                black: Duration::ZERO,
                ..c
            }),
            ..l
        };
        if self.limit.map(settings) == Some(settings(limit)) {
            return Ok(());
        }
        for line in limit_lines(limit)? {
            wire.send(&line)?;
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
        for line in clock_lines(request.limit, request.mover()) {
            wire.send(&line)?;
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

    fn check_limit(&self, limit: Limit) -> Result<(), EngineError> {
        limit_lines(limit).map(|_| ())
    }
}

/// The commands that set the engine's limits for a game: a time control
/// (`level`, or `st` for a whole-second move time) and a depth (`sd`).
/// xboard has no node count or mate search, one time control at a time and
/// one increment for both sides: the rest is refused, naming the part.
fn limit_lines(limit: Limit) -> Result<Vec<String>, EngineError> {
    let refuse = |what: &str| Err(EngineError::Unsupported(format!("xboard engines {what}")));
    if limit.is_empty() {
        return refuse("need a limit (time, depth or clocks)");
    }
    if limit.nodes.is_some() {
        return refuse("cannot search a node count");
    }
    if limit.mate.is_some() {
        return refuse("cannot search for a mate");
    }
    let mut lines = Vec::new();
    match (limit.move_time, limit.clock) {
        (Some(_), Some(_)) => {
            return refuse("take one time control: a move time or clocks, not both")
        }
        // Set once per game from the clock at its start; the clocks are
        // sent with `time`/`otim` before every move.
        (None, Some(c)) => {
            if c.red_increment != c.black_increment {
                return refuse("take one increment for both sides");
            }
            let base = c.red.as_secs();
            lines.push(format!(
                "level {} {}:{:02} {}",
                c.moves_to_go.unwrap_or(0),
                base / 60,
                base % 60,
                c.red_increment.as_secs_f64()
            ));
        }
        (Some(t), None) if t.as_millis() % 1000 == 0 => lines.push(format!("st {}", t.as_secs())),
        // `st` takes whole seconds (MaxQi reads `st 0.1` as 0 and searches
        // one ply): a time control of one move per period, the clock set
        // before every move, says the same.
        (Some(t), None) => lines.push(format!("level 1 {} 0", t.as_millis().div_ceil(1000).max(1))),
        (None, None) => {}
    }
    if let Some(d) = limit.depth {
        lines.push(format!("sd {d}"));
    }
    Ok(lines)
}

/// The clocks sent before each `go` (centiseconds): the game's, or the
/// move time's under its one-move `level`.
fn clock_lines(limit: Limit, mover: xiangqi_core::Color) -> Vec<String> {
    if let Some(c) = limit.clock {
        return vec![
            format!("time {}", c.left(mover).as_millis() / 10),
            format!("otim {}", c.left(!mover).as_millis() / 10),
        ];
    }
    match limit.move_time {
        Some(t) if t.as_millis() % 1000 != 0 => {
            let centiseconds = t.as_millis().div_ceil(10);
            vec![
                format!("time {centiseconds}"),
                format!("otim {centiseconds}"),
            ]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_as_level_st_and_sd() {
        use xiangqi_core::Color;
        let clock = Clock {
            red: Duration::from_secs(90),
            black: Duration::from_secs(45),
            red_increment: Duration::from_millis(500),
            black_increment: Duration::from_millis(500),
            moves_to_go: None,
        };
        let with_depth = Limit {
            depth: Some(12),
            clock: Some(clock),
            ..Limit::default()
        };
        assert_eq!(
            limit_lines(with_depth).unwrap(),
            ["level 0 1:30 0.5", "sd 12"]
        );
        assert_eq!(
            clock_lines(with_depth, Color::Black),
            ["time 4500", "otim 9000"]
        );
        let timed = Limit {
            depth: Some(30),
            move_time: Some(Duration::from_millis(200)),
            ..Limit::default()
        };
        assert_eq!(limit_lines(timed).unwrap(), ["level 1 1 0", "sd 30"]);
        assert_eq!(clock_lines(timed, Color::Red), ["time 20", "otim 20"]);
        assert_eq!(
            limit_lines(Limit::move_time(Duration::from_secs(2))).unwrap(),
            ["st 2"]
        );
        for (refused, why) in [
            (Limit::nodes(10), "node count"),
            (Limit::mate(3), "mate"),
            (
                Limit {
                    move_time: Some(Duration::from_secs(1)),
                    ..Limit::clock(clock)
                },
                "not both",
            ),
            (
                Limit::clock(Clock {
                    black_increment: Duration::ZERO,
                    ..clock
                }),
                "one increment",
            ),
            (Limit::default(), "need a limit"),
        ] {
            let error = limit_lines(refused).unwrap_err().to_string();
            assert!(error.contains(why), "{error}");
        }
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
