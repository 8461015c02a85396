//! An unchecked description of a position, as a parser or an editor produces
//! it; [`Setup::validate`] turns it into a playable [`crate::AnyPosition`] or
//! says exactly what is wrong.

use crate::cell::{Cell, MAX_SIDE, MIN_SIDE};
use crate::consistency::StepRange;
use crate::rules::{EndRule, Rules, StartRule, MAX_STEPS};
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

/// What makes a [`Setup`] unplayable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(
        "board {0}x{1} is out of range: files and ranks must be between {MIN_SIDE} and {MAX_SIDE}"
    )]
    Size(u8, u8),
    #[error("the board lists {got} cells but {width}x{height} has {want}")]
    CellCount {
        width: u8,
        height: u8,
        got: usize,
        want: usize,
    },
    #[error("steps per turn must be between 1 and {MAX_STEPS} (got {0})")]
    Steps(u8),
    #[error("first-turn steps must be between 1 and {MAX_STEPS} (got {0})")]
    FirstTurnSteps(u8),
    #[error("turn numbers start at 1 (got 0)")]
    TurnZero,
    #[error(
        "turn {turn} is {expected}'s turn (X plays the odd turns), but the side to move is {side}"
    )]
    SideOfTurn {
        turn: u32,
        side: Side,
        expected: Side,
    },
    #[error("{steps_left} steps left, but turn {turn} has only {max} steps")]
    StepsLeft { steps_left: u8, turn: u32, max: u8 },
    #[error("{0} has pieces on the board but is marked as not entered")]
    NotEntered(Side),
    #[error("with start rule 'corners' both players have entered from the start")]
    CornersNotEntered,
    #[error(
        "{0} passes in a row: the pass end rule ends the game at 2, and only it allows passes"
    )]
    Passes(u8),
    #[error("{passes} passes in a row before turn {turn}: only {} turn(s) have been played", turn.saturating_sub(1))]
    PassesBeforeTurn { passes: u8, turn: u32 },
    #[error("{steps_left} steps left just after a pass: a turn after a pass starts with all its {full} steps")]
    StepsAfterPass { steps_left: u8, full: u8 },
    #[error("start rule 'corners': {0}'s base is missing (it stays on the board as a live virus, or as the other side's zombie once killed)")]
    BaseMissing(Side),
    #[error("turn {turn} is too late for the pieces on the board: every turn but a pass leaves a piece, so at most turn {last} can have come")]
    TurnTooLate { turn: u32, last: u64 },
    #[error("{side} is marked as entered but cannot have made a step before turn {turn}")]
    EnteredWithoutStep { side: Side, turn: u32 },
    #[error("{side} must have made a step before turn {turn} but is not marked as entered")]
    SteppedNotEntered { side: Side, turn: u32 },
    #[error("by turn {turn} {side} has made {made} step(s), but its pieces on the board account for {pieces}")]
    StepCount {
        side: Side,
        turn: u32,
        made: StepRange,
        pieces: StepRange,
    },
    #[error("both sides have entered and neither has a live virus, which play never leaves")]
    NoVirusAtAll,
    #[error("{side} has entered, but under start rule '{start}' its first step was on its entry cell, which holds neither its virus nor a zombie of the other side")]
    EntryEmpty { side: Side, start: StartRule },
}

impl Setup {
    pub fn cell(&self, cell: Cell) -> Content {
        self.cells[cell.rank as usize * self.width as usize + cell.file as usize]
    }

    /// Checks every rule a position must satisfy (docs/notation.md lists them).
    pub fn check(&self) -> Result<(), SetupError> {
        let size_ok = |s: u8| (MIN_SIDE..=MAX_SIDE).contains(&s);
        if !size_ok(self.width) || !size_ok(self.height) {
            return Err(SetupError::Size(self.width, self.height));
        }
        let want = self.width as usize * self.height as usize;
        if self.cells.len() != want {
            return Err(SetupError::CellCount {
                width: self.width,
                height: self.height,
                got: self.cells.len(),
                want,
            });
        }
        let r = &self.rules;
        if !(1..=MAX_STEPS).contains(&r.steps_per_turn) {
            return Err(SetupError::Steps(r.steps_per_turn));
        }
        if !(1..=MAX_STEPS).contains(&r.first_turn_steps) {
            return Err(SetupError::FirstTurnSteps(r.first_turn_steps));
        }
        if self.turn == 0 {
            return Err(SetupError::TurnZero);
        }
        let expected = if self.turn % 2 == 1 { Side::X } else { Side::O };
        if self.side != expected {
            return Err(SetupError::SideOfTurn {
                turn: self.turn,
                side: self.side,
                expected,
            });
        }
        let max = r.steps_in_turn(self.turn);
        if self.steps_left == 0 || self.steps_left > max {
            return Err(SetupError::StepsLeft {
                steps_left: self.steps_left,
                turn: self.turn,
                max,
            });
        }
        if r.start == StartRule::Corners && self.entered != [true, true] {
            return Err(SetupError::CornersNotEntered);
        }
        for side in Side::BOTH {
            let has_pieces = self
                .cells
                .iter()
                .any(|&c| c == Content::Virus(side) || c == Content::Zombie(side));
            if has_pieces && !self.entered[side.index()] {
                return Err(SetupError::NotEntered(side));
            }
        }
        let max_passes = if r.end == EndRule::Pass { 2 } else { 0 };
        if self.passes > max_passes {
            return Err(SetupError::Passes(self.passes));
        }
        crate::consistency::check(self)
    }
}
