//! Which names an account may take: 3 to 20 of `A-Z a-z 0-9 _ -`, not a
//! reserved word or prefix, and not confusable with a name in use.
//!
//! Confusable means: the same [`skeleton_key`], the Unicode TS #39
//! skeleton (from `unicode-security`) taken regardless of case. The
//! skeleton maps `1` and `I` to `l`, `0` to `O`, `m` to `rn`; since names
//! are also equal regardless of case, the key is the skeleton of the
//! lower-cased skeleton of the upper-cased name, so `aIice`, `a1ice`,
//! `ALICE` and `alice` share a key (and so do the `i`/`l` pairs a
//! sans-serif font draws alike after a change of case, `Ian` and `lan`).

use unicode_security::confusable_detection::skeleton;

/// Words no account may be named, compared by [`skeleton_key`]: names a
/// visitor would take for the server's staff or its own players.
const RESERVED_WORDS: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "system",
    "sysop",
    "moderator",
    "mod",
    "staff",
    "support",
    "official",
    "owner",
    "server",
    "engine",
    "bot",
    "anonymous",
    "nobody",
    "null",
    "undefined",
];

/// Prefixes no account name may start with, compared by [`skeleton_key`]:
/// guests are `Guest-…`, the engine is `xiangqi engine (level N)`.
const RESERVED_PREFIXES: &[&str] = &["guest", "xiangqi", "deleted"];

/// Why a name cannot be an account's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Wrong length or characters.
    #[error("a name has 3 to 20 of the characters A-Z, a-z, 0-9, _ and -")]
    Shape,
    /// A reserved word or prefix.
    #[error("that name is reserved (names may not be {0})")]
    Reserved(&'static str),
}

/// The key by which names are confusable: equal keys, confusable names.
pub fn skeleton_key(name: &str) -> String {
    let upper = name.to_uppercase();
    let lower: String = skeleton(&upper).collect::<String>().to_lowercase();
    skeleton(&lower).collect()
}

/// Checks `name`'s shape and that it is not reserved.
pub fn check_name(name: &str) -> Result<(), NameError> {
    let shape_ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !shape_ok {
        return Err(NameError::Shape);
    }
    let key = skeleton_key(name);
    if RESERVED_WORDS.iter().any(|word| skeleton_key(word) == key) {
        return Err(NameError::Reserved("admin, engine and other staff words"));
    }
    if RESERVED_PREFIXES
        .iter()
        .any(|prefix| key.starts_with(&skeleton_key(prefix)))
    {
        return Err(NameError::Reserved("Guest-… or xiangqi…"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn confusable_names_share_a_key() {
        let alice = skeleton_key("alice");
        for poser in [
            "aIice", "a1ice", "ALICE", "Alice", "aLice", "AIice", "a|ice",
        ] {
            assert_eq!(skeleton_key(poser), alice, "{poser}");
        }
        assert_eq!(skeleton_key("b0b"), skeleton_key("bob"));
        assert_eq!(skeleton_key("rnorty"), skeleton_key("morty"));
        for other in ["alicia", "bob", "malice", "alice2"] {
            assert_ne!(skeleton_key(other), alice, "{other}");
        }
    }

    #[test]
    fn reserved_words_and_prefixes_are_refused_in_any_disguise() {
        for name in [
            "admin",
            "ADMIN",
            "adm1n",
            "xiangqi-engine",
            "Xiangqi_bot",
            "Guest-123abc",
            "guest_1",
            "engine",
        ] {
            assert!(
                matches!(check_name(name), Err(NameError::Reserved(_))),
                "{name}"
            );
        }
        assert_eq!(check_name("alice"), Ok(()));
        assert_eq!(check_name("bob_99"), Ok(()));
        assert_eq!(check_name("administrate"), Ok(()));
        assert_eq!(check_name("ab"), Err(NameError::Shape));
        assert_eq!(check_name("名字名字"), Err(NameError::Shape));
    }
}
