//! The non-blocking search handle: `go` returns at once, `stop` and
//! `ponderhit` act on the running search only, infinite and ponder searches
//! hold their answer as UCI asks. Time bounds here are generous (shared CI
//! machines); they tell "stopped" from "ran to its 60 s limit", nothing finer.

use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use xiangqi_core::Position;
use xiangqi_search::{Engine, Limits, Score, SearchError, SearchEvent, SearchResult, SearchThread};

/// Far longer than any test waits: a search that ends was stopped.
const LONG: Duration = Duration::from_secs(60);
/// How long "promptly" may take on a loaded machine.
const PROMPT: Duration = Duration::from_secs(5);

fn go(thread: &mut SearchThread, root: Position, limits: Limits) -> Receiver<SearchEvent> {
    let (tx, rx) = mpsc::channel();
    thread
        .go(root, Vec::new(), limits, move |event| {
            let _ = tx.send(event);
        })
        .unwrap();
    rx
}

/// The best move event, if it comes within `wait`; info events are skipped.
fn answer_within(rx: &Receiver<SearchEvent>, wait: Duration) -> Option<SearchResult> {
    let deadline = Instant::now() + wait;
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        match rx.recv_timeout(left).ok()? {
            SearchEvent::BestMove(result) => return Some(result),
            SearchEvent::Info(_) => {}
        }
    }
}

fn infinite() -> Limits {
    Limits {
        infinite: true,
        ..Limits::default()
    }
}

#[test]
fn go_returns_at_once_and_stop_answers_promptly() {
    let mut thread = SearchThread::new(Engine::new(8));
    let rx = go(&mut thread, Position::startpos(), Limits::move_time(LONG));
    assert!(thread.is_searching());
    // Let it get past the first iterations.
    let first = rx.recv_timeout(PROMPT).unwrap();
    assert!(
        matches!(first, SearchEvent::Info(ref i) if i.depth == 1),
        "{first:?}"
    );
    assert!(answer_within(&rx, Duration::from_millis(200)).is_none());
    let stopped_at = Instant::now();
    thread.stop();
    let result = answer_within(&rx, PROMPT).expect("a best move after stop");
    assert!(stopped_at.elapsed() < PROMPT);
    assert!(Position::startpos().is_legal(result.best_move.unwrap()));
    assert!(result.depth >= 1);
    assert!(!thread.is_searching());
    assert_eq!(thread.wait().unwrap(), Some(result));
}

#[test]
fn an_infinite_search_holds_its_answer_until_stop() {
    let mut thread = SearchThread::new(Engine::new(4));
    // Mate in one: the search proves it quickly and reaches its depth cap.
    let mate = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
    let limits = Limits {
        depth: Some(3),
        ..infinite()
    };
    let rx = go(&mut thread, mate, limits);
    assert!(answer_within(&rx, Duration::from_millis(300)).is_none());
    assert!(thread.is_searching());
    thread.stop();
    let result = answer_within(&rx, PROMPT).unwrap();
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(result.best_move.unwrap().to_string(), "i5f5");
}

