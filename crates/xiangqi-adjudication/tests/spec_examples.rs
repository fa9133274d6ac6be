//! Every worked example (EX-…) of sections 4-8 of the rules reference, as a
//! named test.

mod common;

use common::verdict;
use xiangqi_adjudication::{
    Conduct, NoCaptureChecks, OnlineGame, Outcome, Preset, Reason, RuleSet, TimeControl,
};
use xiangqi_core::{Color, Position};

fn online() -> RuleSet {
    RuleSet::preset(Preset::Online)
}

// --- Section 4 ---------------------------------------------------------------

#[test]
fn ex_end_stalemate_no_legal_move_loses() {
    let v = verdict("5k3/9/8R/9/9/9/9/9/9/4K4 w - - 0 1", "i7i8", &online());
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Red, Some(Reason::Stalemate), 1)
    );
}

#[test]
fn ex_end_fg_mate_with_the_facing_rule() {
    let v = verdict("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1", "i5f5", &online());
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Red, Some(Reason::Checkmate), 1)
    );
}

#[test]
fn ex_end_fg_without_facing_it_is_only_check() {
    let v = verdict("5k3/9/9/9/8R/9/9/9/9/3K5 w - - 0 1", "i5f5 f9e9", &online());
    assert_eq!(v.outcome, Outcome::Ongoing);
    assert_eq!(v.reason, None);
}

// --- Section 5 ---------------------------------------------------------------

#[test]
fn ex_rep_1_perpetual_check_loses() {
    for preset in Preset::ALL {
        let v = verdict(
            "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1",
            "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9",
            &RuleSet::preset(preset),
        );
        assert_eq!(v.outcome, Outcome::Black, "{preset}: {v}");
        assert_eq!(v.reason, Some(Reason::PerpetualCheck), "{preset}");
        assert_eq!(v.ply, 9);
        let rep = v.repetition.unwrap();
        assert_eq!(rep.occurrences, vec![1, 5, 9]);
        assert_eq!(rep.red.conduct, Conduct::PerpetualCheck);
        assert_eq!(rep.red.checks, 4);
        assert_eq!(rep.red.targets[0].square.to_string(), "e9");
        assert!(v.detail.contains("red chariot on i9"), "{}", v.detail);
    }
}

#[test]
fn ex_rep_2_check_every_other_ply_is_a_draw() {
    let v = verdict(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        "a0a9 e9e8 a9a0 e8e9 a0a9 e9e8 a9a0 e8e9",
        &online(),
    );
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::ThreefoldRepetition), 8)
    );
    assert_eq!(v.repetition.unwrap().occurrences, vec![0, 4, 8]);
}

#[test]
fn ex_rep_3_perpetual_chase_of_an_unprotected_cannon() {
    let v = verdict(
        "4k4/2c6/9/9/1N7/9/9/9/9/3K5 w - - 0 1",
        "b5d6 c8c7 d6b5 c7c8 b5d6 c8c7 d6b5 c7c8",
        &online(),
    );
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Black, Some(Reason::PerpetualChase), 8)
    );
    let red = v.repetition.unwrap().red;
    assert_eq!(red.conduct, Conduct::PerpetualChase);
    assert_eq!(red.chases, 4);
    assert_eq!(red.targets.len(), 1);
    assert_eq!(red.targets[0].square.to_string(), "c8");
    assert_eq!(red.pieces[0].square.to_string(), "b5");
}

#[test]
fn ex_rep_4_protected_cannon_is_not_chased() {
    let v = verdict(
        "2r1k4/2c6/9/9/1N7/9/9/9/9/3K5 w - - 0 1",
        "b5d6 c8c7 d6b5 c7c8 b5d6 c8c7 d6b5 c7c8",
        &online(),
    );
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::ThreefoldRepetition), 8)
    );
    assert_eq!(v.repetition.unwrap().red.chases, 0);
}

// --- Section 6 ---------------------------------------------------------------

#[test]
fn ex_nc_1_draw_when_the_counter_reaches_120() {
    let fen = "5k3/9/9/9/8R/9/9/9/9/3K5 w - - 117 80";
    let v = verdict(fen, "i5i4 f9f8", &online());
    assert_eq!(v.outcome, Outcome::Ongoing);
    let v = verdict(fen, "i5i4 f9f8 i4i3", &online());
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::NoCaptureRule), 3)
    );
}

#[test]
fn ex_nc_2_a_capture_resets_the_counter() {
    // Black's horse on f8 is taken on the second ply; the count starts again.
    let fen = "4k4/5n3/9/9/9/9/9/9/9/3K1R3 w - - 117 80";
    let game = common::play(fen, "f0f1 e9e8 f1f8", &online()).unwrap();
    assert_eq!(game.no_capture_count(), 0);
    assert_eq!(game.verdict().outcome, Outcome::Ongoing);
    // Without the capture the third ply would have brought the count to 120.
    let v = verdict(fen, "f0f1 e9e8 f1f2", &online());
    assert_eq!((v.reason, v.ply), (Some(Reason::NoCaptureRule), 3));
}

