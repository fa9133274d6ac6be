//! Bad input never panics or hangs: random move texts in every notation
//! give errors, not crashes (damaged PGN files: `xiangqi-gamefile`'s tests).

use xiangqi_core::Position;
use xiangqi_notation::{parse, Notation};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const POOL: &[char] = &[
    'a', 'e', 'h', 'i', 'j', 'A', 'C', 'H', 'K', 'P', 'R', 'X', '0', '1', '2', '3', '5', '9', '+',
    '-', '=', '.', ' ', '炮', '马', '車', '兵', '前', '后', '中', '二', '五', '九', '进', '退',
    '平', '８', 'P', 'h', 'á', 'ư', 'ớ', '\u{301}', 'T', 't', 'o', 'n', 'g', 'b', 'X', '{', '(',
    ';', '$', '*', '/',
];

#[test]
fn random_move_texts_give_errors_not_panics() {
    let positions = [
        Position::startpos(),
        Position::from_fen("3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1").unwrap(),
        Position::from_fen("4k4/9/2n6/9/2n6/9/9/9/9/5K3 b - - 0 1").unwrap(),
    ];
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let len = rng.below(14);
        let text: String = (0..len).map(|_| POOL[rng.below(POOL.len())]).collect();
        let pos = &positions[rng.below(positions.len())];
        for notation in [
            None,
            Some(Notation::Iccs),
            Some(Notation::Wxf),
            Some(Notation::Chinese),
            Some(Notation::Vietnamese),
        ] {
            if let Ok(mv) = parse(pos, &text, notation) {
                assert!(pos.is_legal(mv), "{text:?} gave the illegal {mv}");
            }
        }
    }
}
