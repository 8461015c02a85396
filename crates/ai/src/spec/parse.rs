//! Reading a spec: `kind:key=value,…`, each option checked against the
//! kind and its range, with an error that says which option and why.

use std::str::FromStr;
use std::time::Duration;

use virus_wars_rules::number::parse_in_range;

use super::kinds::{Kind, Read};
use super::options::{shown, split_options, unquote};
use super::{
    PlayerSpec, SpecError, DEFAULT_AFTER, DEFAULT_HASH_MB, DEFAULT_MIX, DEFAULT_WIDTH, MAX_DEPTH,
    MAX_HASH_MB, MAX_THREADS,
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
        let (kind_text, options) = text.split_once(':').unwrap_or((text, ""));
        let kind = Kind::named(kind_text)?;
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
                None if kind.name == "level" && pairs.is_empty() => {
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
            if !kind.takes(&k) {
                return Err(bad(format!(
                    "unknown option '{}': {} takes {}",
                    shown(&k),
                    kind_text.to_ascii_lowercase(),
                    kind.listed()
                )));
            }
            if !keys.insert(k.clone()) {
                return Err(bad(format!("option '{k}' is given twice")));
            }
            pairs.push((k, v));
        }
        let mut read = read_options(&pairs, files).map_err(&bad)?;
        if kind.searches && read.budget.is_infinite() {
            // A search with no budget thinks for a second.
            read.budget.time = Some(Duration::from_secs(1));
        }
        (kind.make)(read).map_err(bad)
    }
}

/// The options `pairs` give (each checked against its range), every other
/// at its default.
fn read_options(pairs: &[(String, String)], files: bool) -> Result<Read, String> {
    let in_range = parse_in_range;
    let mut r = Read {
        budget: Budget::default(),
        seed: 0,
        noise: 0.0,
        hash_mb: DEFAULT_HASH_MB,
        width: DEFAULT_WIDTH,
        level: None,
        mcts: MctsConfig::default(),
        weights: None,
        mix: DEFAULT_MIX,
        after: DEFAULT_AFTER,
        batch: 1,
        view: None,
        keys: pairs.iter().map(|(k, _)| k.clone()).collect(),
    };
    let mut tree_mb = None;
    let real = |k: &str, v: &str| {
        v.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| format!("{k} must be a number of 0 or more, not '{v}'"))
    };
    let no_files = "weights files cannot be named here: use level:9";
    for (k, v) in pairs {
        let (k, v) = (k.as_str(), v.as_str());
        match k {
            // Kept (and written back) in whole milliseconds.
            "time" => {
                let ms = (parse_duration(v)?.as_secs_f64() * 1000.0).round();
                if ms < 1.0 {
                    return Err(format!("time must be at least 1ms, not '{v}'"));
                }
                r.budget.time = Some(Duration::from_millis(ms as u64));
            }
            "nodes" | "playouts" if r.budget.nodes.is_some() => {
                return Err("nodes and playouts are one limit: give it once".into())
            }
            "nodes" | "playouts" => r.budget.nodes = Some(in_range(k, v, 1, u64::MAX)?),
            "depth" => r.budget.depth = Some(in_range(k, v, 1, MAX_DEPTH as u64)? as u32),
            "seed" => r.seed = in_range(k, v, 0, u64::MAX)?,
            "hash" => {
                r.hash_mb = in_range(k, v, 1, MAX_HASH_MB as u64)? as usize;
                tree_mb = Some(r.hash_mb);
            }
            "threads" => r.mcts.threads = in_range(k, v, 1, MAX_THREADS as u64)? as usize,
            "playout" => r.mcts.policy = v.parse()?,
            "cutoff" => r.mcts.cutoff = in_range(k, v, 0, 10_000)? as u32,
            "width" => r.width = in_range(k, v, 1, 10_000)? as usize,
            "c" => r.mcts.selection.c_puct = real(k, v)?,
            "rave" => r.mcts.selection.rave = real(k, v)?,
            "noise" => {
                r.noise = v
                    .parse::<f64>()
                    .ok()
                    .filter(|n| (0.0..=1.0).contains(n))
                    .ok_or_else(|| format!("noise is a chance from 0 to 1, not '{v}'"))?
            }
            "level" => r.level = Some(in_range("level", v, 1, levels::LEVELS.len() as u64)?),
            "weights" if !files => return Err(no_files.into()),
            "weights" => r.weights = Some(NetChoice::load(v).map_err(|e| e.to_string())?),
            "view-weights" if v == "none" => r.view = None,
            "view-weights" if v == "builtin" => r.view = Some(Box::new(NetChoice::builtin_view())),
            "view-weights" if !files => {
                return Err(format!("{no_files} (view-weights=builtin or none)"))
            }
            "view-weights" => {
                let net = NetChoice::load(v).map_err(|e| e.to_string())?;
                r.view = Some(Box::new(net));
            }
            "mix" => {
                r.mix = real(k, v)?;
                if r.mix > 1.0 {
                    return Err(format!("mix is a weight from 0 to 1, not '{v}'"));
                }
            }
            "after" => r.after = in_range(k, v, 1, 1_000_000)? as u32,
            "batch" => r.batch = in_range(k, v, 1, MAX_BATCH as u64)? as usize,
            _ => return Err(format!("unknown option '{k}'")),
        }
    }
    r.mcts.seed = r.seed.max(1);
    if let Some(mb) = tree_mb {
        r.mcts.tree_mb = mb;
    }
    Ok(r)
}
