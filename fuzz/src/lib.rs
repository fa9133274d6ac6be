//! Helpers shared by the fuzz targets: a tiny deterministic random source
//! driven by the fuzzer's bytes, and random legal positions and games built
//! from it. The targets themselves are in `fuzz_targets/`; see
//! `docs/robustness.md` for what each one checks.

use xiangqi_core::{Move, MoveList, Position, SplitMix64};

/// Reads the fuzzer's bytes as a stream of choices; once they run out it
/// keeps going with a SplitMix64 sequence seeded from what was read, so
/// every input decodes to a complete scenario.
pub struct Bytes<'a> {
    data: &'a [u8],
    state: u64,
}

impl<'a> Bytes<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes {
            data,
            state: 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Whether any fuzzer byte is left.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The next byte.
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                self.state = self.state.rotate_left(8) ^ u64::from(b);
                b
            }
            None => {
                // Past the input the bytes go on as a seeded sequence.
                self.state = SplitMix64::new(self.state).next_u64();
                (self.state >> 56) as u8
            }
        }
    }

    /// The next eight bytes as a number.
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |acc, _| (acc << 8) | u64::from(self.byte()))
    }

    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let wide = u32::from(self.byte()) << 8 | u32::from(self.byte());
        wide as usize % n
    }

    /// The fuzzer bytes not read yet (none are generated).
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.data)
    }
}

/// A random playout of up to `max_plies` legal plies from the start
/// position; returns the moves and the position reached.
pub fn random_playout(bytes: &mut Bytes<'_>, max_plies: usize) -> (Vec<Move>, Position) {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..max_plies {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let mv = list[bytes.below(list.len())];
        pos.play(mv).expect("generated moves are legal");
        moves.push(mv);
    }
    (moves, pos)
}

/// Checks that `moves` are legal one after the other from `start`.
pub fn assert_legal_sequence(start: &Position, moves: impl IntoIterator<Item = Move>) -> Position {
    let mut pos = start.clone();
    for (i, mv) in moves.into_iter().enumerate() {
        if let Err(e) = pos.play(mv) {
            panic!("move {} ({mv}) is illegal in {}: {e}", i + 1, pos.to_fen());
        }
    }
    pos
}

/// The game-file readers' limits for a fuzz input whose first byte is
/// `mode`: the defaults (even bytes) or tiny ones that every input can
/// reach (odd bytes).
pub fn reader_limits(mode: u8) -> xiangqi_gamefile::Limits {
    if mode & 1 == 0 {
        xiangqi_gamefile::Limits::default()
    } else {
        xiangqi_gamefile::Limits {
            max_line_len: 80,
            max_comment_len: 24,
            max_variation_depth: 2,
            max_moves_per_game: 12,
            max_tags_per_game: 4,
        }
    }
}

/// Whether `game` was read from a diagram no game can reach (a manual's
/// finished mate with both generals in check; docs/gamefile.md), checking
/// what such a game promises: an `InvalidDiagram` error, no move, no start
/// position to play from, and a board to show that the rules refuse.
pub fn check_diagram_game(game: &xiangqi_gamefile::Game) -> bool {
    let is_diagram = game
        .errors
        .iter()
        .any(|e| matches!(e.kind, xiangqi_gamefile::ErrorKind::InvalidDiagram { .. }));
    if is_diagram {
        assert_eq!(game.mainline.count_moves(), 0, "moves from a diagram");
        assert!(game.start_position().is_err(), "a diagram that is a position");
        let diagram = game.start_diagram().expect("a diagram game shows its board");
        assert!(!diagram.problems(xiangqi_core::Validation::Strict).is_empty());
    }
    is_diagram
}

