//! The greedy player: each step, the legal step whose resulting position
//! evaluates best for it (one step of look-ahead). With `noise`, a beginner
//! who often blunders.

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{with_position, AnyPosition, Outcome, Position, Step};

use crate::eval::{evaluate, Weights};
use crate::player::StepPlayer;
use crate::score::WIN;

pub struct GreedyPlayer {
    pub weights: Weights,
    /// Chance (0–1) of playing a uniformly random legal step instead.
    pub noise: f64,
    rng: SplitMix64,
}

impl GreedyPlayer {
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            weights: Weights::TUNED,
            noise: 0.0,
            rng: SplitMix64::new(seed),
        }
    }

    pub fn with_noise(mut self, noise: f64) -> GreedyPlayer {
        self.noise = noise;
        self
    }

    fn best_step<const N: usize>(&mut self, p: &Position<N>) -> Option<Step> {
        let steps = p.legal_steps();
        if steps.is_empty() {
            return None;
        }
        if self.noise > 0.0 && (self.rng.below(1_000_000) as f64) < self.noise * 1_000_000.0 {
            return Some(steps[self.rng.below(steps.len() as u32) as usize]);
        }
        let me = p.side();
        let mut best = (i32::MIN, 0u32, steps[0]);
        for step in steps {
            let mut q = *p;
            q.play(step).expect("generated steps are legal");
            let score = match q.outcome() {
                Some(Outcome::Win(s)) if s == me => WIN,
                Some(Outcome::Win(_)) => -WIN,
                Some(Outcome::Draw) => 0,
                None if q.side() == me => evaluate(&q, &self.weights),
                None => -evaluate(&q, &self.weights),
            };
            let tie_break = self.rng.below(u32::MAX);
            if (score, tie_break) > (best.0, best.1) {
                best = (score, tie_break, step);
            }
        }
        Some(best.2)
    }
}

impl StepPlayer for GreedyPlayer {
    fn name(&self) -> String {
        if self.noise > 0.0 {
            format!("greedy:noise={}", self.noise)
        } else {
            "greedy".into()
        }
    }

    fn pick(&mut self, p: &AnyPosition) -> Option<Step> {
        with_position!(p, q => self.best_step(q))
    }
}
