//! The random player: a uniformly random legal step each time.

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Step};

use crate::budget::Budget;
use crate::player::{turn_step_by_step, Player};
use crate::search::{SearchInfo, SearchResult, StopFlag};

pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SplitMix64::new(seed),
        }
    }

    /// A uniformly random legal step, if any.
    pub fn pick(&mut self, p: &AnyPosition) -> Option<Step> {
        let steps = p.legal_steps();
        (!steps.is_empty()).then(|| steps[self.rng.below(steps.len() as u32) as usize])
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(
        &mut self,
        p: &AnyPosition,
        _: &Budget,
        _: &StopFlag,
        _: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let steps = turn_step_by_step(p, |q| self.pick(q));
        SearchResult { steps, info: None }
    }
}
