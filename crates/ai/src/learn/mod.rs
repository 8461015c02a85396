//! The learning loop (cargo feature `train`): generation after generation,
//! the best net so far plays itself ([`selfplay`]), the games join a replay
//! buffer on disk ([`games`]), the newest net trains on the buffer's last
//! generations, and a gating match through the arena decides whether it
//! replaces the best. Everything lives in one folder, and every file is
//! written whole (a temporary file, then a rename), so a stopped run resumes
//! from its last finished phase:
//!
//! - `run.txt`: the settings (a resumed run must be given the same ones);
//! - `games-NNNN.txt`: generation N's self-play games;
//! - `net-NNNN.safetensors`: the net trained in generation N (`net-0000`:
//!   the net the run started from, when it was given one);
//! - `state.txt`: the last finished generation and the best net;
//! - `log.tsv`: a line a generation (losses, gate score, Elo).

pub mod games;
mod gate;
pub mod selfplay;
mod training;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use virus_wars_net::train::TrainError;
use virus_wars_net::{Config, NetError, Network};
use virus_wars_rules::Preset;

use crate::arena;
use crate::mcts::Guide;
use crate::search::StopFlag;
use games::write_atomically;
use gate::gate;
use selfplay::{play_games, SelfPlay};
use training::train;

/// Why the loop stopped.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}, line {line}: {message}")]
    Format {
        path: String,
        line: usize,
        message: String,
    },
    #[error(transparent)]
    Net(#[from] NetError),
    #[error(transparent)]
    Train(#[from] TrainError),
    #[error("{0}")]
    Run(String),
    #[error("gating match: {0}")]
    Arena(String),
    #[error("{dir} holds a run with other settings:\n  it has: {found}\n  asked:  {asked}\nresume it with its own settings, or train into another folder")]
    OtherRun {
        dir: String,
        found: String,
        asked: String,
    },
    #[error("stopped: the run resumes from its last finished phase when started again")]
    Stopped,
}

/// The loop's settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub dir: PathBuf,
    pub presets: Vec<Preset>,
    pub generations: u32,
    /// Self-play games a generation.
    pub games: u32,
    /// Simulations a step in self-play and in the gate.
    pub playouts: u64,
    pub net: Config,
    pub batch: usize,
    /// Training steps a generation.
    pub steps: u32,
    pub lr: f64,
    /// Generations of games the buffer keeps.
    pub window: u32,
    pub gate_games: u32,
    /// Score the new net needs in the gate to become the best.
    pub gate_score: f64,
    /// The net's share of a leaf's value in self-play and the gate.
    pub mix: f64,
    /// Visits a node needs before the net gives its priors.
    pub after: u32,
    pub threads: usize,
    pub seed: u64,
    /// The net the run starts from (generation 0's best: it guides the
    /// first self-play, the first training continues from it, and the first
    /// gate is against it); None: from nothing, the search without a net.
    pub start: Option<Arc<Network>>,
    /// A fog run: the games are played under fog of war by determinization,
    /// every tree guided by the start net, and the nets trained read the
    /// mover's view: they become the players' view nets (the root's
    /// priors from what the side knows), the start net's for generation 0
    /// being none.
    pub fog: bool,
}

impl TrainConfig {
    /// The settings that shape the nets (a resumed run must keep them).
    fn fingerprint(&self) -> String {
        let start = self.start.as_ref().map(|n| n.to_bytes());
        self.fingerprint_of(start.as_deref())
    }

    /// As a build from before fog of war wrote it, where that differs: the
    /// start net's hash was of its 11-plane file.
    fn fingerprint_before_fog(&self) -> Option<String> {
        let old = self.start.as_ref()?.to_bytes_before_fog()?;
        Some(self.fingerprint_of(Some(&old)))
    }

    fn fingerprint_of(&self, start: Option<&[u8]>) -> String {
        let presets: Vec<&str> = self.presets.iter().map(|p| p.name()).collect();
        format!(
            "variants={} games={} playouts={} channels={} blocks={} batch={} steps={} lr={} window={} gate-games={} gate-score={} mix={} after={} seed={}",
            presets.join(","), self.games, self.playouts, self.net.channels, self.net.blocks,
            self.batch, self.steps, self.lr, self.window, self.gate_games, self.gate_score,
            self.mix, self.after, self.seed
        ) + &start
            .map(|bytes| format!(" start={}", virus_wars_net::sha256(bytes)))
            .unwrap_or_default()
            + if self.fog { " fog" } else { "" }
    }

    fn file(&self, name: String) -> PathBuf {
        self.dir.join(name)
    }

