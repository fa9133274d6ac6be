//! Garbage on the engine channel: `xiangqi uci` and `xiangqi ucci` get
//! 10 000 random lines (random bytes, invalid UTF-8, overlong lines, token
//! soup of real command words with absurd values, illegal `position`s)
//! interleaved with valid commands, from a fixed seed. The engine must stay
//! alive, answer every `isready` with `readyok`, and at the end still play a
//! legal move from the last good position.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::thread;

use common::{xiangqi_bin, Rng};
use xiangqi_core::{Move, Position};

const GARBAGE_LINES: usize = 10_000;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Protocol {
    Uci,
    Ucci,
}

/// Words a GUI (or a broken one) might send.
const WORDS: &[&str] = &[
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "infinite",
    "searchmoves",
    "time",
    "increment",
    "opptime",
    "draw",
    "ponder",
    "setoption",
    "name",
    "value",
    "Hash",
    "hashsize",
    "usemillisec",
    "true",
    "newgame",
    "Threads",
    "MultiPV",
    "Clear",
    "banmoves",
    "ucinewgame",
    "uci",
    "ucci",
    "stop",
    "h2e2",
    "h9g7",
    "e0e9",
    "z9z9",
    "a0a0",
    "H2-E2",
    "炮二平五",
    "-1",
    "0",
    "1",
    "2",
    "-9223372036854775808",
    "9223372036854775807",
    "18446744073709551616",
    "1e308",
    "NaN",
    "inf",
    "-0",
    "0.5",
    "3",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "w",
    "b",
    "-",
    "4k4/9/9/9/9/9/9/9/9/4K4",
    "\u{0}",
    "\t",
    "\u{feff}",
    "é",
    "\u{202e}",
    "💥",
];

/// Lines that would end the session or be counted as `isready`.
fn is_control(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    matches!(
        text.split_whitespace().next(),
        Some("quit" | "bye" | "isready")
    )
}

/// Hash sizes a garbage line may ask for are kept small: a real request for
/// 32 GiB is tested separately (`hash_allocation_failure_is_survivable`).
fn is_big_hash(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line).to_ascii_lowercase();
    (text.contains("hash"))
        && text
            .split_whitespace()
            .any(|w| w.parse::<u64>().is_ok_and(|n| n > 64))
}

fn garbage_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(10) {
        // Random bytes, invalid UTF-8 and control characters included.
        0..=2 => (0..rng.below(120))
            .map(|_| rng.below(256) as u8)
            .filter(|&b| b != b'\n')
            .collect(),
        // Printable ASCII noise.
        3 => (0..rng.below(80))
            .map(|_| (32 + rng.below(95)) as u8)
            .collect(),
        // A line longer than the loop accepts (64 KiB), sometimes a real command.
        4 if rng.chance(3) => {
            let mut l = b"position startpos moves ".to_vec();
            while l.len() < 70 * 1024 {
                l.extend_from_slice(b"h2e2 ");
            }
            l
        }
        // Illegal or malformed positions.
        4 | 5 => {
            let choices = [
                "position fen 9/9/9/9/9/9/9/9/9/9 w - - 0 1",
                "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 extra extra",
                "position startpos moves h2e2 h2e2",
                "position startpos moves h2e2 h9g7 zz",
                "position startpos extra",
                "position fen",
                "position",
                "position moves h2e2",
                "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
            ];
            rng.choose(&choices).expect("choices").as_bytes().to_vec()
        }
        // Token soup of real command words.
        _ => {
            let n = 1 + rng.below(12);
            let words: Vec<&str> = (0..n).map(|_| *rng.choose(WORDS).expect("words")).collect();
            words
                .join(if rng.chance(10) { "\t" } else { " " })
                .into_bytes()
        }
    }
}

/// A valid command of the protocol, with the number of `readyok` it must produce.
fn valid_command(rng: &mut Rng, protocol: Protocol) -> (&'static str, usize) {
    let uci = [
        ("isready", 1),
        ("stop", 0),
        ("position startpos moves h2e2 h9g7", 0),
        ("position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", 0),
        ("go depth 1", 0),
        ("go nodes 200", 0),
        ("go movetime 5", 0),
        ("go wtime 100 btime 100", 0),
        ("setoption name Hash value 2", 0),
        ("ucinewgame", 0),
        ("uci", 0),
    ];
    let ucci = [
        ("isready", 1),
        ("stop", 0),
        ("position startpos moves h2e2 h9g7", 0),
        ("position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1", 0),
        ("go depth 1", 0),
        ("go nodes 200", 0),
        ("go time 1 increment 0", 0),
        ("banmoves h0g2", 0),
        ("setoption hashsize 2", 0),
        ("setoption newgame", 0),
        ("ucci", 0),
    ];
    let commands = if protocol == Protocol::Uci {
        &uci
    } else {
        &ucci
    };
    *rng.choose(commands).expect("commands")
}

