//! Playouts for MCTS: how the rest of a game is played out fast from a leaf,
//! and the step priors the tree starts from.
//!
//! `moo` ("minimise the opponent's options", the best playout policy found
//! by gcr's bot tournament) picks the step after which the opponent could
//! step on the fewest cells. Stepping on an empty cell never changes that
//! count (the new virus is as takeable as the empty cell was), so the policy
//! comes down to: take the kill that cuts most of the enemy's live region
//! off, and step anywhere at random when there is no kill.

use std::fmt;
use std::str::FromStr;

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Bitboard, Outcome, Position, Side};

use crate::eval::{evaluate, Weights};
use crate::score::win_probability;
use crate::tt::PASS;

/// How playouts choose their steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random legal steps.
    Random,
    /// Minimise the opponent's options (see the module docs).
    Moo,
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "random" => Ok(Policy::Random),
            "moo" => Ok(Policy::Moo),
            _ => Err(format!("playout is random or moo, not '{s}'")),
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Policy::Random => "random",
            Policy::Moo => "moo",
        })
    }
}

/// Cells each side stepped on during a simulation, for RAVE/AMAF. A side
/// steps on a cell at most once in a game (its virus there can only be
/// killed, and its zombie never stepped on), so a set is exact.
pub type Played<const N: usize> = [Bitboard<N>; 2];

