//! The kinds of player a spec names, in one table: each kind's name (and
//! other names), the options it takes, whether it searches (and so gets a
//! default time), what its node limit is called, and how its spec is made
//! from the options read. Reading (`parse.rs`), writing (`print.rs`) and
//! the error that lists the kinds all go by this table; adding a player
//! is a row here and its arm in `build.rs`.

use super::{PlayerSpec, SpecError};
use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;

/// The options of a tree search (`mcts`, and `nn` on top of them).
const TREE: [&str; 11] = [
    "time", "nodes", "playouts", "depth", "seed", "hash", "threads", "playout", "cutoff", "c",
    "rave",
];

/// A kind of player.
pub(super) struct Kind {
    /// As specs write it.
    pub name: &'static str,
    /// Other names it is read by (`ab` for `alphabeta`).
    pub aliases: &'static [&'static str],
    /// The options it takes (beyond the tree's, for `tree`).
    pub options: &'static [&'static str],
    /// It takes the tree search's options too.
    pub tree: bool,
    /// It searches: with no budget given, it thinks for a second.
    pub searches: bool,
    /// What its node limit is written as (`nodes` or `playouts`).
    pub count: &'static str,
    /// Its spec, from the options read.
    pub make: fn(Read) -> Result<PlayerSpec, String>,
}

/// The options of a spec as read, each at its default where not given.
pub(super) struct Read {
    pub budget: Budget,
    pub seed: u64,
    pub noise: f64,
    pub hash_mb: usize,
    pub width: usize,
    pub level: Option<u64>,
    pub mcts: MctsConfig,
    pub weights: Option<NetChoice>,
    pub mix: f64,
    pub after: u32,
    pub batch: usize,
    pub view: Option<Box<NetChoice>>,
    /// Every option given, by its key.
    pub keys: Vec<String>,
}

pub(super) const KINDS: &[Kind] = &[
    Kind {
        name: "random",
        aliases: &[],
        options: &["seed"],
        tree: false,
        searches: false,
        count: "nodes",
        make: |r| Ok(PlayerSpec::Random { seed: r.seed }),
    },
    Kind {
        name: "greedy",
        aliases: &[],
        options: &["noise", "seed"],
        tree: false,
        searches: false,
        count: "nodes",
        make: |r| {
            Ok(PlayerSpec::Greedy {
                noise: r.noise,
                seed: r.seed,
            })
        },
    },
    Kind {
        name: "alphabeta",
        aliases: &["ab"],
        options: &["time", "nodes", "depth", "hash"],
        tree: false,
        searches: true,
        count: "nodes",
        make: |r| {
            Ok(PlayerSpec::AlphaBeta {
                budget: r.budget,
                hash_mb: r.hash_mb,
            })
        },
    },
    Kind {
        name: "mcts",
        aliases: &[],
        options: &["noise"],
        tree: true,
        searches: true,
        count: "playouts",
        make: |r| {
            Ok(PlayerSpec::Mcts {
                budget: r.budget,
                config: r.mcts,
                noise: r.noise,
            })
        },
    },
    Kind {
        name: "turns",
        aliases: &[],
        options: &["time", "nodes", "depth", "hash", "width"],
        tree: false,
        searches: true,
        count: "nodes",
        make: |r| {
            Ok(PlayerSpec::Turns {
                budget: r.budget,
                width: r.width,
                hash_mb: r.hash_mb,
            })
        },
    },
    Kind {
        name: "nn",
        aliases: &[],
        options: &["weights", "mix", "after", "batch", "view-weights"],
        tree: true,
        searches: true,
        count: "playouts",
        make: |r| {
            Ok(PlayerSpec::Net {
                budget: r.budget,
                config: r.mcts,
                net: r.weights.unwrap_or_else(NetChoice::builtin),
                mix: r.mix,
                after: r.after,
                batch: r.batch,
                view: r.view,
            })
        },
    },
    Kind {
        name: "policy",
        aliases: &[],
        options: &["weights"],
        tree: false,
        searches: false,
        count: "nodes",
        make: |r| {
            Ok(PlayerSpec::Policy {
                net: r.weights.unwrap_or_else(NetChoice::builtin),
            })
        },
    },
    Kind {
        name: "level",
        aliases: &[],
        options: &["level"],
        tree: false,
        searches: false,
        count: "nodes",
        make: |r| {
            if let Some(k) = r.keys.iter().find(|k| *k != "level") {
                return Err(format!(
                    "unknown option '{k}': a level takes only its number"
                ));
            }
            let n = r.level.ok_or("which level? write level:1 to level:9")?;
            Ok(PlayerSpec::Level(n as u8))
        },
    },
];

impl Kind {
    /// The kind named `name` (any case), or the error that lists them all.
    pub fn named(name: &str) -> Result<&'static Kind, SpecError> {
        KINDS
            .iter()
            .find(|k| {
                k.name.eq_ignore_ascii_case(name)
                    || k.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
            })
            .ok_or_else(|| SpecError::UnknownKind(super::options::shown(name)))
    }

    /// Whether it takes option `key`.
    pub fn takes(&self, key: &str) -> bool {
        self.options.contains(&key) || (self.tree && TREE.contains(&key))
    }

    /// The options it takes, as an error lists them.
    pub fn listed(&self) -> String {
        let tree = if self.tree { &TREE[..] } else { &[] };
        let mut all: Vec<&str> = tree.to_vec();
        all.extend(self.options.iter().filter(|o| !tree.contains(o)));
        all.join(", ")
    }
}

impl PlayerSpec {
    /// The row of the table this spec is of.
    pub(super) fn kind(&self) -> &'static Kind {
        let name = match self {
            PlayerSpec::Random { .. } => "random",
            PlayerSpec::Greedy { .. } => "greedy",
            PlayerSpec::AlphaBeta { .. } => "alphabeta",
            PlayerSpec::Mcts { .. } => "mcts",
            PlayerSpec::Turns { .. } => "turns",
            PlayerSpec::Net { .. } => "nn",
            PlayerSpec::Policy { .. } => "policy",
            PlayerSpec::Level(_) => "level",
        };
        KINDS
            .iter()
            .find(|k| k.name == name)
            .expect("every spec's kind is in the table")
    }
}

/// The kinds, as the unknown-kind error lists them.
pub(super) fn names() -> String {
    let names: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
    format!(
        "{} or {}:N",
        names[..names.len() - 1].join(", "),
        names[names.len() - 1]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options every search takes: its budget.
    const BUDGET: [&str; 3] = ["time", "nodes", "depth"];

    #[test]
    fn every_kind_reads_back_by_its_names_and_budget_options_are_searches() {
        for k in KINDS {
            assert_eq!(Kind::named(k.name).unwrap().name, k.name);
            for a in k.aliases {
                assert_eq!(Kind::named(a).unwrap().name, k.name);
            }
            assert_eq!(k.searches, BUDGET.iter().all(|o| k.takes(o)), "{}", k.name);
        }
        assert!(Kind::named("chess").is_err());
        assert_eq!(
            names(),
            "random, greedy, alphabeta, mcts, turns, nn, policy or level:N"
        );
    }
}
