//! Whether a [`Setup`] is a position play can reach, and if not, exactly
//! what is wrong: the reasons a setup is refused ([`SetupError`]) live
//! here, with the checks, apart from the plain record they judge.
//!
//! The rules that tie a position's counters (turn, side, steps left,
//! entered, passes) to the pieces on its board, so that a position string
//! describes a position that play can reach. They are listed, one by one,
//! in docs/notation.md; each has its [`SetupError`] variant.
//!
//! The counting argument: every step a side makes leaves a mark that never
//! goes away. A step on an empty cell places a live virus (later perhaps
//! killed: then it is the other side's zombie); a step on an enemy virus or
//! a trench makes a zombie of the stepping side. So a side's steps so far
//! lie between `V + Z - bases` (its live viruses and zombies) and
//! `V + Z + Z' - bases` (plus every zombie of the other side, which may be
//! its killed viruses). The counters say how many steps the side has made:
//! exactly, under the standard end rule (every turn is played in full),
//! or at most, under the pass rule (a turn may be passed or end early).

use crate::cell::{MAX_SIDE, MIN_SIDE};
use crate::rules::{entry_cells, EndRule, StartRule, MAX_STEPS};
use crate::setup::{Content, Setup};
use crate::side::Side;

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
    /// Checks every rule a position must satisfy (docs/notation.md lists them).
    pub fn check(&self) -> Result<(), SetupError> {
        self.check_shape()?;
        check_counters(self)
    }

    /// Every rule but the counters against the pieces on the board: what
    /// a fog view, whose hidden pieces are not on its board, is checked by.
    pub fn check_shape(&self) -> Result<(), SetupError> {
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
        Ok(())
    }
}

/// Steps a side has made, as a range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRange {
    pub min: u64,
    pub max: u64,
}

impl std::fmt::Display for StepRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{} to {}", self.min, self.max)
        }
    }
}

/// Checks the counters against the board; `Setup::check` has already
/// checked sizes, the side of the turn, steps left and the pass count's range.
fn check_counters(s: &Setup) -> Result<(), SetupError> {
    let r = &s.rules;
    let count = |c: Content| s.cells.iter().filter(|&&x| x == c).count() as u64;
    let virus = Side::BOTH.map(|side| count(Content::Virus(side)));
    let zombie = Side::BOTH.map(|side| count(Content::Zombie(side)));
    let corners = r.start == StartRule::Corners;
    // Pre-placed bases per side: one, or two with double bases.
    let (bases_min, bases_max) = if corners { (1, 2) } else { (0, 0) };

    let mut by_pieces = [StepRange { min: 0, max: 0 }; 2];
    for side in Side::BOTH {
        let (me, them) = (side.index(), (!side).index());
        if corners && virus[me] + zombie[them] == 0 {
            return Err(SetupError::BaseMissing(side));
        }
        by_pieces[me] = StepRange {
            min: (virus[me] + zombie[me]).saturating_sub(bases_max),
            max: (virus[me] + zombie[me] + zombie[them]).saturating_sub(bases_min),
        };
    }
    let completed = u64::from(s.turn) - 1;
    if u64::from(s.passes) > completed {
        return Err(SetupError::PassesBeforeTurn {
            passes: s.passes,
            turn: s.turn,
        });
    }
    let full = r.steps_in_turn(s.turn);
    if s.passes > 0 && s.steps_left != full {
        return Err(SetupError::StepsAfterPass {
            steps_left: s.steps_left,
            full,
        });
    }
    // Every turn but a pass has a step; a pass follows a turn with steps,
    // except the passes in a row that end the record (the pass count). So
    // with N turns of steps, at most 2N + passes turns have been completed.
    let most_turns = 2 * (by_pieces[0].max + by_pieces[1].max) + u64::from(s.passes);
    if completed > most_turns {
        return Err(SetupError::TurnTooLate {
            turn: s.turn,
            last: most_turns + 1,
        });
    }

    let mut by_counters = [StepRange { min: 0, max: 0 }; 2];
    for t in 1..s.turn {
        let side = if t % 2 == 1 { Side::X } else { Side::O };
        by_counters[side.index()].max += u64::from(r.steps_in_turn(t));
    }
    let this_turn = u64::from(full - s.steps_left);
    let mover = s.side.index();
    by_counters[mover].max += this_turn;
    for side in Side::BOTH {
        let k = side.index();
        by_counters[k].min = match r.end {
            EndRule::Standard => by_counters[k].max,
            EndRule::Pass if k == mover => this_turn,
            EndRule::Pass => 0,
        };
    }

    for side in Side::BOTH {
        let k = side.index();
        let (made, pieces) = (by_counters[k], by_pieces[k]);
        if !corners {
            if s.entered[k] && (made.max == 0 || pieces.max == 0) {
                return Err(SetupError::EnteredWithoutStep { side, turn: s.turn });
            }
            if !s.entered[k] && made.min > 0 {
                return Err(SetupError::SteppedNotEntered { side, turn: s.turn });
            }
        }
        if made.min > pieces.max || pieces.min > made.max {
            return Err(SetupError::StepCount {
                side,
                turn: s.turn,
                made,
                pieces,
            });
        }
    }
    // A side's first step was on its entry cell, and a cell never empties.
    for side in Side::BOTH {
        let entry = entry_cells(r.start, s.width, s.height, side);
        if s.entered[side.index()] && !corners {
            let marked = entry.iter().any(|&c| {
                let content = s.cell(c);
                content == Content::Virus(side) || content == Content::Zombie(!side)
            });
            if !marked {
                return Err(SetupError::EntryEmpty {
                    side,
                    start: r.start,
                });
            }
        }
    }
    if s.entered == [true, true] && virus == [0, 0] {
        return Err(SetupError::NoVirusAtAll);
    }
    Ok(())
}
