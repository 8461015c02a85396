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

/// Level 1's search, in playouts a step, and its chance of a random step
/// instead (measured: docs/ai.md, "Level 1").
pub const LEVEL1_PLAYOUTS: u64 = 3;
pub const LEVEL1_NOISE: f64 = 0.3;
const LEVEL1_ABOUT: &str =
    "MCTS, 3 playouts a step, and 3 steps in 10 at random: plays to win, blunders often";

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
    let slipping = |n: u64, noise: f64| PlayerSpec::Mcts {
        budget: Budget::nodes(n),
        config: MctsConfig {
            threads: 1,
            ..MctsConfig::default()
        },
        noise,
    };
    let playouts = |n: u64| slipping(n, 0.0);
    let timed = |time: Duration| PlayerSpec::Mcts {
        budget: Budget::time(time),
        config: MctsConfig::default(),
        noise: 0.0,
    };
    let (description, spec) = match n {
        1 => (LEVEL1_ABOUT, slipping(LEVEL1_PLAYOUTS, LEVEL1_NOISE)),
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
