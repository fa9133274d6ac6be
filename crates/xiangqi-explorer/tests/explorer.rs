//! The explorer against brute-force counts over a real corpus, rebuilds,
//! damaged files, transpositions and repetitions.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use xiangqi_adjudication::{GameRecord, Outcome, RuleSet};
use xiangqi_core::{random_game, Color, Move, Position};
use xiangqi_explorer::{build, BuildOptions, Explorer, ExplorerError, GameOutcome};
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::{GameResult, Games};
use xiangqi_test_support::shared_testdata;

fn options(jobs: usize, batch_entries: usize) -> BuildOptions {
    BuildOptions {
        jobs,
        batch_entries,
        ..BuildOptions::default()
    }
}

fn build_into(dir: &Path, name: &str, inputs: &[PathBuf], options: &BuildOptions) -> PathBuf {
    let db = dir.join(name);
    build(inputs, &db, options, |_| {}).expect("the build succeeds");
    db
}

/// A position as the brute force compares them: the board and the side to
/// move, without the counters.
fn board_key(position: &Position) -> String {
    let fen = position.to_fen();
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Games, Red wins, draws, Black wins.
type Counts = [u64; 4];

fn add(counts: &mut Counts, outcome: Option<GameOutcome>) {
    counts[0] += 1;
    match outcome {
        Some(GameOutcome::RedWins) => counts[1] += 1,
        Some(GameOutcome::Draw) => counts[2] += 1,
        Some(GameOutcome::BlackWins) => counts[3] += 1,
        None => {}
    }
}

/// The recorded result, else the rules' verdict: the explorer's definition.
fn outcome(game: &xiangqi_gamefile::Game, start: &Position) -> Option<GameOutcome> {
    match game.outcome() {
        GameResult::RedWins => Some(GameOutcome::RedWins),
        GameResult::BlackWins => Some(GameOutcome::BlackWins),
        GameResult::Draw => Some(GameOutcome::Draw),
        GameResult::Unknown => {
            let record = GameRecord::new(start.clone(), game.moves().collect());
            match record.adjudicate(&RuleSet::default()).ok()?.outcome {
                Outcome::Red => Some(GameOutcome::RedWins),
                Outcome::Black => Some(GameOutcome::BlackWins),
                Outcome::Draw => Some(GameOutcome::Draw),
                _ => None,
            }
        }
    }
}

/// Every game of the files, replayed board by board: for each position
/// (compared as boards, not hashes) the moves played from it, each game
/// once per position (the move it left the position by the last time).
/// Also the positions the games from the start reach after 1 and 2 plies.
fn brute_force(
    inputs: &[PathBuf],
    max_plies: usize,
) -> (BTreeMap<(String, Move), Counts>, Vec<Position>) {
    let mut counts: BTreeMap<(String, Move), Counts> = BTreeMap::new();
    let mut targets = vec![Position::startpos()];
    for file in collect(inputs).unwrap() {
        let file = file.unwrap();
        for game in Games::open(&file.path, None).unwrap() {
            let Ok(game) = game else { continue };
            let start = game.start_position().unwrap();
            let result = outcome(&game, &start);
            let mut seen: Vec<(String, Move)> = Vec::new();
            let mut position = start.clone();
            for (ply, mv) in game.moves().take(max_plies).enumerate() {
                let key = board_key(&position);
                let from_start = board_key(&start) == board_key(&Position::startpos());
                if from_start
                    && (ply == 1 || ply == 2)
                    && !targets.iter().any(|t| board_key(t) == key)
                {
                    targets.push(position.clone());
                }
                seen.retain(|(k, _)| *k != key);
                seen.push((key, mv));
                position.play(mv).unwrap();
            }
            for entry in seen {
                add(counts.entry(entry).or_default(), result);
            }
        }
    }
    (counts, targets)
}

#[test]
fn counts_from_the_start_and_two_plies_deep_equal_a_brute_force_count() {
    let Some(corpus) = shared_testdata("corpus/games") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let inputs = vec![corpus];
    let db = build_into(dir.path(), "games.db", &inputs, &options(2, 1000));
    let explorer = Explorer::open(&db).unwrap();
    let (expected, targets) = brute_force(&inputs, explorer.info().max_plies as usize);
    assert!(
        targets.len() > 10,
        "the corpus reaches {} positions",
        targets.len()
    );
    let mut checked_games = 0;
    for target in &targets {
        let key = board_key(target);
        let want: BTreeMap<Move, Counts> = expected
            .iter()
            .filter(|((k, _), _)| *k == key)
            .map(|((_, mv), c)| (*mv, *c))
            .collect();
        let got: BTreeMap<Move, Counts> = explorer
            .query(target)
            .unwrap()
            .moves
            .iter()
            .map(|m| {
                let r = m.results;
                (m.mv, [r.games, r.red_wins, r.draws, r.black_wins])
            })
            .collect();
        assert_eq!(got, want, "moves from {}", target.to_fen());
        checked_games += want.values().map(|c| c[0]).sum::<u64>();
    }
    // The start position alone has every game from the start.
    assert!(checked_games > 200, "{checked_games} games checked");
}

/// The content of an explorer file, table by table in key order.
fn canonical_dump(db: &Path) -> String {
    let connection = Connection::open(db).unwrap();
    let mut out = String::new();
    for pragma in ["application_id", "user_version"] {
        let v: i64 = connection
            .query_row(&format!("PRAGMA {pragma}"), [], |r| r.get(0))
            .unwrap();
        writeln!(out, "{pragma} {v}").unwrap();
    }
    for (table, order) in [
        ("meta", "key"),
        ("files", "id"),
        ("games", "id"),
        ("moves", "position, move"),
    ] {
        let mut statement = connection
            .prepare(&format!("SELECT * FROM {table} ORDER BY {order}"))
            .unwrap();
        let columns = statement.column_count();
        let mut rows = statement.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            let values: Vec<String> = (0..columns)
                .map(|i| format!("{:?}", row.get_ref(i).unwrap()))
                .collect();
            writeln!(out, "{table} {}", values.join(" ")).unwrap();
        }
    }
    out
}

