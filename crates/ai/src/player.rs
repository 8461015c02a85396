//! The player interface, and player specs as written on command lines:
//! `random`, `greedy`, `greedy:noise=0.3`, `alphabeta:depth=6`,
//! `alphabeta:time=1s,hash=64`, `mcts:time=1s,threads=2,playout=moo`,
//! `turns:time=3s,width=30` (whole-turn search), `nn:time=1s,weights=FILE`
//! (MCTS guided by a net), `policy` (the net's policy alone), `level:9`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use virus_wars_rules::number::parse_in_range;
use virus_wars_rules::{AnyPosition, Step};

use crate::alphabeta::AlphaBeta;
use crate::budget::{parse_duration, Budget};
use crate::greedy::GreedyPlayer;
use crate::levels;
use crate::mcts::{Guide, Mcts, MctsConfig, MAX_BATCH};
use crate::neural::{NetChoice, PolicyPlayer};
use crate::random::RandomPlayer;
use crate::search::{SearchInfo, SearchResult, StopFlag};
use crate::spec_options::{split_options, unquote};
use crate::turns::TurnSearch;

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

    /// Forget what was learnt about the previous game.
    fn new_game(&mut self) {}
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

/// A built-in player with its own budget.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    Random {
        seed: u64,
    },
    Greedy {
        noise: f64,
        seed: u64,
    },
    AlphaBeta {
        budget: Budget,
        hash_mb: usize,
    },
    Mcts {
        budget: Budget,
        config: MctsConfig,
    },
    /// Whole-turn search (the small-board sparring partner).
    Turns {
        budget: Budget,
        width: usize,
        hash_mb: usize,
    },
    /// MCTS guided by a net: its policy as priors (once a node has `after`
    /// visits), its value blended with the playout's by `mix`.
    Net {
        budget: Budget,
        config: MctsConfig,
        net: NetChoice,
        mix: f64,
        after: u32,
        /// Positions the tree's threads gather for one pass of the net.
        batch: usize,
    },
    /// The net's policy alone, one forward pass a step.
    Policy {
        net: NetChoice,
    },
    Level(u8),
}

/// Why a player spec cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("unknown player '{0}': expected random, greedy, alphabeta, mcts, turns, nn, policy or level:N (e.g. alphabeta:depth=6, mcts:time=1s, turns:time=3s, nn:time=1s, level:9)")]
    UnknownKind(String),
    #[error("player '{spec}': {message}")]
    Option { spec: String, message: String },
}

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
            PlayerSpec::Mcts { budget, config } => (Box::new(Mcts::new(*config)), *budget),
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
            } => {
                let guide = Guide {
                    net: net.net.clone(),
                    mix: *mix,
                    after: *after,
                    batch: *batch,
                };
                (Box::new(Mcts::new(*config).with_guide(guide)), *budget)
            }
            PlayerSpec::Policy { net } => (
                Box::new(PolicyPlayer::new(net.net.clone())),
                Budget::default(),
            ),
            PlayerSpec::Level(n) => levels::level(*n)
                .expect("levels are checked when parsed")
                .spec
                .build(),
        }
    }
}

/// At most 40 characters of a spec, for error messages.
pub(crate) fn shown(text: &str) -> String {
    if text.chars().count() > 40 {
        text.chars().take(40).chain(['…']).collect()
    } else {
        text.to_string()
    }
}

/// The net's share of a leaf's value in `nn:` unless `mix=` says otherwise.
pub const DEFAULT_MIX: f64 = 0.5;
/// Visits before the net gives a node's priors, unless `after=` says otherwise.
pub const DEFAULT_AFTER: u32 = 32;

/// Deepest search a spec or a `go depth` may ask for, in steps.
pub const MAX_DEPTH: u32 = 64;
/// Largest hash table or MCTS tree a spec may ask for, in MB.
pub const MAX_HASH_MB: usize = 4096;
/// Most search threads a spec may ask for.
pub const MAX_THREADS: usize = 256;

impl PlayerSpec {
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
            PlayerSpec::Level(n) => levels::level(*n)
                .expect("levels are checked when parsed")
                .spec
                .resources(),
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
            PlayerSpec::Level(n) => levels::level(*n)
                .expect("levels are checked when parsed")
                .spec
                .budget(),
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// A spec, reading any weights file it names.
    fn from_str(text: &str) -> Result<Self, SpecError> {
        PlayerSpec::parse(text, true)
    }
}

