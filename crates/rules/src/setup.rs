//! An unchecked description of a position, as a parser or an editor
//! produces it: a plain record. `validation.rs` says whether it is a
//! position play can reach ([`Setup::check`]) and exactly what is wrong if
//! not; [`crate::AnyPosition::from_setup`] turns a valid one into a
//! playable position.

use crate::cell::Cell;
use crate::rules::Rules;
use crate::side::Side;

/// What stands on one cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Content {
    Empty,
    /// A live virus of this side.
    Virus(Side),
    /// A zombie owned by this side (a virus of the other side that it killed).
    Zombie(Side),
    /// A neutral trench: either side may take it; it becomes the taker's zombie.
    Trench,
    /// An impassable obstacle: nobody ever steps there.
    Obstacle,
}

/// A position before validation. `cells` is rank-major from a1:
/// index `rank * width + file`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub width: u8,
    pub height: u8,
    pub rules: Rules,
    pub cells: Vec<Content>,
    pub side: Side,
    pub steps_left: u8,
    /// Turns counted from 1 (X's first turn), both players' turns counted.
    pub turn: u32,
    /// Whether each player (X, O) has made its first step or was pre-placed.
    pub entered: [bool; 2],
    /// Passes in a row just before this position (pass end rule only).
    pub passes: u8,
}

impl Setup {
    pub fn cell(&self, cell: Cell) -> Content {
        self.cells[cell.rank as usize * self.width as usize + cell.file as usize]
    }
}
