//! Named examples of the rules reference (section 9) and the seeds.

use xiangqi_core::{Move, PlayError, Position};
use xiangqi_notation::{
    detect, format, parse, parse_with, ChineseStyle, MoveTextError, Notation, Style,
    SyntaxErrorKind, VietnameseStyle, WxfStyle,
};

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        pos.play(mv(m)).unwrap();
    }
    pos
}

fn simplified() -> Style {
    Style::default()
}

fn traditional() -> Style {
    Style {
        chinese: ChineseStyle::traditional(),
        ..Style::default()
    }
}

fn fsf() -> Style {
    Style {
        wxf: WxfStyle::fsf(),
        ..Style::default()
    }
}

fn plain_vi() -> Style {
    Style {
        vietnamese: VietnameseStyle {
            diacritics: false,
            ..VietnameseStyle::default()
        },
        ..Style::default()
    }
}

/// Asserts that `iccs` is written as `text` in `notation`/`style` and that
/// `text` reads back (explicitly and auto-detected).
#[track_caller]
fn same(pos: &Position, iccs: &str, notation: Notation, style: &Style, text: &str) {
    let m = mv(iccs);
    assert_eq!(
        format(pos, m, notation, style).unwrap(),
        text,
        "{iccs} in {notation}"
    );
    assert_eq!(
        parse_with(pos, text, notation, style).unwrap(),
        m,
        "{text} read as {notation}"
    );
    assert_eq!(
        parse_with(pos, text, None, style).unwrap(),
        m,
        "{text} auto-detected"
    );
}

#[test]
fn seed_h2e2_is_c2_5_and_pao_er_ping_wu() {
    let pos = Position::startpos();
    same(&pos, "h2e2", Notation::Iccs, &simplified(), "h2e2");
    same(&pos, "h2e2", Notation::Wxf, &simplified(), "C2=5");
    same(&pos, "h2e2", Notation::Chinese, &simplified(), "炮二平五");
    same(&pos, "h2e2", Notation::Chinese, &traditional(), "炮二平五");
    same(
        &pos,
        "h2e2",
        Notation::Vietnamese,
        &simplified(),
        "Pháo 2 bình 5",
    );
    same(
        &pos,
        "h2e2",
        Notation::Vietnamese,
        &plain_vi(),
        "Phao 2 binh 5",
    );
    for text in [
        "H2-E2",
        "h2-e2",
        "C2.5",
        "c25",
        "Phao 2 binh 5",
        "PHÁO 2 BÌNH 5",
        "  pháo2.bình5 ",
    ] {
        assert_eq!(parse(&pos, text, None).unwrap(), mv("h2e2"), "{text}");
    }
}

#[test]
fn seed_h0g2_is_h2_plus_3_and_ma_er_jin_san() {
    let pos = Position::startpos();
    same(&pos, "h0g2", Notation::Wxf, &simplified(), "H2+3");
    same(&pos, "h0g2", Notation::Chinese, &traditional(), "傌二進三");
    same(&pos, "h0g2", Notation::Chinese, &simplified(), "马二进三");
    same(
        &pos,
        "h0g2",
        Notation::Vietnamese,
        &simplified(),
        "Mã 2 tiến 3",
    );
    assert_eq!(parse(&pos, "N2+3", Notation::Wxf).unwrap(), mv("h0g2"));
    assert_eq!(
        parse(&pos, "馬二進三", Notation::Chinese).unwrap(),
        mv("h0g2")
    );
}

#[test]
fn seed_black_h9g7_is_h8_plus_7_and_ma_8_jin_7() {
    let pos = after(&["h2e2"]);
    same(&pos, "h9g7", Notation::Wxf, &simplified(), "H8+7");
    same(&pos, "h9g7", Notation::Chinese, &traditional(), "馬8進7");
    same(&pos, "h9g7", Notation::Chinese, &simplified(), "马8进7");
    same(
        &pos,
        "h9g7",
        Notation::Vietnamese,
        &simplified(),
        "Mã 8 tiến 7",
    );
    assert_eq!(
        parse(&pos, "馬８進７", None).unwrap(),
        mv("h9g7"),
        "full-width digits"
    );
    assert_eq!(
        parse(&pos, "马八进七", None).unwrap(),
        mv("h9g7"),
        "Chinese numerals for Black"
    );
    let lower = Style {
        wxf: WxfStyle {
            black_lowercase: true,
            ..WxfStyle::default()
        },
        ..Style::default()
    };
    same(&pos, "h9g7", Notation::Wxf, &lower, "h8+7");
}

