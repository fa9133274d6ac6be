//! Truncated, corrupted and wrong-version files: a typed error naming the
//! byte offset, never a panic, never an allocation the file's length fields
//! ask for.

use std::path::Path;
use xiangqi_test_support::shared_testdata;

use xiangqi_gamefile::pgn::read_str;
use xiangqi_gamefile::{write_xqf, ErrorKind, Format, GameFileError, Games, Location};

fn sample_xqf() -> Vec<u8> {
    let pgn = "[Red \"甲\"]\n{opening} 1. h2e2 {centre} h9g7 (1... b9c7 {other} 2. h0g2 (2. b0c2)) 2. h0g2 i9h9 *\n";
    write_xqf(&read_str(pgn).next().unwrap().unwrap()).unwrap()
}

fn read(bytes: &[u8], format: Format) -> Vec<Result<xiangqi_gamefile::Game, GameFileError>> {
    Games::from_bytes(bytes, Some(format)).collect()
}

fn byte_offset(e: &GameFileError) -> u64 {
    match e.location {
        Location::Byte(offset) => offset,
        other => panic!("{other:?} is no byte offset"),
    }
}

#[test]
fn a_truncated_xqf_is_an_error_at_an_offset_inside_the_file() {
    let full = sample_xqf();
    assert!(read(&full, Format::Xqf)[0].is_ok());
    for len in 0..full.len() {
        let results = read(&full[..len], Format::Xqf);
        let error = results[0].as_ref().expect_err("a cut file");
        assert!(byte_offset(error) <= len as u64, "{len}: {error}");
        assert!(
            matches!(
                error.kind,
                ErrorKind::Truncated { .. } | ErrorKind::BadLength { .. }
            ),
            "{len}: {error}"
        );
    }
}

#[test]
fn a_wrong_version_or_magic_is_named() {
    let mut file = sample_xqf();
    file[2] = 19;
    let e = read(&file, Format::Xqf).remove(0).unwrap_err();
    assert_eq!(e.location, Location::Byte(2));
    assert!(
        matches!(e.kind, ErrorKind::UnsupportedVersion { version: 19, .. }),
        "{e}"
    );
    file[0] = b'Y';
    let e = read(&file, Format::Xqf).remove(0).unwrap_err();
    assert_eq!(
        (e.location, &e.kind),
        (Location::Byte(0), &ErrorKind::BadMagic(Format::Xqf))
    );
    let e = read(b"CCBridge Recordx", Format::Cbr)
        .remove(0)
        .unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
    let e = read(&[0; 600], Format::Cbl).remove(0).unwrap_err();
    assert_eq!(
        (e.location, &e.kind),
        (Location::Byte(0), &ErrorKind::BadMagic(Format::Cbl))
    );
}

#[test]
fn a_huge_comment_length_is_refused_before_allocating() {
    let sample = sample_xqf();
    // The root record's comment length (version 1.0 stores it always):
    // too big, -1 and the most negative as 32 bits, one past the file.
    let past_end = (sample.len() - 1032 + 1) as u32;
    for length in [0x7FFF_FFFF, u32::MAX, 0x8000_0000, past_end] {
        let mut file = sample.clone();
        file[1028..1032].copy_from_slice(&length.to_le_bytes());
        let e = read(&file, Format::Xqf).remove(0).unwrap_err();
        assert_eq!(e.location, Location::Byte(1028), "{length:#x}");
        assert!(
            matches!(
                e.kind,
                ErrorKind::BadLength {
                    what: "a comment",
                    ..
                }
            ),
            "{length:#x}: {e}"
        );
    }
}