    /// Generation `g`'s net (`net-0000`: the net the run started from).
    fn net_file(&self, g: u32) -> PathBuf {
        self.file(format!("net-{g:04}.safetensors"))
    }
}

/// What the loop reports as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// A phase of generation `generation` begins, of `total` units.
    Phase {
        generation: u32,
        phase: &'static str,
        total: u64,
    },
    /// One more unit of the phase (a game, a training step).
    Progress,
    /// A generation finished.
    Generation(GenerationLog),
}

/// One line of `log.tsv`.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerationLog {
    pub generation: u32,
    pub samples: usize,
    pub policy_loss: f32,
    pub value_loss: f32,
    /// The new net's score against the best before it.
    pub gate: f64,
    /// Elo against the previous best, and the new net's rating on the run's
    /// ladder (the run's start is 0: the search without a net, or the net
    /// it started from).
    pub elo: f64,
    pub rating: f64,
    pub accepted: bool,
    pub seconds: f64,
}

const LOG_HEADER: &str =
    "generation\tsamples\tpolicy_loss\tvalue_loss\tgate_score\telo\trating\taccepted\tseconds";

impl GenerationLog {
    fn line(&self) -> String {
        format!(
            "{}\t{}\t{:.4}\t{:.4}\t{:.3}\t{:.0}\t{:.0}\t{}\t{:.0}",
            self.generation,
            self.samples,
            self.policy_loss,
            self.value_loss,
            self.gate,
            self.elo,
            self.rating,
            if self.accepted { "yes" } else { "no" },
            self.seconds
        )
    }
}

/// Where a run stands (`state.txt`).
#[derive(Clone, Debug, PartialEq)]
struct State {
    generation: u32,
    /// The best net's generation (0: none yet, the search plays alone).
    best: u32,
    rating: f64,
}

fn read_state(path: &Path) -> Result<State, LearnError> {
    let text = std::fs::read_to_string(path).map_err(|error| LearnError::Io {
        path: path.display().to_string(),
        error,
    })?;
    let bad = |message: &str| LearnError::Format {
        path: path.display().to_string(),
        line: 1,
        message: message.to_string(),
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    let [generation, best, rating] = words[..] else {
        return Err(bad("expected 'GENERATION BEST RATING'"));
    };
    let state = State {
        generation: generation.parse().map_err(|_| bad("bad generation"))?,
        best: best.parse().map_err(|_| bad("bad best generation"))?,
        rating: rating.parse().map_err(|_| bad("bad rating"))?,
    };
    if state.best > state.generation || !state.rating.is_finite() {
        return Err(bad(
            "the best net is newer than the run, or the rating is not a number",
        ));
    }
    Ok(state)
}

/// Runs (or resumes) the loop until `config.generations` are done.
/// Returns the best net's file, if any net was accepted.
pub fn run(
    config: &TrainConfig,
    stop: &StopFlag,
    on: &(dyn Fn(Event) + Sync),
) -> Result<Option<PathBuf>, LearnError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |error| LearnError::Io { path, error }
    };
    if let Some(net) = &config.start {
        if net.config != config.net {
            return Err(LearnError::Run(format!(
                "the start net has {} channels and {} blocks (value head {} channels, {} hidden units), the run asks for {} and {} ({} and {}): a run continues its start net's shape",
                net.config.channels, net.config.blocks, net.config.value_channels,
                net.config.value_hidden, config.net.channels, config.net.blocks,
                config.net.value_channels, config.net.value_hidden
            )));
        }
    }
    if config.fog && config.start.is_none() {
        return Err(LearnError::Run(
            "a fog run trains the net that reads views on top of a net for whole boards, which guides every tree: give --start builtin or a net's file".into(),
        ));
    }
    std::fs::create_dir_all(&config.dir).map_err(io(&config.dir))?;
    let run_file = config.file("run.txt".into());
    let asked = config.fingerprint();
    let state_file = config.file("state.txt".into());
    match std::fs::read_to_string(&run_file) {
        Ok(found)
            if found.trim() != asked
                && config.fingerprint_before_fog().as_deref() != Some(found.trim()) =>
        {
            return Err(LearnError::OtherRun {
                dir: config.dir.display().to_string(),
                found: found.trim().to_string(),
                asked,
            })
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if state_file.exists() {
                return Err(LearnError::Run(format!(
                    "{} has a run's state but no run.txt, so its settings are unknown: train into another folder",
                    config.dir.display()
                )));
            }
            write_atomically(&run_file, format!("{asked}\n").as_bytes())?
        }
        Err(e) => return Err(io(&run_file)(e)),
    }
    let mut state = if state_file.exists() {
        read_state(&state_file)?
    } else {
        State {
            generation: 0,
            best: 0,
            rating: 0.0,
        }
    };
    if let Some(net) = &config.start {
        // The run's copy of its start net, which the gate plays: written
        // once, and on a resume it must still be that net.
        let file = config.net_file(0);
        let bytes = net.to_bytes();
        match std::fs::read(&file) {
            Ok(found) if found == bytes || Some(&found) == net.to_bytes_before_fog().as_ref() => {}
            Ok(_) => {
                return Err(LearnError::Run(format!(
                    "{} is not the net this run started from (its SHA-256 is in run.txt): put that net back, or train into another folder",
                    file.display()
                )))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                write_atomically(&file, &bytes)?
            }
            Err(e) => return Err(io(&file)(e)),
        }
    }
    let log_file = config.file("log.tsv".into());
    while state.generation < config.generations {
        let generation = state.generation + 1;
        let started = Instant::now();
        let best = net_of(config, state.best)?;
        let games_file = config.file(format!("games-{generation:04}.txt"));
        if !games_file.exists() {
            let guide = guide(config, best.as_ref(), state.best);
            self_play(config, generation, guide, stop, on, &games_file)?;
        }
        let net_file = config.net_file(generation);
        let (samples, losses) = if net_file.exists() {
            (0, (f32::NAN, f32::NAN))
        } else {
            train(config, generation, stop, on, &net_file)?
        };
        let tally = gate(config, generation, &net_file, state.best, stop, on)?;
        let gate_score = tally
            .score()
            .ok_or_else(|| LearnError::Arena("the gating match played no games".into()))?;
        let elo = arena::stats::elo_of(gate_score);
        let accepted = gate_score >= config.gate_score;
        let entry = GenerationLog {
            generation,
            samples,
            policy_loss: losses.0,
            value_loss: losses.1,
            gate: gate_score,
            elo,
            rating: state.rating + elo,
            accepted,
            seconds: started.elapsed().as_secs_f64(),
        };
        let old = match std::fs::read_to_string(&log_file) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!("{LOG_HEADER}\n"),
            Err(e) => return Err(io(&log_file)(e)),
        };
        // A line this generation already has (a stop between the log and
        // the state) is replaced, not repeated.
        let mut log: String = old
            .lines()
            .filter(|l| l.split('\t').next() != Some(generation.to_string().as_str()))
            .flat_map(|l| [l, "\n"])
            .collect();
        log.push_str(&entry.line());
        log.push('\n');
        write_atomically(&log_file, log.as_bytes())?;
        state.generation = generation;
        if accepted {
            state.best = generation;
            state.rating = entry.rating;
        }
        let text = format!("{} {} {}\n", state.generation, state.best, state.rating);
        write_atomically(&state_file, text.as_bytes())?;
        on(Event::Generation(entry));
    }
    Ok((state.best > 0).then(|| config.net_file(state.best)))
}

