//! Judging a player's try at a puzzle: the line played from the puzzle's
//! position (the player's turns and the replies it was given), the last
//! turn the player's. A turn is right when it leaves the board as the
//! solution's turn does (its steps may come in another order).

use virus_wars_rules::{AnyPosition, Step, StepError};

use super::Puzzle;

/// What the last turn of a line is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solution's turn: `reply` is the other side's next turn, none
    /// when `done` (the puzzle is solved).
    Right { reply: Vec<Step>, done: bool },
    /// Not the solution's turn: the puzzle is failed.
    Wrong,
}

/// Why a line cannot be judged against a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("no steps: send the steps of your turn")]
    Empty,
    #[error("step {index} ({step}): {error}")]
    Illegal {
        index: usize,
        step: Step,
        error: StepError,
    },
    #[error("the line stops inside a turn after step {0}: send whole turns")]
    Unfinished(usize),
    #[error("the line ends with the reply (turn {0}): add your next turn")]
    EndsWithReply(usize),
    #[error("turn {0} is not the puzzle's: send the line from its position, your right turns and the replies given")]
    OffLine(usize),
    #[error("the puzzle ends after turn {0}: the line goes past it")]
    TooLong(usize),
}

/// `steps` from `p`, and the position after them; `first` numbers the
/// first step for errors.
fn play(p: &AnyPosition, steps: &[Step], first: usize) -> Result<AnyPosition, LineError> {
    let mut q = *p;
    for (k, &s) in steps.iter().enumerate() {
        q.play(s).map_err(|e| LineError::Illegal {
            index: first + k,
            step: s,
            error: e,
        })?;
    }
    Ok(q)
}

impl Puzzle {
    /// Judges the last turn of `line`, played from the puzzle's position:
    /// every turn before it must be the solution's (the player's right
    /// turns and the replies it was given). A wrong turn of the player's
    /// anywhere in the line is `Wrong`, whatever follows it.
    pub fn judge(&self, line: &[Step]) -> Result<Verdict, LineError> {
        if line.is_empty() {
            return Err(LineError::Empty);
        }
        // Cut the line into whole turns, each checked as it is played.
        let mut at = self.position;
        let mut before = self.position;
        let mut turn_start = 0;
        let mut turn = 0;
        for (k, &s) in line.iter().enumerate() {
            let (side, number) = (at.side(), at.turn());
            at.play(s).map_err(|e| LineError::Illegal {
                index: k + 1,
                step: s,
                error: e,
            })?;
            let whole = at.outcome().is_some() || at.side() != side || at.turn() != number;
            if !whole {
                continue;
            }
            let Some(expected) = self.solution.get(turn) else {
                return Err(LineError::TooLong(self.solution.len()));
            };
            let right = play(&before, expected, turn_start + 1).ok() == Some(at);
            let mine = turn % 2 == 0;
            // A wrong turn of the player's decides the try at once, whatever
            // follows it: no line can ask whether a turn is right and still
            // leave the try undecided.
            if mine && !right {
                return Ok(Verdict::Wrong);
            }
            if !right {
                return Err(LineError::OffLine(turn + 1));
            }
            if k + 1 == line.len() {
                if !mine {
                    return Err(LineError::EndsWithReply(turn + 1));
                }
                let done = turn + 1 == self.solution.len();
                let reply = if done {
                    Vec::new()
                } else {
                    self.solution[turn + 1].clone()
                };
                return Ok(Verdict::Right { reply, done });
            }
            turn += 1;
            turn_start = k + 1;
            before = at;
        }
        Err(LineError::Unfinished(line.len()))
    }
}
