//! One module per subcommand; each is a thin layer over the library crates.

pub mod admin;
pub mod analyse;
pub mod arena;
mod arena_store;
pub mod backup;
pub mod bench;
pub mod bot;
pub mod loadtest;
pub mod perft;
mod puzzle_check;
pub mod puzzles;
pub mod replay;
pub mod serve;
pub mod train;
pub mod tune;