fn transcript(protocol: Protocol, seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(seed);
    let mut input = Vec::new();
    let mut readyok = 0;
    let handshake = if protocol == Protocol::Uci {
        "uci\n"
    } else {
        "ucci\n"
    };
    input.extend_from_slice(handshake.as_bytes());
    let mut garbage = 0;
    while garbage < GARBAGE_LINES {
        if rng.chance(15) {
            let (cmd, ready) = valid_command(&mut rng, protocol);
            input.extend_from_slice(cmd.as_bytes());
            input.push(b'\n');
            readyok += ready;
            continue;
        }
        let line = garbage_line(&mut rng);
        if is_control(&line) || is_big_hash(&line) {
            continue;
        }
        input.extend_from_slice(&line);
        input.extend_from_slice(if rng.chance(5) { b"\r\n" } else { b"\n" });
        garbage += 1;
    }
    // Stop whatever runs and wait for it (new game joins the search thread),
    // then the final check from a known position.
    let reset = if protocol == Protocol::Uci {
        "stop\nucinewgame\n"
    } else {
        "stop\nsetoption newgame\n"
    };
    input.extend_from_slice(reset.as_bytes());
    input.extend_from_slice(b"isready\nposition startpos moves h2e2\ngo depth 2\n");
    readyok += 1;
    (input, readyok)
}

fn run_transcript(protocol: Protocol, seed: u64) {
    let (input, expected_readyok) = transcript(protocol, seed);
    let word = if protocol == Protocol::Uci {
        "uci"
    } else {
        "ucci"
    };
    let mut child = Command::new(xiangqi_bin())
        .args([word, "--hash", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let writer = thread::spawn(move || {
        // The engine reads to the end of input and then finishes its search.
        stdin
            .write_all(&input)
            .expect("the engine closed its input early (did it die?)");
    });
    let err_reader = thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut BufReader::new(stderr), &mut text);
        text
    });
    let lines: Vec<String> = BufReader::new(stdout)
        .lines()
        .map(|l| l.expect("utf-8 output"))
        .collect();
    writer.join().expect("writer thread");
    let status = child.wait().expect("engine exit");
    let stderr = err_reader.join().expect("stderr thread");
    assert!(
        status.success(),
        "{word} exited with {status}; stderr:\n{stderr}"
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("internal error"),
        "{word} stderr:\n{stderr}"
    );

    let readyok = lines.iter().filter(|l| *l == "readyok").count();
    assert_eq!(
        readyok, expected_readyok,
        "every isready must be answered once"
    );
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .count();
    assert!(
        errors > GARBAGE_LINES / 2,
        "garbage should be reported: {errors} errors"
    );
    assert!(
        lines.iter().any(|l| l.contains("longer than")),
        "overlong lines are reported"
    );

    // The answer to the final `go depth 2`: the last line, after the last readyok.
    let last_ready = lines
        .iter()
        .rposition(|l| l == "readyok")
        .expect("final readyok");
    let best = lines[last_ready..]
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .collect::<Vec<_>>();
    assert_eq!(
        best.len(),
        1,
        "one bestmove after the final isready: {:?}",
        &lines[last_ready..]
    );
    let mv: Move = best[0]
        .split_whitespace()
        .nth(1)
        .expect("a move")
        .parse()
        .expect("an ICCS move");
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    assert!(
        pos.is_legal(mv),
        "final bestmove {mv} is illegal after h2e2"
    );
}

#[test]
fn uci_survives_garbage() {
    run_transcript(Protocol::Uci, 0x5EED_0001);
}

#[test]
fn ucci_survives_garbage() {
    run_transcript(Protocol::Ucci, 0x5EED_0002);
}

/// A rejected `position` keeps the last good one: the engine then analyses that.
#[test]
fn rejected_position_keeps_the_last_good_one() {
    for word in ["uci", "ucci"] {
        let input = "position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1\n\
                     position fen 9/9/9/9/9/9/9/9/9/9 w - - 0 1\n\
                     position startpos moves h2e2 zz\n\
                     position startpos moves e0e1 e0e1\n\
                     isready\ngo depth 2\n";
        let out = Command::new(xiangqi_bin())
            .args([word, "--hash", "1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().expect("stdin").write_all(input.as_bytes())?;
                c.wait_with_output()
            })
            .expect("run the engine");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{word}: {stdout}");
        assert_eq!(
            stdout
                .lines()
                .filter(|l| l.contains("position unchanged"))
                .count(),
            3,
            "{word}: {stdout}"
        );
        assert!(stdout.lines().any(|l| l == "readyok"), "{word}: {stdout}");
        let best = stdout
            .lines()
            .find(|l| l.starts_with("bestmove"))
            .expect("a bestmove");
        // Only the chariot and the general can move; the chariot mates on f9... any legal move of that position.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1").unwrap();
        let mv: Move = best.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert!(
            pos.is_legal(mv),
            "{word}: {best} is not a move of the last good position"
        );
    }
}

/// A hash size the machine cannot give (here forced with `ulimit -v`; on a
/// real machine `setoption name Hash value 32768`, the advertised maximum,
/// on less RAM) must be an error message, not an abort of the engine.
#[test]
#[cfg(unix)]
fn hash_allocation_failure_is_survivable() {
    for (word, set) in [
        ("uci", "setoption name Hash value 4096"),
        ("ucci", "setoption hashsize 4096"),
    ] {
        let script = format!(
            "ulimit -v 1500000; exec '{}' {word} --hash 1",
            xiangqi_bin().display()
        );
        let out = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin
                    .take()
                    .expect("stdin")
                    .write_all(format!("{set}\nisready\ngo depth 1\n").as_bytes())?;
                c.wait_with_output()
            })
            .expect("run the engine");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{word} died ({}) on {set:?}; stderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.lines().any(|l| l.starts_with("info string error")),
            "{word}: {stdout}"
        );
        assert!(stdout.lines().any(|l| l == "readyok"), "{word}: {stdout}");
        assert!(
            stdout.lines().any(|l| l.starts_with("bestmove")),
            "{word}: {stdout}"
        );
    }
}
