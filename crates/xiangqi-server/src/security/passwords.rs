//! Which passwords an account may have: 8 to 200 bytes, not the name, and
//! not one of the most common passwords (`common_passwords.txt`, where the
//! list's sources are named), compared ignoring case.

/// The list, one a line (`#` starts a comment).
const COMMON: &str = include_str!("common_passwords.txt");

/// Why a password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short or too long.
    #[error("a password has 8 to 200 bytes")]
    Length,
    /// The account's own name.
    #[error("a password must not be the name")]
    IsTheName,
    /// On the list.
    #[error("that password is one of the most common ones; choose another")]
    Common,
}

/// Checks `password` for an account named `name`.
pub fn check_password(name: &str, password: &str) -> Result<(), PasswordError> {
    if !(8..=200).contains(&password.len()) {
        return Err(PasswordError::Length);
    }
    let lower = password.to_lowercase();
    if lower == name.to_lowercase() {
        return Err(PasswordError::IsTheName);
    }
    let common = COMMON
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .any(|line| line == lower);
    if common {
        return Err(PasswordError::Common);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_name_and_common_passwords() {
        assert_eq!(check_password("alice", "correct horse"), Ok(()));
        assert_eq!(check_password("alice", "short"), Err(PasswordError::Length));
        assert_eq!(
            check_password("alice_1234", "ALICE_1234"),
            Err(PasswordError::IsTheName)
        );
        for common in [
            "password",
            "Password1",
            "12345678",
            "qwertyuiop",
            "iloveyou",
        ] {
            assert_eq!(
                check_password("alice", common),
                Err(PasswordError::Common),
                "{common}"
            );
        }
    }

    #[test]
    fn every_listed_password_could_otherwise_be_chosen() {
        for line in COMMON
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            assert_eq!(
                line,
                line.trim().to_lowercase(),
                "one lower-case password a line"
            );
            assert!(line.len() >= 8, "{line:?} is refused by length already");
        }
    }
}
