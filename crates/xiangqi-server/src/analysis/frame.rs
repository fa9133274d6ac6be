//! What an analysis has found, as the search reports it iteration by
//! iteration ([`Progress`]), and its `analysis` frame in the recipient's
//! notation ([`report`]).

use std::time::Duration;

use xiangqi_core::{Position, Score};
use xiangqi_search::SearchInfo;

use crate::analysis::position::line_text;
use crate::notation_setting::NotationSetting;
use crate::ws::protocol::server::{AnalysisLine, AnalysisReport, LineScore};
use crate::ws::protocol::ServerMessage;

/// Moves of a line shown, at most (deeper moves of a PV mean little).
pub const MAX_PV_SHOWN: usize = 16;

/// The lines of the deepest iteration completed so far, across the
/// analysis's searches (a search cut short for a waiter starts again from
/// depth 1: its shallow iterations do not replace deeper ones).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// The lines of the deepest complete iteration.
    pub lines: Vec<SearchInfo>,
    /// Its depth.
    pub depth: u32,
    /// Lines of the iteration being reported now.
    partial: Vec<SearchInfo>,
    /// Nodes and time of the analysis's earlier searches.
    earlier_nodes: u64,
    earlier_time: Duration,
    /// Nodes and time of the running search.
    nodes: u64,
    time: Duration,
    /// Bumped at each change, so a report goes out only when there is news.
    pub version: u64,
}

impl Progress {
    /// One line of an iteration, `wanted` lines per iteration.
    pub fn add(&mut self, info: &SearchInfo, wanted: usize) {
        if info.multipv <= 1 {
            self.partial.clear();
        }
        self.nodes = info.nodes;
        self.time = info.time;
        self.partial.push(info.clone());
        if self.partial.len() >= wanted && info.depth > self.depth {
            self.depth = info.depth;
            self.lines = std::mem::take(&mut self.partial);
            self.version += 1;
        }
    }

    /// A search ended: the next one counts its nodes and time on top.
    pub fn search_ended(&mut self) {
        self.earlier_nodes += self.nodes;
        self.earlier_time += self.time;
        self.nodes = 0;
        self.time = Duration::ZERO;
        self.partial.clear();
    }

    /// Nodes searched by the analysis so far.
    pub fn nodes(&self) -> u64 {
        self.earlier_nodes + self.nodes
    }

    /// Search time of the analysis so far.
    pub fn time(&self) -> Duration {
        self.earlier_time + self.time
    }
}

fn score(score: Score) -> LineScore {
    match score {
        Score::Cp(cp) => LineScore {
            cp: Some(cp),
            mate: None,
        },
        Score::Mate(n) => LineScore {
            cp: None,
            mate: Some(n),
        },
    }
}

/// The `analysis` frame of analysis `id` on `root` for a reader of `notation`.
pub fn report(
    id: &str,
    root: &Position,
    progress: &Progress,
    notation: NotationSetting,
    done: bool,
) -> ServerMessage {
    let lines = progress
        .lines
        .iter()
        .enumerate()
        .map(|(index, info)| {
            let pv = &info.pv[..info.pv.len().min(MAX_PV_SHOWN)];
            AnalysisLine {
                multipv: index as u32 + 1,
                score: score(info.score),
                pv: pv.iter().map(ToString::to_string).collect(),
                pv_text: line_text(root, pv, notation),
            }
        })
        .collect();
    let time = progress.time();
    let nodes = progress.nodes();
    let nps = match time.as_millis() {
        0 => 0,
        ms => (u128::from(nodes) * 1000 / ms) as u64,
    };
    ServerMessage::Analysis(Box::new(AnalysisReport {
        id: id.to_string(),
        fen: root.to_fen(),
        depth: progress.depth,
        nodes,
        nps,
        time_ms: time.as_millis() as u64,
        lines,
        done,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(depth: u32, multipv: usize, nodes: u64) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv,
            score: Score::Cp(10),
            nodes,
            time: Duration::from_millis(nodes),
            nps: 1000,
            pv: vec!["h2e2".parse().unwrap()],
            hashfull: 0,
        }
    }

    #[test]
    fn an_iteration_counts_once_all_its_lines_came_and_only_if_deeper() {
        let mut progress = Progress::default();
        progress.add(&info(1, 1, 10), 2);
        assert_eq!(progress.depth, 0);
        progress.add(&info(1, 2, 10), 2);
        assert_eq!((progress.depth, progress.lines.len()), (1, 2));
        progress.add(&info(2, 1, 30), 2);
        progress.add(&info(2, 2, 30), 2);
        progress.search_ended();
        // The next search (after a slot's slice) starts again at depth 1.
        progress.add(&info(1, 1, 5), 2);
        progress.add(&info(1, 2, 5), 2);
        assert_eq!(progress.depth, 2);
        assert_eq!(progress.nodes(), 35);
        let frame = report(
            "a_1",
            &Position::startpos(),
            &progress,
            NotationSetting::Wxf,
            false,
        );
        let ServerMessage::Analysis(report) = frame else {
            panic!("an analysis frame");
        };
        assert_eq!(report.lines[1].multipv, 2);
        assert_eq!(report.lines[0].pv_text, ["C2=5"]);
        assert_eq!(report.nps, 1000);
    }
}
