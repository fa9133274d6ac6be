//! The online clock and connection model (rules.md section 8): hand-built
//! scenarios of the adjudication issue.

use xiangqi_adjudication::{
    ClockError, ClockEvent, ClockRules, GameError, OnlineGame, Outcome, Preset, Reason, RuleSet,
    TimeControl, TimedEvent,
};
use xiangqi_core::{Color, Move, Position};

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn game_with(base_ms: u64, increment_ms: u64, rules: RuleSet) -> OnlineGame {
    let tc = TimeControl {
        base_ms,
        increment_ms,
    };
    OnlineGame::new(Position::startpos(), rules, tc, 0).unwrap()
}

fn game(base_ms: u64) -> OnlineGame {
    game_with(base_ms, 0, RuleSet::preset(Preset::Online))
}

/// Both sides have moved once: Red at 1 000 ms, Black at 2 000 ms.
fn opened(base_ms: u64) -> OnlineGame {
    let mut g = game(base_ms);
    g.play(Color::Red, mv("h2e2"), 1_000).unwrap();
    g.play(Color::Black, mv("h9g7"), 2_000).unwrap();
    g
}

#[test]
fn r_clock_flag_timeout_is_a_loss() {
    let mut g = opened(10_000);
    // Red has 9 000 ms left from 2 000 ms: it flags at 11 000 ms.
    assert_eq!(g.poll(10_999).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(11_000).unwrap().clone();
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Black, Some(Reason::Timeout), 2)
    );
    assert_eq!(g.clocks(), [0, 9_000]);
    assert_eq!(g.rated(), Some(true));
}

#[test]
fn r_draw_material_timeout_is_only_an_option() {
    // Red flags while Black has only general and advisors.
    let fen = "3aka3/9/9/9/9/9/9/9/5R3/3K5 w - - 0 1";
    let tc = TimeControl {
        base_ms: 5_000,
        increment_ms: 0,
    };
    let play = |rules: RuleSet| {
        let mut g = OnlineGame::new(Position::from_fen(fen).unwrap(), rules, tc, 0).unwrap();
        g.play(Color::Red, mv("f1f2"), 1_000).unwrap();
        g.play(Color::Black, mv("e9e8"), 2_000).unwrap();
        g.poll(10_000).unwrap().clone()
    };
    let v = play(RuleSet::preset(Preset::Online));
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Black, Some(Reason::Timeout))
    );
    let mut rules = RuleSet::preset(Preset::Online);
    rules.clock = Some(ClockRules {
        timeout_draw_on_bare_material: true,
        ..ClockRules::ONLINE
    });
    let v = play(rules);
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Draw, Some(Reason::Timeout))
    );
}

#[test]
fn r_clock_cancel_flag_before_the_flagged_sides_first_move() {
    let mut g = game(30_000);
    g.play(Color::Red, mv("h2e2"), 10_000).unwrap();
    let v = g.poll(40_000).unwrap().clone();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Cancelled, Some(Reason::Cancelled))
    );
    assert_eq!(v.rated(), Some(false));
    assert!(v.detail.contains("black"), "{}", v.detail);
}

#[test]
fn r_clock_abandon_45001_ms_loses_45000_does_not() {
    let mut g = opened(600_000);
    g.leave(Color::Black, 10_000).unwrap();
    assert_eq!(g.poll(55_000).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(55_001).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Red, Some(Reason::Abandonment))
    );

    // A return at exactly 45 000 ms away cancels the count.
    let mut g = opened(600_000);
    g.leave(Color::Black, 10_000).unwrap();
    g.return_to_board(Color::Black, 55_000).unwrap();
    assert_eq!(g.poll(200_000).unwrap().outcome, Outcome::Ongoing);
}

#[test]
fn r_clock_abandon_before_the_first_move_cancels() {
    let mut g = game(600_000);
    g.play(Color::Red, mv("h2e2"), 1_000).unwrap();
    g.leave(Color::Black, 2_000).unwrap();
    let v = g.poll(47_001).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Cancelled, Some(Reason::Cancelled))
    );
}

#[test]
fn r_clock_abandon_a_flag_before_the_abandonment_deadline_wins() {
    // Red (to move, 9 000 ms left at 2 000 ms) leaves at 2 000: its flag at
    // 11 000 ms falls before the abandonment deadline at 47 001 ms.
    let mut g = opened(10_000);
    g.leave(Color::Red, 2_000).unwrap();
    let v = g.poll(100_000).unwrap().clone();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Black, Some(Reason::Timeout))
    );
    assert!(v.detail.contains("11000 ms"), "{}", v.detail);
    // With more time on the clock, the abandonment comes first.
    let mut g = opened(600_000);
    g.leave(Color::Red, 2_000).unwrap();
    let v = g.poll(700_000).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Black, Some(Reason::Abandonment))
    );
}

