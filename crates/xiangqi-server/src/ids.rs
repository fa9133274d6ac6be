//! Random identifiers and session tokens, and the hash under which a token
//! is stored (the token itself never is).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new id such as `g_Xk3…` (72 random bits, base64url).
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 9];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{prefix}_{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// Six hex digits for a guest's name.
pub fn guest_suffix() -> String {
    let mut bytes = [0u8; 3];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session token: 256 random bits, base64url.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The stored form of a token: hex SHA-256.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_distinct_and_hashed_to_64_hex_digits() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        let h = token_hash(&a);
        assert_eq!(h.len(), 64);
        assert_ne!(h, token_hash(&b));
        assert!(new_id("g").starts_with("g_"));
    }
}