/// CBR comment lengths that lie (the opening comment's at 2218, the first
/// move's at 2230 in `test2.cbr`): too big, negative, past the file. An
/// error at the field, never an allocation from it.
#[test]
fn lying_cbr_comment_lengths_are_errors_at_the_field() {
    let Some(dir) = shared_testdata("corpus/games") else {
        return;
    };
    let cbr = std::fs::read(dir.join("test2.cbr")).unwrap();
    assert!(read(&cbr, Format::Cbr)[0].is_ok());
    // The layout these offsets assume: an opening comment (flag 4, length
    // 4), then a move with a comment (flags 4) whose length is at 2230.
    assert_eq!((cbr[2214], cbr[2218], cbr[2226], cbr[2230]), (4, 4, 4, 4));
    for at in [2218, 2230] {
        let past_end = (cbr.len() - at - 4 + 1) as i32;
        for length in [i32::MAX, -1, i32::MIN, past_end] {
            let mut bad = cbr.clone();
            bad[at..at + 4].copy_from_slice(&length.to_le_bytes());
            let e = read(&bad, Format::Cbr).remove(0).unwrap_err();
            assert_eq!(e.location, Location::Byte(at as u64), "{at}: {length}");
            assert_eq!(
                e.kind,
                ErrorKind::BadLength {
                    what: "a comment",
                    length: length.into()
                },
                "{at}: {length}"
            );
        }
    }
}

/// The sample with Black's first move, h9g7, made the illegal h9h8, and
/// the offset of that record.
fn sample_with_an_illegal_reply() -> (Vec<u8>, usize) {
    let mut file = sample_xqf();
    let root_len = 8 + "opening".len();
    let second = 1024 + root_len + 8 + "centre".len();
    assert_eq!(file[second], (7 * 10 + 9) + 0x18);
    file[second + 1] = (7 * 10 + 8) + 0x20;
    (file, second)
}

#[test]
fn an_illegal_move_cuts_its_line_and_is_named_on_the_game() {
    let (file, second) = sample_with_an_illegal_reply();
    let game = read(&file, Format::Xqf).remove(0).unwrap();
    // 1. h2e2 h9h8?? 2. h0g2 i9h9 had the alternative 1... b9c7 2. h0g2
    // (2. b0c2): the illegal move and its replies are dropped, and its
    // alternative continues the main line.
    let lines: Vec<Vec<String>> = xiangqi_gamefile::lines(&game.mainline)
        .iter()
        .map(|l| l.iter().map(|m| m.to_string()).collect())
        .collect();
    assert_eq!(
        lines,
        [vec!["h2e2", "b9c7", "h0g2"], vec!["h2e2", "b9c7", "b0c2"]]
    );
    assert_eq!(game.mainline.moves[1].comments(), ["other"]);
    assert_eq!(game.errors.len(), 1, "{:?}", game.errors);
    let e = &game.errors[0];
    assert_eq!((e.game, e.location), (1, Location::Byte(second as u64)));
    assert!(
        matches!(e.kind, ErrorKind::IllegalMove { ply: 2, .. }),
        "{e}"
    );
    assert!(e.to_string().starts_with("game 1, byte "), "{e}");
}

#[test]
fn strict_reading_makes_a_cut_line_an_error() {
    let (file, second) = sample_with_an_illegal_reply();
    let options = xiangqi_gamefile::ReaderOptions {
        strict: true,
        ..Default::default()
    };
    let e = Games::from_reader(std::io::Cursor::new(file), Some(Format::Xqf), options)
        .unwrap()
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!((e.game, e.location), (1, Location::Byte(second as u64)));
    assert!(
        matches!(e.kind, ErrorKind::IllegalMove { ply: 2, .. }),
        "{e}"
    );
}

#[test]
fn an_illegal_first_move_without_alternative_leaves_an_empty_line() {
    let mut file = sample_xqf();
    // The first record after the root is Red's h2e2: move it from the
    // empty point e4 instead (it has no alternative).
    let root_len = 8 + "opening".len();
    let first = 1024 + root_len;
    assert_eq!(file[first], (7 * 10 + 2) + 0x18);
    file[first] = (4 * 10 + 4) + 0x18; // e4: an empty point
    let game = read(&file, Format::Xqf).remove(0).unwrap();
    assert_eq!(game.plies(), 0);
    assert_eq!(game.mainline.comments, ["opening"]);
    assert!(
        matches!(game.errors[..], [ref e] if matches!(e.kind, ErrorKind::IllegalMove { ply: 1, .. })),
        "{:?}",
        game.errors
    );
}

