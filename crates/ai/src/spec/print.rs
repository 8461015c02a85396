//! Writing a spec back as text: the options that differ from the
//! defaults, so that what is printed reads back as the same player.

use std::fmt;

use super::options::quoted;
use super::{PlayerSpec, DEFAULT_AFTER, DEFAULT_HASH_MB, DEFAULT_MIX, DEFAULT_WIDTH};
use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        let options = match self {
            PlayerSpec::Random { .. } | PlayerSpec::Greedy { .. } | PlayerSpec::Policy { .. } => {
                Vec::new()
            }
            PlayerSpec::AlphaBeta { budget, .. }
            | PlayerSpec::Mcts { budget, .. }
            | PlayerSpec::Turns { budget, .. }
            | PlayerSpec::Net { budget, .. } => budget_options(budget, kind.count),
            PlayerSpec::Level(n) => vec![n.to_string()],
        };
        let mut parts = options;
        match self {
            PlayerSpec::Random { seed } if *seed != 0 => parts.push(format!("seed={seed}")),
            PlayerSpec::Greedy { noise, seed } => {
                if *noise > 0.0 {
                    parts.push(format!("noise={noise}"));
                }
                if *seed != 0 {
                    parts.push(format!("seed={seed}"));
                }
            }
            PlayerSpec::AlphaBeta { hash_mb, .. } if *hash_mb != DEFAULT_HASH_MB => {
                parts.push(format!("hash={hash_mb}"))
            }
            PlayerSpec::Mcts { config, noise, .. } => {
                parts.extend(config_options(config));
                if *noise > 0.0 {
                    parts.push(format!("noise={noise}"));
                }
            }
            PlayerSpec::Turns { width, hash_mb, .. } => {
                if *width != DEFAULT_WIDTH {
                    parts.push(format!("width={width}"));
                }
                if *hash_mb != DEFAULT_HASH_MB {
                    parts.push(format!("hash={hash_mb}"));
                }
            }
            PlayerSpec::Net {
                config,
                net,
                mix,
                after,
                batch,
                view,
                ..
            } => {
                parts.extend(config_options(config));
                parts.extend(net_option(net));
                if *mix != DEFAULT_MIX {
                    parts.push(format!("mix={mix}"));
                }
                if *after != DEFAULT_AFTER {
                    parts.push(format!("after={after}"));
                }
                if *batch != 1 {
                    parts.push(format!("batch={batch}"));
                }
                if let Some(view) = view {
                    let shown = view.file().map_or_else(|| "builtin".into(), quoted);
                    parts.push(format!("view-weights={shown}"));
                }
            }
            PlayerSpec::Policy { net } => parts.extend(net_option(net)),
            _ => {}
        }
        // A search always has its budget; the others are bare when at
        // their defaults.
        if parts.is_empty() && !kind.searches {
            f.write_str(kind.name)
        } else {
            write!(f, "{}:{}", kind.name, parts.join(","))
        }
    }
}

/// A budget as spec options; `count` names the node limit.
fn budget_options(budget: &Budget, count: &str) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(d) = budget.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(t) = budget.time {
        parts.push(format!("time={}ms", t.as_millis()));
    }
    if let Some(n) = budget.nodes {
        parts.push(format!("{count}={n}"));
    }
    parts
}

/// An MCTS configuration's options that differ from the defaults, as
/// `key=value` each.
fn config_options(config: &MctsConfig) -> Vec<String> {
    let d = MctsConfig::default();
    let mut parts = Vec::new();
    if config.threads != d.threads {
        parts.push(format!("threads={}", config.threads));
    }
    if config.policy != d.policy {
        parts.push(format!("playout={}", config.policy));
    }
    if config.cutoff != d.cutoff {
        parts.push(format!("cutoff={}", config.cutoff));
    }
    if config.selection.c_puct != d.selection.c_puct {
        parts.push(format!("c={}", config.selection.c_puct));
    }
    if config.selection.rave != d.selection.rave {
        parts.push(format!("rave={}", config.selection.rave));
    }
    if config.tree_mb != d.tree_mb {
        parts.push(format!("hash={}", config.tree_mb));
    }
    if config.seed != d.seed {
        parts.push(format!("seed={}", config.seed));
    }
    parts
}

/// The option that names a net (none for the built-in one).
fn net_option(net: &NetChoice) -> Option<String> {
    net.file().map(|f| format!("weights={}", quoted(f)))
}
