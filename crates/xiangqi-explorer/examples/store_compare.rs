//! redb against SQLite as the store of an explorer's `moves` table
//! (docs/explorer.md, "The store"):
//!
//! `store_compare DB [QUERIES]` reads the `moves` rows of an explorer file
//! built by `xiangqi explore build` into memory, then
//!
//! * loads them, in key order and in one write transaction each, into a
//!   fresh SQLite file with the same `moves` table (the build's pragmas) and
//!   into a fresh redb file (key: the position's hash with its sign bit
//!   flipped, so that byte order is SQLite's integer order, then the move,
//!   10 bytes big-endian; value: the six counts as LEB128 varints, then the
//!   example game ids as stored), timing each up to its data being on disk;
//! * fetches every row of QUERIES positions (20 000 by default: half drawn
//!   by their number of games, which favours the early plies, half uniformly
//!   among the distinct positions) from both, interleaved in blocks whose
//!   order alternates, checking that both return the same rows;
//! * prints the load times, file sizes and query latencies as JSON.
//!
//! The two files are written beside DB (`DB.cmp.sqlite`, `DB.cmp.redb`)
//! and removed at the end.

use std::path::{Path, PathBuf};
use std::time::Instant;

use redb::{Database, TableDefinition};
use rusqlite::{params, Connection, OpenFlags};
use xiangqi_core::SplitMix64;

const REDB_MOVES: TableDefinition<[u8; 10], &[u8]> = TableDefinition::new("moves");

const BLOCK: usize = 500;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (db, queries) = match args.as_slice() {
        [db] => (db.clone(), 20_000),
        [db, n] => (
            db.clone(),
            n.replace('_', "").parse().unwrap_or_else(|_| {
                eprintln!("error: {n:?} is not a count");
                std::process::exit(2)
            }),
        ),
        _ => {
            eprintln!("usage: store_compare DB [QUERIES]");
            std::process::exit(2)
        }
    };
    if let Err(e) = run(Path::new(&db), queries) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// One row of `moves`, its examples in `Rows::examples`.
struct Row {
    position: i64,
    mv: i64,
    counts: [i64; 6],
    examples: (u32, u32),
}

struct Rows {
    /// The source file's `CREATE TABLE moves` (so the copy has its exact schema).
    create_moves: String,
    rows: Vec<Row>,
    examples: Vec<u8>,
}

impl Rows {
    fn examples(&self, row: &Row) -> &[u8] {
        &self.examples[row.examples.0 as usize..(row.examples.0 + row.examples.1) as usize]
    }
}

/// What a position's fetch returned, folded into one number to compare the
/// stores (and so that neither fetch can be optimised away).
#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
struct Digest {
    rows: u64,
    sum: u64,
}

impl Digest {
    fn add(&mut self, mv: i64, counts: &[i64; 6], examples: &[u8]) {
        self.rows += 1;
        let mut h = self.sum ^ (mv as u64);
        for c in counts {
            h = h
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(*c as u64);
        }
        for b in examples {
            h = h.wrapping_mul(31).wrapping_add(u64::from(*b));
        }
        self.sum = h;
    }
}

type Error = Box<dyn std::error::Error>;

