//! Tournaments (docs/tournaments.md). The pairing and the standings of
//! every kind, free of I/O, are the `virus-wars-pairing` crate's, so that
//! the task that pairs a tournament here and an independent check compute
//! the same standings.

mod making;
pub(crate) mod pairer;
mod rounds;
pub mod schedule;
pub mod store;

pub use store::{Ended, Joined, NewPairing, NewRound, Scoring, TournamentRow};

use crate::games::settings::Settings;
use crate::rating::Category;

/// Most unfinished tournaments one player may have made.
pub const MOST_OPEN: i64 = 3;
/// Most players a tournament may take, and its default.
pub const MOST_PLAYERS: i64 = 500;
/// Most rounds of a Swiss tournament, and most players of a round robin
/// (each plays all the others twice, all at once).
pub const MOST_ROUNDS: i64 = 20;
pub const MOST_IN_ROUND_ROBIN: i64 = 16;
/// Longest arena, in minutes, and furthest start, in seconds.
pub const MOST_MINUTES: i64 = 720;
pub const FURTHEST_START_S: i64 = 7 * 86_400;
/// The rating category of a tournament's games ('' unrated).
pub fn category_of(s: &Settings) -> String {
    match Category::of(&s.variant, s.clock.as_ref()) {
        Some(c) if s.rated => c.name(),
        _ => String::new(),
    }
}
