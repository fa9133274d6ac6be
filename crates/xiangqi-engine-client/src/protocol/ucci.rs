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
        let go = match request.limit {
            // UCCI has no movetime: one move left in the given time says the same.
            Limit::MoveTime(t) => format!("go time {} movestogo 1", t.as_millis().max(1)),
            Limit::Depth(d) => format!("go depth {d}"),
            Limit::Nodes(n) => format!("go nodes {n}"),
            // UCCI gives the mover's clock only (milliseconds: `usemillisec`).
            Limit::Clock(c) => format!(
                "go time {} increment {}",
                c.left(request.mover()).as_millis(),
                c.increment.as_millis()
            ),
        };
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
}
