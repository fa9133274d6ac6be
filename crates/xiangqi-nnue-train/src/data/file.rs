//! Reading a data file whole, and writing one game at a time so that a run
//! stopped at any moment leaves a file a later run resumes: a partial last
//! record and the records of an unfinished game are cut off on resume, and
//! said so.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::header::{Header, HeaderError, Source, HEADER_SIZE};
use super::record::{Record, RecordError, RECORD_SIZE};

/// A data file's problem, naming the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// The file could not be opened, read or written.
    #[error("{path}: cannot {action}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What was being done (`read`, `create`, `write`, …).
        action: &'static str,
        /// The system's message.
        message: String,
    },
    /// The header is not one this program reads.
    #[error("{path}: {problem}")]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: HeaderError,
    },
    /// A record's bytes are damaged.
    #[error("{path}: record {index}: {problem}")]
    Record {
        /// The file.
        path: PathBuf,
        /// The record's number, from 0.
        index: u64,
        /// What is wrong.
        problem: RecordError,
    },
    /// A resumed run asks for other settings than the file was made with.
    #[error(
        "{path}: made with {field} {in_file}, not {requested}: resume with the file's settings or write another file"
    )]
    Settings {
        /// The file.
        path: PathBuf,
        /// The option that differs.
        field: &'static str,
        /// The file's value.
        in_file: String,
        /// The run's value.
        requested: String,
    },
    /// Only a self-play file of one seed, or a relabelled file by a
    /// relabelling run, can be resumed.
    #[error("{path}: a {} file cannot be resumed here (self-play files are resumed by gen, relabelled files by relabel, merged files by neither)", source_kind.name())]
    NotResumable {
        /// The file.
        path: PathBuf,
        /// What the file is.
        source_kind: Source,
    },
}

impl DataError {
    fn io(path: &Path, action: &'static str, error: &std::io::Error) -> DataError {
        DataError::Io {
            path: path.to_path_buf(),
            action,
            message: error.to_string(),
        }
    }
}

/// What reading or resuming left out at the end of a file.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tail {
    /// Bytes of a partial last record (a run stopped while writing it).
    pub partial_bytes: u64,
    /// Whole records of a game whose last record is missing.
    pub unfinished_records: u64,
}

impl Tail {
    /// True when nothing was left out.
    pub fn is_clean(&self) -> bool {
        *self == Tail::default()
    }
}

/// A data file read whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSet {
    /// Its header.
    pub header: Header,
    /// The records of its whole games, in file order.
    pub records: Vec<Record>,
    /// What was left out at the end (an interrupted run's last game).
    pub tail: Tail,
}

impl DataSet {
    /// Number of whole games.
    pub fn games(&self) -> usize {
        self.records.iter().filter(|r| r.last_of_game).count()
    }
}

/// Reads a data file's bytes (`path` names it in errors).
pub fn read_data(path: &Path, bytes: &[u8]) -> Result<DataSet, DataError> {
    let header = Header::from_bytes(bytes).map_err(|problem| DataError::Header {
        path: path.to_path_buf(),
        problem,
    })?;
    let body = &bytes[HEADER_SIZE..];
    let mut records = Vec::with_capacity(body.len() / RECORD_SIZE);
    for (index, chunk) in body.chunks_exact(RECORD_SIZE).enumerate() {
        let chunk: &[u8; RECORD_SIZE] = chunk.try_into().expect("exact chunks");
        let record = Record::from_bytes(chunk).map_err(|problem| DataError::Record {
            path: path.to_path_buf(),
            index: index as u64,
            problem,
        })?;
        records.push(record);
    }
    let whole = records
        .iter()
        .rposition(|r| r.last_of_game)
        .map_or(0, |i| i + 1);
    let tail = Tail {
        partial_bytes: (body.len() % RECORD_SIZE) as u64,
        unfinished_records: (records.len() - whole) as u64,
    };
    records.truncate(whole);
    Ok(DataSet {
        header,
        records,
        tail,
    })
}

/// Reads the data file at `path`.
pub fn read_data_file(path: &Path) -> Result<DataSet, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::io(path, "read", &e))?;
    read_data(path, &bytes)
}

/// Appends whole games to a data file.
#[derive(Debug)]
pub struct DataWriter {
    file: BufWriter<File>,
    path: PathBuf,
}

/// A data file opened to go on: what it held and what was cut off.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// Whole games in the file (the next game's number).
    pub games: u32,
    /// Records of those games.
    pub records: u64,
    /// What was cut off the end.
    pub tail: Tail,
}

