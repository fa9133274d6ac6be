//! Property tests over random playouts (random legal games of up to 60 plies
//! from the start position and from every fixture FEN).
//!
//! Checked at every ply of every playout:
//! * make then unmake restores the position bit for bit, hash included, for every legal move;
//! * the incremental hash equals [`Position::compute_hash`];
//! * FEN write then read is the identity;
//! * the legal and pseudo-legal move sets equal those of an independent, slow,
//!   brute-force rules model written here from the rules text (R-MOVE-*, R-LEGAL-*),
//!   in both directions; `is_check`, `checkers`, `gives_check`, `status`,
//!   `count_legal_moves`, `legal_captures`, `legal_moves_from` and
//!   `check_legal` agree with it.
//!
//! `PROPTEST_CASES=N` runs more playouts than the default.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use proptest::prelude::*;
use xiangqi_core::random_position;
use xiangqi_core::{
    BoardStatus, Color, Move, MoveList, PieceKind, PlayError, Position, SplitMix64, Square,
    SquareSet, Validation,
};

/// An independent rules model: a plain 9x10 array and the movement rules
/// written out long-hand, sharing nothing with the crate's generator but the
/// `Color`/`PieceKind` labels.
mod brute {
    use xiangqi_core::{Color, PieceKind, Position, Square};

    pub type Cell = Option<(Color, PieceKind)>;

    #[derive(Clone)]
    pub struct Board {
        /// `cells[rank][file]`.
        pub cells: [[Cell; 9]; 10],
        pub side: Color,
    }

    /// (file, rank) pairs.
    pub type Point = (i32, i32);

    fn on_board((f, r): Point) -> bool {
        (0..9).contains(&f) && (0..10).contains(&r)
    }

    fn in_palace(color: Color, (f, r): Point) -> bool {
        let ranks = match color {
            Color::Red => 0..=2,
            Color::Black => 7..=9,
        };
        (3..=5).contains(&f) && ranks.contains(&r)
    }

    fn own_half(color: Color, (_, r): Point) -> bool {
        match color {
            Color::Red => r <= 4,
            Color::Black => r >= 5,
        }
    }

    impl Board {
        pub fn from_position(pos: &Position) -> Board {
            let mut cells = [[None; 9]; 10];
            for (r, row) in cells.iter_mut().enumerate() {
                for (f, cell) in row.iter_mut().enumerate() {
                    let sq = Square::from_coords(f as u8, r as u8).unwrap();
                    *cell = pos.piece_at(sq).map(|p| (p.color, p.kind));
                }
            }
            Board {
                cells,
                side: pos.side_to_move(),
            }
        }

        pub fn at(&self, (f, r): Point) -> Cell {
            self.cells[r as usize][f as usize]
        }

        fn empty(&self, p: Point) -> bool {
            self.at(p).is_none()
        }

