//! A library's table of contents: the index entries in their order, each
//! entry in use naming the slot of its record. The header's capacity (at
//! 60) is the number of index entries; the slots start after them, at
//! 66 624 plus 276 bytes an entry, and are 4096 bytes each. An entry's
//! place in the index is its place in the library, not its slot: an entry
//! names its slot (at 4), and the record there carries the entry's GUID.
//! `docs/gamefile.md` has the fields and how they were established.

use std::collections::HashMap;

use crate::bytes::{utf16_field, ByteError};
use crate::error::ErrorKind;

use super::super::cbr::MAGIC as RECORD_MAGIC;

/// Where the index starts: after the header (the library's name, source,
/// creator, dates and a 64 KiB remark).
pub(super) const INDEX_START: usize = 66_624;
/// One index entry: flags, slot, slot count, length, a spare word, the
/// record's GUID and title (UTF-16LE).
pub(super) const ENTRY_LEN: usize = 276;
/// A record starts a slot; a long one fills the slots after it too.
pub(super) const SLOT_LEN: usize = 4096;
/// The number of index entries the library was built for.
pub(super) const CAPACITY_AT: usize = 60;
/// Offsets inside an index entry.
const ENTRY_FLAGS: usize = 0;
const ENTRY_SLOT: usize = 4;
const ENTRY_SLOTS: usize = 8;
const ENTRY_LENGTH: usize = 12;
const ENTRY_GUID: std::ops::Range<usize> = 20..100;
const ENTRY_TITLE: std::ops::Range<usize> = 100..228;
/// Flag bit of an entry whose game is in the library: CCBridge writes 7;
/// 5 (this bit clear) marks a deleted game whose entry and record stay.
const LIVE: u32 = 0x02;
/// The record's GUID, binary, inside the record.
const RECORD_GUID: std::ops::Range<usize> = 20..36;
/// The record's own title, inside the record.
const RECORD_TITLE: std::ops::Range<usize> = 180..308;

/// One thing the reader yields, in index order.
#[derive(Debug)]
pub(super) enum Planned {
    /// A record: `start..end` of the file (its slots, cut at the end of the
    /// file), the title the index gives it, and notes for the game.
    Record {
        start: usize,
        end: usize,
        title: Option<String>,
        notes: Vec<ByteError>,
    },
    /// An entry whose record cannot be read as the index says: one error.
    Error(ByteError),
}

/// What the index lists, in its order, and what it leaves out.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub items: Vec<Planned>,
    /// Entries that list a game (headings included).
    pub listed: usize,
    /// Records in slots no listed entry uses: warnings, not games.
    pub unlisted: Vec<ByteError>,
}

/// The little-endian 32-bit word at `at` (the caller checked the bounds).
fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
}

fn is_record_at(data: &[u8], at: usize) -> bool {
    data.get(at..at + RECORD_MAGIC.len()) == Some(&RECORD_MAGIC[..])
}

/// The binary form of a GUID written `{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`
/// (the first three groups little-endian, as Windows stores a GUID).
fn guid_bytes(text: &str) -> Option<[u8; 16]> {
    let inner = text.strip_prefix('{')?.strip_suffix('}')?;
    let groups: Vec<&str> = inner.split('-').collect();
    let widths = [8, 4, 4, 4, 12];
    if groups.len() != 5 || groups.iter().zip(widths).any(|(g, w)| g.len() != w) {
        return None;
    }
    let hex: String = groups.concat();
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    bytes[0..4].reverse();
    bytes[4..6].reverse();
    bytes[6..8].reverse();
    Some(bytes)
}

/// The capacity, checked: at least one entry, and the whole index inside
/// the file (so nothing is allocated or indexed from a lying field). The
/// error says why the index cannot be read.
fn capacity(data: &[u8]) -> Result<usize, String> {
    let field = i32::from_le_bytes(
        data[CAPACITY_AT..CAPACITY_AT + 4]
            .try_into()
            .expect("four bytes"),
    );
    let fits = usize::try_from(field).ok().filter(|&c| {
        c > 0
            && c.checked_mul(ENTRY_LEN)
                .and_then(|len| len.checked_add(INDEX_START))
                .is_some_and(|end| end <= data.len())
    });
    fits.ok_or_else(|| {
        format!(
            "its capacity at byte {CAPACITY_AT}, {field}, does not fit an index inside the file"
        )
    })
}

/// The slots of a library whose slots start at `first_slot`.
struct Slots<'a> {
    data: &'a [u8],
    first_slot: usize,
    /// Slots the file holds (the last one possibly cut short).
    count: usize,
}

