//! Building the player a spec names: the one place that names every player.

use super::PlayerSpec;
use crate::alphabeta::AlphaBeta;
use crate::budget::Budget;
use crate::greedy::GreedyPlayer;
use crate::levels;
use crate::mcts::{Guide, Mcts};
use crate::neural::PolicyPlayer;
use crate::player::Player;
use crate::random::RandomPlayer;
use crate::slips::Slipping;
use crate::turns::TurnSearch;

impl PlayerSpec {
    /// The player and the budget it plays with (a budget from outside, e.g. a
    /// per-turn time limit, is combined with it by the caller).
    pub fn build(&self) -> (Box<dyn Player>, Budget) {
        match self {
            PlayerSpec::Random { seed } => (Box::new(RandomPlayer::new(*seed)), Budget::default()),
            PlayerSpec::Greedy { noise, seed } => (
                Box::new(GreedyPlayer::new(*seed).with_noise(*noise)),
                Budget::default(),
            ),
            PlayerSpec::AlphaBeta { budget, hash_mb } => {
                (Box::new(AlphaBeta::new(*hash_mb)), *budget)
            }
            PlayerSpec::Mcts {
                budget,
                config,
                noise,
            } => {
                let search = Box::new(Mcts::new(*config));
                if *noise > 0.0 {
                    let slipping = Slipping::new(search, *noise, config.seed);
                    (Box::new(slipping), *budget)
                } else {
                    (search, *budget)
                }
            }
            PlayerSpec::Turns {
                budget,
                width,
                hash_mb,
            } => (Box::new(TurnSearch::new(*width, *hash_mb)), *budget),
            PlayerSpec::Net {
                budget,
                config,
                net,
                mix,
                after,
                batch,
                view,
            } => {
                let guide = Guide {
                    net: net.net.clone(),
                    mix: *mix,
                    after: *after,
                    batch: *batch,
                    view_net: view.as_ref().map(|v| v.net.clone()),
                };
                (Box::new(Mcts::new(*config).with_guide(guide)), *budget)
            }
            PlayerSpec::Policy { net } => (
                Box::new(PolicyPlayer::new(net.net.clone())),
                Budget::default(),
            ),
            PlayerSpec::Level(_) => self.resolved().build(),
        }
    }
}

impl PlayerSpec {
    /// The spec itself, or a level's own spec (never a level).
    pub fn resolved(&self) -> PlayerSpec {
        match self {
            PlayerSpec::Level(n) => {
                levels::level(*n)
                    .expect("levels are checked when parsed")
                    .spec
            }
            other => other.clone(),
        }
    }

    /// The memory (MB of hash table or tree) and threads the player uses.
    pub fn resources(&self) -> (usize, usize) {
        match self {
            PlayerSpec::Random { .. } | PlayerSpec::Greedy { .. } | PlayerSpec::Policy { .. } => {
                (0, 1)
            }
            PlayerSpec::AlphaBeta { hash_mb, .. } => (*hash_mb, 1),
            PlayerSpec::Mcts { config, .. } | PlayerSpec::Net { config, .. } => {
                (config.tree_mb, config.threads)
            }
            PlayerSpec::Turns { hash_mb, .. } => (*hash_mb, 1),
            PlayerSpec::Level(_) => self.resolved().resources(),
        }
    }

    /// The budget the player plays with, read without building the player
    /// (which may allocate its tables).
    pub fn budget(&self) -> Budget {
        match self {
            PlayerSpec::Random { .. } | PlayerSpec::Greedy { .. } | PlayerSpec::Policy { .. } => {
                Budget::default()
            }
            PlayerSpec::AlphaBeta { budget, .. }
            | PlayerSpec::Mcts { budget, .. }
            | PlayerSpec::Net { budget, .. }
            | PlayerSpec::Turns { budget, .. } => *budget,
            PlayerSpec::Level(_) => self.resolved().budget(),
        }
    }
}
