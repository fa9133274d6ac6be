//! Reading a game file on every core. With one job, or a file too small to
//! split, or standard input, the games are read on the calling thread and
//! only the per-game work is spread over the workers. Otherwise the file is
//! cut into byte ranges at game starts (`xiangqi_gamefile::shards`) and the
//! workers read the ranges themselves, since reading (move text, legality)
//! is most of the cost of `game check`. Either way every game reaches
//! `work` with its index in the file and its errors counted from the file's
//! start, and `sink` sees the answers in file order: the output is the same
//! whatever `--jobs` says.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::{mpsc, Condvar, Mutex};
use std::thread;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xiangqi_gamefile::{
    count_lines, shards, Format, Game, GameFileError, Games, RangeOrigin, Shard,
};

use crate::parallel;

/// Files at least this big get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// The size of the byte ranges the workers read: big enough that opening a
/// range costs nothing next to reading it, small enough that a batch of
/// them in memory (as games) stays small and the workers finish a batch at
/// about the same time.
const SHARD_BYTES: u64 = 64 << 10;

fn progress(len: Option<u64>) -> ProgressBar {
    match len {
        Some(len) if len >= PROGRESS_MIN_BYTES => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
                )
                .expect("valid template"),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// Opens `path` (`-`: standard input) as a game file, with its size.
fn open_games(path: &Path, format: Option<Format>) -> Result<(Games, Option<u64>)> {
    if path.as_os_str() == "-" {
        let games = Games::from_reader(io::stdin(), format, Default::default())?;
        return Ok((games, None));
    }
    let len = std::fs::metadata(path).ok().map(|m| m.len());
    Ok((Games::open(path, format)?, len))
}

/// Games read and games that could not be read.
pub struct Counts {
    pub games: usize,
    pub errors: usize,
}

/// Calls `work` on every game or error of the file (with its 1-based index)
/// on `jobs` threads (the per-game work: formatting, writing, judging) and
/// `sink` on its answers in file order. A file that cannot be read at all
/// (or stops being readable) is an error once the games before are sunk.
pub fn for_each_game<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let workers = parallel::worker_count(jobs);
    if workers > 1 && path.as_os_str() != "-" {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let wanted = (len / SHARD_BYTES) as usize;
        if wanted >= 2 {
            let ranges = shards(path, format, wanted)?;
            // Binary and XML formats are one range: nothing to split.
            if ranges.iter().filter(|r| !r.is_empty()).count() >= 2 {
                return for_each_game_in_ranges(path, format, workers, &ranges, work, sink);
            }
        }
    }
    for_each_game_read_here(path, format, jobs, work, sink)
}

/// [`for_each_game`] reading on the calling thread.
fn for_each_game_read_here<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let (games, len) = open_games(path, format)?;
    let mut games = IndexedGames {
        games,
        bar: progress(len),
        index: 0,
        errors: 0,
        read_failure: None,
    };
    parallel::ordered_map(
        jobs,
        games.by_ref(),
        |(index, item)| work(index, item),
        sink,
    )?;
    games.bar.finish_and_clear();
    if let Some(e) = games.read_failure {
        return Err(e.into());
    }
    Ok(Counts {
        games: games.index,
        errors: games.errors,
    })
}

/// The games of a file with their 1-based index, moving a progress bar by
/// bytes read. A failed read ends the games and is kept for the caller.
struct IndexedGames {
    games: Games,
    bar: ProgressBar,
    index: usize,
    errors: usize,
    read_failure: Option<GameFileError>,
}

impl Iterator for IndexedGames {
    type Item = (usize, Result<Game, GameFileError>);

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.games.next()?;
        match item {
            Err(e) if e.is_io() => {
                self.read_failure = Some(e);
                return None;
            }
            Err(_) => self.errors += 1,
            Ok(_) => {}
        }
        self.index += 1;
        if self.index % 256 == 0 {
            self.bar.set_position(self.games.bytes_read());
            self.bar.set_message(format!("{} games", self.index));
        }
        Some((self.index, item))
    }
}

