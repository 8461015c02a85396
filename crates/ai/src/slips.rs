//! A player who slips: each step, with chance `noise`, a uniformly random
//! legal step instead of the one its search would play (`mcts:noise=0.3`).
//! Level 1 is a tiny search that slips: it plays to win and takes what is
//! offered, yet blunders as a beginner does, so a careful beginner beats it.
//!
//! Under fog the same step is asked of many drawn positions; the slip is
//! decided once a step (by what the side sees) so that every draw votes for
//! the same slip rather than the votes diluting it away.

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Step};

use crate::budget::Budget;
use crate::player::{turn_step_by_step, Player};
use crate::random::RandomPlayer;
use crate::search::{SearchInfo, SearchResult, StopFlag};

pub struct Slipping {
    inner: Box<dyn Player>,
    /// Chance (0–1) of a random step instead of the inner player's.
    noise: f64,
    rng: SplitMix64,
    random: RandomPlayer,
    /// The last step decided, by the key of what was seen: `Some(step)` a
    /// slip, `None` the inner player's step.
    last: Option<(u64, Option<Step>)>,
}

impl Slipping {
    pub fn new(inner: Box<dyn Player>, noise: f64, seed: u64) -> Slipping {
        Slipping {
            inner,
            noise: noise.clamp(0.0, 1.0),
            rng: SplitMix64::new(seed ^ 0x5111_9000),
            random: RandomPlayer::new(seed.wrapping_add(1)),
            last: None,
        }
    }

    /// The slip at the position keyed `key` (legal steps those of `p`), or
    /// `None` to play the inner player's step: decided once a key.
    fn slip(&mut self, key: u64, p: &AnyPosition) -> Option<Step> {
        if let Some((k, decided)) = self.last {
            if k == key {
                return decided;
            }
        }
        let roll = self.rng.next_u64() as f64 / u64::MAX as f64;
        let decided = if roll < self.noise {
            self.random.random_step(p)
        } else {
            None
        };
        self.last = Some((key, decided));
        decided
    }
}

/// A key for what a fog side sees: its view with the hidden cells empty,
/// and which cells are hidden.
fn view_key(view: &ViewPosition, as_if_empty: &AnyPosition) -> u64 {
    view.unknown
        .iter()
        .enumerate()
        .filter(|(_, &u)| u)
        .fold(as_if_empty.hash(), |h, (i, _)| {
            (h ^ (i as u64 + 1)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        })
}

impl Player for Slipping {
    fn name(&self) -> String {
        format!("{}+noise={}", self.inner.name(), self.noise)
    }

    fn choose(
        &mut self,
        position: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let mut last_info = None;
        let steps = turn_step_by_step(position, |p| {
            if let Some(s) = self.slip(p.hash(), p) {
                return Some(s);
            }
            let chosen = self.inner.choose(p, budget, stop, info);
            if chosen.info.is_some() {
                last_info = chosen.info;
            }
            chosen.steps.first().copied()
        });
        SearchResult {
            steps,
            info: last_info,
        }
    }

    fn weigh_step(
        &mut self,
        position: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        match self.slip(position.hash(), position) {
            Some(s) => vec![(s, 1.0)],
            None => self.inner.weigh_step(position, budget, stop),
        }
    }

    fn weigh_step_seen(
        &mut self,
        draw: &AnyPosition,
        view: &ViewPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        // The view with its hidden cells empty has the side's true legal
        // steps (fog/mod.rs), so a slip is always a step the referee takes.
        let seen = view.as_if_empty();
        match self.slip(view_key(view, &seen), &seen) {
            Some(s) => vec![(s, 1.0)],
            None => self.inner.weigh_step_seen(draw, view, budget, stop),
        }
    }

    fn new_game(&mut self) {
        self.last = None;
        self.inner.new_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::StepPlayer;
    use virus_wars_rules::Preset;

    /// A player that always answers the first legal step.
    struct First;
    impl StepPlayer for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn pick(&mut self, p: &AnyPosition) -> Option<Step> {
            p.legal_steps().first().copied()
        }
    }
    fn first() -> Box<dyn Player> {
        Box::new(First)
    }

    #[test]
    fn no_noise_is_the_inner_player_and_full_noise_is_random() {
        let p = Preset::Classic.variant().start().unwrap();
        let mut q = p;
        q.play(p.legal_steps()[0]).unwrap();
        let budget = Budget::default();
        let stop = StopFlag::new();
        let mut inner = First;
        let mut plain = Slipping::new(first(), 0.0, 1);
        assert_eq!(
            plain.choose(&q, &budget, &stop, &mut |_| {}).steps,
            inner.choose(&q, &budget, &stop, &mut |_| {}).steps
        );
        // Always slipping: every step legal, and over many positions the
        // steps differ from the inner player's.
        let mut wild = Slipping::new(first(), 1.0, 1);
        let turn = wild.choose(&q, &budget, &stop, &mut |_| {}).steps;
        let mut r = q;
        for s in &turn {
            r.play(*s).expect("a slip is a legal step");
        }
        assert_ne!(r.side(), q.side(), "the whole turn is played");
    }

    #[test]
    fn a_slip_is_decided_once_a_position() {
        let p = Preset::Classic.variant().start().unwrap();
        // A few turns in, where many steps are legal.
        let mut q = p;
        let mut random = RandomPlayer::new(4);
        for _ in 0..12 {
            q.play(random.random_step(&q).unwrap()).unwrap();
        }
        assert!(q.legal_steps().len() > 4);
        let budget = Budget::default();
        let stop = StopFlag::new();
        let mut half = Slipping::new(first(), 0.5, 9);
        let mut slipped = 0;
        for _ in 0..40 {
            half.last = None;
            let a = half.weigh_step(&q, &budget, &stop);
            let b = half.weigh_step(&q, &budget, &stop);
            assert_eq!(a, b, "asked again, the same answer");
            if a != First.weigh_step(&q, &budget, &stop) {
                slipped += 1;
            }
        }
        assert!((8..32).contains(&slipped), "slipped {slipped} of 40");
    }
}
