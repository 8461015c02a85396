//! The random player: a uniformly random legal step each time (a pass
//! only when no cell is legal: a beginner who passes at random ends
//! pass-rule games in a draw before they begin).

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Step};

use crate::player::StepPlayer;

pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SplitMix64::new(seed),
        }
    }

    /// A uniformly random legal cell, else a pass if that is legal.
    pub fn random_step(&mut self, p: &AnyPosition) -> Option<Step> {
        let steps = p.legal_steps();
        let cells: Vec<Step> = steps.iter().copied().filter(|s| *s != Step::Pass).collect();
        if cells.is_empty() {
            return steps.first().copied();
        }
        Some(cells[self.rng.below(cells.len() as u32) as usize])
    }
}

impl StepPlayer for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn pick(&mut self, p: &AnyPosition) -> Option<Step> {
        self.random_step(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::Preset;

    #[test]
    fn passes_only_when_no_cell_is_legal() {
        let p = Preset::ClassicPass.variant().start().unwrap();
        assert!(
            p.legal_steps().contains(&Step::Pass),
            "a pass is legal at the start"
        );
        let mut player = RandomPlayer::new(7);
        for _ in 0..50 {
            assert_ne!(player.random_step(&p), Some(Step::Pass));
        }
    }
}