/// The games of one range as its reader yields them (errors counted from
/// the range's start), and the read failure that ended them early, if any.
struct RangeGames {
    items: Vec<Result<Game, GameFileError>>,
    read_failure: Option<GameFileError>,
}

fn read_range(path: &Path, format: Option<Format>, range: Shard) -> RangeGames {
    let mut out = RangeGames {
        items: Vec::new(),
        read_failure: None,
    };
    match Games::open_range(path, format, range.start, range.end) {
        Ok(games) => {
            for item in games {
                match item {
                    Err(e) if e.is_io() => {
                        out.read_failure = Some(e);
                        break;
                    }
                    item => out.items.push(item),
                }
            }
        }
        Err(e) => out.read_failure = Some(e),
    }
    out
}

/// How far the workers may run ahead of the sink, in ranges per worker:
/// bounds the answers held for writing in order.
const AHEAD_PER_WORKER: usize = 4;

/// What is known of the ranges while the workers read them: which range is
/// next, how many games and line feeds each read range holds, and from
/// those the origin (games and lines before it) of every range whose
/// earlier ranges are all read.
struct Progress {
    next: usize,
    /// Games and line feeds of each range, once read.
    sizes: Vec<Option<(usize, usize)>>,
    /// `origins[r]` for every range `r` up to `origins.len() - 1`.
    origins: Vec<(usize, usize)>,
    /// Ranges the sink has written.
    sunk: usize,
    /// Ranges read but not yet worked on: their origin was not known when
    /// their reading ended.
    parsed: BTreeMap<usize, RangeGames>,
    /// The sink failed or the file stopped being readable: take no more.
    stop: bool,
}

/// What a worker does next.
enum Task {
    Read(usize),
    Work(usize, RangeGames, RangeOrigin),
}

impl Progress {
    /// Records range `r`'s size and extends the known origins.
    fn read(&mut self, r: usize, size: (usize, usize)) {
        self.sizes[r] = Some(size);
        while self.origins.len() < self.sizes.len() + 1 {
            let last = self.origins.len() - 1;
            let Some((games, lines)) = self.sizes[last] else {
                break;
            };
            let (g, l) = self.origins[last];
            self.origins.push((g + games, l + lines));
        }
    }
}

/// One range's answers, in order, for the sink.
struct RangeDone<R> {
    range: usize,
    answers: Vec<R>,
    games: usize,
    errors: usize,
    read_failure: Option<GameFileError>,
}

