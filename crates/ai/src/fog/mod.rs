//! Playing under fog of war (docs/rules.md §8, docs/ai.md): a player that is
//! given only what its side knows ([`Seen`]: its view and the public
//! counts), never the position, so that it cannot peek. It plays one step
//! at a time — each step shows it more, and the next is chosen from the
//! view that step left — by determinization: it draws several whole
//! positions that agree with its view ([`sample`]), lets a player built for
//! whole positions search each with a share of the budget, and plays the
//! step most of the searches began their turns with.

mod sample;

use std::time::{Duration, Instant};

pub use sample::sample;

use virus_wars_rules::fog::Seen;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Game, Step};

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
/// [`FogPlayer::step`]. Each draw is searched for this one step
/// ([`Player::weigh_step`]) and the draws' statistics are added up: every
/// draw shares one vote among the steps it weighed as its search did (by
/// visits), and the step with the most votes in all is played (of equals,
/// the first weighed).
pub fn choose_step(
    inner: &mut dyn Player,
    seen: &Seen,
    budget: &Budget,
    stop: &StopFlag,
    samples: usize,
    rng: &mut SplitMix64,
) -> Option<Step> {
    // A draw searched too thinly says little: at most as many as the
    // step's budget gives each a useful search.
    let step = step_share(budget, seen);
    let afford = match (step.time, step.nodes) {
        (Some(t), _) => (t.as_millis() / MIN_SEARCH_MS) as usize,
        (None, Some(n)) => (n / MIN_SEARCH_NODES) as usize,
        (None, None) => samples,
    };
    let samples = samples.min(afford).max(1);
    let share = part(&step, 1, samples as u32);
    let mut votes: Vec<(Step, f64)> = Vec::new();
    for _ in 0..samples {
        let Some(p) = sample(seen, rng) else {
            continue;
        };
        for (s, w) in inner.weigh_step_seen(&p, &seen.view, &share, stop) {
            match votes.iter_mut().find(|(v, _)| *v == s) {
                Some((_, total)) => *total += w,
                None => votes.push((s, w)),
            }
        }
        if stop.is_stopped() && !votes.is_empty() {
            break;
        }
    }
    // The most voted; of equals, the first weighed.
    let voted = votes
        .iter()
        .enumerate()
        .max_by(|(i, (_, a)), (j, (_, b))| a.total_cmp(b).then(j.cmp(i)))
        .map(|(_, &(s, _))| s);
    // No draw at all (none agreed with the view as a position): the view
    // with its hidden cells empty, whose legal steps are the true ones,
    // rather than no step.
    voted.or_else(|| {
        let p = seen.view.as_if_empty();
        inner.weigh_step(&p, &step, stop).first().map(|&(s, _)| s)
    })
}

/// The rest of the turn for the side to move at the end of `game`, under
/// fog: a step at a time on a copy of the game (the referee plays each),
/// each chosen by `pick` from what the side then knows, given the rest of
/// the turn's budget (the time it has left). Stops at the turn's end, the
/// game's, or a step `pick` does not give.
pub fn play_turn(
    game: &Game,
    budget: &Budget,
    mut pick: impl FnMut(&Seen, &Budget) -> Option<Step>,
) -> Vec<Step> {
    let started = Instant::now();
    let mut g = game.clone();
    let (side, turn) = (g.position().side(), g.position().turn());
    let total = budget.turn_time();
    let first = u32::from(g.position().steps_left().max(1));
    let mut steps = Vec::new();
    while g.outcome().is_none() && g.position().side() == side && g.position().turn() == turn {
        let now = u32::from(g.position().steps_left().max(1));
        // The time left of the turn; nodes are not handed back: the steps
        // to come keep their shares.
        let left = Budget {
            time: total.map(|t| t.saturating_sub(started.elapsed())),
            ..part(budget, now, first)
        };
        match pick(&Seen::of_game(&g), &left) {
            Some(s) if g.play(s).is_ok() => steps.push(s),
            _ => break,
        }
    }
    steps
}

/// What is left of a turn's `budget` when the side to move has `seen`'s
/// steps left of its turn, for [`choose_step`] asked once a step with no
/// memory of the steps before (the server): the steps made have had their
/// shares, so the steps' shares add up to the turn's budget. A clock
/// becomes the time its turn gets.
pub fn rest_of_turn(budget: &Budget, seen: &Seen) -> Budget {
    let s = &seen.view.setup;
    let (left, all) = (
        u32::from(s.steps_left.max(1)),
        u32::from(s.rules.steps_in_turn(s.turn).max(s.steps_left).max(1)),
    );
    part(budget, left, all)
}

/// A step's share of `rest`, what is left of its turn's budget, when the
/// side to move has `seen`'s steps left: an equal share each.
pub fn step_share(rest: &Budget, seen: &Seen) -> Budget {
    part(rest, 1, u32::from(seen.view.setup.steps_left.max(1)))
}

/// `k` parts in `n` of `budget`: its time and nodes (at least 1 ms and one
/// node), its depth kept; a clock becomes the time its turn gets.
fn part(budget: &Budget, k: u32, n: u32) -> Budget {
    let n = n.max(1);
    let k = k.min(n);
    Budget {
        // k/n is at most 1, so neither overflows, whatever the budget.
        time: budget.turn_time().map(|t| {
            let nanos = t.as_nanos() * u128::from(k) / u128::from(n);
            let share = u64::try_from(nanos).map_or(t, Duration::from_nanos);
            share.max(Duration::from_millis(1))
        }),
        nodes: budget.nodes.map(|m| {
            let share = u128::from(m) * u128::from(k) / u128::from(n);
            u64::try_from(share).unwrap_or(m).max(1)
        }),
        depth: budget.depth,
        clock: None,
    }
}

#[cfg(test)]
mod tests;
