//! The fixed benchmark: a set of positions searched to a fixed depth from a
//! clean engine. The total node count is a signature of the search: any
//! change to search or evaluation changes it, and it does not depend on the
//! machine.

use std::time::{Duration, Instant};

use xiangqi_core::{Move, Position};

use crate::{Engine, Limits};

/// Default depth of `xiangqi bench`.
pub const BENCH_DEPTH: u32 = 8;

/// The bench positions (FEN): openings, middlegames and endgames.
pub const BENCH_POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "r1bakabnr/9/n1c4c1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R b - - 5 3",
    "1rbakab1r/9/2n1c1nc1/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1NC1/9/1RBAKAB1R w - - 8 5",
    "r1bakab1r/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1CN5C/9/R1BAKABNR w - - 6 4",
    "3akabr1/r8/2n1b4/p1C1p3p/9/1R7/P1P1P1Pc1/4C1N2/7n1/1RBAKAB2 w - - 1 12",
    "1rbakab1r/9/nCc6/p3N2Cp/4p1pn1/2c6/P3P1P1P/6N2/9/1RBAKAB1R b - - 6 11",
    "1nbakab2/4n4/9/p1p1N1Crp/9/2P6/P3c1P1P/4C4/4A4/2BAK1B1R w - - 1 13",
    "2bakab2/8r/1c4nc1/p4PN1p/4p4/2pr5/P1n1P3P/1CN5C/R8/2BAKABR1 w - - 11 12",
    "Crbk1ab2/4n4/9/4p4/9/2R6/P1P1P1c1n/9/4A3N/2B1KAB2 w - - 3 24",
    "2b1kab2/4a4/1r7/4N3N/p3p4/6P2/4P3P/2c1B4/1n2A4/3AK1BR1 b - - 0 23",
    "3akab2/9/2n1b4/p2r4p/2P6/1C4n2/P6RP/4B4/4A4/2BAK4 w - - 0 25",
    "2bak1b2/4ar3/4c1R2/p4PN1p/9/2p2R3/P7P/6r1B/4A4/2BAK4 w - - 1 24",
    "3ak4/4a4/4b4/9/9/9/9/4B4/4C4/3AK2R1 w - - 0 1",
    "3k5/4a4/3a5/9/2P6/9/9/5N3/9/4K4 w - - 0 1",
];

/// One bench position's result.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BenchEntry {
    /// The position.
    pub fen: String,
    /// The move found.
    pub best_move: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub time: Duration,
}

/// The whole bench.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BenchReport {
    /// Depth searched.
    pub depth: u32,
    /// Search threads (the node count is a signature only with one).
    pub threads: usize,
    /// Per-position results, in [`BENCH_POSITIONS`] order.
    pub entries: Vec<BenchEntry>,
    /// Sum of the node counts: the signature.
    pub total_nodes: u64,
    /// Total time.
    pub time: Duration,
    /// Nodes per second over the whole run.
    pub nps: u64,
}

/// Runs the bench at `depth` with a fresh 16 MiB engine, calling `progress`
/// after each position with (done, total).
///
/// ```
/// let a = xiangqi_search::run_bench(2, |_, _| {});
/// let b = xiangqi_search::run_bench(2, |_, _| {});
/// assert_eq!(a.total_nodes, b.total_nodes); // deterministic
/// ```
pub fn run_bench(depth: u32, progress: impl FnMut(usize, usize)) -> BenchReport {
    run_bench_threads(depth, 1, progress)
}

/// [`run_bench`] with `threads` search threads: for measuring how the speed
/// scales (nodes of all threads per second); the node count then varies from run to run.
pub fn run_bench_threads(
    depth: u32,
    threads: usize,
    progress: impl FnMut(usize, usize),
) -> BenchReport {
    let mut engine = Engine::new(16);
    engine.set_threads(threads);
    run_bench_on(&mut engine, depth, progress)
}

/// [`run_bench`] on an engine set up by the caller (its threads, its
/// evaluation: the NNUE network or the classical one). Each position starts
/// from a cleared hash ([`Engine::new_game`]).
pub fn run_bench_on(
    engine: &mut Engine,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> BenchReport {
    let start = Instant::now();
    let mut entries = Vec::with_capacity(BENCH_POSITIONS.len());
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench positions are valid");
        engine.new_game();
        let t = Instant::now();
        let r = engine.search(&pos, &[], &Limits::depth(depth), |_| {});
        entries.push(BenchEntry {
            fen: (*fen).to_string(),
            best_move: r.best_move,
            nodes: r.nodes,
            time: t.elapsed(),
        });
        progress(i + 1, BENCH_POSITIONS.len());
    }
    let time = start.elapsed();
    let total_nodes = entries.iter().map(|e| e.nodes).sum();
    BenchReport {
        depth,
        threads: engine.threads(),
        entries,
        total_nodes,
        time,
        nps: (total_nodes as u128 * 1_000_000 / time.as_micros().max(1)) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_ongoing() {
        for fen in BENCH_POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(pos.has_legal_move(), "{fen}");
        }
    }
}