/// `count` random games of up to 40 plies from the start, as PGN, with
/// results and ratings; the first plies are drawn from few moves so that
/// games share openings and transpose.
fn random_corpus(path: &Path, count: u64) {
    let mut text = String::new();
    for seed in 0..count {
        let mut moves = Vec::new();
        random_game(seed % 7, 4, |_, mv| moves.push(mv));
        let mut position = Position::startpos()
            .after_moves(moves.iter().copied())
            .unwrap();
        let mut tail = Vec::new();
        random_game_from(&mut position, seed, 36, &mut tail);
        moves.extend(tail);
        let result = ["1-0", "0-1", "1/2-1/2", "*"][(seed % 4) as usize];
        write!(
            text,
            "[Red \"R{seed}\"]\n[Black \"B{seed}\"]\n[RedElo \"{}\"]\n[BlackElo \"2000\"]\n[Result \"{result}\"]\n\n",
            1500 + seed
        )
        .unwrap();
        for mv in &moves {
            write!(text, "{mv} ").unwrap();
        }
        writeln!(text, "{result}\n").unwrap();
    }
    std::fs::write(path, text).unwrap();
}

fn random_game_from(position: &mut Position, seed: u64, plies: usize, out: &mut Vec<Move>) {
    let mut rng = xiangqi_core::SplitMix64::new(seed);
    for _ in 0..plies {
        let moves = position.legal_move_vec();
        let Some(&mv) = rng.choose(&moves) else { break };
        position.make_move(mv);
        out.push(mv);
    }
}

#[test]
fn rebuilding_gives_the_same_content_whatever_the_jobs_and_the_batch_size() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("random.pgn");
    random_corpus(&corpus, 400);
    let inputs = vec![corpus];
    let one = build_into(dir.path(), "one.db", &inputs, &options(1, 100_000));
    // Small batches: many sorted runs merged.
    let runs = dir.path().join("runs.db");
    let report = build(&inputs, &runs, &options(2, 500), |_| {}).unwrap();
    assert!(report.runs > 5, "{} runs", report.runs);
    let again = build_into(dir.path(), "again.db", &inputs, &options(1, 100_000));
    let dump = canonical_dump(&one);
    assert!(dump.lines().filter(|l| l.starts_with("moves ")).count() > 1000);
    assert_eq!(dump, canonical_dump(&runs));
    assert_eq!(dump, canonical_dump(&again));
    // Nothing left beside the output.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["again.db", "one.db", "random.pgn", "runs.db"]);
}

fn pgn_games(dir: &Path, games: &[&str]) -> PathBuf {
    let path = dir.join("games.pgn");
    let text: String = games.iter().map(|g| format!("{g}\n\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn position_after(moves: &str) -> Position {
    Position::startpos()
        .after_moves(moves.split_whitespace().map(|m| m.parse().unwrap()))
        .unwrap()
}

fn games_of(explorer: &Explorer, position: &Position) -> Vec<(String, u64)> {
    explorer
        .query(position)
        .unwrap()
        .moves
        .iter()
        .map(|m| (m.mv.to_string(), m.results.games))
        .collect()
}

#[test]
fn transpositions_merge() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = pgn_games(
        dir.path(),
        &[
            "1. h2e2 h9g7 2. b0c2 i9h9 1-0",
            "1. b0c2 h9g7 2. h2e2 i9h9 0-1",
            "1. b0c2 h9g7 2. h2e2 b9c7 1/2-1/2",
        ],
    );
    let db = build_into(dir.path(), "t.db", &[pgn], &BuildOptions::default());
    let explorer = Explorer::open(&db).unwrap();
    let stats = explorer.query(&position_after("h2e2 h9g7 b0c2")).unwrap();
    let moves: Vec<_> = stats
        .moves
        .iter()
        .map(|m| {
            (
                m.mv.to_string(),
                m.results.games,
                m.results.red_wins,
                m.results.black_wins,
            )
        })
        .collect();
    assert_eq!(
        moves,
        [("i9h9".to_string(), 2, 1, 1), ("b9c7".to_string(), 1, 0, 0)]
    );
    assert_eq!(stats.total.games, 3);
    assert_eq!(stats.total.score(Color::Black), Some(50.0));
}

#[test]
fn a_position_repeated_within_a_game_counts_once_with_the_move_that_left_it() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = pgn_games(
        dir.path(),
        &[
            // The start comes back twice; the game leaves it last by b0c2.
            "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 5. b0c2 *",
            // The same move every time: one game.
            "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 b9c7 *",
        ],
    );
    let db = build_into(dir.path(), "r.db", &[pgn], &BuildOptions::default());
    let explorer = Explorer::open(&db).unwrap();
    assert_eq!(
        games_of(&explorer, &Position::startpos()),
        [("b0c2".to_string(), 1), ("h0g2".to_string(), 1)]
    );
    assert_eq!(
        games_of(&explorer, &position_after("h0g2")),
        [("b9c7".to_string(), 1), ("h9g7".to_string(), 1)]
    );
}