/// [`for_each_game`] with the workers reading `ranges` of the file. Each
/// worker takes the next range, reads it and publishes how many games and
/// lines it holds. Once the ranges before a range are all read, its origin
/// is known: a worker numbers its games, moves its errors to "counted from
/// the file's start", works on them and hands the answers to this thread,
/// which writes them in range order. No worker waits for another while
/// there is a range to read or to work on, and the workers run at most a
/// few ranges ahead of the writing.
fn for_each_game_in_ranges<R: Send>(
    path: &Path,
    format: Option<Format>,
    workers: usize,
    ranges: &[Shard],
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let bar = progress(ranges.last().map(|r| r.end));
    let progress_state = Mutex::new(Progress {
        next: 0,
        sizes: vec![None; ranges.len()],
        origins: vec![(0, 0)],
        sunk: 0,
        parsed: BTreeMap::new(),
        stop: false,
    });
    let changed = Condvar::new();
    let ahead = workers * AHEAD_PER_WORKER;
    let (done_tx, done_rx) = mpsc::channel::<RangeDone<R>>();
    let work_range = |r: usize, games: RangeGames, origin: RangeOrigin| {
        let count = games.items.len();
        let mut errors = 0;
        let answers = games
            .items
            .into_iter()
            .enumerate()
            .map(|(k, item)| {
                let item = item.map_err(|e| {
                    errors += 1;
                    e.counted_from_file_start(origin)
                });
                work(origin.games + k + 1, item)
            })
            .collect();
        RangeDone {
            range: r,
            answers,
            games: count,
            errors,
            read_failure: games
                .read_failure
                .map(|e| e.counted_from_file_start(origin)),
        }
    };
    let origin_of = |state: &Progress, r: usize| {
        state.origins.get(r).map(|&(games, lines)| RangeOrigin {
            games,
            lines,
            byte: ranges[r].start,
        })
    };
    let worker = |done_tx: mpsc::Sender<RangeDone<R>>| {
        let lock = || progress_state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            // A read range whose origin is now known is worked on first;
            // else the next range is read (within the bound ahead of the
            // sink); else wait for one of the two.
            let task = {
                let mut state = lock();
                loop {
                    if state.stop {
                        return;
                    }
                    let first = state.parsed.keys().next().copied();
                    if let Some(origin) = first.and_then(|r| origin_of(&state, r)) {
                        let r = first.expect("a parsed range");
                        let games = state.parsed.remove(&r).expect("parsed");
                        break Task::Work(r, games, origin);
                    }
                    if state.next < ranges.len() && state.next < state.sunk + ahead {
                        state.next += 1;
                        break Task::Read(state.next - 1);
                    }
                    if state.next >= ranges.len() && state.parsed.is_empty() {
                        return;
                    }
                    state = changed.wait(state).unwrap_or_else(|e| e.into_inner());
                }
            };
            let done = match task {
                Task::Work(r, games, origin) => work_range(r, games, origin),
                Task::Read(r) => {
                    let range = ranges[r];
                    let games = read_range(path, format, range);
                    // A failed count leaves line numbers counted from the range.
                    let lines = count_lines(path, range.start, range.end).unwrap_or(0);
                    let mut state = lock();
                    state.read(r, (games.items.len(), lines));
                    changed.notify_all();
                    match origin_of(&state, r) {
                        Some(origin) => {
                            drop(state);
                            work_range(r, games, origin)
                        }
                        None => {
                            // Not waited for: the worker reads on, and
                            // whoever is free once the ranges before are
                            // read works on this one.
                            state.parsed.insert(r, games);
                            continue;
                        }
                    }
                }
            };
            if done_tx.send(done).is_err() {
                return;
            }
        }
    };
    thread::scope(|scope| {
        for _ in 0..workers {
            let done_tx = done_tx.clone();
            let worker = &worker;
            scope.spawn(move || worker(done_tx));
        }
        drop(done_tx);
        let stop = || {
            let mut state = progress_state.lock().unwrap_or_else(|e| e.into_inner());
            state.stop = true;
            changed.notify_all();
        };
        let mut counts = Counts {
            games: 0,
            errors: 0,
        };
        let mut waiting: BTreeMap<usize, RangeDone<R>> = BTreeMap::new();
        let mut next_to_sink = 0;
        while next_to_sink < ranges.len() {
            let Some(done) = waiting.remove(&next_to_sink) else {
                match done_rx.recv() {
                    Ok(done) => {
                        waiting.insert(done.range, done);
                        continue;
                    }
                    Err(_) => {
                        stop();
                        bail!("a worker reading {} stopped", path.display());
                    }
                }
            };
            counts.games += done.games;
            counts.errors += done.errors;
            for answer in done.answers {
                if let Err(e) = sink(answer) {
                    stop();
                    return Err(e);
                }
            }
            if let Some(e) = done.read_failure {
                stop();
                bar.finish_and_clear();
                return Err(e.into());
            }
            next_to_sink += 1;
            {
                let mut state = progress_state.lock().unwrap_or_else(|e| e.into_inner());
                state.sunk = next_to_sink;
                changed.notify_all();
            }
            bar.set_position(ranges[done.range].end);
            bar.set_message(format!("{} games", counts.games));
        }
        bar.finish_and_clear();
        Ok(counts)
    })
}
