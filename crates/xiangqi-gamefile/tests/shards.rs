//! Shards of a text game file hold every game exactly once, in order.

use std::fmt::Write as _;
use std::path::PathBuf;

use xiangqi_core::{MoveList, Position, SplitMix64};
use xiangqi_gamefile::pgn::read_str;
use xiangqi_gamefile::wxf::{write_wxf, WxfWriteOptions};
use xiangqi_gamefile::{
    count_lines, shards, Format, Game, GameFileError, Games, RangeOrigin, ShardReader,
};

/// A PGN corpus of random games with odd boundaries: CRLF and LF lines,
/// several or no blank lines between games, tags on one line, comments
/// with `[%eval …]` at a line start, a game without tags, a game cut at an
/// illegal move, a broken game.
fn odd_pgn(games: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut text = String::new();
    for index in 0..games {
        let eol = if index % 3 == 0 { "\r\n" } else { "\n" };
        let gap = [0, 1, 3][index % 3];
        if index % 11 != 5 {
            let _ = write!(
                text,
                "[Event \"shard {index}\"]{eol}[Round \"{index}\"]{eol}"
            );
            if index % 4 == 0 {
                text.push_str(eol);
            }
        }
        let mut position = Position::startpos();
        for ply in 0..rng.below(60) {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            let Some(&mv) = rng.choose(moves.as_slice()) else {
                break;
            };
            if ply % 2 == 0 {
                let _ = write!(text, "{}. ", ply / 2 + 1);
            }
            let _ = write!(text, "{mv} ");
            if ply % 9 == 4 {
                let _ = write!(text, "{{{eol}[%eval 0.{ply}]}}{eol}");
            }
            position.make_move(mv);
        }
        if index % 13 == 7 {
            text.push_str("a0a9 "); // illegal: cuts the main line
        }
        if index % 17 == 3 {
            text.push_str("x9x9!?!? "); // no annotation: a broken game
        }
        text.push('*');
        for _ in 0..=gap {
            text.push_str(eol);
        }
    }
    text
}

fn temp(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// A game, or the text of its error.
type Item = Result<Game, String>;

/// Every game (or error text) of the whole file and of its `n` shards, the
/// shards' errors counted from the file's start through [`RangeOrigin`].
fn whole_and_sharded(path: &PathBuf, n: usize) -> (Vec<Item>, Vec<Item>) {
    let whole: Vec<Item> = Games::open(path, None)
        .unwrap()
        .map(|item| item.map_err(|e| e.to_string()))
        .collect();
    let parts = shards(path, None, n).unwrap();
    assert_eq!(parts.len(), n.max(1));
    let len = std::fs::metadata(path).unwrap().len();
    assert_eq!(parts.first().unwrap().start, 0);
    assert_eq!(parts.last().unwrap().end, len);
    assert!(parts.windows(2).all(|w| w[0].end == w[1].start));
    // One reader for every shard, read last to first: a shard's games do
    // not depend on what the reader read before.
    let mut reader = ShardReader::open(path, None).unwrap();
    let mut read: Vec<(Vec<Result<Game, GameFileError>>, usize)> = parts
        .iter()
        .rev()
        .map(|&s| {
            let shard = reader.read(s).unwrap();
            assert_eq!(shard.line_feeds, count_lines(path, s.start, s.end).unwrap());
            (shard.games.collect(), shard.line_feeds)
        })
        .collect();
    read.reverse();
    let mut sharded: Vec<Item> = Vec::new();
    let mut lines = 0;
    for (s, (games, line_feeds)) in parts.iter().zip(read) {
        let origin = RangeOrigin {
            games: sharded.len(),
            lines,
            byte: s.start,
        };
        let from_file_start = |item: Result<Game, GameFileError>| {
            item.map(|game| game.counted_from_file_start(origin))
                .map_err(|e| e.counted_from_file_start(origin).to_string())
        };
        let opened: Vec<Item> = Games::open_range(path, None, s.start, s.end)
            .unwrap()
            .map(from_file_start)
            .collect();
        let items: Vec<Item> = games.into_iter().map(from_file_start).collect();
        assert_eq!(items, opened, "open_range and ShardReader agree");
        sharded.extend(items);
        lines += line_feeds;
    }
    assert_eq!(lines, count_lines(path, 0, len).unwrap());
    (whole, sharded)
}

#[test]
fn pgn_shards_hold_every_game_once() {
    let text = odd_pgn(300, 7);
    let path = temp("odd.pgn", text.as_bytes());
    for n in [1, 2, 3, 7, 16, 299, 300, 1000] {
        let (whole, sharded) = whole_and_sharded(&path, n);
        assert!(whole.len() >= 300, "{} items", whole.len());
        assert!(
            whole
                .iter()
                .any(|item| item.as_ref().is_ok_and(|g| !g.errors.is_empty())),
            "the corpus has games cut at an illegal move"
        );
        assert!(
            whole.iter().any(|item| item.is_err()),
            "the corpus has broken games"
        );
        assert_eq!(sharded, whole, "{n} shards");
    }
    // More shards than games: some shards are empty, none splits a game.
    let few = temp("few.pgn", odd_pgn(3, 8).as_bytes());
    let (whole, sharded) = whole_and_sharded(&few, 50);
    assert_eq!(whole.len(), 3);
    assert_eq!(sharded, whole);
    assert!(
        shards(&few, Some(Format::Pgn), 50)
            .unwrap()
            .iter()
            .filter(|s| !s.is_empty())
            .count()
            <= 3
    );
}

#[test]
fn wxf_shards_hold_every_game_once() {
    let mut text = String::new();
    for game in read_str(&odd_pgn(80, 9)).flatten() {
        let mut game = game;
        // WXF game files hold comments and variations only where they fit.
        game.mainline.comments.clear();
        for node in &mut game.mainline.moves {
            *node = xiangqi_gamefile::Node::new(node.mv);
        }
        text.push_str(&write_wxf(&game, &WxfWriteOptions::default()).unwrap());
        text.push('\n');
    }
    let path = temp("corpus.wxf", text.as_bytes());
    for n in [1, 2, 5, 40, 200] {
        let (whole, sharded) = whole_and_sharded(&path, n);
        assert!(whole.len() > 60);
        assert_eq!(sharded, whole, "{n} shards");
    }
}

#[test]
fn binary_files_are_one_shard() {
    let game = read_str("[Red \"A\"]\n1. h2e2 h9g7 *\n")
        .next()
        .unwrap()
        .unwrap();
    let path = temp("one.xqf", &xiangqi_gamefile::write_xqf(&game).unwrap());
    let (whole, sharded) = whole_and_sharded(&path, 4);
    assert_eq!(whole.len(), 1);
    assert_eq!(sharded, whole);
}
