//! API tokens and passwords.
//!
//! Tokens are 256 random bits, shown once and stored only as a SHA-256 hash: a
//! leaked database gives no usable token, and high-entropy secrets need no slow
//! hash. Passwords are low-entropy, so they get argon2id with a per-user salt.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use rand::rngs::OsRng;
use sha2::{Digest, Sha256};

/// Prefix that makes Gatehouse tokens recognisable to secret scanners.
pub const TOKEN_PREFIX: &str = "ghs_";

/// A new random API token.
pub fn generate_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    format!("{TOKEN_PREFIX}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// The stored form of a token.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Fewest characters of any user's password: the CLI, the UI and the
/// bootstrap admin share this one rule.
pub const MIN_PASSWORD_CHARS: usize = 12;

/// A new random password for generated accounts (shown once).
pub fn generate_password() -> String {
    let mut bytes = [0u8; 18];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Hashes a password with argon2id and a random salt (PHC string).
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password with default parameters")
        .to_string()
}

/// Checks a password against a stored PHC hash.
pub fn verify_password(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// A hash to verify against when the user does not exist, so that a login for an
/// unknown name costs the same time as one for a known name.
pub fn dummy_password_hash() -> &'static str {
    static DUMMY: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| hash_password("not-a-real-password"));
    &DUMMY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("x", "not a phc string"));
    }

    #[test]
    fn tokens_are_unique_and_hashed_deterministically() {
        let (a, b) = (generate_token(), generate_token());
        assert_ne!(a, b);
        assert!(a.starts_with(TOKEN_PREFIX) && a.len() > 40);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), hash_token(&b));
    }
}
