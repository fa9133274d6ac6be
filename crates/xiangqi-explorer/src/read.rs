//! Reading the games of a collection of game files on every core, in input
//! order: a file big enough to be cut into ranges is read by
//! `xiangqi_gamefile::corpus` (every worker on its ranges); runs of smaller
//! files are spread over the workers one file a task.

use xiangqi_gamefile::collection::{CollectedFile, CollectionError};
use xiangqi_gamefile::corpus::{read_each_game_with, splits, IndexedGames};
use xiangqi_gamefile::{Game, GameFileError, ReaderOptions};
use xiangqi_parallel::{ordered_map, PoolError};

/// What the sink sees, in input order.
pub(crate) enum Event<R> {
    /// The games that follow are of this file (its name in the collection).
    File(String),
    /// The answer for game `index` (1-based) of the current file.
    Game(usize, R),
    /// A file or folder that could not be read (or read to its end).
    Unreadable(String),
}

/// A file read by the workers' ranges rather than whole by one worker.
fn read_alone(file: &CollectedFile) -> bool {
    std::fs::metadata(&file.path).is_ok_and(|m| m.is_file() && splits(m.len()))
}

/// One small file read whole: its name, its answers, and why its reading
/// stopped early, if it did.
type WholeFile<R> = (Option<String>, Vec<(usize, R)>, Option<String>);

pub(crate) fn read_collection<R: Send, E: From<PoolError>>(
    files: &[Result<CollectedFile, CollectionError>],
    options: &ReaderOptions,
    jobs: usize,
    work: impl Fn(Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<R>) -> Result<(), E>,
) -> Result<(), E> {
    let mut at = 0;
    while at < files.len() {
        if let Ok(file) = &files[at] {
            if read_alone(file) {
                sink(Event::File(file.name.clone()))?;
                let read = read_each_game_with(
                    &file.path,
                    None,
                    *options,
                    jobs,
                    |_| {},
                    |_, index, item| (index, work(item)),
                    |(index, answer)| sink(Event::Game(index, answer)),
                )?;
                if let Some(e) = read.failure {
                    sink(Event::Unreadable(e.to_string()))?;
                }
                at += 1;
                continue;
            }
        }
        let run = files[at..]
            .iter()
            .take_while(|f| !f.as_ref().is_ok_and(read_alone))
            .count();
        ordered_map(
            jobs,
            files[at..at + run].iter(),
            |entry| -> WholeFile<R> {
                match entry {
                    Ok(file) => read_whole(file, options, &work),
                    Err(e) => (None, Vec::new(), Some(e.to_string())),
                }
            },
            |(name, answers, failure)| {
                if let Some(name) = name {
                    sink(Event::File(name))?;
                }
                for (index, answer) in answers {
                    sink(Event::Game(index, answer))?;
                }
                match failure {
                    Some(message) => sink(Event::Unreadable(message)),
                    None => Ok(()),
                }
            },
        )?;
        at += run;
    }
    Ok(())
}

fn read_whole<R>(
    file: &CollectedFile,
    options: &ReaderOptions,
    work: &impl Fn(Result<Game, GameFileError>) -> R,
) -> WholeFile<R> {
    match IndexedGames::open_with(&file.path, None, *options) {
        Ok(mut games) => {
            let answers = games
                .by_ref()
                .map(|(index, item)| (index, work(item)))
                .collect();
            let failure = games.finish().failure.map(|e| e.to_string());
            (Some(file.name.clone()), answers, failure)
        }
        Err(e) => (Some(file.name.clone()), Vec::new(), Some(e.to_string())),
    }
}
