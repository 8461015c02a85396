//! Tournament pairing for Virus Wars (docs/tournaments.md), free of I/O:
//! what the server's pairing task computes and what an independent check
//! can compute again from the same records.
//!
//! - [`swiss`]: the FIDE Dutch system (C.04.3), round by round, and its
//!   TRF16 writer and reader ([`swiss::trf`]);
//! - [`arena`]: an arena's pairing and scoring (streaks, berserk,
//!   performance);
//! - [`standings`]: the standings of every kind, with their tiebreaks
//!   (Buchholz, Sonneborn-Berger);
//! - [`history`]: a Swiss tournament's or round robin's stored rounds read
//!   back as the next round and the TRF export see them;
//! - [`kind`]: the kinds of tournament, and the states of one;
//! - [`record`]: the players and games as stored, which all of these read.

pub mod arena;
pub mod history;
pub mod kind;
pub mod record;
pub mod standings;
pub mod swiss;

pub use kind::{Kind, State};
pub use record::{TournamentGame, TournamentPlayer};
