//! Playing under fog of war (docs/rules.md §8, docs/ai.md): a player that is
//! given only what its side knows ([`Seen`]: its view and the public
//! counts), never the position, so that it cannot peek. It plays one step
//! at a time — each step shows it more, and the next is chosen from the
//! view that step left — by determinization: it draws several whole
//! positions that agree with its view ([`sample`]), lets a player built for
//! whole positions search each with a share of the budget, and plays the
//! step most of the searches began their turns with.

mod sample;

pub use sample::sample;

use std::collections::HashMap;

use virus_wars_rules::fog::Seen;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::Step;

use crate::budget::Budget;
use crate::player::Player;
use crate::search::StopFlag;

/// Positions drawn for each step, at most.
pub const SAMPLES: usize = 6;
/// The least time and playouts worth a draw's search: a step's budget is
/// shared among at most as many draws as it gives this much each.
const MIN_SEARCH_MS: u128 = 40;
const MIN_SEARCH_NODES: u64 = 100;

/// A player for fog games: any whole-position player, fed determinized
/// positions.
pub struct FogPlayer {
    inner: Box<dyn Player>,
    samples: usize,
    rng: SplitMix64,
}

impl FogPlayer {
    pub fn new(inner: Box<dyn Player>, samples: usize, seed: u64) -> FogPlayer {
        FogPlayer {
            inner,
            samples: samples.max(1),
            rng: SplitMix64::new(seed),
        }
    }

    /// A short name, as a spec would write it.
    pub fn name(&self) -> String {
        format!("fog({})", self.inner.name())
    }

    /// The next step for the side to move, chosen from `seen` alone with a
    /// step's share of `budget` (the turn's budget over the steps left);
    /// `None` if no position agreeing with `seen` could be drawn or it has
    /// no legal step.
    pub fn step(&mut self, seen: &Seen, budget: &Budget, stop: &StopFlag) -> Option<Step> {
        choose_step(
            self.inner.as_mut(),
            seen,
            budget,
            stop,
            self.samples,
            &mut self.rng,
        )
    }

    pub fn new_game(&mut self) {
        self.inner.new_game();
    }
}

/// The next step for `seen`'s side by determinization with `inner`: see
/// [`FogPlayer::step`].
pub fn choose_step(
    inner: &mut dyn Player,
    seen: &Seen,
    budget: &Budget,
    stop: &StopFlag,
    samples: usize,
    rng: &mut SplitMix64,
) -> Option<Step> {
    let steps_left = u32::from(seen.view.setup.steps_left.max(1));
    // A draw searched too thinly says little: at most as many as the
    // step's budget gives each a useful search.
    let step = split(budget, steps_left);
    let afford = match (step.time, step.nodes) {
        (Some(t), _) => (t.as_millis() / MIN_SEARCH_MS) as usize,
        (None, Some(n)) => (n / MIN_SEARCH_NODES) as usize,
        (None, None) => samples,
    };
    let samples = samples.min(afford).max(1);
    let share = split(&step, samples as u32);
    let mut votes: HashMap<Step, usize> = HashMap::new();
    let mut order: Vec<Step> = Vec::new();
    for _ in 0..samples {
        let Some(p) = sample(seen, rng) else {
            continue;
        };
        let chosen = inner.choose(&p, &share, stop, &mut |_| {});
        if let Some(&first) = chosen.steps.first() {
            let n = votes.entry(first).or_insert(0);
            if *n == 0 {
                order.push(first);
            }
            *n += 1;
        }
        if stop.is_stopped() && !votes.is_empty() {
            break;
        }
    }
    // The most chosen; of equals, the first chosen.
    let voted = order.iter().copied().max_by_key(|s| {
        (
            votes[s],
            std::cmp::Reverse(order.iter().position(|o| o == s)),
        )
    });
    // No draw at all (none agreed with the view as a position): the view
    // with its hidden cells empty, whose legal steps are the true ones,
    // rather than no step.
    voted.or_else(|| {
        let p = seen.view.as_if_empty();
        let chosen = inner.choose(&p, &step, stop, &mut |_| {});
        chosen.steps.first().copied()
    })
}

/// `budget` shared `n` ways: its time and nodes divided (at least 1 ms and
/// one node each), its depth kept; a clock becomes this share's time.
fn split(budget: &Budget, n: u32) -> Budget {
    let n = n.max(1);
    let time = budget
        .turn_time()
        .map(|t| (t / n).max(std::time::Duration::from_millis(1)));
    Budget {
        time,
        nodes: budget.nodes.map(|k| (k / u64::from(n)).max(1)),
        depth: budget.depth,
        clock: None,
    }
}

#[cfg(test)]
mod tests;