#[test]
fn r_clock_abandon_both_away_earliest_deadline_loses_equal_cancels() {
    let mut g = opened(600_000);
    g.leave(Color::Red, 3_000).unwrap();
    g.leave(Color::Black, 4_000).unwrap();
    let v = g.poll(60_000).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Black, Some(Reason::Abandonment))
    );
    let mut g = opened(600_000);
    g.leave(Color::Red, 3_000).unwrap();
    g.leave(Color::Black, 3_000).unwrap();
    let v = g.poll(60_000).unwrap();
    assert_eq!(v.outcome, Outcome::Cancelled);
}

#[test]
fn r_clock_draw_offer_lapses_when_the_receiver_moves() {
    let mut g = opened(600_000);
    // Red offers on its own turn, then moves: the offer stands.
    g.offer_draw(Color::Red, 3_000).unwrap();
    g.play(Color::Red, mv("h0g2"), 4_000).unwrap();
    assert!(g.has_draw_offer(Color::Red));
    // Black, the receiver, moves instead of accepting: the offer lapses.
    g.play(Color::Black, mv("i9h9"), 5_000).unwrap();
    assert!(!g.has_draw_offer(Color::Red));
    let err = g.accept_draw(Color::Black, 6_000).unwrap_err();
    assert!(matches!(err, ClockError::NoDrawOffer { .. }), "{err}");
    // A fresh offer accepted: draw by agreement.
    g.offer_draw(Color::Red, 7_000).unwrap();
    let v = g.accept_draw(Color::Black, 7_100).unwrap();
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Draw, Some(Reason::Agreement), 4)
    );
}

#[test]
fn r_clock_resign_loses_whatever_the_position() {
    let mut g = game(600_000);
    let v = g.resign(Color::Red, 500).unwrap();
    assert_eq!(
        (v.outcome, v.reason, v.ply),
        (Outcome::Black, Some(Reason::Resignation), 0)
    );
    assert_eq!(g.rated(), Some(true));
}

#[test]
fn r_clock_move_increment_and_clocks() {
    let mut g = game_with(60_000, 2_000, RuleSet::preset(Preset::Online));
    g.play(Color::Red, mv("h2e2"), 5_000).unwrap();
    g.play(Color::Black, mv("h9g7"), 8_000).unwrap();
    assert_eq!(g.clocks(), [57_000, 59_000]);
    g.poll(10_000).unwrap();
    assert_eq!(g.clocks(), [55_000, 59_000]);
}

#[test]
fn r_clock_move_errors_wrong_side_after_the_end_out_of_order() {
    let mut g = opened(600_000);
    let err = g.play(Color::Black, mv("h7h0"), 3_000).unwrap_err();
    assert!(
        matches!(err, ClockError::NotYourTurn { ply: 3, .. }),
        "{err}"
    );
    let err = g.poll(2_500).unwrap_err();
    assert!(
        matches!(
            err,
            ClockError::OutOfOrder {
                at: 2_500,
                last: 3_000
            }
        ),
        "{err}"
    );
    g.resign(Color::Black, 4_000).unwrap();
    let err = g.play(Color::Red, mv("h0g2"), 5_000).unwrap_err();
    assert!(
        matches!(err, ClockError::Game(GameError::GameOver { ply: 3, .. })),
        "{err}"
    );
    assert!(err.to_string().contains("ply 3"), "{err}");
}

#[test]
fn r_clock_move_at_the_flag_millisecond_goes_to_the_flag() {
    let mut g = opened(10_000);
    // Red's flag falls at 11 000 ms: a move at that millisecond is too late.
    let err = g.play(Color::Red, mv("h0g2"), 11_000).unwrap_err();
    assert!(
        matches!(err, ClockError::Game(GameError::GameOver { .. })),
        "{err}"
    );
    assert_eq!(g.verdict().reason, Some(Reason::Timeout));
    // One millisecond earlier it counts.
    let mut g = opened(10_000);
    g.play(Color::Red, mv("h0g2"), 10_999).unwrap();
    assert_eq!(g.clocks(), [1, 9_000]);
}

