//! Game ids and seat tokens: random, from the operating system's generator.

use sha2::{Digest, Sha256};

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

fn random_text(len: usize) -> String {
    let mut bytes = vec![0u8; len];
    // The OS generator failing is not something a request can cause or fix.
    getrandom::fill(&mut bytes).expect("the operating system's random generator works");
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A short game id, also the invite code (no 0/o, 1/l confusion).
pub fn game_id() -> String {
    random_text(10)
}

/// A request's id in the log (not secret, unique enough to find one
/// request's lines among a day's).
pub fn request_id() -> String {
    random_text(12)
}

/// A secret seat token (about 190 bits).
pub fn token() -> String {
    random_text(38)
}

/// What is stored of a token: its SHA-256, in hex.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How a player without an account is known where something is counted
/// for them (quick play's seeks, the analysis queue): `address:` and a
/// hash of the address, so that no address is stored.
pub fn address_key(ip: std::net::IpAddr) -> String {
    format!("address:{}", &token_hash(&ip.to_string())[..16])
}
