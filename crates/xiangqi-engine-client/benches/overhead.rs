//! The client's cost per `search` call against the same exchange done by
//! hand (write `position` and `go depth 1`, read lines up to `bestmove`),
//! with the same engine process kind in the same run. The engine is this
//! workspace's release `xiangqi uci` (built by `cargo bench` only if asked:
//! `cargo build --release -p xiangqi-cli`), else $XIANGQI_ENGINE, else
//! Debian's fairy-stockfish; without any, the bench says so and does nothing.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use criterion::{criterion_group, criterion_main, Criterion};
use xiangqi_core::Position;
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Protocol, SearchOptions};

fn engine_argv() -> Option<Vec<String>> {
    if let Ok(cmd) = std::env::var("XIANGQI_ENGINE") {
        return xiangqi_engine_client::split_command(&cmd).ok();
    }
    // target/release/deps/overhead-… → target/release/xiangqi
    let own = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("xiangqi")))
        .filter(|p| p.is_file());
    if let Some(own) = own {
        return Some(vec![own.display().to_string(), "uci".into()]);
    }
    let fsf = PathBuf::from("/usr/games/fairy-stockfish");
    fsf.is_file().then(|| vec![fsf.display().to_string()])
}

/// The same engine, driven by hand.
struct Raw {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Raw {
    fn start(argv: &[String]) -> Raw {
        let mut child = Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut raw = Raw {
            _child: child,
            stdin,
            stdout,
            line: String::new(),
        };
        raw.exchange("uci\n", "uciok");
        raw.exchange("isready\n", "readyok");
        raw
    }

    fn exchange(&mut self, send: &str, until: &str) {
        self.stdin.write_all(send.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        loop {
            self.line.clear();
            if self.stdout.read_line(&mut self.line).unwrap() == 0 {
                panic!("engine closed its output");
            }
            if self.line.starts_with(until) {
                return;
            }
            // `xiangqi uci` may refuse a `go` that follows `bestmove` too
            // closely; the client repeats it, and so does this exchange.
            if self.line.contains("already searching") {
                let go = send.lines().last().unwrap_or_default();
                self.stdin.write_all(format!("{go}\n").as_bytes()).unwrap();
                self.stdin.flush().unwrap();
            }
        }
    }
}

fn overhead(c: &mut Criterion) {
    let Some(argv) = engine_argv() else {
        eprintln!(
            "engine-client overhead: skipped (no engine: build `cargo build --release -p xiangqi-cli`, \
             set XIANGQI_ENGINE, or apt-get install fairy-stockfish)"
        );
        return;
    };
    eprintln!("engine-client overhead: engine {}", argv.join(" "));
    let mut group = c.benchmark_group("engine_client_overhead");
    group.sample_size(50);
    group.measurement_time(std::time::Duration::from_secs(3));
    let mut raw = Raw::start(&argv);
    group.bench_function("raw_uci_exchange_depth1", |b| {
        b.iter(|| raw.exchange("position startpos moves h2e2\ngo depth 1\n", "bestmove"))
    });
    let mut engine =
        Engine::start(&EngineSpec::new(argv.clone(), Protocol::Uci), None).expect("engine starts");
    let start = Position::startpos();
    let moves = ["h2e2".parse().unwrap()];
    let options = SearchOptions::new(Limit::depth(1));
    group.bench_function("client_search_depth1", |b| {
        b.iter(|| engine.search(&start, &moves, options).expect("search"))
    });
    group.finish();
    engine.quit();
}

criterion_group!(benches, overhead);
criterion_main!(benches);
