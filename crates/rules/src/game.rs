//! A game in progress: the variant, the start, every step played, and the
//! positions in between (for undo and for stepping through a record).

use crate::any_position::AnyPosition;
use crate::side::{Outcome, Side};
use crate::step::{Step, StepError};
use crate::validation::SetupError;
use crate::variant::{Mismatch, Variant, VariantError};

/// Why a game cannot start from a position under a variant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the position does not fit the variant: {}", .0.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("; "))]
pub struct StartMismatch(pub Vec<Mismatch>);

/// One turn as played: who played it, its number, its steps.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayedTurn {
    pub side: Side,
    /// Turn number counted over both players (1 = X's first turn).
    pub turn: u32,
    pub steps: Vec<Step>,
}

impl std::fmt::Display for PlayedTurn {
    /// A move list's words for a turn: `X a1-b2-c3`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}",
            self.side,
            crate::notation::format_turn(&self.steps)
        )
    }
}

/// A legal sequence of steps from a start position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    variant: Variant,
    /// `positions[k]` is the position after `k` steps.
    positions: Vec<AnyPosition>,
    steps: Vec<Step>,
}

impl Game {
    /// A new game from the variant's start.
    pub fn new(variant: Variant) -> Result<Game, VariantError> {
        let start = variant.start()?;
        Ok(Game {
            variant,
            positions: vec![start],
            steps: Vec::new(),
        })
    }

    /// A game from a set-up position. The variant must fit it (see
    /// [`Variant::mismatches`]); [`Variant::of_position`] always does.
    pub fn from_position(variant: Variant, start: AnyPosition) -> Result<Game, StartMismatch> {
        let wrong = variant.mismatches(&start);
        if !wrong.is_empty() {
            return Err(StartMismatch(wrong));
        }
        Ok(Game {
            variant,
            positions: vec![start],
            steps: Vec::new(),
        })
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn start(&self) -> &AnyPosition {
        &self.positions[0]
    }

    /// Whether the game started from the variant's own start.
    pub fn starts_from_variant_start(&self) -> Result<bool, SetupError> {
        Ok(self.variant.start_setup() == self.start().to_setup())
    }

    pub fn position(&self) -> &AnyPosition {
        self.positions.last().expect("a game always has its start")
    }

    /// The position after the first `k` steps.
    pub fn position_after(&self, k: usize) -> Option<&AnyPosition> {
        self.positions.get(k)
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays a step if it is legal; otherwise says why and changes nothing.
    pub fn play(&mut self, step: Step) -> Result<(), StepError> {
        let mut next = *self.position();
        next.play(step)?;
        self.positions.push(next);
        self.steps.push(step);
        Ok(())
    }

    /// Takes back the last step.
    pub fn undo_step(&mut self) -> Option<Step> {
        let step = self.steps.pop()?;
        self.positions.pop();
        Some(step)
    }

    /// Takes back steps until the start of the turn now in progress, or the
    /// whole previous turn if the current one has no step yet.
    pub fn undo_turn(&mut self) -> Vec<Step> {
        let mut undone = Vec::new();
        let Some(&last) = self.positions.get(self.positions.len().wrapping_sub(2)) else {
            return undone;
        };
        let turn = last.turn();
        while self.positions.len() >= 2 && self.positions[self.positions.len() - 2].turn() == turn {
            undone.push(self.undo_step().expect("there is a step to undo"));
        }
        undone.reverse();
        undone
    }

    /// The steps grouped into turns.
    pub fn turns(&self) -> Vec<PlayedTurn> {
        let mut out: Vec<PlayedTurn> = Vec::new();
        for (k, &step) in self.steps.iter().enumerate() {
            let before = &self.positions[k];
            match out.last_mut() {
                Some(t) if t.turn == before.turn() => t.steps.push(step),
                _ => out.push(PlayedTurn {
                    side: before.side(),
                    turn: before.turn(),
                    steps: vec![step],
                }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_steps;
    use crate::variant::Preset;

    #[test]
    fn groups_turns_and_undoes_them() {
        let mut g = Game::new(Preset::Gcr.variant()).unwrap();
        for s in parse_steps("b2 j10 j11 i11 b3 a2").unwrap() {
            g.play(s).unwrap();
        }
        let turns = g.turns();
        assert_eq!(turns.len(), 3);
        assert_eq!(turns[0].steps.len(), 1);
        assert_eq!(turns[2].side, Side::X);
        assert_eq!(g.undo_turn().len(), 2);
        assert_eq!(g.position().side(), Side::X);
        assert_eq!(g.undo_turn().len(), 3);
        assert_eq!(g.steps().len(), 1);
        assert!(g.play(crate::Step::Pass).is_err());
        assert_eq!(g.steps().len(), 1);
    }
}