        /// Destinations of the piece on `from` by its movement rules alone
        /// (R-MOVE-*), ignoring whose turn it is and any check.
        pub fn destinations(&self, from: Point) -> Vec<Point> {
            let Some((color, kind)) = self.at(from) else {
                return Vec::new();
            };
            let (f, r) = from;
            let mut out = Vec::new();
            let add = |p: Point, out: &mut Vec<Point>| {
                if on_board(p) && !matches!(self.at(p), Some((c, _)) if c == color) {
                    out.push(p);
                }
            };
            match kind {
                PieceKind::General => {
                    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let to = (f + df, r + dr);
                        if in_palace(color, to) {
                            add(to, &mut out);
                        }
                    }
                }
                PieceKind::Advisor => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let to = (f + df, r + dr);
                        if in_palace(color, to) {
                            add(to, &mut out);
                        }
                    }
                }
                PieceKind::Elephant => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let eye = (f + df, r + dr);
                        let to = (f + 2 * df, r + 2 * dr);
                        if on_board(to) && own_half(color, to) && self.empty(eye) {
                            add(to, &mut out);
                        }
                    }
                }
                PieceKind::Horse => {
                    for (df, dr) in [
                        (1, 2),
                        (-1, 2),
                        (1, -2),
                        (-1, -2),
                        (2, 1),
                        (2, -1),
                        (-2, 1),
                        (-2, -1),
                    ] {
                        let to = (f + df, r + dr);
                        // The leg is the first point of the long step.
                        let leg = if dr.abs() == 2 {
                            (f, r + dr / 2)
                        } else {
                            (f + df / 2, r)
                        };
                        if on_board(to) && self.empty(leg) {
                            add(to, &mut out);
                        }
                    }
                }
                PieceKind::Chariot | PieceKind::Cannon => {
                    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let mut p = (f + df, r + dr);
                        let mut screens = 0;
                        while on_board(p) {
                            match (self.at(p), kind, screens) {
                                (None, _, 0) => out.push(p),
                                (None, _, _) => {}
                                (Some((c, _)), PieceKind::Chariot, _) => {
                                    if c != color {
                                        out.push(p);
                                    }
                                    break;
                                }
                                (Some(_), _, 0) => screens = 1,
                                (Some((c, _)), _, _) => {
                                    if c != color {
                                        out.push(p);
                                    }
                                    break;
                                }
                            }
                            p = (p.0 + df, p.1 + dr);
                        }
                    }
                }
                PieceKind::Soldier => {
                    let forward = if color == Color::Red { 1 } else { -1 };
                    add((f, r + forward), &mut out);
                    if !own_half(color, from) {
                        add((f - 1, r), &mut out);
                        add((f + 1, r), &mut out);
                    }
                }
            }
            out
        }

        pub fn general(&self, color: Color) -> Option<Point> {
            (0..10)
                .flat_map(|r| (0..9).map(move |f| (f, r)))
                .find(|&p| self.at(p) == Some((color, PieceKind::General)))
        }

        /// Enemy pieces that could capture `color`'s general by a normal move.
        pub fn checkers(&self, color: Color) -> Vec<Point> {
            let Some(g) = self.general(color) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for r in 0..10 {
                for f in 0..9 {
                    if matches!(self.at((f, r)), Some((c, _)) if c != color)
                        && self.destinations((f, r)).contains(&g)
                    {
                        out.push((f, r));
                    }
                }
            }
            out
        }

        /// Pieces of `by` that could capture on `at` by their movement rules,
        /// as if an enemy piece stood there (so protection counts too). Not
        /// for a general's point (the facing rule is `generals_face`).
        pub fn attackers(&self, at: Point, by: Color) -> Vec<Point> {
            let mut probe = self.clone();
            let enemy = match by {
                Color::Red => Color::Black,
                Color::Black => Color::Red,
            };
            let kind = self.at(at).map_or(PieceKind::Chariot, |(_, k)| k);
            probe.cells[at.1 as usize][at.0 as usize] = Some((enemy, kind));
            let mut out = Vec::new();
            for r in 0..10 {
                for f in 0..9 {
                    if matches!(self.at((f, r)), Some((c, _)) if c == by)
                        && (f, r) != at
                        && probe.destinations((f, r)).contains(&at)
                    {
                        out.push((f, r));
                    }
                }
            }
            out
        }

        /// R-LEGAL-FACING: both generals on one file with nothing between.
        pub fn generals_face(&self) -> bool {
            let (Some(a), Some(b)) = (self.general(Color::Red), self.general(Color::Black)) else {
                return false;
            };
            a.0 == b.0 && (a.1.min(b.1) + 1..a.1.max(b.1)).all(|r| self.empty((a.0, r)))
        }

        /// `color`'s general is attacked, or the generals face each other.
        pub fn exposed(&self, color: Color) -> bool {
            !self.checkers(color).is_empty() || self.generals_face()
        }

        pub fn apply(&self, from: Point, to: Point) -> Board {
            let mut next = self.clone();
            next.cells[to.1 as usize][to.0 as usize] = self.at(from);
            next.cells[from.1 as usize][from.0 as usize] = None;
            next.side = match self.side {
                Color::Red => Color::Black,
                Color::Black => Color::Red,
            };
            next
        }

        /// R-LEGAL-SELFCHECK and R-LEGAL-FACING by brute force.
        pub fn is_legal(&self, from: Point, to: Point) -> bool {
            matches!(self.at(from), Some((c, _)) if c == self.side)
                && self.destinations(from).contains(&to)
                && !self.apply(from, to).exposed(self.side)
        }

        /// Every (from, to) of the side to move by movement rules alone.
        pub fn pseudo_moves(&self) -> Vec<(Point, Point)> {
            let mut out = Vec::new();
            for r in 0..10 {
                for f in 0..9 {
                    if matches!(self.at((f, r)), Some((c, _)) if c == self.side) {
                        for to in self.destinations((f, r)) {
                            out.push(((f, r), to));
                        }
                    }
                }
            }
            out
        }
    }
}

