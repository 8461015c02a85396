//! Reading a spec: `kind:key=value,…`, each option checked against the
//! kind and its range, with an error that says which option and why.

use std::str::FromStr;
use std::time::Duration;

use virus_wars_rules::number::parse_in_range;

use super::options::{shown, split_options, unquote};
use super::{
    PlayerSpec, SpecError, DEFAULT_AFTER, DEFAULT_MIX, DEFAULT_WIDTH, MAX_DEPTH, MAX_HASH_MB,
    MAX_THREADS,
};
use crate::budget::{parse_duration, Budget};
use crate::levels;
use crate::mcts::{MctsConfig, MAX_BATCH};
use crate::neural::NetChoice;

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
            PlayerSpec::Net { net, view, .. } => {
                net.is_file() || view.as_ref().is_some_and(|v| v.is_file())
            }
            PlayerSpec::Policy { net } => net.is_file(),
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
                "time",
                "nodes",
                "playouts",
                "depth",
                "seed",
                "hash",
                "threads",
                "playout",
                "cutoff",
                "c",
                "rave",
                "weights",
                "mix",
                "after",
                "batch",
                "view-weights",
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
                    let hint = match pairs.last().map(|(k, _)| k.as_str()) {
                        Some(k @ ("weights" | "view-weights")) => format!(
                            "; a path with a comma goes in double quotes: {k}=\"a,b.safetensors\""
                        ),
                        _ => ", like depth=6".to_string(),
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
        let mut width = DEFAULT_WIDTH;
        let mut level = None;
        let mut mcts = MctsConfig::default();
        let mut tree_mb = None;
        let (mut weights, mut mix, mut after) = (None, DEFAULT_MIX, DEFAULT_AFTER);
        let mut batch = 1usize;
        let mut view = None;
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
                "view-weights" if v == "none" => view = None,
                "view-weights" if v == "builtin" => view = Some(Box::new(NetChoice::builtin_view())),
                "view-weights" if !files => {
                    return Err(bad(
                        "weights files cannot be named here: use level:9 (view-weights=builtin or none)".into(),
                    ))
                }
                "view-weights" => {
                    let net = NetChoice::load(v).map_err(|e| bad(e.to_string()))?;
                    view = Some(Box::new(net));
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
                view,
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
