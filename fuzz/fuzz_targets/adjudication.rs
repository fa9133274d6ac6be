//! Adjudication: random legal games (the input picks each move among the
//! legal ones, or an illegal one) mixed with random clock and player events
//! at random times, under every preset and clock variant. Never panics, and
//! the verdicts are consistent: an ended game stays ended with the same
//! verdict, every event after the end is an error, rejected events change
//! nothing, clocks never grow without an increment, and the plain
//! [`Game`] agrees with the clocked one on the board verdict.
#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi_adjudication::{
    ClockError, ClockEvent, ClockRules, Game, GameError, OnlineGame, Outcome, Preset, RuleSet,
    TimeControl, TimedEvent,
};
use xiangqi_core::{Color, Move, MoveList, Square};
use xiangqi_fuzz::{random_playout, Bytes};

fn side(b: u8) -> Color {
    if b & 1 == 0 {
        Color::Red
    } else {
        Color::Black
    }
}

fn any_move(bytes: &mut Bytes<'_>) -> Move {
    let from = Square::from_index(bytes.below(90) as u8).expect("0..90");
    let to = Square::from_index(bytes.below(90) as u8).expect("0..90");
    Move::new(from, to)
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes::new(data);
    let mut rules = RuleSet::preset(Preset::ALL[bytes.below(Preset::ALL.len())]);
    let knobs = bytes.byte();
    if knobs & 1 != 0 {
        rules.no_capture_limit = Some(bytes.below(20) as u32);
    }
    if knobs & 2 != 0 {
        rules.repetition = xiangqi_adjudication::RepetitionEnforcement::ForbidRepeat;
    }
    rules.clock = Some(ClockRules {
        abandon_after_ms: bytes.below(5000) as u64,
        first_move_deadline_ms: (knobs & 4 != 0).then(|| bytes.below(5000) as u64),
        timeout_draw_on_bare_material: knobs & 8 != 0,
    });
    // Start from a random playout so middle and end games are reached quickly.
    let opening = bytes.below(60);
    let (_, start) = random_playout(&mut bytes, opening);
    let base_ms = 1 + if knobs & 16 != 0 {
        bytes.u64() >> 1
    } else {
        bytes.below(60_000) as u64
    };
    let increment_ms = if knobs & 32 != 0 {
        bytes.u64()
    } else {
        bytes.below(3_000) as u64
    };
    let control = TimeControl {
        base_ms,
        increment_ms,
    };
    let start_at = if knobs & 64 != 0 { bytes.u64() } else { 0 };

    let mut online =
        OnlineGame::new(start.clone(), rules.clone(), control, start_at).expect("clock rules set");
    let mut board = Game::new(
        start,
        RuleSet {
            clock: None,
            ..rules.clone()
        },
    );
    let mut now = start_at;
    let mut ended: Option<xiangqi_adjudication::Verdict> =
        online.verdict().is_over().then(|| online.verdict().clone());

    for _ in 0..400 {
        if bytes.is_empty() {
            break;
        }
        let kind = bytes.byte();
        // Mostly forward in time, sometimes backwards (must be rejected).
        let step = match bytes.byte() % 8 {
            0 => 0,
            1..=5 => bytes.below(4_000) as u64,
            6 => bytes.u64(),
            _ => u64::MAX, // an event in the past
        };
        let at = if step == u64::MAX {
            now.saturating_sub(1 + bytes.below(1000) as u64)
        } else {
            now.saturating_add(step)
        };
        let event = match kind % 10 {
            0..=4 => {
                let mut list = MoveList::new();
                online.game().position().legal_moves(&mut list);
                let mv = if kind & 0x80 == 0 && !list.is_empty() {
                    list[bytes.below(list.len())]
                } else {
                    any_move(&mut bytes)
                };
                let who = (kind & 0x40 != 0).then(|| side(bytes.byte()));
                ClockEvent::Move { side: who, mv }
            }
            5 => ClockEvent::Resign {
                side: side(bytes.byte()),
            },
            6 => ClockEvent::OfferDraw {
                side: side(bytes.byte()),
            },
            7 => match bytes.byte() % 6 {
                0 => ClockEvent::AcceptDraw {
                    side: side(bytes.byte()),
                },
                1 => ClockEvent::DeclineDraw {
                    side: side(bytes.byte()),
                },
                2 => ClockEvent::OfferTakeback {
                    side: side(bytes.byte()),
                },
                3 => ClockEvent::AcceptTakeback {
                    side: side(bytes.byte()),
                },
                4 => ClockEvent::DeclineTakeback {
                    side: side(bytes.byte()),
                },
                _ => ClockEvent::Return {
                    side: side(bytes.byte()),
                },
            },
            8 => ClockEvent::Leave {
                side: side(bytes.byte()),
            },
            _ => ClockEvent::Poll,
        };
        let event = TimedEvent { at, event };
        let before_clocks = online.clocks();
        let before_ply = online.game().ply();
        let before_verdict = online.verdict().clone();
        let result = online.apply(&event).cloned();
        if let Some(end) = &ended {
            // Once ended: same verdict, and no event is accepted but polls and out-of-order errors.
            assert_eq!(
                online.verdict(),
                end,
                "verdict changed after the end by {event:?}"
            );
            match (&event.event, &result) {
                (ClockEvent::Poll, Ok(_)) => {}
                (_, Err(ClockError::Game(GameError::GameOver { .. })))
                | (_, Err(ClockError::OutOfOrder { .. })) => {}
                (ClockEvent::Move { .. }, Err(_)) => {}
                (ClockEvent::AcceptDraw { .. }, Err(ClockError::NoDrawOffer { .. })) => {}
                _ => panic!("{event:?} after the end gave {result:?}"),
            }
            assert_eq!(online.game().ply(), before_ply);
            assert_eq!(online.clocks(), before_clocks, "clocks moved after the end");
            continue;
        }
        match &result {
            Err(ClockError::OutOfOrder { .. }) => {
                assert!(at < now);
                assert_eq!(online.verdict(), &before_verdict);
                assert_eq!(
                    online.clocks(),
                    before_clocks,
                    "rejected event moved the clocks"
                );
            }
            Err(_) => {
                // Deadlines due by `at` may have ended the game, but nothing else changed.
                assert_eq!(
                    online.game().ply(),
                    before_ply,
                    "rejected {event:?} played a move"
                );
            }
            Ok(v) => assert_eq!(v, online.verdict()),
        }
        if at >= now {
            now = at;
        }
        if online.game().ply() < before_ply {
            // An agreed takeback: the plain game takes back as many plies
            // and must agree on everything again.
            let plies = before_ply - online.game().ply();
            assert!(plies <= 2, "a takeback of {plies} plies");
            let board_verdict = board
                .take_back(plies)
                .unwrap_or_else(|e| panic!("board game cannot take back {plies}: {e}"))
                .clone();
            assert_eq!(online.verdict(), &board_verdict, "takeback disagrees");
            assert_eq!(online.game().position(), board.position());
        }
        if online.game().ply() > before_ply {
            let mv = *online.game().moves().last().expect("a move was played");
            let board_verdict = board
                .push(mv)
                .unwrap_or_else(|e| panic!("board game rejects {mv}: {e}"))
                .clone();
            if !online.verdict().is_over() || online.verdict().reason == board_verdict.reason {
                assert_eq!(
                    online.verdict(),
                    &board_verdict,
                    "clocked and plain games disagree after {mv}"
                );
            }
            if increment_ms == 0 {
                let s = (!online.game().position().side_to_move()).index();
                assert!(
                    online.clocks()[s] <= before_clocks[s],
                    "mover's clock grew without an increment"
                );
            }
        }
        let v = online.verdict();
        assert_eq!(v.is_over(), v.reason.is_some(), "{v:?}");
        assert_eq!(v.is_over(), v.outcome != Outcome::Ongoing);
        if v.is_over() {
            ended = Some(v.clone());
        } else {
            assert_eq!(v.ply, online.game().ply());
        }
    }
});
