//! Games of the CCPD sample whose database `[ECCO]` tag differs from our
//! code, one of each kind, with the code the reference implementation of
//! the definitions (vschess's WXF2ECCO, run by
//! `scripts/compare_with_vschess.sh`) gives them: ours must stay the
//! reference's, not drift to the tags (docs/ecco.md, "Agreement with real
//! data").

use xiangqi_core::Move;
use xiangqi_ecco::classify_moves;

/// (the database's tag, the reference's code, the file, its first 20 moves)
const GAMES: [(&str, &str, &str, &str); 6] = [
    (
        "C45",
        "C46",
        "全盤戰術/00000339",
        "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 c3c4 h7i7 h6g6 i7i8 b0c2 d9e8 b2a2 a9b9 a0b0 i8g8 g6f6 b7b3",
    ),
    (
        // Black's right straight chariot one move later (9... 车1平2).
        "C45",
        "C46",
        "呂欽/00002952",
        "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 g6g5 h0h6 h7i7 h6g6 i7i8 b0c2 d9e8 b2a2 i8g8 g6f6 a9b9 a0b0 g7h5",
    ),
    (
        "B55",
        "B56",
        "全盤戰術/00000285",
        "h2e2 b9c7 h0g2 h7f7 i0h0 h9g7 g3g4 c6c5 b0a2 g9e7 b2c2 a9b9 a0b0 b7b3 c3c4 c5c4 g4g5 g6g5 h0h4 b3c3",
    ),
    (
        "C85",
        "C86",
        "胡榮華/00000562",
        "h2e2 h9g7 h0g2 i9h9 c3c4 g6g5 b0c2 b9c7 b2b4 g7h5 c2d4 c9e7 i0i1 h9h8 a0a1 a9a8 e2c2 b7b9 g0e2 b9c9",
    ),
    (
        "C86",
        "C85",
        "李來群/00000746",
        "h2e2 b9c7 h0g2 h9g7 c3c4 g6g5 b0c2 i9h9 b2b4 g7h5 c2d4 c9e7 e2c2 a6a5 a0a1 h9h8 i0i1 a9a6 i1f1 b7a7",
    ),
    (
        "C23",
        "C25",
        "李來群/00000552",
        "h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b0c2 c6c5 a0a1 b7b6 h6h4 c9e7 g3g4 b6b5 c3c4 h7h5 a1d1 d9e8",
    ),
];

#[test]
fn where_the_database_tags_otherwise_our_code_is_the_reference_implementations() {
    for (tag, reference, file, moves) in GAMES {
        let moves: Vec<Move> = moves.split(' ').map(|m| m.parse().unwrap()).collect();
        let ours = classify_moves(&moves).unwrap().unwrap();
        assert_eq!(
            ours.code, reference,
            "{file}: tagged {tag}, the reference gives {reference}"
        );
    }
}
