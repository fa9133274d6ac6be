//! The training data: a 32-byte [`Header`] then fixed 56-byte [`Record`]s,
//! little-endian (byte tables in `docs/engine.md`). Games are appended
//! whole, each flushed as it ends, so a file can be resumed after a crash
//! ([`DataWriter::resume`]) and shards of several seeds put together
//! ([`crate::merge`]).

mod file;
mod header;
mod record;

pub use file::{read_data, read_data_file, DataError, DataSet, DataWriter, Resumed, Tail};
pub use header::{Header, HeaderError, Source, HEADER_SIZE, MAGIC, VERSION};
pub use record::{
    decode_score, encode_score, PackedBoard, Record, RecordError, MAX_STORED_CP, RECORD_SIZE,
};
