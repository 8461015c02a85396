//! Writing a spec back as text: the options that differ from the
//! defaults, so that what is printed reads back as the same player.

use std::fmt;

use super::options::quoted;
use super::{PlayerSpec, DEFAULT_AFTER, DEFAULT_MIX, DEFAULT_WIDTH};
use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random { .. } => f.write_str("random"),
            PlayerSpec::Greedy { noise, .. } if *noise > 0.0 => write!(f, "greedy:noise={noise}"),
            PlayerSpec::Greedy { .. } => f.write_str("greedy"),
            PlayerSpec::AlphaBeta { budget, .. } => {
                write!(f, "alphabeta:{}", budget_options(budget, "nodes").join(","))
            }
            PlayerSpec::Mcts { budget, config } => {
                let mut parts = budget_options(budget, "playouts");
                let extra = config_options(config);
                if !extra.is_empty() {
                    parts.push(extra);
                }
                write!(f, "mcts:{}", parts.join(","))
            }
            PlayerSpec::Turns { budget, width, .. } => {
                let mut parts = budget_options(budget, "nodes");
                if *width != DEFAULT_WIDTH {
                    parts.push(format!("width={width}"));
                }
                write!(f, "turns:{}", parts.join(","))
            }
            PlayerSpec::Net {
                budget,
                config,
                net,
                mix,
                after,
                batch,
                view,
            } => {
                let mut parts = budget_options(budget, "playouts");
                let extra = config_options(config);
                if !extra.is_empty() {
                    parts.push(extra);
                }
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
                write!(f, "nn:{}", parts.join(","))
            }
            PlayerSpec::Policy { net } => match net_option(net) {
                Some(o) => write!(f, "policy:{o}"),
                None => f.write_str("policy"),
            },
            PlayerSpec::Level(n) => write!(f, "level:{n}"),
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
/// `key=value,…`.
fn config_options(config: &MctsConfig) -> String {
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
    parts.join(",")
}

/// The option that names a net (none for the built-in one).
fn net_option(net: &NetChoice) -> Option<String> {
    net.file().map(|f| format!("weights={}", quoted(f)))
}
