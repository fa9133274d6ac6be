//! FEN reading (N-FEN, N-FEN-VALID): one test per error class, asserting the
//! variant and what it names, and the accepted variants of the format.

use xiangqi_core::{Color, FenError, Piece, PieceKind, Position, Square, MAX_FEN_LEN, START_FEN};

fn err(fen: &str) -> FenError {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("{fen:?} was accepted as {pos:?}"),
        Err(e) => {
            // Every error explains itself in words, naming FEN.
            assert!(e.to_string().starts_with("invalid FEN"), "{e}");
            e
        }
    }
}

#[test]
fn empty_text() {
    assert_eq!(err(""), FenError::Empty);
    assert_eq!(err("   \t "), FenError::Empty);
    assert_eq!(FenError::Empty.kind_name(), "empty");
}

#[test]
fn too_long() {
    let fen = format!("{START_FEN}{}", " ".repeat(MAX_FEN_LEN));
    assert_eq!(err(&fen), FenError::TooLong { len: fen.len() });
    // Exactly the limit is still read.
    let padded = format!("{START_FEN}{}", " ".repeat(MAX_FEN_LEN - START_FEN.len()));
    assert_eq!(padded.len(), MAX_FEN_LEN);
    assert!(Position::from_fen(&padded).is_ok());
}

#[test]
fn wrong_rank_count() {
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w"),
        FenError::WrongRankCount { found: 9 }
    );
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w"),
        FenError::WrongRankCount { found: 11 }
    );
}

#[test]
fn wrong_rank_width() {
    // Rank 7 (third from the top) covers 8 points.
    assert_eq!(
        err("rnbakabnr/9/1c5c/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::WrongRankWidth { rank: 7, width: 8 }
    );
    // Rank 0 too wide.
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w"),
        FenError::WrongRankWidth { rank: 0, .. }
    ));
    // An empty rank.
    assert_eq!(
        err("rnbakabnr//1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::WrongRankWidth { rank: 8, width: 0 }
    );
}

#[test]
fn unknown_piece() {
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w"),
        FenError::UnknownPiece { ch: 'X', rank: 0 }
    );
    // Chess letters that are not xiangqi pieces, and the digit 0.
    assert!(matches!(
        err("rnbqkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::UnknownPiece { ch: 'q', rank: 9 }
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/09/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::UnknownPiece { ch: '0', rank: 4 }
    ));
}

#[test]
fn too_many_pieces() {
    // Three red chariots.
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2R2C1/9/RNBAKABNR w"),
        FenError::TooManyPieces {
            color: Color::Red,
            kind: PieceKind::Chariot,
            count: 3,
            max: 2
        }
    );
    // Six black soldiers.
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/4p4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        FenError::TooManyPieces {
            color: Color::Black,
            kind: PieceKind::Soldier,
            count: 6,
            ..
        }
    ));
    // Two generals of one side.
    assert!(matches!(
        err("3k1k3/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::TooManyPieces {
            color: Color::Black,
            kind: PieceKind::General,
            ..
        }
    ));
}

#[test]
fn missing_general() {
    assert_eq!(
        err("9/9/9/9/9/9/9/9/9/4K4 w"),
        FenError::MissingGeneral(Color::Black)
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/9 w"),
        FenError::MissingGeneral(Color::Red)
    );
}

#[test]
fn general_outside_palace() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/K8 w"),
        FenError::GeneralOutsidePalace {
            color: Color::Red,
            square: Square::A0
        }
    );
    // Black's general in Red's palace.
    assert_eq!(
        err("9/9/9/9/9/9/9/4k4/9/3K5 w"),
        FenError::GeneralOutsidePalace {
            color: Color::Black,
            square: Square::E2
        }
    );
}

#[test]
fn unreachable_advisor_square() {
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/9/3KA4 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Red, PieceKind::Advisor),
            square: Square::E0
        }
    );
    assert_eq!(
        err("3k5/9/9/9/9/a8/9/9/9/4K4 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Black, PieceKind::Advisor),
            square: Square::A4
        }
    );
}

#[test]
fn unreachable_elephant_square() {
    // e1 is not an elephant point; c5 is, but only for Black (R-MOVE-ELEPHANT).
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4B4/3K5 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Red, PieceKind::Elephant),
            square: Square::E1
        }
    );
    assert_eq!(
        err("4k4/9/9/9/2B6/9/9/9/9/3K5 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Red, PieceKind::Elephant),
            square: Square::C5
        }
    );
}

#[test]
fn unreachable_soldier_square() {
    // Behind its start rank, and on an odd file before the river (R-MOVE-SOLDIER).
    assert_eq!(
        err("4k4/9/9/9/9/9/9/4P4/9/3K5 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Red, PieceKind::Soldier),
            square: Square::E2
        }
    );
    assert_eq!(
        err("4k4/9/9/9/9/9/1P7/9/9/3K5 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Red, PieceKind::Soldier),
            square: Square::B3
        }
    );
    assert_eq!(
        err("3k5/9/4p4/9/9/9/9/9/9/4K4 w"),
        FenError::UnreachableSquare {
            piece: Piece::new(Color::Black, PieceKind::Soldier),
            square: Square::E7
        }
    );
    // Crossed soldiers may stand anywhere on the far half, the last rank included.
    assert!(Position::from_fen("1P1k5/9/9/9/9/9/9/9/9/5K3 w").is_ok());
    assert!(Position::from_fen("3k5/9/9/9/1P7/9/9/9/9/5K3 w").is_ok());
}

