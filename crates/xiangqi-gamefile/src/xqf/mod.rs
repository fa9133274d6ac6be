//! XQF (象棋演播室), versions 1.0 to 1.8: one game per file, a 1024-byte
//! header, then the move tree. Versions 1.1 and later are encrypted; the
//! keys are in the header. `docs/gamefile.md` describes the layout.
//!
//! Header (offsets in bytes): `XQ` and the version (10-18) at 0-2; the keys
//! at 3-15; the 32 pieces' squares at 16 (Red chariot, horse, elephant,
//! advisor, general, advisor, elephant, horse, chariot, two cannons, five
//! soldiers, then Black in the same order; a square is `file * 10 + rank`
//! from Red's side, above 89 for a captured piece); the result at 51; then
//! length-prefixed GB18030 strings: title at 80, event at 208, date at 272,
//! place at 288, Red at 304, Black at 320, annotator at 464, author at 480.
//!
//! Move records from byte 1024: origin and destination squares (offset by
//! 0x18 and 0x20, then by the keys), a flag byte (a reply follows; an
//! alternative follows the reply's subtree; a comment follows) and a spare
//! byte; then the comment as a 32-bit length and GB18030 text. Version 1.0
//! always stores the length. The first record is the root: no move, its
//! comment is the game's opening comment.

mod keys;
mod read;
mod write;

pub(crate) use read::{finish_game, read_xqf, start_position};
pub use write::write_xqf;

/// Where the header's fields are.
mod layout {
    pub const MAGIC: &[u8; 2] = b"XQ";
    pub const VERSION: usize = 2;
    pub const KEYS: usize = 3;
    pub const PIECES: usize = 16;
    /// 1 when Black moves first (read only for a game without moves).
    pub const BLACK_TO_MOVE: usize = 50;
    pub const RESULT: usize = 51;
    pub const HEADER_LEN: usize = 1024;
    /// Length-prefixed strings: tag, offset of the length byte, room for text.
    pub const STRINGS: [(&str, usize, usize); 8] = [
        ("Title", 80, 63),
        ("Event", 208, 63),
        ("Date", 272, 15),
        ("Site", 288, 15),
        ("Red", 304, 15),
        ("Black", 320, 15),
        ("Annotator", 464, 15),
        ("Author", 480, 15),
    ];
    /// The piece kinds of the 16 squares of each side, as FEN letters (Red).
    pub const PIECE_LETTERS: [u8; 16] = *b"RNBAKABNRCCPPPPP";
    /// Version 1.0, the unencrypted one.
    pub const PLAIN_VERSION: u8 = 10;
    pub const NEWEST_VERSION: u8 = 18;
}