fn run(db: &Path, queries: usize) -> Result<(), Error> {
    let rows = read_rows(db)?;
    let sqlite_path = sibling(db, "cmp.sqlite");
    let redb_path = sibling(db, "cmp.redb");
    for path in [&sqlite_path, &redb_path] {
        if path.exists() {
            std::fs::remove_file(path)?;
        }
    }

    // Loads, SQLite first then redb, then again the other way round only
    // for their times (the second files replace the first).
    let mut load_sqlite = Vec::new();
    let mut load_redb = Vec::new();
    for round in 0..2 {
        let order: [bool; 2] = if round == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for sqlite in order {
            if sqlite {
                let _ = std::fs::remove_file(&sqlite_path);
                load_sqlite.push(write_sqlite(&sqlite_path, &rows)?);
            } else {
                let _ = std::fs::remove_file(&redb_path);
                load_redb.push(write_redb(&redb_path, &rows)?);
            }
        }
    }
    let size_sqlite = std::fs::metadata(&sqlite_path)?.len();
    let size_redb = std::fs::metadata(&redb_path)?.len();
    let size_redb_compacted = {
        let mut database = Database::open(&redb_path)?;
        database.compact()?;
        drop(database);
        std::fs::metadata(&redb_path)?.len()
    };

    let sample = sample(&rows, queries);
    let sqlite = Connection::open_with_flags(
        &sqlite_path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let redb = Database::open(&redb_path)?;
    let mut statement = sqlite.prepare_cached(
        "SELECT move, games, red_wins, draws, black_wins, rating_sum, rated_games, examples
         FROM moves WHERE position = ?1 ORDER BY move",
    )?;
    let read = redb.begin_read()?;
    let table = read.open_table(REDB_MOVES)?;

    // [store][kind] latencies in µs; kind 0 weighted, 1 uniform.
    let mut latencies = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
    let mut found_rows = 0u64;
    for (b, block) in sample.chunks(BLOCK).enumerate() {
        let mut digests = [Vec::new(), Vec::new()];
        let order = if b % 2 == 0 { [0, 1] } else { [1, 0] };
        for store in order {
            for &(position, kind) in block {
                let start = Instant::now();
                let digest = if store == 0 {
                    let mut digest = Digest::default();
                    let mut result = statement.query([position])?;
                    while let Some(row) = result.next()? {
                        let counts = six_counts(row, 1)?;
                        let examples: &[u8] = row.get_ref(7)?.as_blob()?;
                        digest.add(row.get(0)?, &counts, examples);
                    }
                    digest
                } else {
                    let mut digest = Digest::default();
                    let lo = key(position, 0);
                    let hi = key(position, 0xFFFF);
                    for entry in table.range(lo..=hi)? {
                        let (k, v) = entry?;
                        let k = k.value();
                        let mv = i64::from(u16::from_be_bytes([k[8], k[9]]));
                        let (counts, examples) = unpack(v.value());
                        digest.add(mv, &counts, examples);
                    }
                    digest
                };
                latencies[store][kind].push(start.elapsed().as_secs_f64() * 1e6);
                digests[store].push(digest);
            }
        }
        if digests[0] != digests[1] {
            return Err("the two stores returned different rows".into());
        }
        found_rows += digests[0].iter().map(|d| d.rows).sum::<u64>();
    }
    drop(table);
    drop(read);
    drop(statement);
    drop(sqlite);
    drop(redb);
    for path in [&sqlite_path, &redb_path] {
        std::fs::remove_file(path)?;
    }

    let positions = rows
        .rows
        .windows(2)
        .filter(|w| w[0].position != w[1].position)
        .count()
        + usize::from(!rows.rows.is_empty());
    let stores = ["sqlite", "redb"];
    let mut json = format!(
        "{{\n  \"db\": {:?},\n  \"rows\": {},\n  \"positions\": {},\n  \"queries\": {},\n  \"rows_fetched\": {},\n  \"redb_version\": \"2.2\",\n",
        db.display().to_string(),
        rows.rows.len(),
        positions,
        sample.len(),
        found_rows
    );
    let loads = [&load_sqlite, &load_redb];
    let sizes = [size_sqlite, size_redb];
    let mut summaries = Vec::new();
    for store in 0..2 {
        let all: Vec<f64> = latencies[store].concat();
        let summary = Summary::of(all);
        json += &format!(
            "  \"{}\": {{\"load_s\": [{:.3}, {:.3}], \"file_bytes\": {}, {}, \"weighted\": {{{}}}, \"uniform\": {{{}}}{}}},\n",
            stores[store],
            loads[store][0],
            loads[store][1],
            sizes[store],
            summary.json(),
            Summary::of(latencies[store][0].clone()).json(),
            Summary::of(latencies[store][1].clone()).json(),
            if store == 1 {
                format!(", \"file_bytes_compacted\": {size_redb_compacted}")
            } else {
                String::new()
            }
        );
        summaries.push(summary);
    }
    let best = |v: &Vec<f64>| v.iter().copied().fold(f64::INFINITY, f64::min);
    json += &format!(
        "  \"redb_over_sqlite\": {{\"load\": {:.2}, \"file_bytes\": {:.2}, \"file_bytes_compacted\": {:.2}, \"p50\": {:.2}, \"p99\": {:.2}, \"mean\": {:.2}}}\n}}",
        best(&load_redb) / best(&load_sqlite),
        size_redb as f64 / size_sqlite as f64,
        size_redb_compacted as f64 / size_sqlite as f64,
        summaries[1].p50 / summaries[0].p50,
        summaries[1].p99 / summaries[0].p99,
        summaries[1].mean / summaries[0].mean,
    );
    println!("{json}");
    Ok(())
}

struct Summary {
    p50: f64,
    p99: f64,
    mean: f64,
}

impl Summary {
    fn of(mut v: Vec<f64>) -> Summary {
        if v.is_empty() {
            return Summary {
                p50: 0.0,
                p99: 0.0,
                mean: 0.0,
            };
        }
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() - 1) as f64 * q) as usize];
        Summary {
            p50: at(0.5),
            p99: at(0.99),
            mean: v.iter().sum::<f64>() / v.len() as f64,
        }
    }

    fn json(&self) -> String {
        format!(
            "\"p50_us\": {:.2}, \"p99_us\": {:.2}, \"mean_us\": {:.2}",
            self.p50, self.p99, self.mean
        )
    }
}

fn sibling(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".");
    name.push(suffix);
    db.with_file_name(name)
}

