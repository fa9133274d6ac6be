//! CBL libraries laid out from their header: libraries built here from the
//! real records of the shared 1956 library (93 games, capacity 128) with
//! other capacities (where the slots start moves with it), a record that
//! fills two slots, and indexes and slots that disagree or lie. Every
//! record the index lists is a game, a heading or an error.

use xiangqi_test_support::shared_testdata;

use xiangqi_gamefile::{ErrorKind, Format, Game, GameFileError, Games, Location};

const INDEX_START: usize = 66_624;
const ENTRY_LEN: usize = 276;
const SLOT_LEN: usize = 4096;
const CAPACITY_AT: usize = 60;

/// One record of a library: its slots (a multiple of 4096 bytes) and its
/// index entry (flags, number, slot count, length, spare, GUID, title).
#[derive(Clone)]
struct Record {
    slots: Vec<u8>,
    entry: Vec<u8>,
}

/// The shared 1956 library: its header (up to the index) and its records.
struct Source {
    header: Vec<u8>,
    records: Vec<Record>,
    file: Vec<u8>,
}

fn source() -> Option<Source> {
    let path = shared_testdata("corpus/games/1956年全国象棋锦标赛93局.CBL")?;
    let file = std::fs::read(path).unwrap();
    let capacity = u32_at(&file, CAPACITY_AT) as usize;
    assert_eq!(capacity, 128);
    let first_slot = INDEX_START + capacity * ENTRY_LEN;
    let records = (0..93)
        .map(|n| Record {
            slots: file[first_slot + n * SLOT_LEN..][..SLOT_LEN].to_vec(),
            entry: file[INDEX_START + n * ENTRY_LEN..][..ENTRY_LEN].to_vec(),
        })
        .collect();
    Some(Source {
        header: file[..INDEX_START].to_vec(),
        records,
        file,
    })
}

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}