#[test]
fn seed_black_b7e7_is_c2_5_and_pao_2_ping_5() {
    let pos = after(&["h2e2"]);
    same(&pos, "b7e7", Notation::Wxf, &simplified(), "C2=5");
    same(&pos, "b7e7", Notation::Chinese, &traditional(), "砲2平5");
    same(&pos, "b7e7", Notation::Chinese, &simplified(), "炮2平5");
    same(
        &pos,
        "b7e7",
        Notation::Vietnamese,
        &simplified(),
        "Pháo 2 bình 5",
    );
}

/// The start-position table of N-WXF, N-CN and N-VI.
#[test]
fn n_wxf_n_cn_n_vi_start_position_table() {
    let pos = Position::startpos();
    let table = [
        ("c0e2", "E7+5", "相七进五", "相七進五", "Tượng 7 tiến 5"),
        ("f0e1", "A4+5", "仕四进五", "仕四進五", "Sĩ 4 tiến 5"),
        ("e0e1", "K5+1", "帅五进一", "帥五進一", "Tướng 5 tiến 1"),
        ("g3g4", "P3+1", "兵三进一", "兵三進一", "Tốt 3 tiến 1"),
        ("i0i1", "R1+1", "车一进一", "俥一進一", "Xe 1 tiến 1"),
        ("a0a1", "R9+1", "车九进一", "俥九進一", "Xe 9 tiến 1"),
        ("h2h9", "C2+7", "炮二进七", "炮二進七", "Pháo 2 tiến 7"),
    ];
    for (iccs, wxf, simp, trad, vi) in table {
        same(&pos, iccs, Notation::Wxf, &simplified(), wxf);
        same(&pos, iccs, Notation::Chinese, &simplified(), simp);
        same(&pos, iccs, Notation::Chinese, &traditional(), trad);
        same(&pos, iccs, Notation::Vietnamese, &simplified(), vi);
    }
    let pos = after(&["h2e2"]);
    same(&pos, "c6c5", Notation::Wxf, &simplified(), "P3+1");
    same(&pos, "c6c5", Notation::Chinese, &traditional(), "卒3進1");
    let pos = after(&["h0g2", "h9g7"]);
    same(&pos, "g2h0", Notation::Wxf, &simplified(), "H3-2");
    same(&pos, "g2h0", Notation::Chinese, &traditional(), "傌三退二");
    same(
        &pos,
        "g2h0",
        Notation::Vietnamese,
        &simplified(),
        "Mã 3 thoái 2",
    );
}

/// Tuong without diacritics is general or elephant; the move decides.
#[test]
fn n_vi_tuong_without_diacritics() {
    let pos = Position::startpos();
    same(
        &pos,
        "e0e1",
        Notation::Vietnamese,
        &plain_vi(),
        "Tuong 5 tien 1",
    );
    same(
        &pos,
        "c0e2",
        Notation::Vietnamese,
        &plain_vi(),
        "Tuong 7 tien 5",
    );
    assert_eq!(parse(&pos, "Soái 5 tấn 1", None).unwrap(), mv("e0e1"));
}

/// EX-WXF-TANDEM and N-CN-TANDEM, N-VI-TANDEM: stacked chariots and horses.
#[test]
fn ex_wxf_tandem_stacked_chariots_and_horses() {
    let pos = Position::from_fen("4k4/9/9/9/3R5/9/9/3R5/9/5K3 w - - 0 1").unwrap();
    for (iccs, wxf, cn, vi) in [
        ("d5f5", "R+=4", "前车平四", "Xe trước bình 4"),
        ("d5d8", "R++3", "前车进三", "Xe trước tiến 3"),
        ("d2d1", "R--1", "后车退一", "Xe sau thoái 1"),
        ("d2d4", "R-+2", "后车进二", "Xe sau tiến 2"),
    ] {
        same(&pos, iccs, Notation::Wxf, &simplified(), wxf);
        same(&pos, iccs, Notation::Chinese, &simplified(), cn);
        same(&pos, iccs, Notation::Vietnamese, &simplified(), vi);
    }
    assert_eq!(
        format(&pos, mv("d2d1"), Notation::Chinese, &traditional()).unwrap(),
        "後俥退一"
    );
    let pos = Position::from_fen("4k4/9/2n6/9/2n6/9/9/9/9/5K3 b - - 0 1").unwrap();
    same(&pos, "c5d3", Notation::Wxf, &simplified(), "H++4");
    same(&pos, "c7b9", Notation::Wxf, &simplified(), "H--2");
    same(&pos, "c5d3", Notation::Chinese, &simplified(), "前马进4");
    same(&pos, "c7b9", Notation::Chinese, &simplified(), "后马退2");
    same(
        &pos,
        "c5d3",
        Notation::Vietnamese,
        &simplified(),
        "Mã trước tiến 4",
    );
}

