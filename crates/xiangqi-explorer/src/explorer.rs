//! Reading a built explorer: [`Explorer::open`] and [`Explorer::query`].

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use xiangqi_core::{Move, Position};

use crate::error::ExplorerError;
use crate::schema::{check_header, FORMAT_VERSION};
use crate::stats::{ExampleGame, GameOutcome, MoveStats, PositionStats, Results};

/// What a build recorded about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExplorerInfo {
    pub format_version: u32,
    /// Positions before each of a game's first `max_plies` moves are indexed.
    pub max_plies: u32,
    /// Games read and indexed.
    pub games: u64,
}

/// An explorer file open for queries. Safe to share between threads (one
/// query at a time runs on its connection).
pub struct Explorer {
    path: PathBuf,
    connection: Mutex<Connection>,
    info: ExplorerInfo,
}

impl std::fmt::Debug for Explorer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Explorer")
            .field("path", &self.path)
            .field("info", &self.info)
            .finish()
    }
}

impl Explorer {
    /// Opens the explorer at `path`, read-only. A file that is not an
    /// explorer, of another format version, or cut short is an error naming it.
    pub fn open(path: impl AsRef<Path>) -> Result<Explorer, ExplorerError> {
        let path = path.as_ref();
        check_header(path)?;
        let sqlite = |e| ExplorerError::sqlite(path, e);
        let connection = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(sqlite)?;
        let meta = |key: &str| -> Result<Option<String>, ExplorerError> {
            connection
                .query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| {
                    row.get(0)
                })
                .optional()
                .map_err(sqlite)
        };
        let number = |key: &str| -> Result<u64, ExplorerError> {
            meta(key)?
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| ExplorerError::Corrupt {
                    path: path.to_path_buf(),
                    detail: format!("its {key:?} entry is missing: the build did not finish"),
                })
        };
        let info = ExplorerInfo {
            format_version: FORMAT_VERSION,
            max_plies: number("max_plies")? as u32,
            games: number("games")?,
        };
        Ok(Explorer {
            path: path.to_path_buf(),
            connection: Mutex::new(connection),
            info,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn info(&self) -> &ExplorerInfo {
        &self.info
    }

    /// The moves played from `position` in the corpus, most played first.
    /// Moves not legal in `position` (another position with the same hash)
    /// are left out.
    pub fn query(&self, position: &Position) -> Result<PositionStats, ExplorerError> {
        let connection = self
            .connection
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let sqlite = |e| ExplorerError::sqlite(&self.path, e);
        let legal = position.legal_move_vec();
        let mut statement = connection
            .prepare_cached(
                "SELECT move, games, red_wins, draws, black_wins, rating_sum, rated_games, examples
                 FROM moves WHERE position = ?1",
            )
            .map_err(sqlite)?;
        let rows = statement
            .query_map([position.hash() as i64], |row| {
                Ok(Row {
                    mv: row.get(0)?,
                    counts: [row.get(1)?, row.get(2)?, row.get(3)?, row.get(4)?],
                    rating_sum: row.get(5)?,
                    rated: row.get(6)?,
                    examples: row.get(7)?,
                })
            })
            .map_err(sqlite)?;
        let mut total = Results::default();
        let mut moves = Vec::new();
        for row in rows {
            let row = row.map_err(sqlite)?;
            let Some(mv) = u16::try_from(row.mv).ok().and_then(Move::from_u16) else {
                continue;
            };
            if !legal.contains(&mv) {
                continue;
            }
            let [games, red_wins, draws, black_wins] = row.counts.map(|n| n.max(0) as u64);
            let results = Results {
                games,
                red_wins,
                draws,
                black_wins,
            };
            total.add(&results);
            let mean_rating =
                (row.rated > 0).then(|| row.rating_sum as f64 / (2.0 * row.rated as f64));
            let mut examples = Vec::new();
            for id in row.examples.chunks_exact(4) {
                let id = u32::from_le_bytes(id.try_into().expect("4 bytes"));
                if let Some(game) = example(&connection, id).map_err(sqlite)? {
                    examples.push(game);
                }
            }
            moves.push(MoveStats {
                mv,
                results,
                mean_rating,
                examples,
            });
        }
        moves.sort_by(|a, b| {
            b.results
                .games
                .cmp(&a.results.games)
                .then_with(|| a.mv.to_string().cmp(&b.mv.to_string()))
        });
        Ok(PositionStats { total, moves })
    }
}

struct Row {
    mv: i64,
    counts: [i64; 4],
    rating_sum: i64,
    rated: i64,
    examples: Vec<u8>,
}

fn example(connection: &Connection, id: u32) -> rusqlite::Result<Option<ExampleGame>> {
    let mut statement = connection.prepare_cached(
        "SELECT g.id, f.name, g.game_index, g.red, g.black, g.red_elo, g.black_elo,
                g.event, g.date, g.result
         FROM games g JOIN files f ON f.id = g.file WHERE g.id = ?1",
    )?;
    statement
        .query_row([id], |row| {
            let result: Option<String> = row.get(9)?;
            Ok(ExampleGame {
                id: row.get(0)?,
                file: row.get(1)?,
                index: row.get(2)?,
                red: row.get(3)?,
                black: row.get(4)?,
                red_elo: row.get(5)?,
                black_elo: row.get(6)?,
                event: row.get(7)?,
                date: row.get(8)?,
                result: result.as_deref().and_then(GameOutcome::from_token),
            })
        })
        .optional()
}
