//! A library's layout from its header and index: how many slots the index
//! was built for (the capacity, at 60), where the slots start (after the
//! index: 66 624 + 276 × capacity), and for each index entry in use the
//! record it lists, checked against the slots. `docs/gamefile.md` has the
//! fields and the reasons.

use crate::error::ErrorKind;

use super::super::cbr::MAGIC as RECORD_MAGIC;
use crate::bytes::ByteError;

/// Where the index starts: after the header (the library's name, source,
/// creator, dates and a 64 KiB remark).
pub(super) const INDEX_START: usize = 66_624;
/// One index entry: flags, a number, the record's slot count and length,
/// a spare word, the record's GUID and title (UTF-16LE).
pub(super) const ENTRY_LEN: usize = 276;
/// A record starts a slot; a long one fills the slots after it too.
pub(super) const SLOT_LEN: usize = 4096;
/// The number of slots (and index entries) the library was built for.
pub(super) const CAPACITY_AT: usize = 60;
/// Offsets inside an index entry.
const ENTRY_FLAGS: usize = 0;
const ENTRY_SLOTS: usize = 8;
const ENTRY_LENGTH: usize = 12;

/// One thing the reader yields, in slot order.
#[derive(Debug)]
pub(super) enum Planned {
    /// A record the index lists, `start..end` of the file (its slots, cut
    /// at the end of the file).
    Record { start: usize, end: usize },
    /// An entry or slot that cannot be read as the index says: one error.
    Error(ByteError),
}

/// The little-endian 32-bit word at `at` (the caller checked the bounds).
fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]])
}

fn is_record_at(data: &[u8], at: usize) -> bool {
    data.get(at..at + RECORD_MAGIC.len()) == Some(&RECORD_MAGIC[..])
}

/// The capacity, checked: at least one entry, and the whole index inside
/// the file (so nothing is allocated or indexed from a lying field).
fn capacity(data: &[u8]) -> Result<usize, ByteError> {
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
    fits.ok_or((
        CAPACITY_AT as u64,
        ErrorKind::BadLength {
            what: "the CBL index (its slot capacity)",
            length: field.into(),
        },
    ))
}

/// The records of a library as its index lists them, and the errors where
/// the index and the slots disagree. Entry `n` describes slot `n` (0-based)
/// at `66 624 + 276 × capacity + 4096 × n`; an entry is in use when its
/// flags are not zero. The returned list has at most one item per entry
/// and per slot, so its length is bounded by the file's.
pub(super) fn plan(data: &[u8]) -> Result<(Vec<Planned>, usize), ByteError> {
    let capacity = capacity(data)?;
    let entry_at = |n: usize| INDEX_START + n * ENTRY_LEN;
    let first_slot = entry_at(capacity);
    let slot_at = |n: usize| first_slot + n * SLOT_LEN;
    let in_use = |n: usize| u32_at(data, entry_at(n) + ENTRY_FLAGS) != 0;
    let listed = (0..capacity).filter(|&n| in_use(n)).count();
    // Slots the file holds (the last one possibly cut short).
    let file_slots = (data.len() - first_slot).div_ceil(SLOT_LEN);
    let mut planned = Vec::new();
    let mut seen = 0;
    // The first slot no listed record covers.
    let mut free = 0;
    let mismatch = |n: usize, at: usize, problem| {
        Planned::Error((
            at as u64,
            ErrorKind::LibraryIndex {
                record: n + 1,
                problem,
            },
        ))
    };
    for n in 0..capacity {
        if !in_use(n) {
            if n >= free && n < file_slots && is_record_at(data, slot_at(n)) {
                planned.push(mismatch(
                    n,
                    slot_at(n),
                    "its slot holds a record the index does not list",
                ));
            }
            continue;
        }
        seen += 1;
        if n >= file_slots {
            planned.push(Planned::Error((
                data.len() as u64,
                ErrorKind::MissingRecords {
                    record: n + 1,
                    listed,
                    missing: listed - seen + 1,
                },
            )));
            return Ok((planned, listed));
        }
        let entry = entry_at(n);
        if n < free {
            planned.push(mismatch(
                n,
                entry,
                "its slot is inside the record before it",
            ));
            continue;
        }
        let slots = u32_at(data, entry + ENTRY_SLOTS) as usize;
        if slots == 0 || slots > capacity - n {
            planned.push(Planned::Error((
                (entry + ENTRY_SLOTS) as u64,
                ErrorKind::BadLength {
                    what: "a library record's slot count",
                    length: slots as i64,
                },
            )));
            free = n + 1;
            continue;
        }
        free = n + slots;
        let length = u32_at(data, entry + ENTRY_LENGTH);
        if length as usize > slots * SLOT_LEN {
            planned.push(Planned::Error((
                (entry + ENTRY_LENGTH) as u64,
                ErrorKind::BadLength {
                    what: "a library record (more than its slots hold)",
                    length: length.into(),
                },
            )));
            continue;
        }
        let start = slot_at(n);
        if !is_record_at(data, start) {
            planned.push(mismatch(n, start, "its slot holds no CBR record"));
            continue;
        }
        let end = slot_at(n + slots).min(data.len());
        planned.push(Planned::Record { start, end });
    }
    // Slots past the capacity have no entry: a record there is unlisted.
    for n in capacity..file_slots {
        if is_record_at(data, slot_at(n)) {
            planned.push(mismatch(
                n,
                slot_at(n),
                "its slot is past the index's capacity",
            ));
        }
    }
    Ok((planned, listed))
}