fn put_u32(data: &mut [u8], at: usize, value: u32) {
    data[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// A library for `capacity` slots holding `records` one after another:
/// entry `n` describes slot `n`, so a record of k slots uses k entries'
/// room and only the first of them.
fn library(header: &[u8], capacity: usize, records: &[Record]) -> Vec<u8> {
    let mut out = header.to_vec();
    put_u32(&mut out, CAPACITY_AT, capacity as u32);
    let mut index = vec![0; capacity * ENTRY_LEN];
    let mut slots = Vec::new();
    let mut slot = 0;
    for record in records {
        let count = record.slots.len() / SLOT_LEN;
        let entry = &mut index[slot * ENTRY_LEN..][..ENTRY_LEN];
        entry.copy_from_slice(&record.entry);
        put_u32(entry, 4, slot as u32);
        put_u32(entry, 8, count as u32);
        slots.extend_from_slice(&record.slots);
        slot += count;
    }
    assert!(slot <= capacity, "{slot} slots do not fit {capacity}");
    out.extend(index);
    out.extend(slots);
    out
}

fn read(bytes: &[u8]) -> (Vec<Result<Game, GameFileError>>, Option<usize>, usize) {
    let mut games = Games::from_bytes(bytes, Some(Format::Cbl));
    let items: Vec<_> = games.by_ref().collect();
    (items, games.records_listed(), games.headings_skipped())
}

fn games_of(items: Vec<Result<Game, GameFileError>>) -> Vec<Game> {
    items
        .into_iter()
        .map(|item| item.unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn errors_of(items: &[Result<Game, GameFileError>]) -> Vec<&GameFileError> {
    items.iter().filter_map(|i| i.as_ref().err()).collect()
}

#[test]
fn the_slots_start_after_an_index_of_the_header_s_capacity() {
    let Some(source) = source() else { return };
    let (original, listed, _) = read(&source.file);
    assert_eq!(listed, Some(93));
    let original = games_of(original);
    assert_eq!(original.len(), 93);
    // 93: exactly full; 131 and 2048: offsets cchess lists (102 780 and
    // 631 872); 256: the held-out library's 137 280, not a slot boundary
    // of the 128-slot layout.
    for capacity in [93, 128, 131, 256, 2048] {
        let file = library(&source.header, capacity, &source.records);
        let (items, listed, headings) = read(&file);
        assert_eq!((listed, headings), (Some(93), 0), "capacity {capacity}");
        assert_eq!(games_of(items), original, "capacity {capacity}");
    }
    // Built for 128 it is the shared file, byte for byte.
    assert_eq!(library(&source.header, 128, &source.records), source.file);
}

/// A record whose opening comment makes it longer than a slot: it fills two,
/// its entry says so, and the next record is two slots on.
#[test]
fn a_record_fills_as_many_slots_as_its_entry_says() {
    let Some(source) = source() else { return };
    let original = games_of(read(&source.file).0);
    let mut records = source.records.clone();
    let long = &mut records[10];
    let length = u32_at(&long.entry, 12) as usize;
    let comment: String = "長".repeat(1500);
    let utf16: Vec<u8> = comment.encode_utf16().flat_map(u16::to_le_bytes).collect();
    // The header, the opening comment (flag, length, text), then the moves
    // as they were (the original has no opening comment: its flag is 0).
    assert_eq!(u32_at(&long.slots, 2214), 0);
    let mut bytes = long.slots[..2214].to_vec();
    bytes.extend(1u32.to_le_bytes());
    bytes.extend((utf16.len() as u32).to_le_bytes());
    bytes.extend(&utf16);
    bytes.extend(&long.slots[2218..length + 4]);
    assert!(bytes.len() > SLOT_LEN && bytes.len() <= 2 * SLOT_LEN);
    put_u32(&mut long.entry, 12, bytes.len() as u32);
    bytes.resize(2 * SLOT_LEN, 0);
    long.slots = bytes;
    for capacity in [94, 256] {
        let file = library(&source.header, capacity, &records);
        let (items, listed, _) = read(&file);
        assert_eq!(listed, Some(93));
        let games = games_of(items);
        assert_eq!(games.len(), 93);
        for (n, (ours, theirs)) in games.iter().zip(&original).enumerate() {
            if n == 10 {
                assert_eq!(ours.mainline.comments, std::slice::from_ref(&comment));
                assert_eq!(
                    ours.moves().collect::<Vec<_>>(),
                    theirs.moves().collect::<Vec<_>>()
                );
            } else {
                assert_eq!(ours, theirs, "game {}", n + 1);
            }
        }
    }
}

#[test]
fn a_library_cut_short_says_how_many_records_are_missing() {
    let Some(source) = source() else { return };
    let full = library(&source.header, 256, &source.records);
    let first_slot = INDEX_START + 256 * ENTRY_LEN;
    let (items, _, _) = read(&full[..first_slot + 50 * SLOT_LEN]);
    assert_eq!(items.len(), 51);
    assert!(items[..50].iter().all(Result::is_ok));
    let error = items[50].as_ref().unwrap_err();
    assert_eq!(
        error.kind,
        ErrorKind::MissingRecords {
            record: 51,
            listed: 93,
            missing: 43
        },
        "{error}"
    );
    assert_eq!(error.game, 51);
    assert!(error.to_string().contains("43 missing"), "{error}");
}

#[test]
fn an_index_promising_games_the_slots_do_not_hold_is_an_error() {
    let Some(source) = source() else { return };
    let full = library(&source.header, 256, &source.records);
    let first_slot = INDEX_START + 256 * ENTRY_LEN;
    // No slot at all: one error naming all 93.
    let (items, listed, _) = read(&full[..first_slot]);
    assert_eq!(listed, Some(93));
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0].as_ref().unwrap_err().kind,
        ErrorKind::MissingRecords {
            record: 1,
            listed: 93,
            missing: 93
        }
    );
    // Slots there but blank: an error per listed record, at its slot.
    let mut blank = full.clone();
    blank[first_slot..].fill(0);
    let (items, _, _) = read(&blank);
    let errors = errors_of(&items);
    assert_eq!((items.len(), errors.len()), (93, 93));
    for (n, error) in errors.iter().enumerate() {
        assert_eq!(
            error.location,
            Location::Byte((first_slot + n * SLOT_LEN) as u64)
        );
        assert!(
            matches!(error.kind, ErrorKind::LibraryIndex { record, problem }
                if record == n + 1 && problem.contains("no CBR record")),
            "{error}"
        );
    }
}

#[test]
fn records_the_index_does_not_list_are_reported() {
    let Some(source) = source() else { return };
    let mut file = library(&source.header, 128, &source.records);
    // Entry 5 marked unused while its slot still holds a record.
    let entry = INDEX_START + 4 * ENTRY_LEN;
    file[entry..entry + 4].fill(0);
    let (items, listed, _) = read(&file);
    assert_eq!(listed, Some(92));
    assert_eq!(items.len(), 93);
    let errors = errors_of(&items);
    assert_eq!(errors.len(), 1);
    assert!(
        matches!(errors[0].kind, ErrorKind::LibraryIndex { record: 5, problem }
            if problem.contains("does not list")),
        "{}",
        errors[0]
    );
    // A record in a slot past the capacity has no entry at all.
    let mut extra = library(&source.header, 92, &source.records[..92]);
    extra.extend(&source.records[92].slots);
    let (items, listed, _) = read(&extra);
    assert_eq!((items.len(), listed), (93, Some(92)));
    assert!(
        matches!(items[92].as_ref().unwrap_err().kind, ErrorKind::LibraryIndex { record: 93, problem }
            if problem.contains("past the index's capacity")),
        "{:?}",
        items[92]
    );
}

/// Lying header and index fields: an error at the field, never a hang nor
/// an allocation from the field's value.
#[test]
fn lying_capacities_and_counts_are_errors() {
    let Some(source) = source() else { return };
    let file = library(&source.header, 128, &source.records);
    for capacity in [0u32, u32::MAX, 0x8000_0000, 0x7FFF_FFFF, 1 << 20] {
        let mut bad = file.clone();
        put_u32(&mut bad, CAPACITY_AT, capacity);
        let (items, listed, _) = read(&bad);
        assert_eq!((items.len(), listed), (1, None), "capacity {capacity:#x}");
        let error = items[0].as_ref().unwrap_err();
        assert_eq!(
            (error.game, error.location),
            (0, Location::Byte(CAPACITY_AT as u64))
        );
        assert!(
            matches!(error.kind, ErrorKind::BadLength { length, .. } if length == i64::from(capacity as i32)),
            "{error}"
        );
    }
    // A capacity whose index ends past the file.
    let short = &file[..INDEX_START + 100 * ENTRY_LEN];
    let error = read(short).0.remove(0).unwrap_err();
    assert_eq!(error.location, Location::Byte(CAPACITY_AT as u64));

    // Slot counts: zero, beyond the capacity, -1; a length beyond the slots.
    let entry = |n: usize| INDEX_START + n * ENTRY_LEN;
    for (field, value) in [(8, 0), (8, 200), (8, u32::MAX), (12, 4097), (12, u32::MAX)] {
        let mut bad = file.clone();
        put_u32(&mut bad, entry(7) + field, value);
        let (items, _, _) = read(&bad);
        assert_eq!(items.len(), 93, "{field} = {value}");
        let errors = errors_of(&items);
        assert_eq!(errors.len(), 1, "{field} = {value}");
        assert_eq!(
            (errors[0].game, errors[0].location),
            (8, Location::Byte((entry(7) + field) as u64))
        );
        assert!(
            matches!(errors[0].kind, ErrorKind::BadLength { .. }),
            "{}",
            errors[0]
        );
    }
    // A slot count of two over a one-slot record: it reads, and the next
    // entry, whose slot that count claims, is reported.
    let mut bad = file.clone();
    put_u32(&mut bad, entry(7) + 8, 2);
    let (items, _, _) = read(&bad);
    assert_eq!(items.len(), 93);
    assert!(items[7].is_ok());
    assert!(
        matches!(items[8].as_ref().unwrap_err().kind, ErrorKind::LibraryIndex { record: 9, problem }
            if problem.contains("inside the record before")),
        "{:?}",
        items[8]
    );
}

/// The 1989 library: 38 records listed, two of them headings, 36 games.
#[test]
fn headings_are_counted_not_yielded() {
    let Some(path) = shared_testdata("corpus/games/1989年龙化杯象棋名师邀请赛35局.CBL")
    else {
        return;
    };
    let (items, listed, headings) = read(&std::fs::read(path).unwrap());
    assert_eq!((listed, headings), (Some(38), 2));
    assert_eq!(games_of(items).len(), 36);
}
