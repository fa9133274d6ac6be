//! CBL libraries: a header (`CCBridgeLibrary`, the library's name in
//! UTF-16LE at 64, the index's capacity at 60), an index of 276-byte
//! entries from byte 66 624, the library's table of contents, then the
//! slots: 4096 bytes each, a record (CBR) starting a slot and a long one
//! filling the slots after it. The games are the records the index lists,
//! in its order, titled as it titles them (`index.rs`); each is a game, a
//! heading or an error, never silently left out. Records no entry lists
//! are old data: warnings, not games.

mod index;

use crate::{Game, Limits};

use super::cbr::{is_heading, read_cbr};
use crate::bytes::{utf16_field, ByteError};
use crate::error::ErrorKind;
use crate::Format;
use crate::GameFileError;
use index::{plan, Planned, CAPACITY_AT};

pub(crate) const MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
const NAME: std::ops::Range<usize> = 64..576;

/// The games of a library, read one listed record at a time.
pub(crate) struct Library {
    data: Vec<u8>,
    /// The records and errors, in index order, and the next one to yield.
    planned: std::vec::IntoIter<Planned>,
    /// End of the last record looked at, for progress.
    position: usize,
    /// Records the index lists (headings included).
    listed: usize,
    /// Headings met so far: records that are no game.
    headings: usize,
    /// Records in slots the index does not list (old data), as warnings.
    unlisted: Vec<ByteError>,
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
        let plan = plan(&data);
        let name = utf16_field(&data[NAME]);
        Ok(Library {
            data,
            planned: plan.items.into_iter(),
            position: 0,
            listed: plan.listed,
            headings: 0,
            unlisted: plan.unlisted,
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
                Planned::Record {
                    start,
                    end,
                    title,
                    notes,
                } => {
                    self.position = self.position.max(end);
                    let record = &self.data[start..end];
                    if is_heading(record) {
                        self.headings += 1;
                        continue;
                    }
                    return Some(read_cbr(record, start as u64, limits).map(|mut game| {
                        if let Some(title) = title {
                            game.set_tag("Title", &title);
                        }
                        let notes = notes
                            .into_iter()
                            .map(|(offset, kind)| GameFileError::at_byte(1, offset, kind));
                        game.errors.splice(0..0, notes);
                        game
                    }));
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

    /// Records in slots the index does not list: old data, not games.
    pub(crate) fn unlisted(&self) -> &[ByteError] {
        &self.unlisted
    }
}