impl Slots<'_> {
    fn at(&self, n: usize) -> usize {
        self.first_slot + n * SLOT_LEN
    }

    fn holds_record(&self, n: usize) -> bool {
        n < self.count && is_record_at(self.data, self.at(n))
    }

    fn guid(&self, n: usize) -> Option<[u8; 16]> {
        let at = self.at(n);
        self.data
            .get(at + RECORD_GUID.start..at + RECORD_GUID.end)
            .map(|g| g.try_into().expect("sixteen bytes"))
    }

    fn title(&self, n: usize) -> String {
        let at = self.at(n);
        let end = (at + RECORD_TITLE.end).min(self.data.len());
        self.data
            .get(at + RECORD_TITLE.start..end)
            .map_or_else(String::new, utf16_field)
    }

    /// Every slot holding a record, by the record's GUID.
    fn by_guid(&self) -> HashMap<[u8; 16], Vec<usize>> {
        let mut map: HashMap<_, Vec<_>> = HashMap::new();
        for n in (0..self.count).filter(|&n| self.holds_record(n)) {
            if let Some(guid) = self.guid(n) {
                map.entry(guid).or_default().push(n);
            }
        }
        map
    }

    /// Records in slots `used` does not cover, as warnings.
    fn unlisted(&self, used: &[bool]) -> Vec<ByteError> {
        (0..self.count)
            .filter(|&n| !used[n] && self.holds_record(n))
            .map(|slot| {
                let title = self.title(slot);
                (
                    self.at(slot) as u64,
                    ErrorKind::UnlistedRecord { slot, title },
                )
            })
            .collect()
    }
}

/// One entry in use, as read.
struct Entry {
    /// 0-based place in the index.
    place: usize,
    at: usize,
    slot: usize,
    slots: usize,
    length: u32,
    guid: Option<[u8; 16]>,
    title: String,
}

/// The games of a library in the order its index lists them, or, when the
/// index cannot be read, the records found by scanning the slots.
pub(super) fn plan(data: &[u8]) -> Plan {
    match capacity(data) {
        Ok(capacity) => {
            let plan = from_index(data, capacity);
            // An index without a single entry (not even a deleted game's)
            // while the slots hold records is no table of contents for them.
            let blank = (0..capacity).all(|n| u32_at(data, INDEX_START + n * ENTRY_LEN) == 0);
            match blank && !plan.unlisted.is_empty() {
                true => scan(
                    data,
                    "it lists no record, but its slots hold records".to_owned(),
                ),
                false => plan,
            }
        }
        Err(problem) => scan(data, problem),
    }
}

fn from_index(data: &[u8], capacity: usize) -> Plan {
    let entry_at = |n: usize| INDEX_START + n * ENTRY_LEN;
    let first_slot = entry_at(capacity);
    let slots = Slots {
        data,
        first_slot,
        count: data.len().saturating_sub(first_slot).div_ceil(SLOT_LEN),
    };
    let entries: Vec<Entry> = (0..capacity)
        .filter(|&n| u32_at(data, entry_at(n) + ENTRY_FLAGS) & LIVE != 0)
        .map(|place| {
            let at = entry_at(place);
            let field = |range: std::ops::Range<usize>| {
                utf16_field(&data[at + range.start..at + range.end])
            };
            Entry {
                place,
                at,
                slot: u32_at(data, at + ENTRY_SLOT) as usize,
                slots: u32_at(data, at + ENTRY_SLOTS) as usize,
                length: u32_at(data, at + ENTRY_LENGTH),
                guid: guid_bytes(&field(ENTRY_GUID)),
                title: field(ENTRY_TITLE),
            }
        })
        .collect();
    let by_guid = slots.by_guid();
    let located: Vec<Located> = entries
        .iter()
        .map(|entry| locate(entry, &slots, &by_guid))
        .collect();
    let missing = located
        .iter()
        .filter(|l| matches!(l, Located::PastTheEnd))
        .count();
    let mut used = vec![false; slots.count];
    let mut plan = Plan {
        listed: entries.len(),
        ..Plan::default()
    };
    let mut missing_said = false;
    for (entry, located) in entries.iter().zip(located) {
        match located {
            Located::Slot { slot, notes } => {
                // `locate` checked the slot count: at least 1, no overflow.
                let end_slot = slot + entry.slots;
                for flag in &mut used[slot..end_slot.min(slots.count)] {
                    *flag = true;
                }
                if entry.length as usize > entry.slots * SLOT_LEN {
                    plan.items.push(Planned::Error((
                        (entry.at + ENTRY_LENGTH) as u64,
                        ErrorKind::BadLength {
                            what: "a library record (more than its slots hold)",
                            length: entry.length.into(),
                        },
                    )));
                    continue;
                }
                plan.items.push(Planned::Record {
                    start: slots.at(slot),
                    end: slots.at(end_slot).min(data.len()),
                    title: (!entry.title.is_empty()).then(|| entry.title.clone()),
                    notes,
                });
            }
            // One error, in the first missing entry's place, for all.
            Located::PastTheEnd if !missing_said => {
                missing_said = true;
                plan.items.push(Planned::Error((
                    data.len() as u64,
                    ErrorKind::MissingRecords {
                        record: entry.place + 1,
                        listed: entries.len(),
                        missing,
                    },
                )));
            }
            Located::PastTheEnd => {}
            Located::Error(error) => plan.items.push(Planned::Error(error)),
        }
    }
    plan.unlisted = slots.unlisted(&used);
    plan
}

