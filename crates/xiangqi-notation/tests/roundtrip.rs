//! Must hold (issue 3): for positions from random playouts and every legal
//! move in them, in each notation and style, `parse(format(m)) == m`, and the
//! texts of a position's legal moves are all different.

use std::collections::HashMap;

use xiangqi_core::{Move, Position};
use xiangqi_notation::{
    format, parse_with, ChineseStyle, Notation, Script, SidewaysSign, Style, VietnameseStyle,
    WxfConvention, WxfStyle,
};

/// The core's seeded generator, so failures reproduce.
use xiangqi_core::SplitMix64 as Rng;

fn styles() -> Vec<(Notation, Style, &'static str)> {
    let d = Style::default();
    vec![
        (Notation::Iccs, d, "iccs"),
        (Notation::Wxf, d, "wxf official"),
        (
            Notation::Wxf,
            Style {
                wxf: WxfStyle::fsf(),
                ..d
            },
            "wxf fsf",
        ),
        (
            Notation::Wxf,
            Style {
                wxf: WxfStyle {
                    convention: WxfConvention::Official,
                    sideways: SidewaysSign::Dot,
                    black_lowercase: true,
                },
                ..d
            },
            "wxf dot lowercase",
        ),
        (Notation::Chinese, d, "chinese simplified"),
        (
            Notation::Chinese,
            Style {
                chinese: ChineseStyle::traditional(),
                ..d
            },
            "chinese traditional",
        ),
        (
            Notation::Chinese,
            Style {
                chinese: ChineseStyle {
                    script: Script::Traditional,
                    red_black_sets: false,
                },
                ..d
            },
            "chinese traditional one set",
        ),
        (Notation::Vietnamese, d, "vietnamese"),
        (
            Notation::Vietnamese,
            Style {
                vietnamese: VietnameseStyle {
                    diacritics: false,
                    ..VietnameseStyle::default()
                },
                ..d
            },
            "vietnamese plain",
        ),
        (
            Notation::Vietnamese,
            Style {
                vietnamese: VietnameseStyle::short(),
                ..d
            },
            "vietnamese short",
        ),
    ]
}

fn check_position(pos: &Position, styles: &[(Notation, Style, &'static str)]) {
    let moves = pos.legal_move_vec();
    for (notation, style, name) in styles {
        let mut seen: HashMap<String, Move> = HashMap::new();
        for &mv in &moves {
            let text = format(pos, mv, *notation, style).unwrap();
            let back = parse_with(pos, &text, *notation, style).unwrap_or_else(|e| {
                panic!(
                    "{name}: {} {mv} -> {text:?} does not read back: {e}",
                    pos.to_fen()
                )
            });
            assert_eq!(back, mv, "{name}: {} {mv} -> {text:?}", pos.to_fen());
            // Auto-detection reads it too, except FSF two-digit forms are detected in the official meaning, and the
            // compact Vietnamese form is never detected: its letters are WXF's.
            let fsf_wxf = style.wxf.convention == WxfConvention::Fsf && *notation == Notation::Wxf;
            if !fsf_wxf && !style.vietnamese.short {
                let auto = parse_with(pos, &text, None, style)
                    .unwrap_or_else(|e| panic!("{name}: {} {text:?} auto: {e}", pos.to_fen()));
                assert_eq!(auto, mv, "{name}: {} {text:?} auto-detected", pos.to_fen());
            }
            if let Some(other) = seen.insert(text.clone(), mv) {
                panic!(
                    "{name}: {} {mv} and {other} both written {text:?}",
                    pos.to_fen()
                );
            }
        }
    }
}

#[test]
fn random_playouts_round_trip_and_unique_in_every_notation() {
    let styles = styles();
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut positions = 0;
    for _game in 0..8 {
        let mut pos = Position::startpos();
        for _ply in 0..100 {
            check_position(&pos, &styles);
            positions += 1;
            let moves = pos.legal_move_vec();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
    assert!(positions > 400);
}

/// Random placements crowded with soldiers: three to five on one file,
/// doubled on two files (N-WXF-PAWNS, N-CN-PAWNS), tandem heavy pieces.
#[test]
fn crowded_random_positions_round_trip_and_unique() {
    let styles = styles();
    let mut rng = Rng::new(12345);
    let (mut checked, mut with_three, mut with_doubled) = (0, 0, 0);
    while checked < 400 {
        let mut board = [['.'; 9]; 10];
        board[rng.below(3)][3 + rng.below(3)] = 'k';
        board[7 + rng.below(3)][3 + rng.below(3)] = 'K';
        let mut place = |c: char, rng: &mut Rng, ranks: std::ops::Range<usize>, files: &[usize]| {
            for _ in 0..8 {
                let r = ranks.start + rng.below(ranks.len());
                let f = files[rng.below(files.len())];
                if board[r][f] == '.' {
                    board[r][f] = c;
                    return;
                }
            }
        };
        // Soldiers across the river bunched on two files (board rows: 0 = rank 9).
        let files = [rng.below(9), rng.below(9)];
        for _ in 0..5 {
            place('P', &mut rng, 0..5, &files);
        }
        let bfiles = [rng.below(9), rng.below(9)];
        for _ in 0..5 {
            place('p', &mut rng, 5..10, &bfiles);
        }
        for c in ['R', 'R', 'C', 'N', 'r', 'c', 'n', 'n'] {
            let f = rng.below(9);
            place(c, &mut rng, 0..10, &[f]);
        }
        let fen: Vec<String> = board
            .iter()
            .map(|row| {
                let mut s = String::new();
                let mut empty = 0;
                for &c in row {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(c);
                    }
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let Ok(pos) = Position::from_fen(&format!("{} {side} - - 0 1", fen.join("/"))) else {
            continue;
        };
        check_position(&pos, &styles);
        checked += 1;
        let (three, doubled) = soldier_shape(&pos);
        with_three += usize::from(three);
        with_doubled += usize::from(doubled);
    }
    // The sample really exercises the tandem-soldier rules.
    assert!(
        with_three > 50 && with_doubled > 50,
        "{with_three} {with_doubled}"
    );
}

/// (some file holds three or more soldiers of the side to move, two files hold two or more)
fn soldier_shape(pos: &Position) -> (bool, bool) {
    use xiangqi_core::{Piece, PieceKind};
    let mut counts = [0; 9];
    for sq in pos
        .squares_of(Piece::new(pos.side_to_move(), PieceKind::Soldier))
        .iter()
    {
        counts[sq.file().index() as usize] += 1;
    }
    (
        counts.iter().any(|&c| c >= 3),
        counts.iter().filter(|&&c| c >= 2).count() >= 2,
    )
}

#[test]
fn reference_positions_round_trip_and_unique() {
    let styles = styles();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/legal.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    for line in text.lines().filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let pos = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
        check_position(&pos, &styles);
    }
}
