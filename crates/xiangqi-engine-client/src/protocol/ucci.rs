//! UCCI as ElephantEye speaks it: `ucci`/`ucciok`, `setoption NAME VALUE`,
//! milliseconds asked for with `usemillisec`, `nobestmove`.

use std::time::Instant;

use xiangqi_core::Position;

use super::uci::read_bestmove;
use super::{position_line, sync_ready, Dialect, RawAnswer, SearchRequest};
use crate::error::EngineError;
use crate::process::Wire;
use crate::score::Score;
use crate::spec::{EngineSpec, Limit, Protocol};

/// UCCI's `go` for `limit` searched by `mover`. UCCI's `go` takes one mode:
/// `depth`, `nodes`, or `time` (with the mover's increment or moves to go
/// and the opponent's clock); it has no movetime (one move left in the
/// time says the same) and no mate search, so those and any two modes at
/// once are refused, naming the parts.
pub(crate) fn go_line(limit: Limit, mover: xiangqi_core::Color) -> Result<String, EngineError> {
    if limit.mate.is_some() {
        return Err(EngineError::Unsupported(
            "UCCI engines cannot search for a mate (no `go mate`)".into(),
        ));
    }
    let mut modes = Vec::new();
    if let Some(d) = limit.depth {
        modes.push(("depth", format!("go depth {d}")));
    }
    if let Some(n) = limit.nodes {
        modes.push(("nodes", format!("go nodes {n}")));
    }
    if let Some(t) = limit.move_time {
        modes.push((
            "time",
            format!("go time {} movestogo 1", t.as_millis().max(1)),
        ));
    }
    // Milliseconds (`usemillisec`); the mover's clock first, then the other's.
    if let Some(c) = limit.clock {
        let them = !mover;
        let mut go = format!("go time {}", c.left(mover).as_millis());
        match c.moves_to_go {
            Some(m) => go += &format!(" movestogo {m}"),
            None => go += &format!(" increment {}", c.increment(mover).as_millis()),
        }
        go += &format!(" opptime {}", c.left(them).as_millis());
        match c.moves_to_go {
            Some(m) => go += &format!(" oppmovestogo {m}"),
            None => go += &format!(" oppincrement {}", c.increment(them).as_millis()),
        }
        modes.push(("clocks", go));
    }
    match modes.len() {
        0 => Err(EngineError::Unsupported(
            "a search needs a limit (time, depth, nodes or clocks)".into(),
        )),
        1 => Ok(modes.remove(0).1),
        _ => Err(EngineError::Unsupported(format!(
            "UCCI's go takes one of depth, nodes, time or clocks, not {}",
            modes
                .iter()
                .map(|(name, _)| *name)
                .collect::<Vec<_>>()
                .join(" and ")
        ))),
    }
}

/// UCCI has no mate syntax; engines print a mate as a large number of
/// "centipawns" less the plies to mate: ElephantEye from 10000 (values
/// above 9800 are mates), `xiangqi ucci` from 30000 (above 29000).
const MATE_BASES: [(i32, i32); 2] = [(30_000, 29_000), (10_000, 9_800)];

/// A plain UCCI score read as a mate when it is in one of the mate ranges.
fn mate_from_plain(score: Score) -> Score {
    let Score::Cp(v) = score else { return score };
    for (base, floor) in MATE_BASES {
        if v.abs() > floor && v.abs() <= base {
            let plies = base - v.abs();
            let moves = (plies + 1) / 2;
            return Score::Mate(if v > 0 { moves } else { -moves });
        }
    }
    score
}

/// The UCCI side of an engine.
#[derive(Debug, Default)]
pub struct Ucci;

fn setoption(name: &str, value: &str) -> String {
    format!("setoption {name} {value}").trim_end().to_string()
}

impl Dialect for Ucci {
    fn protocol(&self) -> Protocol {
        Protocol::Ucci
    }

    fn check_limit(&self, limit: Limit) -> Result<(), EngineError> {
        go_line(limit, xiangqi_core::Color::Red).map(|_| ())
    }

    fn handshake(
        &mut self,
        wire: &mut Wire,
        spec: &EngineSpec,
        deadline: Instant,
    ) -> Result<Option<String>, EngineError> {
        wire.send("ucci")?;
        let mut name = None;
        wire.read_until(deadline, "ucciok", |_, line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = Some(n.trim().to_string());
            }
            (line == "ucciok").then_some(())
        })?;
        wire.send("setoption usemillisec true")?;
        for (name, value) in &spec.options {
            wire.send(&setoption(name, value))?;
        }
        sync_ready(wire, deadline)?;
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
        sync_ready(wire, deadline)
    }

    fn new_game(
        &mut self,
        wire: &mut Wire,
        _start: &Position,
        _limit: Limit,
        deadline: Instant,
    ) -> Result<(), EngineError> {
        wire.send("setoption newgame")?;
        sync_ready(wire, deadline)
    }

    fn search(
        &mut self,
        wire: &mut Wire,
        request: &SearchRequest<'_>,
    ) -> Result<RawAnswer, EngineError> {
        wire.send(&position_line(wire, request.start, request.moves))?;
        let go = go_line(request.limit, request.mover())?;
        wire.send(&go)?;
        let mut answer = read_bestmove(wire, request.deadline, Some(&go))?;
        for info in &mut answer.infos {
            if let Some(e) = &mut info.evaluation {
                e.score = mate_from_plain(e.score);
            }
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_scores_and_mates() {
        assert_eq!(mate_from_plain(Score::Cp(29_999)), Score::Mate(1));
        assert_eq!(mate_from_plain(Score::Cp(-29_998)), Score::Mate(-1));
        assert_eq!(mate_from_plain(Score::Cp(9_995)), Score::Mate(3));
        assert_eq!(mate_from_plain(Score::Cp(350)), Score::Cp(350));
        assert_eq!(mate_from_plain(Score::Cp(12_000)), Score::Cp(12_000));
    }

    #[test]
    fn go_writes_one_mode_and_refuses_combinations() {
        use std::time::Duration;
        use xiangqi_core::Color;

        use crate::spec::Clock;
        let clock = Clock {
            red: Duration::from_secs(60),
            black: Duration::from_millis(30_500),
            red_increment: Duration::from_secs(1),
            black_increment: Duration::from_millis(500),
            moves_to_go: None,
        };
        assert_eq!(
            go_line(Limit::clock(clock), Color::Black).unwrap(),
            "go time 30500 increment 500 opptime 60000 oppincrement 1000"
        );
        let periods = Clock {
            moves_to_go: Some(20),
            ..clock
        };
        assert_eq!(
            go_line(Limit::clock(periods), Color::Red).unwrap(),
            "go time 60000 movestogo 20 opptime 30500 oppmovestogo 20"
        );
        assert_eq!(go_line(Limit::depth(8), Color::Red).unwrap(), "go depth 8");
        assert_eq!(
            go_line(Limit::move_time(Duration::from_millis(300)), Color::Red).unwrap(),
            "go time 300 movestogo 1"
        );
        let combined = Limit {
            depth: Some(30),
            move_time: Some(Duration::from_millis(200)),
            ..Limit::default()
        };
        let error = go_line(combined, Color::Red).unwrap_err().to_string();
        assert!(error.contains("not depth and time"), "{error}");
        let error = go_line(Limit::mate(2), Color::Red).unwrap_err().to_string();
        assert!(error.contains("mate"), "{error}");
        assert!(go_line(Limit::default(), Color::Red).is_err());
    }
}
