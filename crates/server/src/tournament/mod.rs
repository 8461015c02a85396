//! Tournaments (docs/tournaments.md). The rules of each kind are here,
//! free of I/O, so that the task that pairs a tournament and an
//! independent check compute the same standings.

pub mod arena;
pub mod history;
mod making;
pub(crate) mod pairer;
mod rounds;
pub mod schedule;
pub mod standings;
pub mod swiss;
