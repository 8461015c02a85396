//! Levels 1–8 for people: from a beginner who blunders to full strength.

use std::time::Duration;

use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::player::PlayerSpec;

/// One level: its name, what it is, and the player behind it.
pub struct Level {
    pub number: u8,
    pub name: &'static str,
    pub description: &'static str,
    pub spec: PlayerSpec,
}

/// Names of the levels, 1 first.
pub const LEVELS: [&str; 8] = [
    "Novice",
    "Greedy",
    "Careful",
    "Planner",
    "Schemer",
    "Tactician",
    "Strategist",
    "Master",
];

/// Level `n` (1–8).
pub fn level(n: u8) -> Option<Level> {
    let ab = |budget: Budget| PlayerSpec::AlphaBeta {
        budget,
        hash_mb: 64,
    };
    let mcts = |time: Duration| PlayerSpec::Mcts {
        budget: Budget::time(time),
        config: MctsConfig::default(),
    };
    let (description, spec) = match n {
        1 => (
            "a uniformly random legal step: blunders constantly",
            PlayerSpec::Random { seed: 1 },
        ),
        2 => (
            "the best-looking position after each step, no look-ahead",
            ab(Budget::depth(1)),
        ),
        3 => ("alpha-beta two steps deep", ab(Budget::depth(2))),
        4 => (
            "alpha-beta three steps deep: a whole turn",
            ab(Budget::depth(3)),
        ),
        5 => (
            "alpha-beta six steps deep: its turn and the reply",
            ab(Budget::depth(6)),
        ),
        6 => (
            "alpha-beta, 0.3 s a turn",
            ab(Budget::time(Duration::from_millis(300))),
        ),
        7 => (
            "MCTS with moo playouts on 2 threads, 0.5 s a turn",
            mcts(Duration::from_millis(500)),
        ),
        8 => (
            "MCTS with moo playouts on 2 threads, 2 s a turn (full strength)",
            mcts(Duration::from_secs(2)),
        ),
        _ => return None,
    };
    Some(Level {
        number: n,
        name: LEVELS[n as usize - 1],
        description,
        spec,
    })
}
