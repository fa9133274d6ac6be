//! Helpers shared by the unit tests of the move-text readers.

/// Every four-byte text over `alphabet` (`alphabet.len()⁴` of them), for
/// checking a four-byte shortcut against the full reader exhaustively.
pub(crate) fn four_byte_texts(alphabet: &[u8]) -> impl Iterator<Item = [u8; 4]> + '_ {
    alphabet.iter().flat_map(move |&a| {
        alphabet.iter().flat_map(move |&b| {
            alphabet
                .iter()
                .flat_map(move |&c| alphabet.iter().map(move |&d| [a, b, c, d]))
        })
    })
}
