//! `xiangqi play` driven by scripted input (stdin is not a terminal).

use assert_cmd::Command;

/// Red to move mates at once with i5f5 (EX-END-FG).
const MATE_IN_ONE: &str = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1";

/// Runs `xiangqi play ARGS` with `script` on stdin; returns stdout.
fn play(args: &[&str], script: &str) -> String {
    let out = Command::cargo_bin("xiangqi")
        .unwrap()
        .arg("play")
        .args(args)
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn scripted_session_with_every_command() {
    let out = play(
        &["--depth", "1", "--ascii"],
        "help\nh2e2\nmoves\nhint\nfoo\nh2e2\nundo\nundo\nflip\nquit\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "You play red. Type a move in any notation, or 'help'."
    );
    assert_eq!(lines[1], "   a   b   c   d   e   f   g   h   i");
    assert_eq!(lines[2], "9  r---n---b---a---k---a---b---n---r  9");
    assert_eq!(lines[11], "   |  river                 river  |");
    assert!(out.contains("undo    take back your last move"), "{out}");
    assert!(out.contains("You play h2e2\n"), "{out}");
    assert!(out.contains("Engine (black) plays "), "{out}");
    let legal = lines.iter().find(|l| l.contains("Legal moves: ")).unwrap();
    assert!(legal.split(' ').count() > 30, "{legal}");
    assert!(out.contains("Hint: "), "{out}");
    assert!(
        out.contains("Not a move here: invalid move \"foo\""),
        "{out}"
    );
    // h2 is empty after h2e2: the move is rejected with the core's reason.
    assert!(out.contains("Not a move here:"), "{out}");
    assert!(out.contains("Taken back; red to move."), "{out}");
    assert!(out.contains("Nothing to take back."), "{out}");
    // After `flip` Black's side is at the bottom and files run i..a.
    assert!(
        out.contains(
            "   i   h   g   f   e   d   c   b   a\n0  R---N---B---A---K---A---B---N---R  0"
        ),
        "{out}"
    );
    assert!(out.trim_end().ends_with("Bye."), "{out}");
}

#[test]
fn moves_in_any_notation() {
    let out = play(
        &["--depth", "1", "--notation", "wxf"],
        "炮二平五\nundo\nC2=5\nundo\nPháo 2 bình 5\nundo\nH2-E2\nquit\n",
    );
    assert_eq!(out.matches("You play C2=5 (h2e2)").count(), 4, "{out}");
    // Chinese characters by default, and the engine's replies in WXF.
    assert!(
        out.contains("9  車──馬──象──士──將──士──象──馬──車  9"),
        "{out}"
    );
    assert!(out.contains("Engine (black) plays "), "{out}");
}

#[test]
fn human_mates_and_the_verdict_is_announced() {
    let out = play(&["--fen", MATE_IN_ONE, "--depth", "1", "--ascii"], "i5f5\n");
    assert!(
        out.contains("Game over: 1-0 (checkmate). You win!"),
        "{out}"
    );
    assert!(
        out.contains("black is in check by the red chariot on f5 and has no legal move"),
        "{out}"
    );
}

#[test]
fn engine_mates_the_human() {
    let out = play(
        &["--fen", MATE_IN_ONE, "--color", "black", "--depth", "2"],
        "",
    );
    assert!(out.starts_with("You play black."), "{out}");
    assert!(out.contains("Engine (red) plays i5f5"), "{out}");
    assert!(
        out.contains("Game over: 1-0 (checkmate). The engine (red) wins."),
        "{out}"
    );
    // Black plays from the bottom: rank 0 is drawn first.
    let first_rank = out
        .lines()
        .find(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap();
    assert!(first_rank.starts_with("0  "), "{first_rank}");
}

#[test]
fn resignation_and_end_of_input() {
    let out = play(&["--depth", "1"], "resign\n");
    assert!(
        out.contains("Game over: 0-1 (resignation). The engine (black) wins."),
        "{out}"
    );
    let out = play(&["--depth", "1"], "h2e2\n");
    assert!(
        out.trim_end()
            .ends_with("End of input: game left unfinished."),
        "{out}"
    );
}

#[test]
fn colours_on_request() {
    let out = play(&["--depth", "1", "--ansi", "always", "--ascii"], "quit\n");
    assert!(out.contains("\x1b[1;31;47mR\x1b[0m"), "{out}");
    assert!(out.contains("\x1b[1;30;47mr\x1b[0m"), "{out}");
    let out = play(&["--depth", "1"], "quit\n");
    assert!(
        !out.contains('\x1b'),
        "no colours when stdout is not a terminal"
    );
}

#[test]
fn bad_arguments() {
    let out = Command::cargo_bin("xiangqi")
        .unwrap()
        .args(["play", "--fen", "not a fen"])
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: cannot read --fen"));
}