impl PlayerSpec {
    /// A spec from a network peer: one that names a file (`weights=`) is
    /// refused before anything is read.
    pub fn parse_without_files(text: &str) -> Result<Self, SpecError> {
        PlayerSpec::parse(text, false)
    }

    /// Whether the player reads a file named by its spec.
    pub fn reads_files(&self) -> bool {
        match self {
            PlayerSpec::Net { net, .. } | PlayerSpec::Policy { net } => net.is_file(),
            _ => false,
        }
    }

    fn parse(text: &str, files: bool) -> Result<Self, SpecError> {
        let text = text.trim();
        let (kind, options) = text.split_once(':').unwrap_or((text, ""));
        let kind_lower = kind.to_ascii_lowercase();
        let allowed: &[&str] = match kind_lower.as_str() {
            "random" => &["seed"],
            "greedy" => &["noise", "seed"],
            "alphabeta" | "ab" => &["time", "nodes", "depth", "hash"],
            "mcts" => &[
                "time", "nodes", "playouts", "depth", "seed", "hash", "threads", "playout",
                "cutoff", "c", "rave",
            ],
            "turns" => &["time", "nodes", "depth", "hash", "width"],
            "nn" => &[
                "time", "nodes", "playouts", "depth", "seed", "hash", "threads", "playout",
                "cutoff", "c", "rave", "weights", "mix", "after", "batch",
            ],
            "policy" => &["weights"],
            "level" => &["level"],
            _ => return Err(SpecError::UnknownKind(shown(kind))),
        };
        let bad = |message: String| SpecError::Option {
            spec: shown(text),
            message,
        };
        let mut pairs: Vec<(String, String)> = Vec::new();
        let mut keys = std::collections::HashSet::new();
        for part in split_options(options).map_err(&bad)? {
            let part = part.as_str();
            let (k, v) = match part.split_once('=') {
                Some((k, v)) => (k.trim().to_ascii_lowercase(), unquote(v).map_err(&bad)?),
                None if kind.eq_ignore_ascii_case("level") && pairs.is_empty() => {
                    ("level".into(), part.to_string())
                }
                None => {
                    let hint = if pairs.last().is_some_and(|(k, _)| k == "weights") {
                        "; a path with a comma goes in double quotes: weights=\"a,b.safetensors\""
                    } else {
                        ", like depth=6"
                    };
                    return Err(bad(format!("option '{}' needs a value{hint}", shown(part))));
                }
            };
            if !allowed.contains(&k.as_str()) {
                return Err(bad(format!(
                    "unknown option '{}': {kind_lower} takes {}",
                    shown(&k),
                    allowed.join(", ")
                )));
            }
            if !keys.insert(k.clone()) {
                return Err(bad(format!("option '{k}' is given twice")));
            }
            pairs.push((k, v));
        }
        let in_range =
            |k: &str, v: &str, min: u64, max: u64| parse_in_range(k, v, min, max).map_err(&bad);
        let number = |k: &str, v: &str| in_range(k, v, 0, u64::MAX);
        let mut budget = Budget::default();
        let (mut seed, mut noise, mut hash_mb) = (0u64, 0.0f64, 64usize);
        let mut width = 30usize;
        let mut level = None;
        let mut mcts = MctsConfig::default();
        let mut tree_mb = None;
        let (mut weights, mut mix, mut after) = (None, DEFAULT_MIX, DEFAULT_AFTER);
        let mut batch = 1usize;
        let real = |k: &str, v: &str| {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| bad(format!("{k} must be a number of 0 or more, not '{v}'")))
        };
        for (k, v) in &pairs {
            match k.as_str() {
                "time" => budget.time = Some(parse_duration(v).map_err(&bad)?),
                "nodes" | "playouts" => budget.nodes = Some(in_range(k, v, 1, u64::MAX)?),
                "depth" => budget.depth = Some(in_range(k, v, 1, MAX_DEPTH as u64)? as u32),
                "seed" => seed = number(k, v)?,
                "hash" => {
                    hash_mb = in_range(k, v, 1, MAX_HASH_MB as u64)? as usize;
                    tree_mb = Some(hash_mb);
                }
                "threads" => mcts.threads = in_range(k, v, 1, MAX_THREADS as u64)? as usize,
                "playout" => mcts.policy = v.parse().map_err(&bad)?,
                "cutoff" => mcts.cutoff = in_range(k, v, 0, 10_000)? as u32,
                "width" => width = in_range(k, v, 1, 10_000)? as usize,
                "c" => mcts.selection.c_puct = real(k, v)?,
                "rave" => mcts.selection.rave = real(k, v)?,
                "noise" => {
                    noise = v
                        .parse::<f64>()
                        .ok()
                        .filter(|n| (0.0..=1.0).contains(n))
                        .ok_or_else(|| bad(format!("noise is a chance from 0 to 1, not '{v}'")))?
                }
                "level" => level = Some(in_range("level", v, 1, levels::LEVELS.len() as u64)?),
                "weights" if !files => {
                    return Err(bad("weights files cannot be named here: use level:9".into()))
                }
                "weights" => {
                    let net = NetChoice::load(v).map_err(|e| bad(e.to_string()))?;
                    weights = Some(net);
                }
                "mix" => {
                    mix = real(k, v)?;
                    if mix > 1.0 {
                        return Err(bad(format!("mix is a weight from 0 to 1, not '{v}'")));
                    }
                }
                "after" => after = in_range(k, v, 1, 1_000_000)? as u32,
                "batch" => batch = in_range(k, v, 1, MAX_BATCH as u64)? as usize,
                _ => return Err(bad(format!("unknown option '{k}'"))),
            }
        }
        let searches = matches!(
            kind_lower.as_str(),
            "alphabeta" | "ab" | "mcts" | "turns" | "nn"
        );
        if searches && budget.is_infinite() {
            // A search with no budget thinks for a second.
            budget.time = Some(Duration::from_secs(1));
        }
        mcts.seed = seed.max(1);
        if let Some(mb) = tree_mb {
            mcts.tree_mb = mb;
        }
        match kind_lower.as_str() {
            "random" => Ok(PlayerSpec::Random { seed }),
            "greedy" => Ok(PlayerSpec::Greedy { noise, seed }),
            "alphabeta" | "ab" => Ok(PlayerSpec::AlphaBeta { budget, hash_mb }),
            "mcts" => Ok(PlayerSpec::Mcts {
                budget,
                config: mcts,
            }),
            "turns" => Ok(PlayerSpec::Turns {
                budget,
                width,
                hash_mb,
            }),
            "nn" => Ok(PlayerSpec::Net {
                budget,
                config: mcts,
                net: weights.unwrap_or_else(NetChoice::builtin),
                mix,
                after,
                batch,
            }),
            "policy" => Ok(PlayerSpec::Policy {
                net: weights.unwrap_or_else(NetChoice::builtin),
            }),
            "level" => {
                if let Some((k, _)) = pairs.iter().find(|(k, _)| k != "level") {
                    return Err(bad(format!(
                        "unknown option '{k}': a level takes only its number"
                    )));
                }
                let n = level.ok_or_else(|| bad("which level? write level:1 to level:9".into()))?;
                Ok(PlayerSpec::Level(n as u8))
            }
            _ => Err(SpecError::UnknownKind(kind.to_string())),
        }
    }
}

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
                let extra = config.to_string();
                if !extra.is_empty() {
                    parts.push(extra);
                }
                write!(f, "mcts:{}", parts.join(","))
            }
            PlayerSpec::Turns { budget, width, .. } => {
                let mut parts = budget_options(budget, "nodes");
                if *width != 30 {
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
            } => {
                let mut parts = budget_options(budget, "playouts");
                let extra = config.to_string();
                if !extra.is_empty() {
                    parts.push(extra);
                }
                parts.extend(net.option());
                if *mix != DEFAULT_MIX {
                    parts.push(format!("mix={mix}"));
                }
                if *after != DEFAULT_AFTER {
                    parts.push(format!("after={after}"));
                }
                if *batch != 1 {
                    parts.push(format!("batch={batch}"));
                }
                write!(f, "nn:{}", parts.join(","))
            }
            PlayerSpec::Policy { net } => match net.option() {
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