/// Every cut and a spread of corrupted bytes of real encrypted XQF, CBR and
/// CBL files: errors or games, never a panic.
#[test]
fn real_files_cut_or_corrupted_never_panic() {
    let Some(dir) = shared_testdata("corpus/games") else {
        return;
    };
    for (name, format) in [
        ("030-黄松轩先胜冯敬如.XQF", Format::Xqf),
        ("test.cbr", Format::Cbr),
        ("test.cbf", Format::Cbf),
    ] {
        let full = std::fs::read(dir.join(name)).unwrap();
        for len in 0..full.len() {
            for item in read(&full[..len], format) {
                if let Err(e) = item {
                    assert!(!e.to_string().is_empty());
                }
            }
        }
        for at in (0..full.len()).step_by(7) {
            let mut bad = full.clone();
            bad[at] ^= 0x5A;
            let _ = read(&bad, format);
        }
    }
    // A CBR cut before its records' terminator is an error, not a shorter game.
    let cbr = std::fs::read(dir.join("test2.cbr")).unwrap();
    for len in 2214..2226 {
        let e = read(&cbr[..len], Format::Cbr).remove(0).unwrap_err();
        assert!(
            matches!(
                e.kind,
                ErrorKind::Truncated { .. } | ErrorKind::BadLength { .. }
            ),
            "{len}: {e}"
        );
    }
    let library = std::fs::read(dir.join("1989年龙化杯象棋名师邀请赛35局.CBL")).unwrap();
    for len in (0..library.len()).step_by(997) {
        let _ = read(&library[..len], Format::Cbl);
    }
    // A cut inside the third record (the first is a heading): the game
    // before it reads, the cut one is an error at its offset, and one more
    // error says how many of the records the index lists are missing.
    let cut = &library[..101_952 + 2 * 4096 + 2300];
    let results = read(cut, Format::Cbl);
    assert_eq!(results.len(), 3);
    assert!(results[0].is_ok());
    let broken = results[1].as_ref().unwrap_err();
    assert!(byte_offset(broken) >= 101_952 + 2 * 4096, "{broken}");
    assert_eq!(
        results[2].as_ref().unwrap_err().kind,
        ErrorKind::MissingRecords {
            record: 4,
            listed: 37,
            missing: 34
        }
    );
}

/// Fuzz finding (cbf target, `fuzz/regressions/cbf-15f80d46`): a comment
/// whose GB18030 bytes start like a UTF-8 byte-order mark was read back from
/// XQF as UTF-8. Text fields are GB18030 whatever their first bytes.
#[test]
fn a_comment_starting_like_a_byte_order_mark_survives_xqf() {
    let pgn = "{锘縋 opening} 1. h2e2 {锘縝} *\n";
    let game = read_str(pgn).next().unwrap().unwrap();
    let back = read(&write_xqf(&game).unwrap(), Format::Xqf)
        .remove(0)
        .unwrap();
    assert_eq!(back.mainline, game.mainline);
    let regression = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/cbf-15f80d46"),
    )
    .unwrap();
    let cbf = read(&regression[1..], Format::Cbf).remove(0).unwrap();
    let back = read(&write_xqf(&cbf).unwrap(), Format::Xqf)
        .remove(0)
        .unwrap();
    assert_eq!(back.mainline, cbf.mainline);
}

/// A mate diagram (示意图): the final position of a mate with the side to
/// move left unchanged, so the side not to move is in check. It reads with
/// the side in check to move, and the game says so.
#[test]
fn a_diagram_with_the_mated_side_not_to_move_reads_with_it_to_move() {
    // Black's general on e9, in check from the chariot on e8 (guarded by
    // the horse).
    let fen = "4k4/4R4/6N2/9/9/9/9/9/9/4K4 b - - 0 1";
    let diagram = xiangqi_gamefile::pgn::read_str(&format!("[FEN \"{fen}\"]\n*\n"))
        .next()
        .unwrap()
        .unwrap();
    let mut file = write_xqf(&diagram).unwrap();
    // Written with Black to move; the manual's file says Red.
    assert_eq!(file[50], 1);
    file[50] = 0;
    let game = read(&file, Format::Xqf).remove(0).unwrap();
    assert_eq!(game.start_position().unwrap().to_fen(), fen);
    assert!(game.start_position().unwrap().is_check());
    assert!(
        matches!(
            &game.errors[..],
            [e] if e.kind == ErrorKind::DiagramSideToMove { in_check: xiangqi_core::Color::Black }
        ),
        "{:?}",
        game.errors
    );
}