/// Generation `g`'s net, checked (for generation 0: the net the run started
/// from, or None).
fn net_of(config: &TrainConfig, g: u32) -> Result<Option<Arc<Network>>, LearnError> {
    if g == 0 {
        return Ok(config.start.clone());
    }
    let path = config.net_file(g);
    Ok(Some(Arc::new(Network::load(&path, None)?)))
}

/// How the search is guided with generation `g`'s net (`net`) the best: by
/// it, or in a fog run by the start net with `net` reading the views
/// (none for generation 0's, the start net itself).
fn guide(config: &TrainConfig, net: Option<&Arc<Network>>, g: u32) -> Option<Guide> {
    let (tree, view) = match config.fog {
        true => (config.start.as_ref(), net.filter(|_| g > 0)),
        false => (net, None),
    };
    tree.map(|n| Guide {
        net: n.clone(),
        mix: config.mix,
        after: config.after,
        batch: 1,
        view_net: view.cloned(),
    })
}

fn self_play(
    config: &TrainConfig,
    generation: u32,
    guide: Option<Guide>,
    stop: &StopFlag,
    on: &(dyn Fn(Event) + Sync),
    path: &Path,
) -> Result<(), LearnError> {
    on(Event::Phase {
        generation,
        phase: "self-play",
        total: config.games as u64,
    });
    let sp = SelfPlay {
        presets: config.presets.clone(),
        playouts: config.playouts,
        temperature_steps: 12,
        noise: (0.3, 0.25),
        guide,
        max_steps: 1000,
        fog: config.fog,
    };
    let seed = config.seed ^ (generation as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let games = play_games(&sp, config.games, config.threads, seed, stop, &|| {
        on(Event::Progress)
    });
    if stop.is_stopped() {
        return Err(LearnError::Stopped);
    }
    write_atomically(path, games::to_text(&games).as_bytes())
}