/// Reads `input` as a game file of `format` (XQF, CBR, CBL or CBF) with the
/// limits `mode` picks: never a panic, errors inside the input (byte
/// offsets; lines and columns for CBF's XML), game numbers in order, the
/// limits respected, every line of every game legal; an XQF game written
/// and read back is the same game.
pub fn check_game_file(mode: u8, input: &[u8], format: xiangqi_gamefile::Format) {
    use xiangqi_gamefile::{lines, write_xqf, Games, Location};

    let limits = reader_limits(mode);
    let options = xiangqi_gamefile::ReaderOptions {
        limits,
        ..Default::default()
    };
    let mut games = Games::from_reader(std::io::Cursor::new(input.to_vec()), Some(format), options)
        .expect("reading memory does not fail");
    let mut items = 0;
    // A CBL library cut short says so in one error for all the records missing.
    let mut missing_said = false;
    for item in games.by_ref() {
        items += 1;
        // One item per record at most: a 4096-byte slot, or for a CBL
        // library one per index entry (276 bytes) or slot.
        let record_len = if format == xiangqi_gamefile::Format::Cbl { 256 } else { 4096 };
        assert!(items <= input.len() / record_len + 2, "more items than records");
        match item {
            Err(e) => {
                assert!(e.game <= items, "item {items} names game {}: {e}", e.game);
                missing_said |= matches!(e.kind, xiangqi_gamefile::ErrorKind::MissingRecords { .. });
                let lines = input.split(|&b| b == b'\n').count();
                match e.location {
                    Location::Byte(offset) => assert!(offset <= input.len() as u64, "{e}"),
                    Location::Text { line, column } if format == xiangqi_gamefile::Format::Cbf => {
                        assert!(line >= 1 && line <= lines + 1 && column >= 1, "{e}")
                    }
                    other => panic!("a {format} error at {other:?}: {e}"),
                }
                let _ = e.to_string();
            }
            Ok(game) if check_diagram_game(&game) => {}
            Ok(game) => {
                let start = game.start_position().expect("a read game has a valid start");
                assert!(game.mainline.count_moves() <= limits.max_moves_per_game);
                for line in lines(&game.mainline) {
                    assert_legal_sequence(&start, line);
                }
                let written = write_xqf(&game).expect("a read game can be written");
                let back = Games::from_reader(std::io::Cursor::new(written), Some(xiangqi_gamefile::Format::Xqf), options)
                    .expect("memory")
                    .next()
                    .expect("one game")
                    .expect("a written game reads back");
                assert_eq!(back.mainline, game.mainline);
            }
        }
    }
    // Every record a library's index lists is a game, an error or a heading.
    if let Some(listed) = games.records_listed() {
        let accounted = items + games.headings_skipped();
        assert!(missing_said || accounted >= listed, "{accounted} items and headings for {listed} records listed");
    }
}

/// What must hold for any bytes as text of unknown encoding: detection is
/// a function of the bytes (the same answer twice; a prefix too is decided);
/// every encoding decodes them, and a text decoded without a replacement
/// encodes again without an error in UTF-8, UTF-16 and GB18030 (Big5
/// holds fewer characters than it decodes: only no panic there); the PGN
/// and WXF readers read them in the encoding they detect, each undecodable
/// line a warning on its game, never a panic.
pub fn check_encoding(data: &[u8]) {
    use xiangqi_gamefile::{detect_encoding, Format, Games, ReaderOptions, TextEncoding};

    let whole = detect_encoding(data, true);
    assert_eq!(whole, detect_encoding(data, true), "detection is deterministic");
    let _ = detect_encoding(data, false);
    for encoding in TextEncoding::ALL {
        let (text, malformed) = encoding.decode(data);
        let encoded = encoding.encode(&text);
        if !malformed && encoding != TextEncoding::Big5 {
            assert!(encoded.is_ok(), "{encoding}: {:?}", encoded.err());
        }
    }
    for format in [Format::Pgn, Format::Wxf] {
        let options = ReaderOptions {
            limits: reader_limits(0),
            ..ReaderOptions::default()
        };
        let mut games =
            Games::from_reader(std::io::Cursor::new(data.to_vec()), Some(format), options)
                .expect("reading memory does not fail");
        for item in games.by_ref() {
            match item {
                Ok(game) => {
                    for error in &game.errors {
                        let _ = error.to_string();
                    }
                }
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
        assert!(games.encoding().is_some(), "{format}: the encoding is decided");
    }
}