impl DataWriter {
    /// Creates (or empties) `path` and writes `header`.
    pub fn create(path: &Path, header: &Header) -> Result<DataWriter, DataError> {
        let file = File::create(path).map_err(|e| DataError::io(path, "create", &e))?;
        let mut writer = DataWriter {
            file: BufWriter::new(file),
            path: path.to_path_buf(),
        };
        writer.write_bytes(&header.to_bytes())?;
        writer.flush()?;
        Ok(writer)
    }

    /// Opens `path` to append more games of the same settings: checks its
    /// header against `header`, cuts a partial last record and an unfinished
    /// last game, and says how many whole games it holds.
    pub fn resume(path: &Path, header: &Header) -> Result<(DataWriter, Resumed), DataError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| DataError::io(path, "open", &e))?;
        let len = file
            .metadata()
            .map_err(|e| DataError::io(path, "read", &e))?
            .len();
        let mut head = vec![0u8; HEADER_SIZE.min(len as usize)];
        file.read_exact(&mut head)
            .map_err(|e| DataError::io(path, "read", &e))?;
        let found = Header::from_bytes(&head).map_err(|problem| DataError::Header {
            path: path.to_path_buf(),
            problem,
        })?;
        check_settings(path, &found, header)?;
        let body = len - HEADER_SIZE as u64;
        let partial_bytes = body % RECORD_SIZE as u64;
        let mut count = body / RECORD_SIZE as u64;
        let mut unfinished_records = 0;
        let mut games = 0;
        // Back from the last whole record to the last one that ends a game.
        while count > 0 {
            let index = count - 1;
            let record = read_record_at(&mut file, path, index)?;
            if record.last_of_game {
                games = record.game + 1;
                break;
            }
            unfinished_records += 1;
            count -= 1;
        }
        let keep = HEADER_SIZE as u64 + count * RECORD_SIZE as u64;
        if keep != len {
            file.set_len(keep)
                .map_err(|e| DataError::io(path, "truncate", &e))?;
        }
        file.seek(SeekFrom::End(0))
            .map_err(|e| DataError::io(path, "seek in", &e))?;
        let writer = DataWriter {
            file: BufWriter::new(file),
            path: path.to_path_buf(),
        };
        let resumed = Resumed {
            games,
            records: count,
            tail: Tail {
                partial_bytes,
                unfinished_records,
            },
        };
        Ok((writer, resumed))
    }

    /// Appends the records of one game (the last marked as such) and
    /// flushes them, so a stop after this call loses nothing.
    pub fn write_game(&mut self, records: &[Record]) -> Result<(), DataError> {
        for record in records {
            self.write_bytes(&record.to_bytes())?;
        }
        self.flush()
    }

    fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), DataError> {
        self.file
            .write_all(bytes)
            .map_err(|e| DataError::io(&self.path, "write", &e))
    }

    fn flush(&mut self) -> Result<(), DataError> {
        self.file
            .flush()
            .map_err(|e| DataError::io(&self.path, "write", &e))
    }
}

fn read_record_at(file: &mut File, path: &Path, index: u64) -> Result<Record, DataError> {
    let mut bytes = [0u8; RECORD_SIZE];
    file.seek(SeekFrom::Start(
        HEADER_SIZE as u64 + index * RECORD_SIZE as u64,
    ))
    .and_then(|_| file.read_exact(&mut bytes))
    .map_err(|e| DataError::io(path, "read", &e))?;
    Record::from_bytes(&bytes).map_err(|problem| DataError::Record {
        path: path.to_path_buf(),
        index,
        problem,
    })
}

/// The file's settings must be the run's, field by field.
fn check_settings(path: &Path, found: &Header, wanted: &Header) -> Result<(), DataError> {
    if found.source == Source::Merged || found.source != wanted.source {
        return Err(DataError::NotResumable {
            path: path.to_path_buf(),
            source_kind: found.source,
        });
    }
    let seed = match found.source {
        Source::Relabelled => "input games (fingerprint)",
        _ => "--seed",
    };
    let fields: [(&'static str, u64, u64); 5] = [
        (seed, found.seed, wanted.seed),
        ("--nodes", found.nodes.into(), wanted.nodes.into()),
        (
            "--opening-plies",
            found.opening_plies.into(),
            wanted.opening_plies.into(),
        ),
        (
            "--balanced-cp",
            found.balanced_cp.into(),
            wanted.balanced_cp.into(),
        ),
        (
            "--max-plies",
            found.max_plies.into(),
            wanted.max_plies.into(),
        ),
    ];
    match fields.iter().find(|(_, a, b)| a != b) {
        Some(&(field, in_file, requested)) => Err(DataError::Settings {
            path: path.to_path_buf(),
            field,
            in_file: in_file.to_string(),
            requested: requested.to_string(),
        }),
        None => Ok(()),
    }
}