#[test]
fn a_missing_result_is_the_rules_verdict_and_ratings_and_examples_are_kept() {
    let fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1";
    let mated = Position::from_fen(fen)
        .unwrap()
        .after("b0b9".parse().unwrap())
        .unwrap();
    assert!(mated.is_checkmate());
    let dir = tempfile::tempdir().unwrap();
    let mut games = vec![format!("[FEN \"{fen}\"]\n[Red \"Mater\"]\n\n1. b0b9 *")];
    for i in 0..5 {
        games.push(format!(
            "[FEN \"{fen}\"]\n[Red \"P{i}\"]\n[RedElo \"{}\"]\n[BlackElo \"2000\"]\n\n1. b0b9 0-1",
            2000 + 100 * i
        ));
    }
    let refs: Vec<&str> = games.iter().map(String::as_str).collect();
    let pgn = pgn_games(dir.path(), &refs);
    let db = build_into(dir.path(), "m.db", &[pgn], &BuildOptions::default());
    let explorer = Explorer::open(&db).unwrap();
    let stats = explorer.query(&Position::from_fen(fen).unwrap()).unwrap();
    let m = &stats.moves[0];
    // The recorded 0-1 stands where there is one; the unrecorded mate is Red's.
    assert_eq!(
        (m.results.games, m.results.red_wins, m.results.black_wins),
        (6, 1, 5)
    );
    // Ratings of the five rated games: (2000..2400 + 2000) / 2.
    assert_eq!(m.mean_rating, Some(2100.0));
    let examples: Vec<_> = m
        .examples
        .iter()
        .map(|g| (g.index, g.red.clone().unwrap()))
        .collect();
    assert_eq!(
        examples,
        [(1, "Mater".into()), (2, "P0".into()), (3, "P1".into())]
    );
    assert_eq!(m.examples[0].result, Some(GameOutcome::RedWins));
    // A file named on its own is named by its path as given.
    assert!(
        m.examples[0].file.ends_with("games.pgn"),
        "{}",
        m.examples[0].file
    );
}

fn small_explorer(dir: &Path) -> PathBuf {
    let corpus = dir.join("random.pgn");
    random_corpus(&corpus, 300);
    build_into(dir, "small.db", &[corpus], &BuildOptions::default())
}

#[test]
fn a_truncated_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_explorer(dir.path());
    let bytes = std::fs::read(&db).unwrap();
    for len in [bytes.len() / 2, 50, 0] {
        std::fs::write(&db, &bytes[..len]).unwrap();
        let e = Explorer::open(&db).unwrap_err();
        assert!(
            matches!(e, ExplorerError::Corrupt { .. }),
            "{len} bytes: {e}"
        );
        let message = e.to_string();
        assert!(message.contains(&db.display().to_string()), "{message}");
        assert!(message.contains("truncated or corrupt"), "{message}");
    }
}

#[test]
fn damaged_pages_are_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = small_explorer(dir.path());
    let mut bytes = std::fs::read(&db).unwrap();
    // Every page but the first (the header and the schema) overwritten.
    let page = 4096;
    for byte in &mut bytes[page..] {
        *byte = 0xA5;
    }
    std::fs::write(&db, &bytes).unwrap();
    let e = Explorer::open(&db)
        .and_then(|explorer| explorer.query(&Position::startpos()))
        .unwrap_err();
    assert!(matches!(e, ExplorerError::Corrupt { .. }), "{e}");
    assert!(e.to_string().contains(&db.display().to_string()), "{e}");
}

#[test]
fn other_files_and_versions_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.db");
    assert!(matches!(
        Explorer::open(&missing),
        Err(ExplorerError::Open { .. })
    ));
    let text = dir.path().join("text.db");
    std::fs::write(
        &text,
        "not a database at all, but long enough to hold a header. ".repeat(4),
    )
    .unwrap();
    assert!(matches!(
        Explorer::open(&text),
        Err(ExplorerError::NotExplorer { .. })
    ));
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    assert!(matches!(
        Explorer::open(&other),
        Err(ExplorerError::NotExplorer { .. })
    ));
    let db = small_explorer(dir.path());
    Connection::open(&db)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let e = Explorer::open(&db).unwrap_err();
    assert!(matches!(e, ExplorerError::Version { found: 99, .. }), "{e}");
}
