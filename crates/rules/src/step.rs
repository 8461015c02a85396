//! A step (one ply: one cell taken, or a whole-turn pass) and why one can be illegal.

use std::fmt;

use crate::cell::Cell;
use crate::side::Side;

/// One step. Whether a cell step places a virus, kills an enemy virus or takes
/// a trench follows from the position, so the notation is just the cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Step {
    Cell(Cell),
    /// Skip the whole turn (pass end rule, before the turn's first step).
    Pass,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Cell(c) => c.fmt(f),
            Step::Pass => f.write_str("pass"),
        }
    }
}

/// Why a step cannot be played. The text reads after "step N (cell): ".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("the game is already over")]
    GameOver,
    #[error("{cell} is off the {width}x{height} board")]
    OffBoard { cell: Cell, width: u8, height: u8 },
    #[error("{cell} already holds your own virus")]
    OwnVirus { cell: Cell },
    #[error("{cell} holds a zombie, and zombies are never taken again")]
    Zombie { cell: Cell },
    #[error("{cell} is an obstacle")]
    Obstacle { cell: Cell },
    #[error("not accessible for {side}: {side} has not entered yet, so its first step must be on {entry}")]
    NotEntry {
        cell: Cell,
        side: Side,
        entry: String,
    },
    #[error("not accessible for {side}: {side} has no live group left")]
    NoLiveGroup { cell: Cell, side: Side },
    #[error("not accessible for {side}")]
    NotAccessible { cell: Cell, side: Side },
    #[error("pass is not allowed: only the 'pass' end rule allows passing")]
    PassNotAllowed,
    #[error("pass is only allowed before the turn's first step")]
    PassMidTurn,
}

impl StepError {
    /// A word for the reason, stable for clients to translate
    /// (docs/api.md): `off_board`, `own_virus`, `zombie`, `obstacle`,
    /// `not_entry`, `no_live_group`, `not_accessible`, `pass_not_allowed`,
    /// `pass_mid_turn`, `game_over`.
    pub fn code(&self) -> &'static str {
        match self {
            StepError::GameOver => "game_over",
            StepError::OffBoard { .. } => "off_board",
            StepError::OwnVirus { .. } => "own_virus",
            StepError::Zombie { .. } => "zombie",
            StepError::Obstacle { .. } => "obstacle",
            StepError::NotEntry { .. } => "not_entry",
            StepError::NoLiveGroup { .. } => "no_live_group",
            StepError::NotAccessible { .. } => "not_accessible",
            StepError::PassNotAllowed => "pass_not_allowed",
            StepError::PassMidTurn => "pass_mid_turn",
        }
    }

    /// Where a step must go instead, for `not_entry`: the entry cells.
    pub fn entry(&self) -> Option<&str> {
        match self {
            StepError::NotEntry { entry, .. } => Some(entry),
            _ => None,
        }
    }
}
