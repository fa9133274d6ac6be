//! CBL libraries: a header (`CCBridgeLibrary`, the library's name in
//! UTF-16LE at 64, the slot capacity at 60), an index of one 276-byte entry
//! per slot from byte 66 624, then the slots: 4096 bytes each, a record
//! (CBR) starting a slot and a long one filling the slots after it. The
//! layout comes from the header (`index.rs`); every record the index lists
//! is a game, a heading or an error, never silently left out.

mod index;

use crate::{Game, Limits};

use super::cbr::{is_heading, read_cbr};
use crate::bytes::{utf16_field, ByteError};
use crate::error::ErrorKind;
use crate::Format;
use index::{plan, Planned, CAPACITY_AT};

pub(crate) const MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
const NAME: std::ops::Range<usize> = 64..576;

/// The games of a library, read one listed record at a time.
pub(crate) struct Library {
    data: Vec<u8>,
    /// The records and errors, in slot order, and the next one to yield.
    planned: std::vec::IntoIter<Planned>,
    /// End of the last record looked at, for progress.
    position: usize,
    /// Records the index lists (headings included).
    listed: usize,
    /// Headings met so far: records that are no game.
    headings: usize,
    /// The library's name, when it has one.
    pub name: Option<String>,
}

impl Library {
    /// Checks the header of `data` and reads its index.
    pub(crate) fn new(data: Vec<u8>) -> Result<Library, ByteError> {
        if data.len() < NAME.end {
            return Err((
                data.len() as u64,
                ErrorKind::Truncated {
                    what: "the CBL header",
                    needed: (NAME.end - data.len()) as u64,
                },
            ));
        }
        if &data[..16] != MAGIC {
            return Err((0, ErrorKind::BadMagic(Format::Cbl)));
        }
        // The capacity field is inside the header checked above.
        const { assert!(CAPACITY_AT + 4 <= NAME.end) };
        let (planned, listed) = plan(&data)?;
        let name = utf16_field(&data[NAME]);
        Ok(Library {
            data,
            planned: planned.into_iter(),
            position: 0,
            listed,
            headings: 0,
            name: (!name.is_empty()).then_some(name),
        })
    }

    /// The next game or error, or `None` after the last listed record.
    /// Records whose board is empty are section headings (a title, no
    /// position, no moves): counted in [`Library::headings`], not yielded.
    pub(crate) fn next_game(&mut self, limits: &Limits) -> Option<Result<Game, ByteError>> {
        loop {
            match self.planned.next()? {
                Planned::Error(error) => {
                    self.position = self.position.max(error.0 as usize);
                    return Some(Err(error));
                }
                Planned::Record { start, end } => {
                    self.position = end;
                    let record = &self.data[start..end];
                    if is_heading(record) {
                        self.headings += 1;
                        continue;
                    }
                    return Some(read_cbr(record, start as u64, limits));
                }
            }
        }
    }

    /// Bytes of the library looked at so far.
    pub(crate) fn position(&self) -> usize {
        self.position.min(self.data.len())
    }

    /// Records the index lists, headings included.
    pub(crate) fn listed(&self) -> usize {
        self.listed
    }

    /// Headings skipped so far.
    pub(crate) fn headings(&self) -> usize {
        self.headings
    }
}