#[test]
fn ex_nc_3_mate_on_the_last_counted_ply_stands() {
    let v = verdict("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 119 80", "i5f5", &online());
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Red, Some(Reason::Checkmate), 1)
    );
}

const EX_NC_4_FEN: &str = "5k3/4a4/5a3/9/9/9/9/9/9/2R1K3R w - - 98 80";
const EX_NC_4_MOVES: &str = "i0i9 f9f8 i9i8 f8f9 c0c9 e8d9 i8i9 f9f8 c9c8 f7e8 i9i8 f8f7 \
                             c8c7 e8d7 i8i7 f7f8 i7i8 f8f9 i8i9 f9f8 c7c8 f8f7 e0d0 d7e8";

#[test]
fn ex_nc_4_default_counts_every_check() {
    let moves: Vec<&str> = EX_NC_4_MOVES.split_whitespace().collect();
    let v = verdict(EX_NC_4_FEN, &moves[..22].join(" "), &online());
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::NoCaptureRule), 22)
    );
}

#[test]
fn ex_nc_4_check_cap_voids_the_eleventh_check_and_its_reply() {
    let mut rules = online();
    rules.no_capture_checks = NoCaptureChecks::CapTen;
    let moves: Vec<&str> = EX_NC_4_MOVES.split_whitespace().collect();
    let game = common::play(EX_NC_4_FEN, &moves[..22].join(" "), &rules).unwrap();
    assert_eq!(game.no_capture_count(), 118);
    assert_eq!(game.verdict().outcome, Outcome::Ongoing);
    let v = verdict(EX_NC_4_FEN, EX_NC_4_MOVES, &rules);
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::NoCaptureRule), 24)
    );
    // The asian preset has the cap on.
    let v = verdict(EX_NC_4_FEN, EX_NC_4_MOVES, &RuleSet::preset(Preset::Asian));
    assert_eq!(v.ply, 24);
}

// --- Section 7 ---------------------------------------------------------------

#[test]
fn ex_mat_1_capture_of_the_last_attacker_is_a_draw() {
    let v = verdict(
        "3aka3/9/4b4/9/9/2c6/9/4B4/4A4/4K4 w - - 0 1",
        "e2c4",
        &online(),
    );
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::InsufficientMaterial), 1)
    );
}

#[test]
fn ex_mat_2_a_single_soldier_plays_on() {
    let v = verdict("4k4/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1", "e6e7", &online());
    assert_eq!(v.outcome, Outcome::Ongoing);
}

// --- Section 8 ---------------------------------------------------------------

fn clock_game(base_ms: u64) -> OnlineGame {
    let tc = TimeControl {
        base_ms,
        increment_ms: 0,
    };
    OnlineGame::new(Position::startpos(), online(), tc, 0).unwrap()
}

#[test]
fn ex_clock_1_red_never_moves_cancelled() {
    let mut g = clock_game(60_000);
    assert_eq!(g.poll(59_999).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(60_000).unwrap().clone();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Cancelled, Some(Reason::Cancelled))
    );
    assert_eq!(v.rated(), Some(false));
    assert_eq!(v.result(), "*");
}

#[test]
fn ex_clock_2_black_flags_before_its_first_move_cancelled() {
    let mut g = clock_game(60_000);
    g.play(Color::Red, "h2e2".parse().unwrap(), 5_000).unwrap();
    assert_eq!(g.poll(64_999).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(65_000).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Cancelled, Some(Reason::Cancelled))
    );
}

#[test]
fn ex_clock_3_flag_after_both_moved_is_a_timeout_loss() {
    let mut g = clock_game(60_000);
    g.play(Color::Red, "h2e2".parse().unwrap(), 1_000).unwrap();
    g.play(Color::Black, "h9g7".parse().unwrap(), 2_000)
        .unwrap();
    g.play(Color::Red, "h0g2".parse().unwrap(), 3_000).unwrap();
    // Black has 59 000 ms left when its clock starts again at 3 000 ms.
    assert_eq!(g.poll(61_999).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(62_000).unwrap().clone();
    assert_eq!((v.outcome, v.reason), (Outcome::Red, Some(Reason::Timeout)));
    assert_eq!(v.rated(), Some(true));
    assert_eq!(g.clocks(), [58_000, 0]);
}

#[test]
fn ex_clock_4_away_44_s_goes_on_away_too_long_loses() {
    let mut g = clock_game(600_000);
    g.play(Color::Red, "h2e2".parse().unwrap(), 1_000).unwrap();
    g.play(Color::Black, "h9g7".parse().unwrap(), 2_000)
        .unwrap();
    g.leave(Color::Black, 100_000).unwrap();
    g.return_to_board(Color::Black, 144_000).unwrap();
    assert_eq!(g.poll(199_000).unwrap().outcome, Outcome::Ongoing);
    g.leave(Color::Black, 200_000).unwrap();
    assert_eq!(g.poll(245_000).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(245_001).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Red, Some(Reason::Abandonment))
    );
}
