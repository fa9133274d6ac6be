//! The client against small shell-script engines that behave, talk
//! nonsense, hang or die: every case ends in a typed answer or a typed
//! error, never a hang.

use std::path::PathBuf;
use std::time::Duration;

use xiangqi_adjudication::{Preset, RuleSet};
use xiangqi_core::{Color, Position};
use xiangqi_engine_client::game::play_game;
use xiangqi_engine_client::{
    Bound, Engine, EngineError, EngineSpec, GameEnd, Limit, Protocol, Score, SearchOptions,
};

/// Writes an executable `/bin/sh` engine: `handshake` answers the opening
/// commands, `on_go` runs for every `go`.
fn fake(name: &str, handshake: &str, on_go: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-engine-client-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         while read line; do\n\
           case \"$line\" in\n\
             {handshake}\n\
             isready) echo readyok;;\n\
             'ping 1') echo 'pong 1';;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
           esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

const UCI: &str = "uci) echo 'id name Fake'; echo uciok;;";

fn spec(path: &std::path::Path, protocol: Protocol) -> EngineSpec {
    let mut spec = EngineSpec::new(vec![path.display().to_string()], protocol);
    spec.handshake_timeout = Duration::from_secs(5);
    spec
}

fn search(
    engine: &mut Engine,
    timeout_ms: u64,
) -> Result<xiangqi_engine_client::Analysis, EngineError> {
    let mut options = SearchOptions::new(Limit::depth(3));
    options.timeout = Some(Duration::from_millis(timeout_ms));
    engine.search(&Position::startpos(), &[], options)
}

#[test]
fn typed_scores_bounds_and_lines() {
    let path = fake(
        "good",
        UCI,
        "echo 'info depth 2 multipv 1 score cp 31 lowerbound nodes 9 pv h2e2 h9g7'; \
         echo 'info depth 2 multipv 2 score mate -4 pv b2e2 zz99'; \
         echo 'info string nothing to see'; echo 'bestmove h2e2 ponder h9g7'",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    assert_eq!(engine.name(), "Fake");
    let analysis = search(&mut engine, 5000).unwrap();
    assert_eq!(analysis.best_move.to_string(), "h2e2");
    assert_eq!(
        analysis.ponder.map(|m| m.to_string()).as_deref(),
        Some("h9g7")
    );
    assert_eq!(analysis.turn, Color::Red);
    assert_eq!(analysis.lines.len(), 2);
    let best = analysis.evaluation().unwrap();
    assert_eq!((best.score, best.bound), (Score::Cp(31), Bound::Lower));
    assert_eq!(analysis.lines[1].evaluation.unwrap().score, Score::Mate(-4));
    // The second line's PV stops at its unreadable move.
    assert_eq!(analysis.lines[1].pv.len(), 1);
    assert_eq!(analysis.lines[0].pv.len(), 2);
    engine.quit();
}

#[test]
fn fairy_stockfish_dialect_uses_ranks_1_to_10() {
    let path = fake(
        "fairy",
        "uci) echo 'option name UCI_Variant type combo default chess var xiangqi'; echo uciok;;\n\
         'setoption name UCI_Variant value xiangqi') ;;",
        "echo 'info depth 1 score cp 5 pv h3e3 h10g8'; echo 'bestmove h3e3'",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    assert!(engine.ranks_from_one());
    let analysis = search(&mut engine, 5000).unwrap();
    assert_eq!(analysis.best_move.to_string(), "h2e2");
    let pv: Vec<String> = analysis.lines[0].pv.iter().map(|m| m.to_string()).collect();
    assert_eq!(pv, ["h2e2", "h9g7"]);
}

#[test]
fn garbage_move_is_unreadable() {
    let path = fake(
        "garbage",
        UCI,
        "echo '\u{1}\u{7f} nonsense'; echo 'info score banana'; echo 'bestmove zz99'",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    let e = search(&mut engine, 5000).unwrap_err();
    assert!(matches!(e, EngineError::UnreadableMove { .. }), "{e}");
    assert_eq!(e.code(), "illegal_move");
    // The engine was stopped: it cannot be trusted with the next search.
    assert!(!engine.is_alive());
    assert!(matches!(
        search(&mut engine, 5000),
        Err(EngineError::Stopped)
    ));
}

#[test]
fn illegal_move_is_refused() {
    // The chariot on a0 cannot pass the soldier on a3.
    let path = fake("illegal", UCI, "echo 'bestmove a0a5'");
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    let e = search(&mut engine, 5000).unwrap_err();
    assert!(matches!(e, EngineError::IllegalMove { .. }), "{e}");
}

#[test]
fn silence_is_a_timeout() {
    let path = fake("silent", UCI, ":");
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    let e = search(&mut engine, 300).unwrap_err();
    assert!(matches!(e, EngineError::Timeout { .. }), "{e}");
    assert!(e.is_fatal() && !engine.is_alive());
}

#[test]
fn a_flood_of_lines_is_still_a_timeout() {
    let path = fake(
        "flood",
        UCI,
        "while :; do echo 'info depth 1 score cp 1'; done",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    let e = search(&mut engine, 300).unwrap_err();
    assert!(matches!(e, EngineError::Timeout { .. }), "{e}");
}

#[test]
fn death_mid_search_is_reported() {
    let path = fake("dies", UCI, "echo 'info depth 1 score cp 3'; exit 3");
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    let e = search(&mut engine, 5000).unwrap_err();
    match &e {
        EngineError::Died { status } => assert!(status.contains('3'), "{status}"),
        other => panic!("expected a death, got {other}"),
    }
    assert_eq!(e.code(), "crash");
}

/// A program file still open for writing somewhere cannot be executed
/// (ETXTBSY). Forked children of a multi-threaded program hold such
/// descriptors for a moment, so the client waits the condition out.
#[cfg(target_os = "linux")]
#[test]
fn a_briefly_busy_program_file_still_starts() {
    let path = fake("busy", UCI, "echo 'bestmove h2e2'");
    let writer = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    let busy = std::process::Command::new(&path).spawn();
    assert_eq!(
        busy.err().and_then(|e| e.raw_os_error()),
        Some(26),
        "the file open for writing makes the program busy"
    );
    let closer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        drop(writer);
    });
    let mut engine = Engine::start(&spec(&path, Protocol::Uci), None).unwrap();
    closer.join().unwrap();
    assert_eq!(
        search(&mut engine, 5000).unwrap().best_move.to_string(),
        "h2e2"
    );
}

#[test]
fn handshake_silence_and_missing_program() {
    let path = fake("mute", "never) ;;", ":");
    let mut s = spec(&path, Protocol::Uci);
    s.handshake_timeout = Duration::from_millis(300);
    let e = Engine::start(&s, None).err().unwrap();
    assert!(
        matches!(
            e,
            EngineError::Timeout {
                waiting_for: "uciok",
                ..
            }
        ),
        "{e}"
    );
    let missing = EngineSpec::new(vec!["/nonexistent/engine".into()], Protocol::Uci);
    assert!(matches!(
        Engine::start(&missing, None),
        Err(EngineError::Spawn { .. })
    ));
}

#[test]
fn ucci_engine() {
    let path = fake(
        "ucci",
        "ucci) echo 'id name FakeU'; echo ucciok;;",
        "case \"$line\" in 'go depth 3') echo 'info depth 3 score 42 pv b0c2'; echo 'bestmove b0c2';; *) echo nobestmove;; esac",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Ucci), None).unwrap();
    let analysis = search(&mut engine, 5000).unwrap();
    assert_eq!(analysis.best_move.to_string(), "b0c2");
    assert_eq!(analysis.evaluation().unwrap().score, Score::Cp(42));
    let options = SearchOptions::new(Limit::nodes(10));
    let e = engine
        .search(&Position::startpos(), &[], options)
        .unwrap_err();
    assert!(matches!(e, EngineError::NoMove { .. }), "{e}");
}

#[test]
fn xboard_engine() {
    let path = fake(
        "xboard",
        "xboard) ;;\n\
         'protover 2') echo 'feature myname=\"FakeX\" setboard=1 variants=\"xiangqi\" done=1';;",
        "echo '3 -17 5 100 h7e7'; echo 'move h7e7'",
    );
    let mut engine = Engine::start(&spec(&path, Protocol::Xboard), None).unwrap();
    assert_eq!(engine.name(), "FakeX");
    assert!(engine.can_set_up_positions());
    let options = SearchOptions::new(Limit::depth(3));
    let h2e2 = "h2e2".parse().unwrap();
    let analysis = engine
        .search(&Position::startpos(), &[h2e2], options)
        .unwrap();
    assert_eq!(analysis.best_move.to_string(), "h7e7");
    assert_eq!(analysis.turn, Color::Black);
    assert_eq!(analysis.evaluation().unwrap().score, Score::Cp(-17));
    let e = engine
        .search(
            &Position::startpos(),
            &[],
            SearchOptions::new(Limit::nodes(5)),
        )
        .unwrap_err();
    assert!(matches!(e, EngineError::Unsupported(_)), "{e}");
}

#[test]
fn engine_game_keeps_forfeits_apart_from_verdicts() {
    let good = fake(
        "game-good",
        UCI,
        "echo 'info depth 1 score cp 0'; echo 'bestmove h2e2'",
    );
    let dying = fake("game-dying", UCI, "exit 4");
    let mut red = Engine::start(&spec(&good, Protocol::Uci), None).unwrap();
    let mut black = Engine::start(&spec(&dying, Protocol::Uci), None).unwrap();
    let game = play_game(
        [&mut red, &mut black],
        &Position::startpos(),
        &[],
        RuleSet::preset(Preset::Online),
        SearchOptions::new(Limit::depth(1)),
    )
    .unwrap();
    assert_eq!(game.moves.len(), 1);
    match &game.end {
        GameEnd::Forfeit { loser, failure, .. } => {
            assert_eq!(*loser, Color::Black);
            assert!(matches!(failure, EngineError::Died { .. }));
        }
        GameEnd::Verdict(v) => panic!("expected a forfeit, got {v:?}"),
    }
    assert_eq!(game.end.outcome().result(), "1-0");
    assert_eq!(game.end.reason(), "crash");
    assert!(game.analyses[0].is_some());
}
