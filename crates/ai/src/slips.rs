//! A player who slips: each step, with chance `noise`, a uniformly random
//! legal step instead of the one its search would play (`mcts:noise=0.3`).
//! Level 1 is a tiny search that slips: it plays to win and takes what is
//! offered, yet blunders as a beginner does, so a careful beginner beats it.
//!
//! Whether a step slips, and to which step, is drawn from what the side
//! sees (the position's hash, or under fog its view's) and the seed, not
//! from a random stream: a host may build the player afresh for every
//! search (the server does, for each turn, and under fog for each step),
//! and a stream begun again each time would slip on the same step of every
//! turn. Under fog the same step is asked of many drawn positions; keyed
//! by the view, every draw votes for the same slip rather than the votes
//! diluting it away.

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{AnyPosition, Step};

use crate::budget::Budget;
use crate::player::{turn_step_by_step, Player};
use crate::search::{SearchInfo, SearchResult, StopFlag};

pub struct Slipping {
    inner: Box<dyn Player>,
    /// Chance (0–1) of a random step instead of the inner player's.
    noise: f64,
    seed: u64,
}

impl Slipping {
    pub fn new(inner: Box<dyn Player>, noise: f64, seed: u64) -> Slipping {
        Slipping {
            inner,
            noise: noise.clamp(0.0, 1.0),
            seed,
        }
    }

    /// The slip at the position keyed `key` (legal steps those of `p`), or
    /// `None` to play the inner player's step: the same for the same key.
    fn slip(&self, key: u64, p: &AnyPosition) -> Option<Step> {
        let mut draw = SplitMix64::new(key ^ self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let roll = (draw.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if roll >= self.noise {
            return None;
        }
        // A legal cell, as the random player takes (a pass only when no
        // cell is legal).
        let steps = p.legal_steps();
        let cells: Vec<Step> = steps.iter().copied().filter(|s| *s != Step::Pass).collect();
        if cells.is_empty() {
            return steps.first().copied();
        }
        Some(cells[draw.below(cells.len() as u32) as usize])
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
        self.inner.new_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::StepPlayer;
    use crate::random::RandomPlayer;
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

    /// Built afresh for every step, as the server builds its players, it
    /// slips about as often as its noise says, and on any step of a turn.
    #[test]
    fn built_afresh_each_time_it_still_slips_at_its_rate() {
        let budget = Budget::default();
        let stop = StopFlag::new();
        let mut random = RandomPlayer::new(11);
        let (mut asked, mut slipped) = (0, 0);
        let mut slipped_at = [0; 3];
        for game in 0..40 {
            let mut q = Preset::Classic.variant().start().unwrap();
            for _ in 0..(6 + game % 7) {
                q.play(random.random_step(&q).unwrap()).unwrap();
            }
            for _ in 0..9 {
                if q.outcome().is_some() || q.legal_steps().len() < 3 {
                    break;
                }
                let step_of_turn = q.steps_left();
                let mut fresh = Slipping::new(first(), 0.3, 1);
                let chosen = fresh.weigh_step(&q, &budget, &stop);
                asked += 1;
                if chosen != First.weigh_step(&q, &budget, &stop) {
                    slipped += 1;
                    slipped_at[(step_of_turn as usize).min(3) - 1] += 1;
                }
                q.play(random.random_step(&q).unwrap()).unwrap();
            }
        }
        let rate = slipped as f64 / asked as f64;
        assert!((0.18..0.38).contains(&rate), "slipped {slipped} of {asked}");
        assert!(
            slipped_at.iter().all(|&n| n > 0),
            "on every step of a turn: {slipped_at:?}"
        );
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
        let mut slipped = 0;
        for seed in 0..40 {
            let mut half = Slipping::new(first(), 0.5, seed);
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
