//! One module per subcommand; each is a thin layer over the library crates.

pub mod bench;
pub mod perft;
pub mod replay;
