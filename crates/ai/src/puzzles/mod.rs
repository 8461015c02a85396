//! Puzzles cut from real games (docs/puzzles.md): a position where the
//! side to move has exactly one winning turn, proven by the exact solver
//! (every other turn proven to lose, or judged at least 0.7 worse), and
//! the solution: the mover's turns and the other side's best replies,
//! alternating, while each of the mover's turns is the only one that wins.
//! Positions are told apart up to the variant's symmetries (Zobrist hash
//! of the least image); themes are named in the game's own words.

mod attempt;
mod find;
mod finish;
mod set;
#[cfg(test)]
mod tests;
mod themes;

pub use attempt::{LineError, Verdict};
pub use find::{find_in_game, Finder, FinderConfig};
pub use finish::{FinishError, FINISH_NODES};
pub use set::{parse_line, read_set, shipped, write_line, SetError};
pub use themes::Theme;

use virus_wars_rules::{AnyPosition, Preset, Step, Variant};

/// One puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The canonical hash of the position, 16 hex digits.
    pub id: String,
    /// The position (with its variant): the mover is the one to solve.
    pub position: AnyPosition,
    /// Whole turns: the mover's, the reply, the mover's, …; it ends with
    /// one of the mover's.
    pub solution: Vec<Vec<Step>>,
    pub themes: Vec<Theme>,
    /// Its rating (Glicko-2, moved as it is played); a first guess from
    /// its length and width (docs/puzzles.md).
    pub rating: f64,
}

impl Puzzle {
    /// The turns the mover must find.
    pub fn mover_turns(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// The Zobrist hash of `p`'s least image under its variant's symmetries:
/// the same for a position and its mirror images.
pub fn canonical_hash(p: &AnyPosition) -> u64 {
    Variant::of_position(p)
        .symmetries()
        .into_iter()
        .map(|s| s.apply_position(p).hash())
        .min()
        .unwrap_or_else(|| p.hash())
}

/// The preset whose rules `p` is played by, at its size.
pub fn preset_of(p: &AnyPosition) -> Option<Preset> {
    let variant = Variant::of_position(p);
    Preset::ALL
        .into_iter()
        .find(|k| k.sized(p.width(), p.height()) == variant)
}

/// A first rating: 1200, plus 100 for each natural-log unit of the turns
/// the mover could choose from, plus 250 for each turn past the first it
/// must find.
pub fn first_rating(choices: usize, mover_turns: usize) -> f64 {
    let r = 1200.0
        + 100.0 * (choices.max(1) as f64).ln()
        + 250.0 * (mover_turns.saturating_sub(1)) as f64;
    (r / 10.0).round() * 10.0
}
