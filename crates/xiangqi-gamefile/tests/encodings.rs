//! Encodings decided once per file, on real files: the Big5 PGN files of
//! the Chinese Chess Practical Dataset (`shared/testdata/ccpd`), and the
//! GBK files of the corpus, which must read as they did when every legacy
//! byte was taken for GB18030.

use std::path::{Path, PathBuf};

use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::pgn::read_str;
use xiangqi_gamefile::{Format, Games, ReaderOptions, TextEncoding};
use xiangqi_test_support::shared_testdata;

/// The moves of a CCPD file, counted without our reader: the file decoded
/// as Big5 by encoding_rs, the text after the last tag line split at
/// white space, and every word of four characters whose third is 進, 退 or
/// 平 (`炮二平五`, `馬８進７`, `前車進二`) counted. (The files hold no
/// comments, variations nor other words: move numbers and the result.)
fn move_tokens(bytes: &[u8]) -> usize {
    let (text, _, _) = encoding_rs::BIG5.decode(bytes);
    let moves = text
        .rfind("]\n")
        .or(text.rfind("]\r\n"))
        .map_or(&text[..], |at| &text[at + 1..]);
    moves
        .split_whitespace()
        .filter(|word| {
            let chars: Vec<char> = word.chars().collect();
            chars.len() == 4 && matches!(chars[2], '進' | '退' | '平')
        })
        .count()
}

fn ccpd_files(dir: &Path) -> Vec<PathBuf> {
    collect(&[dir.to_owned()])
        .unwrap()
        .into_iter()
        .map(|f| f.unwrap().path)
        .collect()
}

