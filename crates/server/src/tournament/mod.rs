//! Tournaments (docs/tournaments.md). The pairing and the standings of
//! every kind, free of I/O, are the `virus-wars-pairing` crate's, so that
//! the task that pairs a tournament here and an independent check compute
//! the same standings.

mod making;
pub(crate) mod pairer;
mod rounds;
pub mod schedule;
