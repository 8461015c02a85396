//! Player specs as written on command lines, in the engine protocol and
//! in requests: `random`, `greedy`, `greedy:noise=0.3`, `alphabeta:depth=6`,
//! `mcts:playouts=3,noise=0.3`,
//! `alphabeta:time=1s,hash=64`, `mcts:time=1s,threads=2,playout=moo`,
//! `turns:time=3s,width=30` (whole-turn search), `nn:time=1s,weights=FILE`
//! (MCTS guided by a net), `policy` (the net's policy alone), `level:9`.
//!
//! This module owns the language: the spec ([`PlayerSpec`]), the table of
//! kinds of player and their options (`kinds.rs`), reading it
//! (`parse.rs`), writing it (`print.rs`), its options' text (`options.rs`)
//! and building the player it names (`build.rs`, the one file that names
//! every player's type). The players and their searches never include it.

mod build;
mod caps;
mod kinds;
mod options;
mod parse;
mod print;

pub use caps::Caps;
pub use options::quoted;

use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;

/// A built-in player with its own budget.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    Random {
        seed: u64,
    },
    Greedy {
        noise: f64,
        seed: u64,
    },
    AlphaBeta {
        budget: Budget,
        hash_mb: usize,
    },
    Mcts {
        budget: Budget,
        config: MctsConfig,
        /// Chance (0–1) of a random legal step instead of the search's
        /// (`slips.rs`: level 1's blunders).
        noise: f64,
    },
    /// Whole-turn search (the small-board sparring partner).
    Turns {
        budget: Budget,
        width: usize,
        hash_mb: usize,
    },
    /// MCTS guided by a net: its policy as priors (once a node has `after`
    /// visits), its value blended with the playout's by `mix`.
    Net {
        budget: Budget,
        config: MctsConfig,
        net: NetChoice,
        mix: f64,
        after: u32,
        /// Positions the tree's threads gather for one pass of the net.
        batch: usize,
        /// Under fog, the net that reads the side's view for a drawn
        /// root's priors (None: the draw's own).
        view: Option<Box<NetChoice>>,
    },
    /// The net's policy alone, one forward pass a step.
    Policy {
        net: NetChoice,
    },
    Level(u8),
}

/// Why a player spec cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown player '{0}': expected {kinds} (e.g. alphabeta:depth=6, mcts:time=1s, turns:time=3s, nn:time=1s, level:9)", kinds = kinds::names())]
    UnknownKind(String),
    #[error("player '{spec}': {message}")]
    Option { spec: String, message: String },
}

/// The hash table of `alphabeta` and `turns`, in MB, unless `hash=` says otherwise.
pub const DEFAULT_HASH_MB: usize = 64;

/// The net's share of a leaf's value in `nn:` unless `mix=` says otherwise.
pub const DEFAULT_MIX: f64 = 0.5;
/// Visits before the net gives a node's priors, unless `after=` says otherwise.
pub const DEFAULT_AFTER: u32 = 32;

/// Deepest search a spec or a `go depth` may ask for, in steps.
pub const MAX_DEPTH: u32 = 64;
/// Whole-turn search: turns kept at each depth unless a spec says `width=`.
pub const DEFAULT_WIDTH: usize = 30;
/// Largest hash table or MCTS tree a spec may ask for, in MB.
pub const MAX_HASH_MB: usize = 4096;
/// Most search threads a spec may ask for.
pub const MAX_THREADS: usize = 256;
