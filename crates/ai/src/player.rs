//! The player interface: anything that chooses the rest of a turn. The
//! players are built from their specs by `spec/`, which the players never
//! include.

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::{AnyPosition, Step};

use crate::budget::Budget;
use crate::search::{SearchInfo, SearchResult, StopFlag};
/// Something that chooses steps.
pub trait Player: Send {
    /// A short name, as a spec would write it.
    fn name(&self) -> String;

    /// The rest of the current turn for the side to step. Must return at
    /// least one legal step unless the game is over, even when stopped at once.
    fn choose(
        &mut self,
        position: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult;

    /// The step to make now at `position` (the next of its turn, not the
    /// whole turn), searched with all of `budget`, as the steps weighed and
    /// each one's share of the search (shares sum to 1, the chosen step
    /// first). A tree search shares by visits, which lets several searches
    /// be added up (`fog::choose_step`); a player that does not weigh
    /// answers its turn's first step alone. Empty: no legal step.
    fn weigh_step(
        &mut self,
        position: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        let chosen = self.choose(position, budget, stop, &mut |_| {});
        chosen
            .steps
            .first()
            .map(|&s| vec![(s, 1.0)])
            .unwrap_or_default()
    }

    /// [`Player::weigh_step`] at `draw`, a whole position drawn to agree
    /// with `view`, the side to move's view under fog: a player whose net
    /// reads views takes from it what the side knows (the root's priors);
    /// others search the draw alone.
    fn weigh_step_seen(
        &mut self,
        draw: &AnyPosition,
        view: &ViewPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        let _ = view;
        self.weigh_step(draw, budget, stop)
    }

    /// Forget what was learnt about the previous game.
    fn new_game(&mut self) {}
}

/// A player that chooses one step at a time, without a search budget
/// (random, greedy, the bare policy): it plays the rest of a turn step by
/// step, through [`turn_step_by_step`].
pub trait StepPlayer: Send {
    /// A short name, as a spec would write it.
    fn name(&self) -> String;

    /// The step to make at `p` (None: no legal step).
    fn pick(&mut self, p: &AnyPosition) -> Option<Step>;
}

impl<T: StepPlayer> Player for T {
    fn name(&self) -> String {
        StepPlayer::name(self)
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

/// The rest of the current turn, one step at a time: `pick` chooses each
/// step (None: no legal step) until the turn or the game ends.
pub fn turn_step_by_step(
    p: &AnyPosition,
    mut pick: impl FnMut(&AnyPosition) -> Option<Step>,
) -> Vec<Step> {
    let mut pos = *p;
    let (side, turn) = (p.side(), p.turn());
    let mut steps = Vec::new();
    while pos.outcome().is_none() && pos.side() == side && pos.turn() == turn {
        let Some(step) = pick(&pos) else { break };
        if pos.play(step).is_err() {
            break;
        }
        steps.push(step);
    }
    steps
}