/// N-WXF-FSF (2): the marker only where the other piece could move alike.
#[test]
fn n_wxf_fsf_marker_only_when_the_other_could_move_alike() {
    let pos = Position::from_fen("3k5/9/9/9/4R4/9/9/9/4R4/5K3 w - - 0 1").unwrap();
    same(&pos, "e5e2", Notation::Wxf, &fsf(), "R5-3");
    same(&pos, "e5e4", Notation::Wxf, &fsf(), "R+-1");
    same(&pos, "e1e0", Notation::Wxf, &fsf(), "R--1");
    same(&pos, "e5e2", Notation::Wxf, &simplified(), "R+-3");
}

/// N-WXF-AE: advisors and elephants keep the file digit.
#[test]
fn n_wxf_ae_advisors_keep_their_file() {
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1").unwrap();
    same(&pos, "d0e1", Notation::Wxf, &simplified(), "A6+5");
    same(&pos, "d2e1", Notation::Wxf, &simplified(), "A6-5");
    same(&pos, "d0e1", Notation::Chinese, &simplified(), "仕六进五");
    same(&pos, "d2e1", Notation::Chinese, &simplified(), "仕六退五");
}

/// N-WXF-PAWNS, N-CN-PAWNS, N-VI-TANDEM: three soldiers on one file.
#[test]
fn n_wxf_pawns_three_soldiers_on_one_file() {
    let pos = Position::from_fen("3k5/9/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
    for (iccs, off, fsf_text, cn, vi) in [
        ("g7f7", "P+=4", "13=4", "前兵平四", "Tốt trước bình 4"),
        ("g6f6", "P3=4", "23=4", "中兵平四", "Tốt giữa bình 4"),
        ("g5f5", "P-=4", "33=4", "后兵平四", "Tốt sau bình 4"),
    ] {
        same(&pos, iccs, Notation::Wxf, &simplified(), off);
        same(&pos, iccs, Notation::Wxf, &fsf(), fsf_text);
        same(&pos, iccs, Notation::Chinese, &simplified(), cn);
        same(&pos, iccs, Notation::Vietnamese, &simplified(), vi);
    }
    // Forward moves: the middle soldier keeps its file digit.
    same(&pos, "g7g8", Notation::Wxf, &simplified(), "P++1");
}

/// N-WXF-PAWNS: soldiers doubled on two files.
#[test]
fn n_wxf_pawns_soldiers_on_two_files() {
    let pos = Position::from_fen("3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
    for (iccs, off, fsf_text, cn) in [
        ("g7f7", "3+=4", "13=4", "前三平四"),
        ("g6f6", "33=4", "23=4", "中三平四"),
        ("g5f5", "3-=4", "33=4", "后三平四"),
        ("c7d7", "7+=6", "17=6", "前七平六"),
        ("c6d6", "7-=6", "27=6", "后七平六"),
    ] {
        same(&pos, iccs, Notation::Wxf, &simplified(), off);
        same(&pos, iccs, Notation::Wxf, &fsf(), fsf_text);
        same(&pos, iccs, Notation::Chinese, &simplified(), cn);
        // No Vietnamese convention: the WXF form is written (section 12 item 8).
        same(&pos, iccs, Notation::Vietnamese, &simplified(), off);
    }
    // The older five-character Chinese form is read too.
    assert_eq!(
        parse(&pos, "前兵三平四", Notation::Chinese).unwrap(),
        mv("g7f7")
    );
    // `33` means the middle soldier officially, the third from the front in fsf style.
    assert_eq!(parse(&pos, "33=4", Notation::Wxf).unwrap(), mv("g6f6"));
    assert_eq!(
        parse_with(&pos, "33=4", Notation::Wxf, &fsf()).unwrap(),
        mv("g5f5")
    );
}

/// N-WXF-PAWNS, N-CN-PAWNS: four and five soldiers on one file.
#[test]
fn n_wxf_pawns_four_and_five_soldiers_on_one_file() {
    let pos = Position::from_fen("3k5/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
    for (iccs, off, fsf_text, cn) in [
        ("g8f8", "++=4", "13=4", "前兵平四"),
        ("g7f7", "P+=4", "23=4", "二兵平四"),
        ("g6f6", "P-=4", "33=4", "三兵平四"),
        ("g5f5", "--=4", "43=4", "四兵平四"),
    ] {
        same(&pos, iccs, Notation::Wxf, &simplified(), off);
        same(&pos, iccs, Notation::Wxf, &fsf(), fsf_text);
        same(&pos, iccs, Notation::Chinese, &simplified(), cn);
    }
    let pos = Position::from_fen("3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap();
    for (iccs, off, cn) in [
        ("g9f9", "++=4", "前兵平四"),
        ("g8f8", "P+=4", "二兵平四"),
        ("g7f7", "P3=4", "三兵平四"),
        ("g6f6", "P-=4", "四兵平四"),
        ("g5f5", "--=4", "五兵平四"),
    ] {
        same(&pos, iccs, Notation::Wxf, &simplified(), off);
        same(&pos, iccs, Notation::Chinese, &simplified(), cn);
    }
}

#[test]
fn black_soldiers_stacked() {
    // Black soldiers c4, c3, c2: Black's front is the lowest rank.
    let pos = Position::from_fen("3k5/9/9/9/9/2p6/2p6/2p6/9/4K4 b - - 0 1").unwrap();
    same(&pos, "c2d2", Notation::Wxf, &simplified(), "P+=4");
    same(&pos, "c3d3", Notation::Wxf, &simplified(), "P3=4");
    same(&pos, "c4d4", Notation::Wxf, &simplified(), "P-=4");
    same(&pos, "c2d2", Notation::Chinese, &simplified(), "前卒平4");
    same(&pos, "c3d3", Notation::Chinese, &traditional(), "中卒平4");
    same(&pos, "c4d4", Notation::Chinese, &traditional(), "後卒平4");
}

#[test]
fn detect_names_each_notation() {
    assert_eq!(detect("h2e2"), Some(Notation::Iccs));
    assert_eq!(detect("H2-E2"), Some(Notation::Iccs));
    assert_eq!(detect("C2=5"), Some(Notation::Wxf));
    assert_eq!(detect("++=4"), Some(Notation::Wxf));
    assert_eq!(detect("炮2平5"), Some(Notation::Chinese));
    assert_eq!(detect("Pháo 2 bình 5"), Some(Notation::Vietnamese));
    assert_eq!(detect("Ma 2 tien 3"), Some(Notation::Vietnamese));
    assert_eq!(detect(""), None);
    assert_eq!(detect("xyz!"), None);
}

#[test]
fn error_malformed_text_points_at_the_character() {
    let pos = Position::startpos();
    let e = parse(&pos, "C2*5", Notation::Wxf).unwrap_err();
    let MoveTextError::Syntax(e) = e else {
        panic!("{e}")
    };
    assert_eq!(
        (e.position, e.kind.clone()),
        (3, SyntaxErrorKind::ExpectedDirection)
    );
    let MoveTextError::Syntax(e) = parse(&pos, "炮二平十", Notation::Chinese).unwrap_err()
    else {
        panic!()
    };
    assert_eq!((e.position, e.kind), (4, SyntaxErrorKind::ExpectedNumber));
    let MoveTextError::Syntax(e) = parse(&pos, "h2j2", Notation::Iccs).unwrap_err() else {
        panic!()
    };
    assert_eq!(e.position, 3);
    let MoveTextError::Syntax(e) = parse(&pos, "Pháo 2 nhảy 5", Notation::Vietnamese).unwrap_err()
    else {
        panic!()
    };
    assert_eq!(
        (e.position, e.kind),
        (8, SyntaxErrorKind::ExpectedDirection)
    );
    assert!(matches!(
        parse(&pos, "garbage!", None),
        Err(MoveTextError::Syntax(_))
    ));
}

#[test]
fn error_unknown_piece() {
    let pos = Position::startpos();
    let MoveTextError::Syntax(e) = parse(&pos, "X2+1", Notation::Wxf).unwrap_err() else {
        panic!()
    };
    assert_eq!((e.position, e.kind), (1, SyntaxErrorKind::UnknownPiece));
    let MoveTextError::Syntax(e) = parse(&pos, "龍二平五", Notation::Chinese).unwrap_err()
    else {
        panic!()
    };
    assert_eq!((e.position, e.kind), (1, SyntaxErrorKind::UnknownPiece));
    let MoveTextError::Syntax(e) = parse(&pos, "Rồng 2 bình 5", Notation::Vietnamese).unwrap_err()
    else {
        panic!()
    };
    assert_eq!(e.kind, SyntaxErrorKind::UnknownPiece);
}

#[test]
fn error_no_such_piece_on_that_file() {
    let pos = Position::startpos();
    let e = parse(&pos, "C1=5", Notation::Wxf).unwrap_err();
    assert!(matches!(e, MoveTextError::NoSuchPiece { .. }), "{e}");
    assert!(e.to_string().contains("on file 1"), "{e}");
    let e = parse(&pos, "R+=4", Notation::Wxf).unwrap_err();
    assert!(matches!(e, MoveTextError::NoSuchPiece { .. }), "{e}");
}

#[test]
fn error_illegal_says_why() {
    let pos = Position::startpos();
    let e = parse(&pos, "R1+4", Notation::Wxf).unwrap_err();
    assert!(
        matches!(
            e,
            MoveTextError::Illegal {
                reason: PlayError::BadMovement { .. },
                ..
            }
        ),
        "{e}"
    );
    // The horse on e1 is pinned against the general by the black chariot.
    let pos = Position::from_fen("3k5/9/9/9/4r4/9/9/9/4N4/4K4 w - - 0 1").unwrap();
    let e = parse(&pos, "H5+6", Notation::Wxf).unwrap_err();
    assert!(
        matches!(
            e,
            MoveTextError::Illegal {
                reason: PlayError::LeavesGeneralInCheck { .. },
                ..
            }
        ),
        "{e}"
    );
    assert!(
        e.to_string().contains("leaves the red general in check"),
        "{e}"
    );
    let e = parse(&pos, "H5+9", Notation::Wxf).unwrap_err();
    assert!(matches!(e, MoveTextError::Impossible { .. }), "{e}");
    // Formatting refuses illegal moves too.
    assert!(matches!(
        format(&pos, mv("e1f3"), Notation::Wxf, &Style::default()),
        Err(MoveTextError::Illegal { .. })
    ));
}

#[test]
fn error_ambiguous_lists_candidates() {
    let pos = Position::from_fen("4k4/9/9/9/3R5/9/9/3R5/9/5K3 w - - 0 1").unwrap();
    let e = parse(&pos, "R6+1", Notation::Wxf).unwrap_err();
    let MoveTextError::Ambiguous { candidates, .. } = &e else {
        panic!("{e}")
    };
    assert_eq!(candidates, &vec![mv("d2d3"), mv("d5d6")]);
    assert!(e.to_string().contains("d2d3, d5d6"), "{e}");
    // With the file digit only one of them can go 4 forward (the other is blocked): fine.
    assert_eq!(parse(&pos, "R6+4", Notation::Wxf).unwrap(), mv("d5d9"));
}

/// Found by the `move_text` fuzz target (fuzz/regressions/move_text-compact-vietnamese):
/// the compact Vietnamese form is read only with its style; the shape-only
/// reader `parse_text` reads the long forms and refuses it.
#[test]
fn compact_vietnamese_is_read_only_with_its_style() {
    let pos = Position::startpos();
    let compact = Style {
        vietnamese: VietnameseStyle::short(),
        ..Style::default()
    };
    assert_eq!(
        parse_with(&pos, "P8/1", Notation::Vietnamese, &compact).unwrap(),
        mv("b2b1")
    );
    assert!(parse(&pos, "P8/1", Notation::Vietnamese).is_err());
    assert!(xiangqi_notation::parse_text(
        "P8/1",
        Some(Notation::Vietnamese),
        xiangqi_notation::WxfConvention::Official
    )
    .is_err());
}
