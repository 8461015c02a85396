//! The engine protocol (docs/engine-protocol.md): a line protocol in the
//! spirit of UCI and GTP through which bots and GUIs drive a Virus Wars
//! player. [`command`] (the `ai` crate's `protocol`, which the arena writes
//! with) reads and writes one line; [`session`] runs the protocol over
//! any reader and writer, searching on its own threads; [`lines`] reads
//! input lines so that no byte sequence, however long or malformed, stops it.

/// The protocol's commands: read here, written by the arena's engines.
pub use virus_wars_ai::protocol as command;
pub mod session;

/// Input lines that cannot stop a reader (shared with the arena's bot driver).
pub use virus_wars_ai::lines;

pub use session::{run, Limits};