/// Every file of the shared CCPD sample (4 729 Big5 PGN files in folders
/// with traditional-Chinese names) reads as exactly one game, with no
/// error, in Big5, and with as many plies as the file has moves.
#[test]
fn every_ccpd_file_reads_as_one_game_with_every_move() {
    let Some(dir) = shared_testdata("ccpd") else {
        return;
    };
    let files = ccpd_files(&dir);
    assert_eq!(files.len(), 4729, "the sample's README counts 4 729 files");
    let mut failures = Vec::new();
    // The move forms the sample's README names, each in some file read.
    let forms = [
        "馬８進７",
        "車九進一",
        "相七進五",
        "仕四進五",
        "帥五平四",
        "將５平４",
        "前車進二",
        "  ",
    ];
    let mut seen = [false; 8];
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let (text, _, _) = encoding_rs::BIG5.decode(&bytes);
        for (form, seen) in forms.iter().zip(&mut seen) {
            *seen |= text.contains(form);
        }
        let mut games = Games::open(path, None).unwrap();
        let items: Vec<_> = games.by_ref().collect();
        let problem = match items.as_slice() {
            [Ok(game)] if !game.errors.is_empty() => Some(format!("{:?}", game.errors)),
            [Ok(game)] if game.plies() != move_tokens(&bytes) => Some(format!(
                "{} plies, {} moves in the file",
                game.plies(),
                move_tokens(&bytes)
            )),
            [Ok(_)] if games.encoding() != Some(TextEncoding::Big5) => {
                Some(format!("read as {:?}", games.encoding()))
            }
            [Ok(_)] => None,
            other => Some(format!("{} items: {:?}", other.len(), other.first())),
        };
        if let Some(problem) = problem {
            failures.push(format!("{}: {problem}", path.display()));
        }
    }
    assert_eq!(seen, [true; 8], "{forms:?}");
    assert!(
        failures.is_empty(),
        "{} of {} files:\n{}",
        failures.len(),
        files.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

/// The forms the issue names, as the shared sample writes them: traditional
/// characters, full-width digits, two spaces between the moves of a pair, a
/// tag value with quotes inside.
#[test]
fn traditional_moves_and_quotes_inside_a_tag_read() {
    let pgn = "[Event \"第八屆\"銀荔杯\"象棋全國冠軍賽 列手炮\"]\n\
               [FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]\n\n\
               1. 相七進五  馬８進７\n2. 仕四進五  車９平８\n3. 車九進一 士４進５\n\
               4. 帥五平四 將５平４\n5. 炮二平四 *\n";
    let game = read_str(pgn).next().unwrap().unwrap();
    assert_eq!(
        game.tag("Event"),
        Some("第八屆\"銀荔杯\"象棋全國冠軍賽 列手炮")
    );
    assert!(game.errors.is_empty(), "{:?}", game.errors);
    let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
    let want = [
        "c0e2", "h9g7", "f0e1", "i9h9", "a0a1", "d9e8", "e0f0", "e9d9", "h2f2",
    ];
    assert_eq!(moves, want);
    // Strict reading refuses the quotes.
    let strict = ReaderOptions {
        strict: true,
        ..ReaderOptions::default()
    };
    let mut games = Games::from_reader(std::io::Cursor::new(pgn.to_owned()), None, strict).unwrap();
    let error = games.next().unwrap().unwrap_err();
    assert!(error.to_string().contains("expected ']'"), "{error}");
}

/// Full-width WXF, in PGN and in WXF files; the comment keeps its text.
#[test]
fn full_width_wxf_moves_read() {
    let pgn = "[Format \"WXF\"]\n1. Ｃ２＝５ Ｈ８＋７ {全角：Ｃ２＝５} 2. Ｈ２＋３ Ｒ９＝８ *\n";
    let game = read_str(pgn).next().unwrap().unwrap();
    let moves: Vec<String> = game.moves().map(|m| m.to_string()).collect();
    assert_eq!(moves, ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert_eq!(game.mainline.moves[1].comments(), ["全角：Ｃ２＝５"]);
    // Full-width move numbers too.
    let pgn = "１． Ｃ２＝５ Ｈ８＋７ ２． Ｈ２＋３ *\n";
    let game = read_str(pgn).next().unwrap().unwrap();
    assert_eq!(game.plies(), 3);
    // Tandem soldiers: `＋Ｐ＋１` the front one, `－Ｐ＝４` the rear one.
    let fen = "4k4/9/9/4P4/4P4/9/9/9/9/3K5 w - - 0 1";
    for (text, mv) in [("＋Ｐ＋１", "e6e7"), ("－Ｐ＝４", "e5f5")] {
        let pgn = format!("[FEN \"{fen}\"]\n1. {text} *\n");
        let game = read_str(&pgn).next().unwrap().unwrap();
        assert_eq!(game.mainline.moves[0].mv.to_string(), mv, "{text}");
        let wxf = format!("FORMAT WXF\nFEN {fen}\nSTART{{\n1. {text}\n}}END\n");
        let game = xiangqi_gamefile::wxf::read_str(&wxf)
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(
            game.mainline.moves[0].mv.to_string(),
            mv,
            "{text} (WXF file)"
        );
    }
}

/// The corpus's GBK files read exactly as when every legacy byte was
/// GB18030: the detected encoding gives the same games (tags, comments,
/// moves) as GB18030 forced. XQF's names and comments are detected over
/// all of a file's strings.
#[test]
fn the_corpus_gbk_files_read_as_before() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let gb18030 = ReaderOptions {
        encoding: Some(TextEncoding::Gb18030),
        ..ReaderOptions::default()
    };
    let mut checked = 0;
    for file in collect(&[dir]).unwrap() {
        let path = file.unwrap().path;
        let mut detected = Games::open(&path, None).unwrap();
        if !matches!(detected.format(), Format::Xqf | Format::Pgn) {
            continue;
        }
        let detected_games: Vec<_> = detected.by_ref().collect();
        let forced: Vec<_> = Games::open_with(&path, None, gb18030).unwrap().collect();
        assert_eq!(detected_games, forced, "{}", path.display());
        assert_eq!(
            detected.encoding(),
            Some(TextEncoding::Gb18030),
            "{}",
            path.display()
        );
        checked += 1;
    }
    assert_eq!(checked, 1157, "1 156 XQF files and the GBK PGN");
}

/// A file whose bytes fit no candidate is read, with U+FFFD and a warning
/// on the game saying where; strict reading refuses it.
#[test]
fn undecodable_bytes_are_replaced_with_a_warning() {
    let bytes = b"[Red \"\xFF\xFE\"]\n1. h2e2 h9g7 *\n\n[Red \"ok\"]\n1. h2e2 *\n".to_vec();
    let utf8 = ReaderOptions {
        encoding: Some(TextEncoding::Utf8),
        ..ReaderOptions::default()
    };
    let games: Vec<_> = Games::from_reader(std::io::Cursor::new(bytes.clone()), None, utf8)
        .unwrap()
        .collect();
    let first = games[0].as_ref().unwrap();
    assert_eq!(first.tag("Red"), Some("\u{fffd}\u{fffd}"));
    assert_eq!(first.plies(), 2);
    assert_eq!(first.errors.len(), 1);
    let warning = first.errors[0].to_string();
    assert_eq!(first.errors[0].line_column(), Some((1, 7)), "{warning}");
    assert!(warning.contains("not valid UTF-8"), "{warning}");
    assert!(games[1].as_ref().unwrap().errors.is_empty());
    let strict = ReaderOptions {
        strict: true,
        ..utf8
    };
    let mut games = Games::from_reader(std::io::Cursor::new(bytes), None, strict).unwrap();
    assert!(games.next().unwrap().is_err());
}