fn read_rows(db: &Path) -> Result<Rows, Error> {
    let connection = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    let mut statement = connection.prepare(
        "SELECT position, move, games, red_wins, draws, black_wins, rating_sum, rated_games, examples
         FROM moves ORDER BY position, move",
    )?;
    let mut result = statement.query([])?;
    let create_moves: String = connection.query_row(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'moves'",
        [],
        |row| row.get(0),
    )?;
    let mut rows = Rows {
        create_moves,
        rows: Vec::new(),
        examples: Vec::new(),
    };
    while let Some(row) = result.next()? {
        let examples: &[u8] = row.get_ref(8)?.as_blob()?;
        let start = rows.examples.len() as u32;
        rows.examples.extend_from_slice(examples);
        rows.rows.push(Row {
            position: row.get(0)?,
            mv: row.get(1)?,
            counts: six_counts(row, 2)?,
            examples: (start, examples.len() as u32),
        });
    }
    Ok(rows)
}

/// SQLite's integer order as byte order: the sign bit flipped, big-endian.
fn key(position: i64, mv: u16) -> [u8; 10] {
    let mut key = [0u8; 10];
    key[..8].copy_from_slice(&((position as u64) ^ (1 << 63)).to_be_bytes());
    key[8..].copy_from_slice(&mv.to_be_bytes());
    key
}

/// The six counts of a `moves` row, from column `first` on.
fn six_counts(row: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<[i64; 6]> {
    let mut counts = [0; 6];
    for (i, count) in counts.iter_mut().enumerate() {
        *count = row.get(first + i)?;
    }
    Ok(counts)
}

fn pack(counts: &[i64; 6], examples: &[u8], out: &mut Vec<u8>) {
    out.clear();
    for &c in counts {
        let mut n = c as u64;
        while n >= 0x80 {
            out.push((n as u8) | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
    }
    out.extend_from_slice(examples);
}

fn unpack(bytes: &[u8]) -> ([i64; 6], &[u8]) {
    let mut counts = [0i64; 6];
    let mut at = 0;
    for c in &mut counts {
        let mut n = 0u64;
        let mut shift = 0;
        loop {
            let b = bytes[at];
            at += 1;
            n |= u64::from(b & 0x7F) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        *c = n as i64;
    }
    (counts, &bytes[at..])
}

/// Seconds to load every row into a fresh SQLite file as the build does
/// (no journal, one transaction), up to the file being synced.
fn write_sqlite(path: &Path, rows: &Rows) -> Result<f64, Error> {
    let start = Instant::now();
    let connection = Connection::open(path)?;
    connection.execute_batch(&format!(
        "PRAGMA journal_mode = OFF;
         PRAGMA synchronous = OFF;
         PRAGMA locking_mode = EXCLUSIVE;
         PRAGMA cache_size = -32768;
         BEGIN;
         {};",
        rows.create_moves
    ))?;
    {
        let mut insert = connection.prepare_cached(
            "INSERT INTO moves (position, move, games, red_wins, draws, black_wins, rating_sum, rated_games, examples)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        for row in &rows.rows {
            let c = &row.counts;
            insert.execute(params![
                row.position,
                row.mv,
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                c[5],
                rows.examples(row)
            ])?;
        }
    }
    connection.execute_batch("COMMIT")?;
    connection.close().map_err(|(_, e)| e)?;
    std::fs::File::open(path)?.sync_all()?;
    Ok(start.elapsed().as_secs_f64())
}

/// Seconds to load every row into a fresh redb file in one write
/// transaction, up to its (durable, the default) commit.
fn write_redb(path: &Path, rows: &Rows) -> Result<f64, Error> {
    let start = Instant::now();
    let database = Database::create(path)?;
    let write = database.begin_write()?;
    {
        let mut table = write.open_table(REDB_MOVES)?;
        let mut value = Vec::with_capacity(64);
        for row in &rows.rows {
            pack(&row.counts, rows.examples(row), &mut value);
            table.insert(key(row.position, row.mv as u16), value.as_slice())?;
        }
    }
    write.commit()?;
    drop(database);
    Ok(start.elapsed().as_secs_f64())
}

/// `n` positions (as stored, signed), shuffled: half drawn by their games,
/// half uniformly among the distinct ones; each with its kind (0, 1).
fn sample(rows: &Rows, n: usize) -> Vec<(i64, usize)> {
    let mut positions: Vec<i64> = Vec::new();
    let mut cumulative: Vec<u64> = Vec::new();
    let mut total = 0u64;
    for row in &rows.rows {
        if positions.last() != Some(&row.position) {
            positions.push(row.position);
            cumulative.push(total);
        }
        total += row.counts[0].max(0) as u64;
    }
    let mut rng = SplitMix64::new(0x7265_6462);
    let mut sample = Vec::with_capacity(n);
    if positions.is_empty() {
        return sample;
    }
    for i in 0..n {
        if i % 2 == 0 && total > 0 {
            let pick = rng.next_u64() % total;
            let at = cumulative.partition_point(|&c| c <= pick) - 1;
            sample.push((positions[at], 0));
        } else {
            let at = (rng.next_u64() % positions.len() as u64) as usize;
            sample.push((positions[at], 1));
        }
    }
    for i in (1..sample.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        sample.swap(i, j);
    }
    sample
}