#[test]
fn ponderhit_turns_a_ponder_search_into_a_timed_one() {
    let mut thread = SearchThread::new(Engine::new(8));
    let pondering = Limits {
        ponder: true,
        move_time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let rx = go(&mut thread, Position::startpos(), pondering);
    // While pondering, the 100 ms do not count.
    assert!(answer_within(&rx, Duration::from_millis(600)).is_none());
    let hit_at = Instant::now();
    thread.ponderhit();
    // Now they do: the answer comes without a stop.
    let result = answer_within(&rx, PROMPT).expect("an answer after ponderhit");
    assert!(hit_at.elapsed() < PROMPT);
    assert!(Position::startpos().is_legal(result.best_move.unwrap()));
}

#[test]
fn a_ponder_search_that_finished_early_answers_on_ponderhit() {
    let mut thread = SearchThread::new(Engine::new(4));
    let pondering = Limits {
        ponder: true,
        depth: Some(2),
        ..Limits::default()
    };
    let rx = go(&mut thread, Position::startpos(), pondering);
    assert!(answer_within(&rx, Duration::from_millis(300)).is_none());
    thread.ponderhit();
    let result = answer_within(&rx, PROMPT).unwrap();
    assert_eq!(result.depth, 2);
}

#[test]
fn stop_ends_a_ponder_search_too() {
    let mut thread = SearchThread::new(Engine::new(8));
    let pondering = Limits {
        ponder: true,
        ..Limits::move_time(Duration::from_millis(50))
    };
    let rx = go(&mut thread, Position::startpos(), pondering);
    assert!(answer_within(&rx, Duration::from_millis(300)).is_none());
    thread.remote().stop();
    assert!(answer_within(&rx, PROMPT).unwrap().best_move.is_some());
}

#[test]
fn stop_and_ponderhit_while_idle_do_not_reach_the_next_search() {
    let mut thread = SearchThread::new(Engine::new(4));
    let remote = thread.remote();
    remote.stop();
    remote.ponderhit();
    let result = thread
        .search(Position::startpos(), Vec::new(), Limits::depth(4), |_| {})
        .unwrap();
    assert_eq!(result.depth, 4, "an idle stop cut the next search short");
    // A stop that comes after the answer is stale as well.
    let rx = go(&mut thread, Position::startpos(), Limits::depth(2));
    answer_within(&rx, PROMPT).unwrap();
    thread.stop();
    let rx = go(&mut thread, Position::startpos(), Limits::depth(5));
    assert_eq!(answer_within(&rx, LONG).unwrap().depth, 5);
}

#[test]
fn a_second_go_is_refused_while_searching() {
    let mut thread = SearchThread::new(Engine::new(4));
    let rx = go(&mut thread, Position::startpos(), infinite());
    let refused = thread.go(Position::startpos(), Vec::new(), Limits::depth(1), |_| {});
    assert_eq!(refused, Err(SearchError::AlreadySearching));
    thread.stop();
    assert!(answer_within(&rx, PROMPT).is_some());
    // Answered: the next go is accepted.
    let rx = go(&mut thread, Position::startpos(), Limits::depth(1));
    assert_eq!(answer_within(&rx, PROMPT).unwrap().depth, 1);
}

#[test]
fn helper_threads_honour_stop() {
    let mut engine = Engine::new(8);
    engine.set_threads(2);
    let mut thread = SearchThread::new(engine);
    let rx = go(&mut thread, Position::startpos(), infinite());
    std::thread::sleep(Duration::from_millis(100));
    thread.stop();
    // Answering at all proves that the main thread and its helper stopped.
    let result = answer_within(&rx, PROMPT).unwrap();
    assert!(Position::startpos().is_legal(result.best_move.unwrap()));
    assert_eq!(thread.engine().threads(), 2);
}

#[test]
fn blocking_search_reports_on_the_callers_thread_and_stops_from_a_remote() {
    let mut thread = SearchThread::new(Engine::new(8));
    let remote = thread.remote();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        remote.stop();
    });
    let mut depths = Vec::new();
    let start = Instant::now();
    let result = thread
        .search(
            Position::startpos(),
            Vec::new(),
            Limits::move_time(LONG),
            |info| depths.push(info.depth),
        )
        .unwrap();
    stopper.join().unwrap();
    assert!(start.elapsed() < PROMPT);
    assert!(!depths.is_empty() && depths.windows(2).all(|w| w[0] < w[1]));
    assert!(Position::startpos().is_legal(result.best_move.unwrap()));
}

#[test]
fn a_position_without_moves_answers_at_once_with_no_move() {
    let mut thread = SearchThread::default();
    let mated = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1")
        .unwrap()
        .after("i5f5".parse().unwrap())
        .unwrap();
    let result = thread
        .search(mated, Vec::new(), Limits::depth(5), |_| {})
        .unwrap();
    assert_eq!(result.best_move, None);
    assert_eq!(result.score, Score::Mate(0));
}

#[test]
fn the_engine_settings_survive_searches() {
    let mut engine = Engine::new(2);
    engine.set_threads(3);
    let mut thread = SearchThread::new(engine);
    thread
        .search(Position::startpos(), Vec::new(), Limits::depth(2), |_| {})
        .unwrap();
    let engine = thread.into_engine();
    assert_eq!((engine.hash_size(), engine.threads()), (2, 3));
}
