//! The game of Virus Wars (Война вирусов, "Paper Tactics"): geometry,
//! bitboards, variants, positions, steps and turns, notation, game records,
//! perft, hashing and symmetries. No I/O, no async: every other crate of the
//! workspace plays by these rules and none re-implements one.
//!
//! ```
//! use virus_wars_rules::{Preset, notation::parse_steps};
//! let mut pos = Preset::Classic.variant().start().unwrap();
//! for step in parse_steps("a1 b2 c3").unwrap() {
//!     pos.play(step).unwrap();
//! }
//! assert_eq!(pos.side(), virus_wars_rules::Side::O);
//! ```

pub mod any_position;
pub mod bitboard;
pub mod cell;
pub mod contest;
pub mod diagram;
pub mod ending;
pub mod fog;
pub mod game;
pub mod geometry;
mod neighbourhood;
pub mod notation;
pub mod number;
pub mod perft;
pub mod playout;
pub mod position;
pub mod position_string;
pub mod record;
pub mod rng;
pub mod rules;
pub mod setup;
pub mod side;
pub mod step;
pub mod symmetry;
pub mod validation;
pub mod variant;
mod zobrist;

pub use any_position::{AnyPosition, LargePosition, SmallPosition, TinyPosition};
pub use bitboard::Bitboard;
pub use cell::Cell;
pub use ending::{EndReason, Ending};
pub use game::{Game, PlayedTurn, StartMismatch};
pub use geometry::Geometry;
pub use position::Position;
pub use rules::{EndRule, Rules, StartRule};
pub use setup::{Content, Setup};
pub use side::{Outcome, Side};
pub use step::{Step, StepError};
pub use symmetry::Symmetry;
pub use validation::SetupError;
pub use variant::{Preset, Variant, VariantError, VariantOptions};