#[test]
fn r_clock_board_rules_end_the_online_game_too() {
    let tc = TimeControl {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let start = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
    let mut g = OnlineGame::new(start, RuleSet::default(), tc, 0).unwrap();
    let v = g.play(Color::Red, mv("i5f5"), 1_000).unwrap();
    assert_eq!(v.reason, Some(Reason::Checkmate));
    // The clocks stop at the end.
    g.poll(100_000).unwrap();
    assert_eq!(g.clocks(), [59_000, 60_000]);
}

#[test]
fn r_clock_no_clock_model_in_the_asian_preset() {
    let tc = TimeControl {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let err =
        OnlineGame::new(Position::startpos(), RuleSet::preset(Preset::Asian), tc, 0).unwrap_err();
    assert_eq!(err, ClockError::NoClockModel);
}

#[test]
fn clock_events_read_from_json_lines() {
    let lines = [
        r#"{"at":3000,"event":"move","side":"red","move":"h2e2"}"#,
        r#"{"at":4000,"event":"move","move":"h9g7"}"#,
        r#"{"at":4500,"event":"leave","side":"black"}"#,
        r#"{"at":5000,"event":"offer_draw","side":"red"}"#,
        r#"{"at":5100,"event":"accept_draw","side":"black"}"#,
    ];
    let mut g = game(60_000);
    for line in lines {
        let e: TimedEvent = serde_json::from_str(line).unwrap();
        g.apply(&e).unwrap();
    }
    assert_eq!(g.verdict().reason, Some(Reason::Agreement));
    let e: TimedEvent = serde_json::from_str(r#"{"at":49001,"event":"poll"}"#).unwrap();
    assert_eq!(e.event, ClockEvent::Poll);
    assert!(serde_json::from_str::<TimedEvent>(r#"{"at":1,"event":"jump"}"#).is_err());
}

#[test]
fn r_clock_cancel_optional_first_move_deadline() {
    let mut rules = RuleSet::preset(Preset::Online);
    rules.clock = Some(ClockRules {
        first_move_deadline_ms: Some(20_000),
        ..ClockRules::ONLINE
    });
    let mut g = game_with(600_000, 0, rules.clone());
    assert_eq!(g.poll(19_999).unwrap().outcome, Outcome::Ongoing);
    let v = g.poll(20_000).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Cancelled, Some(Reason::Cancelled))
    );
    // After its first move a side has its whole clock.
    let mut g = game_with(600_000, 0, rules);
    g.play(Color::Red, mv("h2e2"), 1_000).unwrap();
    g.play(Color::Black, mv("h9g7"), 2_000).unwrap();
    assert_eq!(g.poll(100_000).unwrap().outcome, Outcome::Ongoing);
}

#[test]
fn r_clock_huge_times_do_not_overflow() {
    let mut g = opened(u64::MAX / 2);
    assert_eq!(g.poll(u64::MAX).unwrap().reason, Some(Reason::Timeout));
}

#[test]
fn abort_before_both_sides_moved_cancels_unrated() {
    // Either side, before anyone moved.
    for side in Color::ALL {
        let mut g = game(60_000);
        assert!(g.abortable());
        let v = g.abort(side, 1_500).unwrap().clone();
        assert_eq!(
            (v.outcome, v.reason, v.ply),
            (Outcome::Cancelled, Some(Reason::Aborted), 0)
        );
        assert!(v.detail.contains(&side.to_string()), "{}", v.detail);
        assert_eq!(g.rated(), Some(false));
        assert_eq!(g.clocks(), [58_500, 60_000]);
        assert!(!g.abortable());
    }
    // Red has moved, Black not: both may still abort.
    for side in Color::ALL {
        let mut g = game(60_000);
        g.play(Color::Red, mv("h2e2"), 1_000).unwrap();
        assert!(g.has_moved(Color::Red) && !g.has_moved(Color::Black));
        let v = g.abort(side, 2_000).unwrap();
        assert_eq!((v.outcome, v.ply), (Outcome::Cancelled, 1));
    }
}

#[test]
fn abort_is_refused_once_both_sides_moved_and_after_the_end() {
    let mut g = opened(60_000);
    assert!(!g.abortable());
    let err = g.abort(Color::Black, 3_000).unwrap_err();
    assert_eq!(
        err,
        ClockError::NotAbortable {
            side: Color::Black,
            at: 3_000
        }
    );
    assert!(err.to_string().contains("both sides have moved"), "{err}");
    assert_eq!(g.verdict().outcome, Outcome::Ongoing, "nothing changed");
    g.play(Color::Red, mv("h0g2"), 4_000).unwrap();

    let mut g = game(60_000);
    g.resign(Color::Red, 500).unwrap();
    let err = g.abort(Color::Black, 600).unwrap_err();
    assert!(
        matches!(err, ClockError::Game(GameError::GameOver { .. })),
        "{err}"
    );
    assert_eq!(g.verdict().reason, Some(Reason::Resignation));
}

#[test]
fn a_deadline_due_before_an_abort_decides_first() {
    // Red's flag fell at 60 000 ms, before the abort at 60 500 ms: the game
    // was already cancelled by R-CLOCK-CANCEL, and the abort comes too late.
    let mut g = game(60_000);
    let err = g.abort(Color::Black, 60_500).unwrap_err();
    assert!(
        matches!(err, ClockError::Game(GameError::GameOver { .. })),
        "{err}"
    );
    assert_eq!(g.verdict().reason, Some(Reason::Cancelled));
}

#[test]
fn abort_reads_from_json_lines() {
    let e: TimedEvent =
        serde_json::from_str(r#"{"at":700,"event":"abort","side":"black"}"#).unwrap();
    assert_eq!(e.event, ClockEvent::Abort { side: Color::Black });
    let mut g = game(60_000);
    assert_eq!(g.apply(&e).unwrap().reason, Some(Reason::Aborted));
}
