//! Sorted runs: each full batch is written to a temporary file sorted by
//! key, and the runs are merged at the end in one pass (a k-way merge), so
//! the store is written once, in key order, whatever the corpus' size.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::indexed_game::Key;
use crate::tally::{Tally, EXAMPLES_PER_MOVE};

const RECORD_BYTES: usize = 8 + 2 + 6 * 8 + 1 + 4 * EXAMPLES_PER_MOVE;
const BUFFER_BYTES: usize = 1 << 16;

/// Writes `entries` (sorted by key) to a new file at `path`.
pub(crate) fn write_run(path: &Path, entries: &[(Key, Tally)]) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(BUFFER_BYTES, File::create(path)?);
    for (key, tally) in entries {
        out.write_all(&encode(*key, tally))?;
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_data()
}

fn encode((position, mv): Key, t: &Tally) -> [u8; RECORD_BYTES] {
    let mut record = [0u8; RECORD_BYTES];
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        record[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    put(&position.to_le_bytes());
    put(&mv.to_le_bytes());
    for n in [
        t.games,
        t.red_wins,
        t.draws,
        t.black_wins,
        t.rating_sum,
        t.rated,
    ] {
        put(&n.to_le_bytes());
    }
    put(&[t.example_count]);
    for id in t.examples {
        put(&id.to_le_bytes());
    }
    record
}

fn decode(record: &[u8; RECORD_BYTES]) -> (Key, Tally) {
    let mut at = 0;
    let mut take = |n: usize| {
        let bytes = &record[at..at + n];
        at += n;
        bytes
    };
    let position = i64::from_le_bytes(take(8).try_into().expect("8 bytes"));
    let mv = u16::from_le_bytes(take(2).try_into().expect("2 bytes"));
    let mut counts = [0u64; 6];
    for n in &mut counts {
        *n = u64::from_le_bytes(take(8).try_into().expect("8 bytes"));
    }
    let example_count = take(1)[0].min(EXAMPLES_PER_MOVE as u8);
    let mut examples = [0u32; EXAMPLES_PER_MOVE];
    for id in &mut examples {
        *id = u32::from_le_bytes(take(4).try_into().expect("4 bytes"));
    }
    let [games, red_wins, draws, black_wins, rating_sum, rated] = counts;
    let tally = Tally {
        games,
        red_wins,
        draws,
        black_wins,
        rating_sum,
        rated,
        examples,
        example_count,
    };
    ((position, mv), tally)
}

/// One sorted source of the merge: a run file, or the last batch still in
/// memory.
pub(crate) enum Run {
    File(BufReader<File>),
    Memory(std::vec::IntoIter<(Key, Tally)>),
}

impl Run {
    pub fn open(path: &Path) -> io::Result<Run> {
        let file = File::open(path)?;
        Ok(Run::File(BufReader::with_capacity(BUFFER_BYTES, file)))
    }

    fn next(&mut self) -> io::Result<Option<(Key, Tally)>> {
        match self {
            Run::Memory(entries) => Ok(entries.next()),
            Run::File(reader) => {
                let mut record = [0u8; RECORD_BYTES];
                match reader.read_exact(&mut record) {
                    Ok(()) => Ok(Some(decode(&record))),
                    Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
                    Err(e) => Err(e),
                }
            }
        }
    }
}

/// Merges `runs` (each sorted by key, in input order) and calls `emit` on
/// every key once, in key order, with the tallies of all runs merged in run
/// order (so a key's first examples are the first in input order).
pub(crate) fn merge_runs<E: From<io::Error>>(
    mut runs: Vec<Run>,
    mut emit: impl FnMut(Key, Tally) -> Result<(), E>,
) -> Result<(), E> {
    let mut heads: Vec<Option<Tally>> = vec![None; runs.len()];
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (index, run) in runs.iter_mut().enumerate() {
        if let Some((key, tally)) = run.next()? {
            heads[index] = Some(tally);
            heap.push(Reverse((key, index)));
        }
    }
    let mut current: Option<(Key, Tally)> = None;
    while let Some(Reverse((key, index))) = heap.pop() {
        let tally = heads[index].take().expect("a run in the heap has a head");
        if let Some((next_key, next)) = runs[index].next()? {
            heads[index] = Some(next);
            heap.push(Reverse((next_key, index)));
        }
        match &mut current {
            Some((current_key, merged)) if *current_key == key => merged.merge(&tally),
            _ => {
                if let Some((done_key, done)) = current.replace((key, tally)) {
                    emit(done_key, done)?;
                }
            }
        }
    }
    if let Some((key, tally)) = current {
        emit(key, tally)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::GameOutcome;

    fn tally(ids: &[u32]) -> Tally {
        let mut t = Tally::default();
        for &id in ids {
            t.add_game(id, Some(GameOutcome::Draw), Some(id as u64));
        }
        t
    }

    #[test]
    fn a_run_reads_back_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run");
        let entries = vec![((-5, 3), tally(&[1, 2, 3, 4])), ((7, 1), tally(&[9]))];
        write_run(&path, &entries).unwrap();
        let mut run = Run::open(&path).unwrap();
        let mut read = Vec::new();
        while let Some(entry) = run.next().unwrap() {
            read.push(entry);
        }
        assert_eq!(read, entries);
    }

    #[test]
    fn merging_adds_equal_keys_in_run_order() {
        let first = vec![((1, 1), tally(&[1])), ((2, 0), tally(&[2]))];
        let second = vec![((1, 1), tally(&[5, 6])), ((3, 0), tally(&[7]))];
        let mut out = Vec::new();
        merge_runs::<io::Error>(
            vec![
                Run::Memory(first.into_iter()),
                Run::Memory(second.into_iter()),
            ],
            |key, t| {
                out.push((key, t.games, t.examples().to_vec()));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            out,
            [
                ((1, 1), 3, vec![1, 5, 6]),
                ((2, 0), 1, vec![2]),
                ((3, 0), 1, vec![7])
            ]
        );
    }
}
