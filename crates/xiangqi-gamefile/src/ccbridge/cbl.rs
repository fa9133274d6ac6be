//! CBL libraries: a header (`CCBridgeLibrary`, the library's name in
//! UTF-16LE at 64), an index area, and from byte 101 952 on the games as CBR
//! records, each starting a 4096-byte slot (a long game fills several).

use crate::{Game, Limits};

use super::cbr::{is_heading, read_cbr, MAGIC as RECORD_MAGIC};
use crate::bytes::{utf16_field, ByteError};
use crate::error::ErrorKind;
use crate::Format;

pub(crate) const MAGIC: &[u8; 16] = b"CCBridgeLibrary\0";
/// Where the first game's slot is in the libraries CCBridge writes.
const FIRST_SLOT: usize = 101_952;
const SLOT_LEN: usize = 4096;
const NAME: std::ops::Range<usize> = 64..576;

/// The games of a library, read one slot at a time.
pub(crate) struct Library {
    data: Vec<u8>,
    /// Offset of the next slot to look at.
    next: usize,
    /// The library's name, when it has one.
    pub name: Option<String>,
}

impl Library {
    /// Checks the header of `data`.
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
        let name = utf16_field(&data[NAME]);
        Ok(Library {
            data,
            next: FIRST_SLOT,
            name: (!name.is_empty()).then_some(name),
        })
    }

    fn is_record(&self, slot: usize) -> bool {
        self.data.get(slot..slot + RECORD_MAGIC.len()) == Some(&RECORD_MAGIC[..])
    }

    /// The next game, or `None` after the last slot. Records whose board is
    /// empty are section headings (a title, no position, no moves) and are
    /// skipped: they hold no game.
    pub(crate) fn next_game(&mut self, limits: &Limits) -> Option<Result<Game, ByteError>> {
        loop {
            let (start, end) = self.next_record()?;
            let record = &self.data[start..end];
            if is_heading(record) {
                continue;
            }
            return Some(read_cbr(record, start as u64, limits));
        }
    }

    /// The bounds of the next record: its slot and any slots after it that
    /// start no record.
    fn next_record(&mut self) -> Option<(usize, usize)> {
        while self.next < self.data.len() && !self.is_record(self.next) {
            self.next += SLOT_LEN;
        }
        if self.next >= self.data.len() {
            return None;
        }
        let start = self.next;
        self.next += SLOT_LEN;
        while self.next < self.data.len() && !self.is_record(self.next) {
            self.next += SLOT_LEN;
        }
        Some((start, self.next.min(self.data.len())))
    }
}

impl Library {
    /// Bytes of the library looked at so far.
    pub(crate) fn position(&self) -> usize {
        self.next.min(self.data.len())
    }
}
