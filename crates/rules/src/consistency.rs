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

use crate::rules::{entry_cells, EndRule, StartRule};
use crate::setup::{Content, Setup, SetupError};
use crate::side::Side;

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
pub(crate) fn check(s: &Setup) -> Result<(), SetupError> {
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
