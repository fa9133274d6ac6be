//! The PGN reader's documented limits ([`Limits`]): each one is enforced with
//! its own clear error naming the game and line, the oversized game is
//! skipped, and reading goes on with the next game. Hostile numbers in the
//! input (a huge move number, a huge NAG) are errors, not allocations.

use xiangqi_gamefile::pgn::PgnReader;
use xiangqi_gamefile::{ErrorKind, GameFileError};
use xiangqi_gamefile::{Limits, ReaderOptions};

fn read_all(text: &[u8], limits: Limits) -> Vec<Result<usize, GameFileError>> {
    let options = ReaderOptions {
        limits,
        ..ReaderOptions::default()
    };
    PgnReader::with_options(text, options)
        .map(|g| g.map(|g| g.plies()))
        .collect()
}

const NEXT_GAME: &str = "\n[Event \"next\"]\n\n1. h2e2 h9g7 *\n";

/// The item for the oversized game is the expected error, and the game after it is read.
fn assert_limit(text: String, limits: Limits, expected: impl Fn(&ErrorKind) -> bool, what: &str) {
    let items = read_all(text.as_bytes(), limits);
    let first = items
        .first()
        .unwrap_or_else(|| panic!("{what}: nothing read"));
    let err = first.as_ref().expect_err(what);
    assert!(expected(&err.kind), "{what}: wrong error {err}");
    assert_eq!(err.game, 1, "{what}: {err}");
    assert!(
        err.line_column().is_some_and(|(line, _)| line >= 1),
        "{what}: {err}"
    );
    let message = err.to_string();
    assert!(message.starts_with("game 1, line "), "{what}: {message}");
    assert_eq!(
        items.last().cloned(),
        Some(Ok(2)),
        "{what}: the next game must still be read: {items:?}"
    );
}

#[test]
fn line_length_is_capped() {
    let limits = Limits {
        max_line_len: 1_000,
        ..Limits::default()
    };
    let text = format!(
        "[Event \"{}\"]\n\n1. h2e2 *\n{NEXT_GAME}",
        "x".repeat(5_000)
    );
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::LineTooLong(1_000)),
        "long tag line",
    );
    // A 10 MiB line without any newline is not buffered whole.
    let text = format!("1. h2e2 {{{}}}\n{NEXT_GAME}", "y".repeat(10 << 20));
    assert_limit(
        text,
        Limits::default(),
        |k| matches!(k, ErrorKind::LineTooLong(_)),
        "10 MiB line",
    );
}

#[test]
fn comment_length_is_capped() {
    let limits = Limits {
        max_comment_len: 100,
        ..Limits::default()
    };
    // A comment over many short lines: only the comment limit can catch it.
    let body = "some words in a comment\n".repeat(50);
    let text = format!("1. h2e2 {{{body}}} h9g7 *\n{NEXT_GAME}");
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::CommentTooLong(100)),
        "multi-line comment",
    );
    let text = format!("1. h2e2 ; {}\nh9g7 *\n{NEXT_GAME}", "z".repeat(500));
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::CommentTooLong(100)),
        "line comment",
    );
}

#[test]
fn variation_depth_is_capped() {
    let limits = Limits {
        max_variation_depth: 8,
        ..Limits::default()
    };
    // 1. h2e2 (1. b2e2 (1. h2e2 (… nested 9 deep.
    let mut text = String::from("1. h2e2 ");
    for i in 0..9 {
        text.push_str(if i % 2 == 0 { "(1. b2e2 " } else { "(1. h2e2 " });
    }
    text.push_str(&")".repeat(9));
    text.push_str(" h9g7 *\n");
    text.push_str(NEXT_GAME);
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::VariationTooDeep(8)),
        "nested variations",
    );
    // Default limit against 100 000 opening parentheses on one line.
    let text = format!("1. h2e2 {} *\n{NEXT_GAME}", "(1. b2e2 ".repeat(100_000));
    let limits = Limits {
        max_line_len: 1 << 30,
        ..Limits::default()
    };
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::VariationTooDeep(_)),
        "100 000 parentheses",
    );
}

/// `usize::MAX` is the natural way to switch the line limit off, but
/// `PgnReader::read_line` computes `room + 1` with `room = usize::MAX`: a panic
/// with overflow checks, and without them every line is "too long".
#[test]
fn unlimited_line_length_reads_games() {
    let limits = Limits {
        max_line_len: usize::MAX,
        ..Limits::default()
    };
    assert_eq!(read_all(NEXT_GAME.as_bytes(), limits), vec![Ok(2)]);
}

#[test]
fn moves_per_game_are_capped() {
    let limits = Limits {
        max_moves_per_game: 40,
        ..Limits::default()
    };
    // Horses back and forth: 21 move pairs.
    let mut text = String::new();
    for n in 1..=21 {
        let (r, b) = if n % 2 == 1 {
            ("h0g2", "h9g7")
        } else {
            ("g2h0", "g7h9")
        };
        text.push_str(&format!("{n}. {r} {b} "));
    }
    text.push_str("*\n");
    text.push_str(NEXT_GAME);
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::TooManyMoves(40)),
        "42 plies",
    );
}

#[test]
fn tags_per_game_are_capped() {
    let limits = Limits {
        max_tags_per_game: 10,
        ..Limits::default()
    };
    let tags: String = (0..11).map(|i| format!("[Tag{i} \"v\"]\n")).collect();
    let text = format!("{tags}\n1. h2e2 *\n{NEXT_GAME}");
    assert_limit(
        text,
        limits,
        |k| matches!(k, ErrorKind::TooManyTags(10)),
        "11 tags",
    );
}

#[test]
fn hostile_numbers_are_errors_not_allocations() {
    // Move numbers and NAGs far beyond any real game.
    let text = format!("99999999999999999999999999. h2e2 $99999999999999999999 *\n{NEXT_GAME}");
    let items = read_all(text.as_bytes(), Limits::default());
    assert!(
        matches!(&items[0], Err(e) if matches!(e.kind, ErrorKind::BadAnnotation(_))),
        "{items:?}"
    );
    assert_eq!(items.last().cloned(), Some(Ok(2)));
}

#[test]
fn binary_garbage_ends_with_errors() {
    // A megabyte of pseudo-random bytes: the reader finishes, with errors only.
    let mut state = 0x1234_5678_u64;
    let bytes: Vec<u8> = (0..1 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    let items = read_all(&bytes, Limits::default());
    assert!(!items.is_empty());
    for (i, item) in items.iter().enumerate() {
        if let Err(e) = item {
            assert_eq!(e.game, i + 1, "errors are numbered like games: {e}");
        }
    }
}