enum Located {
    Slot {
        slot: usize,
        notes: Vec<ByteError>,
    },
    /// The entry's slot is past the end of the file and its GUID is in no
    /// slot the file holds: the file was cut short.
    PastTheEnd,
    Error(ByteError),
}

/// Where an entry's record is: the slot the entry names when that slot
/// holds the entry's record (its GUID), else the one slot holding a record
/// with the entry's GUID (with a note on the game), else an error.
fn locate(entry: &Entry, slots: &Slots<'_>, by_guid: &HashMap<[u8; 16], Vec<usize>>) -> Located {
    let problem = |at: usize, problem: String| {
        Located::Error((
            at as u64,
            ErrorKind::LibraryIndex {
                entry: entry.place + 1,
                problem,
            },
        ))
    };
    if entry.slots == 0 || entry.slots > u32::MAX as usize - entry.slot {
        return Located::Error((
            (entry.at + ENTRY_SLOTS) as u64,
            ErrorKind::BadLength {
                what: "a library record's slot count",
                length: entry.slots as i64,
            },
        ));
    }
    let named = entry.slot;
    let holds_it = |n: usize| {
        slots.holds_record(n) && entry.guid.map_or(true, |guid| slots.guid(n) == Some(guid))
    };
    if holds_it(named) {
        return Located::Slot {
            slot: named,
            notes: Vec::new(),
        };
    }
    let found = entry
        .guid
        .and_then(|guid| by_guid.get(&guid))
        .map_or(&[][..], Vec::as_slice);
    match found {
        [slot] => Located::Slot {
            slot: *slot,
            notes: vec![(
                (entry.at + ENTRY_SLOT) as u64,
                ErrorKind::LibraryIndex {
                    entry: entry.place + 1,
                    problem: format!(
                        "it names slot {named}, but its record (found by its GUID) is in slot {slot}"
                    ),
                },
            )],
        },
        [] if named >= slots.count => Located::PastTheEnd,
        [] if slots.holds_record(named) => problem(
            slots.at(named),
            format!("slot {named} holds another record (its GUID differs), and no slot holds this one"),
        ),
        [] => problem(
            slots.at(named),
            format!("slot {named} holds no CBR record, and no slot holds one with the entry's GUID"),
        ),
        several => problem(
            entry.at + ENTRY_GUID.start,
            format!(
                "slot {named} does not hold its record, and {} slots hold records with its GUID",
                several.len()
            ),
        ),
    }
}

/// The records of a library whose index cannot be read: every slot that
/// starts with a record, from the first record after the header, in slot
/// order; each carries the reason.
fn scan(data: &[u8], problem: String) -> Plan {
    let first = data
        .get(INDEX_START..)
        .and_then(|rest| {
            rest.windows(RECORD_MAGIC.len())
                .position(|w| w == RECORD_MAGIC)
        })
        .map(|at| INDEX_START + at);
    let mut plan = Plan::default();
    let Some(first) = first else {
        plan.items.push(Planned::Error((
            CAPACITY_AT as u64,
            ErrorKind::LibraryScanned {
                problem: format!("{problem}; no slot holds a record"),
            },
        )));
        return plan;
    };
    let slots = Slots {
        data,
        first_slot: first,
        count: (data.len() - first).div_ceil(SLOT_LEN),
    };
    let starts: Vec<usize> = (0..slots.count)
        .filter(|&n| slots.holds_record(n))
        .collect();
    for (i, &n) in starts.iter().enumerate() {
        // A long record fills the slots up to the next record.
        let next = starts.get(i + 1).copied().unwrap_or(slots.count);
        plan.items.push(Planned::Record {
            start: slots.at(n),
            end: slots.at(next).min(data.len()),
            title: None,
            notes: vec![(
                CAPACITY_AT as u64,
                ErrorKind::LibraryScanned {
                    problem: problem.clone(),
                },
            )],
        });
    }
    plan.listed = plan.items.len();
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guid_reads_as_windows_stores_it() {
        let bytes = guid_bytes("{970110B5-F4A1-4C2B-8D3E-0123456789AB}").unwrap();
        assert_eq!(
            bytes,
            [
                0xB5, 0x10, 0x01, 0x97, 0xA1, 0xF4, 0x2B, 0x4C, 0x8D, 0x3E, 0x01, 0x23, 0x45, 0x67,
                0x89, 0xAB
            ]
        );
        assert_eq!(guid_bytes("970110B5-F4A1-4C2B-8D3E-0123456789AB"), None);
        assert_eq!(guid_bytes("{970110B5-F4A1-4C2B-8D3E-0123456789}"), None);
    }
}