#[test]
fn generals_facing() {
    assert_eq!(err("4k4/9/9/9/9/9/9/9/9/4K4 w"), FenError::GeneralsFacing);
    // One piece between them is fine.
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w").is_ok());
}

#[test]
fn opponent_in_check() {
    // Red to move while Black's general stands in check from the chariot (R-LEGAL-POSITION).
    assert_eq!(
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        FenError::OpponentInCheck(Color::Black)
    );
    // The same placement with Black to move is an ordinary check.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
    assert!(pos.is_check());
}

#[test]
fn bad_side_to_move() {
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1"),
        FenError::BadSideToMove("x".to_owned())
    );
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR red"),
        FenError::BadSideToMove(s) if s == "red"
    ));
}

#[test]
fn bad_counter() {
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -1 1"),
        FenError::BadCounter { value, .. } if value == "-1"
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 x"),
        FenError::BadCounter { value, .. } if value == "x"
    ));
    assert!(matches!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999 1"),
        FenError::BadCounter { .. }
    ));
}

#[test]
fn too_many_fields() {
    assert_eq!(
        err("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra"),
        FenError::TooManyFields(7)
    );
}

#[test]
fn error_kind_names_are_distinct() {
    let errors = [
        err(""),
        err(&"9/".repeat(200)),
        err("9/9 w"),
        err("8/9/9/9/9/9/9/9/9/9 w"),
        err("x8/9/9/9/9/9/9/9/9/9 w"),
        err("3k5/9/9/9/9/9/9/9/9/4K4 x"),
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - y"),
        err("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 z"),
        err("3k1k3/9/9/9/9/9/9/9/9/4K4 w"),
        err("9/9/9/9/9/9/9/9/9/4K4 w"),
        err("4k4/9/9/9/9/9/9/9/9/K8 w"),
        err("4k4/9/9/9/9/9/9/9/9/3KA4 w"),
        err("4k4/9/9/9/9/9/9/9/9/4K4 w"),
        err("4k4/9/9/9/9/9/9/9/4R4/3K5 w"),
        xiangqi_core::Diagram::from_fen("5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w")
            .unwrap()
            .problems(xiangqi_core::Validation::Strict)[0]
            .clone(),
    ];
    let names: std::collections::BTreeSet<&str> = errors.iter().map(FenError::kind_name).collect();
    assert_eq!(names.len(), errors.len(), "{names:?}");
}

#[test]
fn accepts_r_for_red() {
    let pos =
        Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 0 1")
            .unwrap();
    assert_eq!(pos, Position::startpos());
    assert_eq!(pos.side_to_move(), Color::Red);
    // Written back in the standard form.
    assert_eq!(pos.to_fen(), START_FEN);
}

#[test]
fn accepts_missing_trailing_fields() {
    let placement = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    for fen in [
        placement.to_owned(),
        format!("{placement} w"),
        format!("{placement} w -"),
        format!("{placement} w - -"),
        format!("{placement} w - - 0"),
    ] {
        assert_eq!(
            Position::from_fen(&fen).unwrap(),
            Position::startpos(),
            "{fen}"
        );
    }
    let pos = Position::from_fen(&format!("{placement} b - - 7")).unwrap();
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.halfmove_clock(), 7);
    assert_eq!(pos.fullmove_number(), 1);
}

#[test]
fn reads_counters() {
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 17 42").unwrap();
    assert_eq!(pos.halfmove_clock(), 17);
    assert_eq!(pos.fullmove_number(), 42);
    assert_eq!(pos.to_fen(), "4k4/9/9/9/9/9/9/9/4A4/4K4 b - - 17 42");
}

#[test]
fn accepts_elephant_and_horse_letters_e_and_h() {
    let pos =
        Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1")
            .unwrap();
    assert_eq!(pos, Position::startpos());
    assert_eq!(
        pos.piece_at(Square::C0),
        Some(Piece::new(Color::Red, PieceKind::Elephant))
    );
    assert_eq!(
        pos.piece_at(Square::H9),
        Some(Piece::new(Color::Black, PieceKind::Horse))
    );
}

#[test]
fn accepts_the_wxf_file_form() {
    let pos = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r")
        .unwrap();
    assert_eq!(pos, Position::startpos());
}

#[test]
fn surrounding_whitespace_is_ignored() {
    let pos = Position::from_fen(&format!("  {START_FEN}\n")).unwrap();
    assert_eq!(pos, Position::startpos());
}

#[test]
fn from_str_and_serde_use_fen() {
    let pos: Position = START_FEN.parse().unwrap();
    assert_eq!(pos, Position::startpos());
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(json, format!("\"{START_FEN}\""));
    let back: Position = serde_json::from_str(&json).unwrap();
    assert_eq!(back, pos);
    let bad = serde_json::from_str::<Position>("\"9/9 w\"").unwrap_err();
    assert!(bad.to_string().contains("invalid FEN"), "{bad}");
}
