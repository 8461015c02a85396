//! Levels 1–9 for people: from a beginner who blunders to full strength.
//! Levels 2–6 have playout budgets, so they play the same on any machine
//! (one thread, seeded); 7 and 8 think for a time on two threads, and 9
//! adds the learned net (the weights built into the binary) to 8's search.

use std::time::Duration;

use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;
use crate::spec::PlayerSpec;

/// Level 9's blend of the net's value with the playout's (used only where
/// the net is asked at new leaves, `after` 1).
pub const LEVEL9_MIX: f64 = crate::spec::DEFAULT_MIX;
/// Visits before level 9 asks the net for a node's priors (measured at equal
/// time: docs/ai.md).
pub const LEVEL9_AFTER: u32 = crate::spec::DEFAULT_AFTER;

/// One level: its name, what it is, and the player behind it.
pub struct Level {
    pub number: u8,
    pub name: &'static str,
    pub description: &'static str,
    pub spec: PlayerSpec,
}

/// Names of the levels, 1 first.
pub const LEVELS: [&str; 9] = [
    "Novice",
    "Beginner",
    "Careful",
    "Planner",
    "Schemer",
    "Tactician",
    "Strategist",
    "Master",
    "Grandmaster",
];

/// Level `n` (1–9).
pub fn level(n: u8) -> Option<Level> {
    let playouts = |n: u64| PlayerSpec::Mcts {
        budget: Budget::nodes(n),
        config: MctsConfig {
            threads: 1,
            ..MctsConfig::default()
        },
    };
    let timed = |time: Duration| PlayerSpec::Mcts {
        budget: Budget::time(time),
        config: MctsConfig::default(),
    };
    let (description, spec) = match n {
        1 => (
            "a uniformly random legal step: blunders constantly",
            PlayerSpec::Random { seed: 1 },
        ),
        2 => ("MCTS, 10 playouts a turn: sees kills", playouts(10)),
        3 => ("MCTS, 100 playouts a turn", playouts(100)),
        4 => ("MCTS, 400 playouts a turn", playouts(400)),
        5 => ("MCTS, 1,500 playouts a turn", playouts(1_500)),
        6 => ("MCTS, 6,000 playouts a turn", playouts(6_000)),
        7 => (
            "MCTS on 2 threads, 0.5 s a turn",
            timed(Duration::from_millis(500)),
        ),
        8 => (
            "MCTS on 2 threads, 2 s a turn (full strength)",
            timed(Duration::from_secs(2)),
        ),
        9 => (
            "MCTS on 2 threads guided by the learned net, 2 s a turn",
            PlayerSpec::Net {
                budget: Budget::time(Duration::from_secs(2)),
                config: MctsConfig::default(),
                net: NetChoice::builtin(),
                mix: LEVEL9_MIX,
                after: LEVEL9_AFTER,
                batch: 1,
                view: Some(Box::new(NetChoice::builtin_view())),
            },
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
