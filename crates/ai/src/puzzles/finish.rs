//! The rest of the game after a puzzle's solution, where the solution does
//! not end it. A puzzle's solution stops once the other side is proven to
//! lose within two turns (its own, then the mover's: `find.rs`); the line
//! to the end shows one way it goes: the other side's turn that holds out
//! longest (the first listed, of equals), then the mover's turn that wins
//! soonest, until the game is over.

use virus_wars_rules::{AnyPosition, Outcome, Step};

use super::Puzzle;
use crate::solve::{Proof, Solver, TurnProof};

/// A node limit under which every shipped puzzle's line to the end is
/// found, with room to spare: the most a call took on the shipped set was
/// 210 positions (2026-11-27; the test checks the room).
pub const FINISH_NODES: u64 = 100_000;

/// Most turns the line after a solution may take (the solver proves the
/// end within two; a little room for a pass rule's extra turn).
const MOST_TURNS: usize = 4;

/// Why no line to the end was given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FinishError {
    #[error("the solver could not prove the end: {0}")]
    Unsolved(#[from] crate::solve::Unsolved),
    #[error("no proven turn at step {0} of the line to the end")]
    NoProvenTurn(usize),
    #[error("the game did not end with the mover's win within {MOST_TURNS} turns")]
    TooLong,
}

impl Puzzle {
    /// The position after the whole solution.
    pub fn after_solution(&self) -> AnyPosition {
        let mut at = self.position;
        for &s in self.solution.iter().flatten() {
            if at.play(s).is_err() {
                break;
            }
        }
        at
    }

    /// Whole turns from the end of the solution to the end of the game (the
    /// other side's, the mover's, …): empty where the solution ends it.
    /// `solver`'s node limit bounds the work (each call: a few thousand
    /// positions on the shipped set's boards).
    pub fn line_to_end(&self, solver: &mut Solver) -> Result<Vec<Vec<Step>>, FinishError> {
        let mover = self.position.side();
        let mut at = self.after_solution();
        let mut line = Vec::new();
        for k in 0..=MOST_TURNS {
            if let Some(o) = at.outcome() {
                return if o == Outcome::Win(mover) {
                    Ok(line)
                } else {
                    Err(FinishError::TooLong)
                };
            }
            if k == MOST_TURNS {
                break;
            }
            // The turns left to the win: the other side's and the mover's
            // (2), or the mover's own (1).
            let depth = if at.side() == mover { 1 } else { 2 };
            let turns = solver.turns(&at, depth)?;
            let turn = pick(&turns, at.side() == mover).ok_or(FinishError::NoProvenTurn(k + 1))?;
            for &s in &turn.steps {
                at.play(s).map_err(|_| FinishError::NoProvenTurn(k + 1))?;
            }
            line.push(turn.steps.clone());
        }
        Err(FinishError::TooLong)
    }
}

/// The mover's proven win that ends soonest, or the other side's proven
/// loss that comes latest; of equals, the first listed.
fn pick(turns: &[TurnProof], mover: bool) -> Option<&TurnProof> {
    let mut best: Option<(u32, &TurnProof)> = None;
    for t in turns {
        // A key that is larger for a better pick.
        let key = match (t.proof, mover) {
            (Proof::Win(n), true) => u32::MAX - n,
            (Proof::Loss(n), false) => n,
            _ => continue,
        };
        if best.is_none_or(|(b, _)| key > b) {
            best = Some((key, t));
        }
    }
    best.map(|(_, t)| t)
}
