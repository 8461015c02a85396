//! The gating match: the newest net against the best so far (or the search
//! without a net), at equal simulations a turn, through the arena.

use std::path::{Path, PathBuf};

use crate::arena::{self, stats::Tally, Contender};
use crate::budget::Budget;
use crate::mcts::MctsConfig;
use crate::neural::NetChoice;
use crate::search::StopFlag;
use crate::spec::PlayerSpec;

use super::{Event, LearnError, TrainConfig};

/// The gate's opponent when generation `best` is the best: that
/// generation's net file, or None for the search without a net (a run from
/// nothing before any net was accepted).
fn opponent(config: &TrainConfig, best: u32) -> Option<PathBuf> {
    (best > 0 || config.start.is_some()).then(|| config.net_file(best))
}

/// The new net against the best so far (or the search alone), at equal
/// simulations a turn, colours paired, through the arena.
pub(super) fn gate(
    config: &TrainConfig,
    generation: u32,
    candidate: &Path,
    best: u32,
    stop: &StopFlag,
    on: &(dyn Fn(Event) + Sync),
) -> Result<Tally, LearnError> {
    let mcts = MctsConfig {
        threads: 1,
        ..MctsConfig::default()
    };
    let budget = Budget::nodes(config.playouts);
    let load = |path: &Path| {
        NetChoice::load(&path.display().to_string())
            .map_err(|e| LearnError::Run(format!("{}: {e}", path.display())))
    };
    // A net guiding the trees; in a fog run, the start net guides them and
    // the net is the view net (generation 0's: none).
    let as_spec = |path: &Path, g: u32| -> Result<PlayerSpec, LearnError> {
        let (net, view) = match config.fog {
            true => (
                load(&config.net_file(0))?,
                (g > 0).then(|| load(path)).transpose()?,
            ),
            false => (load(path)?, None),
        };
        Ok(PlayerSpec::Net {
            budget,
            config: mcts,
            net,
            mix: config.mix,
            after: config.after,
            batch: 1,
            view: view.map(Box::new),
        })
    };
    let a = as_spec(candidate, generation)?;
    let b = match opponent(config, best) {
        None => PlayerSpec::Mcts {
            budget,
            config: mcts,
            noise: 0.0,
        },
        Some(file) => as_spec(&file, best)?,
    };
    on(Event::Phase {
        generation,
        phase: "gating",
        total: config.gate_games as u64,
    });
    let mut tally = Tally::default();
    let per = config
        .gate_games
        .div_ceil(config.presets.len() as u32)
        .next_multiple_of(2);
    for (k, preset) in config.presets.iter().enumerate() {
        if stop.is_stopped() {
            return Err(LearnError::Stopped);
        }
        let match_config = arena::Config {
            a: Contender::BuiltIn(a.clone()),
            b: Contender::BuiltIn(b.clone()),
            games: per,
            variant: {
                let mut v = preset.variant();
                v.fog = config.fog;
                v
            },
            time_per_turn: None,
            opening_steps: 4,
            concurrency: config.threads,
            seed: config.seed ^ generation as u64 ^ (k as u64) << 40,
            sprt: None,
        };
        let report =
            arena::run(&match_config, &|_, _| on(Event::Progress)).map_err(LearnError::Arena)?;
        let t = report.tally(None);
        tally.wins += t.wins;
        tally.losses += t.losses;
        tally.draws += t.draws;
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use virus_wars_net::{Config, Network};
    use virus_wars_rules::Preset;

    fn config(start: Option<Arc<Network>>) -> TrainConfig {
        TrainConfig {
            dir: PathBuf::from("run"),
            presets: vec![Preset::Korobkov],
            generations: 3,
            games: 2,
            playouts: 8,
            net: NET,
            batch: 4,
            steps: 2,
            lr: 0.01,
            window: 1,
            gate_games: 2,
            gate_score: 0.55,
            mix: 0.5,
            after: 1,
            threads: 1,
            seed: 1,
            start,
            fog: false,
        }
    }

    const NET: Config = Config {
        channels: 2,
        blocks: 1,
        value_channels: 2,
        value_hidden: 2,
    };

    #[test]
    fn the_gate_plays_the_best_net_the_start_net_or_the_search_alone() {
        let plain = config(None);
        assert_eq!(opponent(&plain, 0), None, "from nothing: the search alone");
        assert_eq!(
            opponent(&plain, 2),
            Some(PathBuf::from("run/net-0002.safetensors"))
        );
        let started = config(Some(Arc::new(Network::random(NET, 1))));
        assert_eq!(
            opponent(&started, 0),
            Some(PathBuf::from("run/net-0000.safetensors")),
            "from a net: the start net until another is accepted"
        );
        assert_eq!(
            opponent(&started, 1),
            Some(PathBuf::from("run/net-0001.safetensors"))
        );
    }
}
