//! Ratings: Glicko-2 as lichess runs it, one rating per category (the
//! variant's family × the game's speed).

mod category;
mod glicko;

pub use category::{Category, Family};
pub use glicko::{Glicko, Outcome, PROVISIONAL_RD};