fn point(sq: Square) -> brute::Point {
    (sq.file().index() as i32, sq.rank().index() as i32)
}

fn square(p: brute::Point) -> Square {
    Square::from_coords(p.0 as u8, p.1 as u8).expect("on the board")
}

fn to_move((from, to): (brute::Point, brute::Point)) -> Move {
    Move::new(square(from), square(to))
}

fn move_set(list: &[Move]) -> BTreeSet<String> {
    list.iter().map(Move::to_string).collect()
}

/// The start position and every position of the shared fixtures.
fn start_fens() -> &'static [String] {
    static FENS: OnceLock<Vec<String>> = OnceLock::new();
    FENS.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut fens = vec![xiangqi_core::START_FEN.to_owned()];
        for name in ["perft.jsonl", "legal.jsonl"] {
            let text = std::fs::read_to_string(dir.join(name)).expect("fixture readable");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let rec: serde_json::Value = serde_json::from_str(line).expect("JSON line");
                fens.push(rec["fen"].as_str().expect("fen field").to_owned());
            }
        }
        fens
    })
}

/// Plays a random legal game: `choices[i]` picks the i-th move among the legal
/// ones. Calls `visit` on every position reached, the first included.
fn playout(fen_index: usize, choices: &[u16], mut visit: impl FnMut(&Position, usize)) {
    let fens = start_fens();
    let fen = &fens[fen_index % fens.len()];
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("fixture {fen}: {e}"));
    let mut list = MoveList::new();
    visit(&pos, 0);
    for (ply, &choice) in choices.iter().enumerate() {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[choice as usize % list.len()];
        pos.make_move(mv);
        visit(&pos, ply + 1);
    }
}

