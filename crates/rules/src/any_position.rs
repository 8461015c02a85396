//! A position on a board of any supported size, on the fewest 64-bit words
//! that hold it: one word for boards of up to 64 cells (every board up to
//! 8×8), two for up to 128 (every board up to 11×11), six above that.

use crate::cell::Cell;
use crate::position::Position;
use crate::rules::Rules;
use crate::setup::{Content, Setup};
use crate::side::{Outcome, Side};
use crate::step::{Step, StepError};
use crate::validation::SetupError;

/// Position on a board of at most 64 cells.
pub type TinyPosition = Position<1>;
/// Position on a board of at most 128 cells.
pub type SmallPosition = Position<2>;
/// Position on a board of at most 384 cells.
pub type LargePosition = Position<6>;

/// A validated position of any size.
// Kept unboxed on purpose: positions are copied freely and never allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AnyPosition {
    Tiny(TinyPosition),
    Small(SmallPosition),
    Large(LargePosition),
}

/// Calls the same expression on whichever position is inside.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $body:expr) => {
        match $any {
            $crate::AnyPosition::Tiny($p) => $body,
            $crate::AnyPosition::Small($p) => $body,
            $crate::AnyPosition::Large($p) => $body,
        }
    };
}

impl AnyPosition {
    /// Validates `setup` and builds the position on the fastest representation.
    pub fn from_setup(setup: &Setup) -> Result<Self, SetupError> {
        setup.check()?;
        Ok(Self::from_checked_setup(setup))
    }

    /// The position on the fewest words that hold its board; the caller has
    /// checked `setup` (or, for a fog view, knowingly not).
    pub(crate) fn from_checked_setup(setup: &Setup) -> Self {
        match setup.cells.len() {
            0..=64 => AnyPosition::Tiny(Position::from_checked_setup(setup)),
            65..=128 => AnyPosition::Small(Position::from_checked_setup(setup)),
            _ => AnyPosition::Large(Position::from_checked_setup(setup)),
        }
    }

    pub fn to_setup(&self) -> Setup {
        with_position!(self, p => p.to_setup())
    }

    pub fn width(&self) -> u8 {
        with_position!(self, p => p.geometry().width())
    }

    pub fn height(&self) -> u8 {
        with_position!(self, p => p.geometry().height())
    }

    pub fn rules(&self) -> Rules {
        with_position!(self, p => *p.rules())
    }

    pub fn side(&self) -> Side {
        with_position!(self, p => p.side())
    }

    pub fn steps_left(&self) -> u8 {
        with_position!(self, p => p.steps_left())
    }

    pub fn turn(&self) -> u32 {
        with_position!(self, p => p.turn())
    }

    /// Whether no step of the side to move's turn is made yet: the next
    /// step is its turn's first.
    pub fn at_turn_start(&self) -> bool {
        self.steps_left() == self.rules().steps_in_turn(self.turn())
    }

    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_position!(self, p => p.outcome())
    }

    pub fn content(&self, cell: Cell) -> Content {
        with_position!(self, p => p.content(cell))
    }

    pub fn legal_steps(&self) -> Vec<Step> {
        with_position!(self, p => p.legal_steps())
    }

    /// Cells the side to move may step on now.
    pub fn legal_cells(&self) -> Vec<Cell> {
        with_position!(self, p => p.legal_cells().iter().map(|i| p.geometry().cell(i)).collect())
    }

    pub fn is_legal(&self, step: Step) -> bool {
        self.check_step(step).is_ok()
    }

    pub fn check_step(&self, step: Step) -> Result<(), StepError> {
        with_position!(self, p => p.check_step(step))
    }

    /// Plays `step` if it is legal; otherwise says why and changes nothing.
    pub fn play(&mut self, step: Step) -> Result<(), StepError> {
        with_position!(self, p => p.play(step))
    }
}