/// X's share of a finished game: 1 for an X win, 0 for an O win, ½ a draw.
pub fn x_share(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Win(Side::X) => 1.0,
        Outcome::Win(Side::O) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// Plays `p` out and returns X's expected share of the result. With a
/// `cutoff`, stops after that many steps and reads the evaluation as a win
/// probability instead. Every step is recorded in `played`.
pub fn play_out<const N: usize>(
    p: &mut Position<N>,
    policy: Policy,
    cutoff: u32,
    weights: &Weights,
    rng: &mut SplitMix64,
    played: &mut Played<N>,
) -> f64 {
    let mut steps = 0u32;
    loop {
        if let Some(o) = p.outcome() {
            return x_share(o);
        }
        if cutoff > 0 && steps >= cutoff {
            let mover = win_probability(evaluate(p, weights));
            return if p.side() == Side::X {
                mover
            } else {
                1.0 - mover
            };
        }
        let side = p.side();
        let pick = match policy {
            Policy::Random => random_step(p, rng),
            Policy::Moo => moo_step(p, rng),
        };
        match pick {
            Some(i) => {
                played[side.index()].insert(i);
                p.play_unhashed(i);
            }
            None => p.pass_unchecked(),
        }
        steps += 1;
    }
}

/// A uniformly random legal step; None is a pass.
fn random_step<const N: usize>(p: &Position<N>, rng: &mut SplitMix64) -> Option<usize> {
    let cells = p.legal_cells();
    let n = cells.count();
    cells.nth_index(rng.below(n + p.can_pass() as u32))
}

/// The `moo` step: the kill that leaves the opponent fewest options, else a
/// random step (a pass only when nothing else is legal).
fn moo_step<const N: usize>(p: &Position<N>, rng: &mut SplitMix64) -> Option<usize> {
    let cells = p.legal_cells();
    let enemy = !p.side();
    let kills = cells & p.viruses(enemy);
    let mut best: Option<(u32, usize)> = None;
    for k in kills.iter() {
        let left = options_after(p, k, enemy);
        // Ties go to the later kill half of the time: cheap variety.
        if best.is_none_or(|(b, _)| left < b || (left == b && rng.below(2) == 0)) {
            best = Some((left, k));
        }
    }
    if let Some((_, k)) = best {
        return Some(k);
    }
    let n = cells.count();
    if n == 0 {
        return None;
    }
    cells.nth_index(rng.below(n))
}

/// How many cells `enemy` could step on after the mover steps on cell `i`.
fn options_after<const N: usize>(p: &Position<N>, i: usize, enemy: Side) -> u32 {
    let mut q = *p;
    q.play_unhashed(i);
    q.reach(enemy).count()
}

/// Prior weights of the steps from `p` (cells in index order, then a pass),
/// summing to 1: kills weigh more, the more of the enemy they cut off; a
/// pass weighs a tenth of a quiet step (it is searched, but not first).
pub fn priors<const N: usize>(p: &Position<N>, codes: &[u16]) -> Vec<f32> {
    let enemy = !p.side();
    let kills = p.legal_cells() & p.viruses(enemy);
    let before = if kills.any() {
        p.reach(enemy).count()
    } else {
        0
    };
    let raw: Vec<f32> = codes
        .iter()
        .map(|&c| {
            let i = c as usize;
            if c == PASS {
                0.1
            } else if i < N * 64 && kills.contains(i) {
                let cut = before.saturating_sub(options_after(p, i, enemy));
                3.0 + cut.min(12) as f32
            } else {
                1.0
            }
        })
        .collect();
    let total: f32 = raw.iter().sum();
    raw.into_iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::{Preset, SmallPosition};

    /// Positions from random classic games where the mover has two kills or more.
    fn positions_with_kills() -> Vec<SmallPosition> {
        let start = Preset::Classic.variant().start().unwrap();
        let virus_wars_rules::AnyPosition::Small(start) = start else {
            panic!("classic fits the small board")
        };
        let mut found = Vec::new();
        for seed in 0..40 {
            let mut rng = SplitMix64::new(seed);
            let mut p = start;
            while p.outcome().is_none() {
                let kills = p.legal_cells() & p.viruses(!p.side());
                if kills.count() >= 2 {
                    found.push(p);
                    break;
                }
                let i = random_step(&p, &mut rng).expect("standard end: no pass");
                p.play_unchecked(i);
            }
        }
        assert!(found.len() > 10);
        found
    }

    #[test]
    fn moo_takes_the_kill_that_cuts_most() {
        let mut rng = SplitMix64::new(3);
        for q in positions_with_kills() {
            let enemy = !q.side();
            let kills = q.legal_cells() & q.viruses(enemy);
            let best = kills.iter().map(|k| options_after(&q, k, enemy)).min();
            for _ in 0..5 {
                let k = moo_step(&q, &mut rng).expect("a step");
                assert!(kills.contains(k), "moo always kills when it can");
                assert_eq!(Some(options_after(&q, k, enemy)), best);
            }
        }
    }

    #[test]
    fn playouts_finish_and_record_their_steps() {
        for preset in Preset::ALL {
            let start = preset.variant().start().unwrap();
            for policy in [Policy::Random, Policy::Moo] {
                virus_wars_rules::with_position!(&start, p => {
                    let mut q = *p;
                    let mut played = [Bitboard::EMPTY; 2];
                    let mut rng = SplitMix64::new(5);
                    let w = Weights::TUNED;
                    let share = play_out(&mut q, policy, 0, &w, &mut rng, &mut played);
                    assert_eq!(x_share(q.outcome().expect("played out")), share);
                    assert!(played[0].any() && played[1].any(), "{preset:?} {policy}");
                    let mut r = *p;
                    let cut = play_out(&mut r, policy, 4, &w, &mut rng, &mut played);
                    assert!(cut > 0.0 && cut < 1.0, "an evaluation, not a result");
                });
            }
        }
    }

    #[test]
    fn priors_sum_to_one_and_favour_kills() {
        for q in positions_with_kills() {
            let codes: Vec<u16> = q.legal_cells().iter().map(|i| i as u16).collect();
            let pr = priors(&q, &codes);
            assert!((pr.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            let kills = q.legal_cells() & q.viruses(!q.side());
            let quiet = codes
                .iter()
                .zip(&pr)
                .filter(|(c, _)| !kills.contains(**c as usize))
                .map(|(_, w)| *w)
                .fold(0.0, f32::max);
            for (c, w) in codes.iter().zip(&pr) {
                if kills.contains(*c as usize) {
                    assert!(*w > quiet);
                }
            }
        }
    }
}