fn config() -> ProptestConfig {
    // 64 playouts per property by default keeps the debug-mode suite at a few
    // seconds; PROPTEST_CASES raises it for deeper runs.
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    ProptestConfig {
        cases,
        // Failures are kept as named regression tests below, not as files in the tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn game() -> impl Strategy<Value = (usize, Vec<u16>)> {
    (
        0..start_fens().len(),
        prop::collection::vec(any::<u16>(), 0..=60),
    )
}

/// make/unmake, null move, `play` and `after` for every legal move of `pos`.
fn check_make_unmake(pos: &Position) {
    assert_eq!(
        pos.hash(),
        pos.compute_hash(),
        "incremental hash of {pos:?}"
    );
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &mv in list.iter() {
        let mut p = pos.clone();
        let captured = pos.piece_at(mv.to());
        let undo = p.make_move(mv);
        assert_eq!(undo.captured(), captured, "{pos:?} {mv}");
        assert_eq!(p.hash(), p.compute_hash(), "hash after {mv} in {pos:?}");
        assert_eq!(p.side_to_move(), !pos.side_to_move());
        let want_clock = if captured.is_some() {
            0
        } else {
            pos.halfmove_clock() + 1
        };
        assert_eq!(p.halfmove_clock(), want_clock, "{pos:?} {mv}");
        assert_eq!(Some(&p), pos.after(mv).as_ref().ok(), "after({mv})");
        p.unmake_move(mv, undo);
        assert_eq!(&p, pos, "unmake {mv}");
        assert_eq!(p.hash(), pos.hash());
    }
    if !pos.is_check() {
        let mut p = pos.clone();
        let undo = p.make_null_move();
        assert_eq!(
            p.hash(),
            p.compute_hash(),
            "hash after null move in {pos:?}"
        );
        assert_eq!(p.side_to_move(), !pos.side_to_move());
        p.unmake_null_move(undo);
        assert_eq!(&p, pos, "unmake null move");
    }
}

fn check_fen_round_trip(pos: &Position, validation: Validation) {
    let fen = pos.to_fen();
    let back = Position::from_fen_with(&fen, validation)
        .unwrap_or_else(|e| panic!("re-reading {fen}: {e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    assert_eq!(back.to_fen(), fen);
    assert_eq!(back.hash(), pos.hash());
}

/// The crate's move generation and attack queries against the brute-force model.
fn check_against_brute_force(pos: &Position, exhaustive: bool) {
    let board = brute::Board::from_position(pos);
    let us = pos.side_to_move();

    let mut list = MoveList::new();
    pos.pseudo_legal_moves(&mut list);
    let want_pseudo: BTreeSet<String> = board
        .pseudo_moves()
        .into_iter()
        .map(|m| to_move(m).to_string())
        .collect();
    assert_eq!(
        move_set(&list),
        want_pseudo,
        "pseudo-legal moves of {pos:?}"
    );
    assert_eq!(list.len(), want_pseudo.len(), "duplicates in {pos:?}");

    pos.legal_moves(&mut list);
    let legal = move_set(&list);
    assert_eq!(list.len(), legal.len(), "duplicate legal moves in {pos:?}");
    let want_legal: BTreeSet<String> = board
        .pseudo_moves()
        .into_iter()
        .filter(|&(f, t)| board.is_legal(f, t))
        .map(|m| to_move(m).to_string())
        .collect();
    // Both directions at once: nothing illegal generated, nothing legal missed.
    if let Some(mv) = legal.difference(&want_legal).next() {
        panic!("{mv} generated but illegal in {pos:?}");
    }
    if let Some(mv) = want_legal.difference(&legal).next() {
        panic!("{mv} legal but not generated in {pos:?}");
    }

    assert_eq!(pos.count_legal_moves(), list.len(), "count in {pos:?}");
    assert_eq!(pos.has_legal_move(), !list.is_empty(), "{pos:?}");
    assert_eq!(pos.legal_move_vec().len(), list.len());

    let want_checkers: SquareSet = board.checkers(us).into_iter().map(square).collect();
    assert_eq!(pos.checkers(), want_checkers, "checkers in {pos:?}");
    assert_eq!(
        pos.is_check(),
        !want_checkers.is_empty(),
        "is_check in {pos:?}"
    );
    let want_status = match (list.is_empty(), pos.is_check()) {
        (false, _) => BoardStatus::Ongoing,
        (true, true) => BoardStatus::Checkmate,
        (true, false) => BoardStatus::Stalemate,
    };
    assert_eq!(pos.status(), want_status, "{pos:?}");

    for sq in Square::all() {
        if matches!(board.at(point(sq)), Some((_, PieceKind::General))) {
            continue;
        }
        for by in Color::ALL {
            let want: SquareSet = board
                .attackers(point(sq), by)
                .into_iter()
                .map(square)
                .collect();
            assert_eq!(
                pos.attackers(sq, by),
                want,
                "attackers of {sq} by {by} in {pos:?}"
            );
        }
    }

    let mut captures = MoveList::new();
    pos.legal_captures(&mut captures);
    let want_captures: BTreeSet<String> = list
        .iter()
        .filter(|m| pos.piece_at(m.to()).is_some())
        .map(Move::to_string)
        .collect();
    assert_eq!(move_set(&captures), want_captures, "captures of {pos:?}");

    let mut from_each = BTreeSet::new();
    let mut per_square = MoveList::new();
    for sq in Square::all() {
        pos.legal_moves_from(sq, &mut per_square);
        assert!(per_square.iter().all(|m| m.from() == sq));
        from_each.extend(per_square.iter().map(Move::to_string));
    }
    assert_eq!(
        from_each, legal,
        "legal_moves_from over all squares in {pos:?}"
    );

    for &mv in list.iter() {
        let after = board.apply(point(mv.from()), point(mv.to()));
        assert_eq!(
            pos.gives_check(mv),
            !after.checkers(!us).is_empty(),
            "gives_check({mv}) in {pos:?}"
        );
    }

    if exhaustive {
        // Every origin/destination pair, as untrusted input.
        for from in Square::all() {
            for to in Square::all() {
                let mv = Move::new(from, to);
                let (f, t) = (point(from), point(to));
                let own = matches!(board.at(f), Some((c, _)) if c == us);
                let moves_so = own && board.destinations(f).contains(&t);
                let legal = moves_so && board.is_legal(f, t);
                assert_eq!(pos.is_legal(mv), legal, "is_legal({mv}) in {pos:?}");
                let verdict = pos.check_legal(mv);
                match verdict {
                    Ok(()) => assert!(legal, "check_legal accepts {mv} in {pos:?}"),
                    Err(PlayError::NoPiece { .. }) => assert!(!own, "{mv} in {pos:?}"),
                    Err(PlayError::BadMovement { kind, .. }) => {
                        assert!(own && !moves_so, "{mv} in {pos:?}");
                        assert_eq!(Some(kind), board.at(f).map(|(_, k)| k));
                    }
                    Err(PlayError::LeavesGeneralInCheck { .. }) => {
                        assert!(moves_so && !legal, "{mv} in {pos:?}")
                    }
                }
                if !legal {
                    let mut p = pos.clone();
                    assert!(p.play(mv).is_err());
                    assert_eq!(&p, pos, "a rejected play({mv}) changed the position");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn make_unmake_restores_position_and_hash((fen, choices) in game()) {
        playout(fen, &choices, |pos, _| check_make_unmake(pos));
    }

    #[test]
    fn fen_write_then_read_is_identity((fen, choices) in game()) {
        playout(fen, &choices, |pos, _| check_fen_round_trip(pos, Validation::Strict));
    }

    /// The colour flip (UCI `flip`) is an involution whose legal moves are
    /// the original's, mirrored across the river.
    #[test]
    fn colour_flip_mirrors_the_legal_moves((fen, choices) in game()) {
        playout(fen, &choices, |pos, _| {
            let flipped = pos.color_flipped();
            assert_eq!(&flipped.color_flipped(), pos);
            assert_eq!(flipped.side_to_move(), !pos.side_to_move());
            assert_eq!(flipped.hash(), flipped.compute_hash());
            let mirror = |m: &Move| Move::new(m.from().flip_ranks(), m.to().flip_ranks()).to_string();
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let ours: BTreeSet<String> = list.iter().map(mirror).collect();
            flipped.legal_moves(&mut list);
            assert_eq!(move_set(list.as_slice()), ours, "{}", pos.to_fen());
        });
    }

    #[test]
    fn movegen_agrees_with_brute_force_rules((fen, choices) in game()) {
        playout(fen, &choices, |pos, ply| check_against_brute_force(pos, ply % 10 == 0));
    }
}

proptest! {
    #![proptest_config(config())]

    /// Move generation, attacks, make/unmake and FEN on positions only the
    /// lenient reading accepts, and on the games played from them.
    #[test]
    fn lenient_positions_agree_with_brute_force(
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u16>(), 0..=30),
    ) {
        let mut pos = random_position(&mut SplitMix64::new(seed), Validation::Lenient);
        let mut list = MoveList::new();
        for (ply, &choice) in choices.iter().enumerate() {
            check_against_brute_force(&pos, ply % 10 == 0);
            check_make_unmake(&pos);
            check_fen_round_trip(&pos, Validation::Lenient);
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            pos.make_move(list[choice as usize % list.len()]);
        }
    }
}

#[test]
fn lenient_reading_accepts_composed_placements_and_strict_does_not() {
    // Rule-book diagram 71: a black soldier on i7, behind its start.
    let fen = "3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1";
    assert!(Position::from_fen(fen).is_err());
    let pos = Position::from_fen_lenient(fen).unwrap();
    assert_eq!(pos.to_fen(), fen);
    check_against_brute_force(&pos, true);
    // Soldiers on their own back rank, an advisor on e0, an elephant on e1.
    let odd = "p3k4/9/9/9/9/9/9/9/4B4/P3AK3 w - - 0 1";
    assert!(Position::from_fen(odd).is_err());
    let pos = Position::from_fen_lenient(odd).unwrap();
    check_against_brute_force(&pos, true);
    // Generated positions really are off the strict points now and then.
    let strict_refuses = (0..200u64)
        .filter(|&seed| {
            let pos = random_position(&mut SplitMix64::new(seed), Validation::Lenient);
            Position::from_fen(&pos.to_fen()).is_err()
        })
        .count();
    assert!(strict_refuses > 100, "{strict_refuses} of 200");
}

/// Every fixture position itself, exhaustively (no randomness).
#[test]
fn every_fixture_position_agrees_with_brute_force() {
    for fen in start_fens() {
        let pos = Position::from_fen(fen).unwrap();
        check_make_unmake(&pos);
        check_fen_round_trip(&pos, Validation::Strict);
        check_against_brute_force(&pos, true);
    }
}

/// Positions where a generator under development once went wrong, kept as
/// fixed cases. Each names what it exercises.
const REGRESSIONS: &[(&str, &str)] = &[(
    // Red's cannon d3 is one of two screens between Black's cannon d5 and
    // Red's general d0; moving it away (d3b3) exposes the general.
    "2b1k3r/9/8b/2p1p4/p2c2p1p/4P1B2/P2C4P/3c2N1R/9/3K1AB2 w - - 0 23",
    "d3b3",
)];

#[test]
fn regression_positions_agree_with_brute_force() {
    for &(fen, illegal) in REGRESSIONS {
        let pos = Position::from_fen(fen).unwrap();
        let mv: Move = illegal.parse().unwrap();
        assert!(!pos.is_legal(mv), "{illegal} in {fen}");
        assert!(
            matches!(
                pos.check_legal(mv),
                Err(PlayError::LeavesGeneralInCheck { .. })
            ),
            "{illegal} in {fen}"
        );
        check_against_brute_force(&pos, true);
        check_make_unmake(&pos);
    }
}

/// The model itself must be right, or the properties prove nothing: the start
/// position has 44 moves and no check (R-BOARD-START).
#[test]
fn brute_force_model_knows_the_start_position() {
    let board = brute::Board::from_position(&Position::startpos());
    let legal: Vec<_> = board
        .pseudo_moves()
        .into_iter()
        .filter(|&(f, t)| board.is_legal(f, t))
        .collect();
    assert_eq!(legal.len(), 44);
    assert!(board.checkers(Color::Red).is_empty());
    assert!(!board.generals_face());
    assert_eq!(
        board.at((4, 0)),
        Some((Color::Red, PieceKind::General)),
        "e0 holds Red's general"
    );
}
