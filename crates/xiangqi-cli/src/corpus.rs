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
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xiangqi_gamefile::{
    shards, Format, Game, GameFileError, Games, RangeOrigin, Shard, ShardReader,
};

use xiangqi_parallel as parallel;

/// Files at least this big get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// The size of the byte ranges the workers read: big enough that opening a
/// range costs nothing next to reading it, small enough that a batch of
/// them in memory (as games) stays small and the workers finish a batch at
/// about the same time.
const SHARD_BYTES: u64 = 64 << 10;

fn progress(len: Option<u64>, show: bool) -> ProgressBar {
    match len {
        Some(len) if show && len >= PROGRESS_MIN_BYTES => {
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

/// Opens `path` (`-`: standard input) as a game file.
fn open_games(path: &Path, format: Option<Format>) -> Result<Games, GameFileError> {
    if path.as_os_str() == "-" {
        return Games::from_reader(io::stdin(), format, Default::default());
    }
    Games::open(path, format)
}

/// Games read and games that could not be read.
pub struct Counts {
    pub games: usize,
    pub errors: usize,
}

/// What reading one file gave: its games counted, and the failure that
/// ended the reading early (the file could not be opened, or stopped being
/// readable), if any.
pub struct FileRead {
    pub counts: Counts,
    pub failure: Option<GameFileError>,
}

impl FileRead {
    pub fn failed(error: GameFileError) -> FileRead {
        FileRead {
            counts: Counts {
                games: 0,
                errors: 0,
            },
            failure: Some(error),
        }
    }
}

/// Whether a file of `len` bytes is worth cutting into ranges for the
/// workers to read (two ranges at least).
pub fn splits(len: u64) -> bool {
    len / SHARD_BYTES >= 2
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
    let read = read_each_game(
        path,
        format,
        jobs,
        true,
        |_, index, item| work(index, item),
        sink,
    )?;
    match read.failure {
        Some(e) => Err(e.into()),
        None => Ok(read.counts),
    }
}

/// [`for_each_game`], with the file's format (sniffed or given) passed to
/// `work`, and the failure that ended the reading returned rather than
/// raised (an error is then the sink's, or a worker's death). `progress`:
/// whether a big file shows a progress bar of bytes read.
pub fn read_each_game<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    progress: bool,
    work: impl Fn(Format, usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<FileRead> {
    let workers = parallel::worker_count(jobs);
    if workers > 1 && path.as_os_str() != "-" {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if splits(len) {
            // Sniffed once here, so that the workers' readers and `work` agree.
            let format = match format {
                Some(format) => format,
                None => match ShardReader::open(path, None) {
                    Ok(reader) => reader.format(),
                    Err(e) => return Ok(FileRead::failed(e)),
                },
            };
            let ranges = match shards(path, Some(format), (len / SHARD_BYTES) as usize) {
                Ok(ranges) => ranges,
                Err(e) => return Ok(FileRead::failed(e)),
            };
            // Binary and XML formats are one range: nothing to split.
            if ranges.iter().filter(|r| !r.is_empty()).count() >= 2 {
                let work = |index, item| work(format, index, item);
                let bar = progress.then_some(len);
                return for_each_game_in_ranges(path, format, workers, &ranges, bar, work, sink);
            }
        }
    }
    read_each_game_here(path, format, jobs, progress, work, sink)
}

/// [`read_each_game`] reading on the calling thread.
fn read_each_game_here<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    progress: bool,
    work: impl Fn(Format, usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<FileRead> {
    let mut games = match IndexedGames::open(path, format, progress) {
        Ok(games) => games,
        Err(e) => return Ok(FileRead::failed(e)),
    };
    let format = games.format();
    parallel::ordered_map(
        jobs,
        games.by_ref(),
        |(index, item)| work(format, index, item),
        sink,
    )?;
    Ok(games.finish())
}

/// The games of a file with their 1-based index, moving a progress bar by
/// bytes read. A failed read ends the games and is kept for the caller.
pub struct IndexedGames {
    games: Games,
    bar: ProgressBar,
    index: usize,
    errors: usize,
    read_failure: Option<GameFileError>,
}

impl IndexedGames {
    /// Opens `path` (`-`: standard input); `progress`: whether a big file
    /// shows a progress bar of bytes read.
    pub fn open(
        path: &Path,
        format: Option<Format>,
        progress: bool,
    ) -> Result<IndexedGames, GameFileError> {
        let games = open_games(path, format)?;
        // The size only for the bar: a collection opens thousands of files.
        let len = progress
            .then(|| std::fs::metadata(path).ok().map(|m| m.len()))
            .flatten();
        Ok(IndexedGames {
            games,
            bar: self::progress(len, progress),
            index: 0,
            errors: 0,
            read_failure: None,
        })
    }

    /// The format read.
    pub fn format(&self) -> Format {
        self.games.format()
    }

    /// The games counted, and the failure that ended them early.
    pub fn finish(self) -> FileRead {
        self.bar.finish_and_clear();
        FileRead {
            counts: Counts {
                games: self.index,
                errors: self.errors,
            },
            failure: self.read_failure,
        }
    }
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
/// the range's start), the line feeds the range holds, and the read
/// failure that ended the games early, if any.
struct RangeGames {
    items: Vec<Result<Game, GameFileError>>,
    line_feeds: usize,
    read_failure: Option<GameFileError>,
}

/// Reads `range` with a worker's reader of the file (or the error that
/// opening it gave).
fn read_range(reader: &mut Result<ShardReader, GameFileError>, range: Shard) -> RangeGames {
    let mut out = RangeGames {
        items: Vec::new(),
        line_feeds: 0,
        read_failure: None,
    };
    let shard = match reader {
        Ok(reader) => reader.read(range),
        Err(e) => Err(e.clone()),
    };
    match shard {
        Ok(shard) => {
            // A failed read leaves the lines after it counted from the range.
            out.line_feeds = shard.line_feeds;
            for item in shard.games {
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

/// What is known of the ranges while they are read: which range is next,
/// how many games and line feeds each read range holds, and from those the
/// origin (games and lines before it) of every range whose earlier ranges
/// are all read; the ranges read but not worked on, and those worked on but
/// not yet written.
struct RangeState<R> {
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
    /// Ranges worked on, for the sink.
    done: BTreeMap<usize, RangeDone<R>>,
    /// Threads waiting for a change: nobody is woken when nobody waits.
    waiting: usize,
    /// The sink failed, the file stopped being readable or a worker died:
    /// take no more.
    stop: bool,
}

/// What a worker does next.
enum Task {
    Read(usize),
    Work(usize, RangeGames, RangeOrigin),
}

impl<R> RangeState<R> {
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

    fn origin(&self, ranges: &[Shard], r: usize) -> Option<RangeOrigin> {
        self.origins.get(r).map(|&(games, lines)| RangeOrigin {
            games,
            lines,
            byte: ranges[r].start,
        })
    }

    /// A read range whose origin is now known, else the next range to read
    /// (no further than `ahead` ranges past the sink).
    fn next_task(&mut self, ranges: &[Shard], ahead: usize) -> Option<Task> {
        let first = self.parsed.keys().next().copied();
        if let Some((r, origin)) = first.and_then(|r| Some((r, self.origin(ranges, r)?))) {
            let games = self.parsed.remove(&r).expect("parsed");
            return Some(Task::Work(r, games, origin));
        }
        if self.next < ranges.len() && self.next < self.sunk + ahead {
            self.next += 1;
            return Some(Task::Read(self.next - 1));
        }
        None
    }

    /// Every range is taken: a worker has nothing left to do.
    fn all_taken(&self, ranges: &[Shard]) -> bool {
        self.next >= ranges.len() && self.parsed.is_empty()
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

/// The state the workers share, and the signal of its changes.
struct Shared<R> {
    state: Mutex<RangeState<R>>,
    changed: Condvar,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, RangeState<R>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, mut state: MutexGuard<'a, RangeState<R>>) -> MutexGuard<'a, RangeState<R>> {
        state.waiting += 1;
        let mut state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        state.waiting -= 1;
        state
    }

    fn changed(&self, state: &RangeState<R>) {
        if state.waiting > 0 {
            self.changed.notify_all();
        }
    }

    fn stop(&self) {
        let mut state = self.lock();
        state.stop = true;
        self.changed(&state);
    }
}

/// Stops everyone when a worker dies (a panic), so that nobody waits for
/// what it held.
struct StopOnPanic<'a, R>(&'a Shared<R>);

impl<R> Drop for StopOnPanic<'_, R> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.stop();
        }
    }
}

/// [`for_each_game`] with the workers reading `ranges` of the file. Each
/// worker takes the next range, reads it and publishes how many games and
/// lines it holds. Once the ranges before a range are all read, its origin
/// is known: a worker numbers its games, moves its errors to "counted from
/// the file's start" and works on them. The calling thread is one of the
/// workers, and writes the ranges worked on in order whenever the next one
/// is there: `jobs` threads in all, so none waits for a core. No worker
/// waits while there is a range to read or to work on, and the workers run
/// at most a few ranges ahead of the writing.
fn for_each_game_in_ranges<R: Send>(
    path: &Path,
    format: Format,
    workers: usize,
    ranges: &[Shard],
    progress_len: Option<u64>,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<()>,
) -> Result<FileRead> {
    let format = Some(format);
    let bar = progress(progress_len, true);
    let shared = Shared {
        state: Mutex::new(RangeState {
            next: 0,
            sizes: vec![None; ranges.len()],
            origins: vec![(0, 0)],
            sunk: 0,
            parsed: BTreeMap::new(),
            done: BTreeMap::new(),
            waiting: 0,
            stop: false,
        }),
        changed: Condvar::new(),
    };
    let ahead = workers * AHEAD_PER_WORKER;
    let work_range = |r: usize, games: RangeGames, origin: RangeOrigin| {
        let count = games.items.len();
        let mut errors = 0;
        let answers = games
            .items
            .into_iter()
            .enumerate()
            .map(|(k, item)| {
                let item = item
                    .map(|game| game.counted_from_file_start(origin))
                    .map_err(|e| {
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
    // Does a task; the answers, unless the range waits for its origin.
    let run = |task: Task, reader: &mut Result<ShardReader, GameFileError>| match task {
        Task::Work(r, games, origin) => Some(work_range(r, games, origin)),
        Task::Read(r) => {
            let games = read_range(reader, ranges[r]);
            let mut state = shared.lock();
            state.read(r, (games.items.len(), games.line_feeds));
            shared.changed(&state);
            match state.origin(ranges, r) {
                Some(origin) => {
                    drop(state);
                    Some(work_range(r, games, origin))
                }
                None => {
                    // Not waited for: whoever is free once the ranges
                    // before are read works on this one.
                    state.parsed.insert(r, games);
                    None
                }
            }
        }
    };
    let helper = || {
        let _stop_on_panic = StopOnPanic(&shared);
        let mut reader = ShardReader::open(path, format);
        loop {
            let task = {
                let mut state = shared.lock();
                loop {
                    if state.stop || state.all_taken(ranges) {
                        return;
                    }
                    if let Some(task) = state.next_task(ranges, ahead) {
                        break task;
                    }
                    state = shared.wait(state);
                }
            };
            if let Some(done) = run(task, &mut reader) {
                let mut state = shared.lock();
                state.done.insert(done.range, done);
                shared.changed(&state);
            }
        }
    };
    thread::scope(|scope| {
        for _ in 1..workers {
            scope.spawn(helper);
        }
        let mut reader = ShardReader::open(path, format);
        let mut counts = Counts {
            games: 0,
            errors: 0,
        };
        let mut next_to_sink = 0;
        while next_to_sink < ranges.len() {
            // The next range in order if it is done, else a task, else wait.
            let step = {
                let mut state = shared.lock();
                loop {
                    if let Some(done) = state.done.remove(&next_to_sink) {
                        break Ok(done);
                    }
                    if state.stop {
                        drop(state);
                        bail!("a worker reading {} stopped", path.display());
                    }
                    if let Some(task) = state.next_task(ranges, ahead) {
                        break Err(task);
                    }
                    state = shared.wait(state);
                }
            };
            let done = match step {
                Ok(done) => done,
                Err(task) => match run(task, &mut reader) {
                    Some(done) if done.range == next_to_sink => done,
                    Some(done) => {
                        let mut state = shared.lock();
                        state.done.insert(done.range, done);
                        continue;
                    }
                    None => continue,
                },
            };
            counts.games += done.games;
            counts.errors += done.errors;
            for answer in done.answers {
                if let Err(e) = sink(answer) {
                    shared.stop();
                    return Err(e);
                }
            }
            if let Some(e) = done.read_failure {
                shared.stop();
                bar.finish_and_clear();
                return Ok(FileRead {
                    counts,
                    failure: Some(e),
                });
            }
            next_to_sink += 1;
            {
                let mut state = shared.lock();
                state.sunk = next_to_sink;
                shared.changed(&state);
            }
            bar.set_position(ranges[done.range].end);
            bar.set_message(format!("{} games", counts.games));
        }
        bar.finish_and_clear();
        Ok(FileRead {
            counts,
            failure: None,
        })
    })
}
