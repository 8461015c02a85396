//! `virus-wars train`: the learning loop (self-play, training, gating) into
//! a folder that a second start resumes. Built only with the cargo feature
//! `train`; without it the command says how to get it.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Folder of the run: games, nets, log; an existing run there resumes.
    #[arg(long, default_value = "virus-wars-train", value_name = "DIR")]
    pub dir: PathBuf,
    /// Variants (presets) played in self-play, comma-separated.
    #[arg(long, default_value = "korobkov", value_name = "LIST")]
    pub variants: String,
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub generations: u32,
    /// Self-play games a generation.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub games: u32,
    /// MCTS simulations a step in self-play, and a turn in the gating match.
    #[arg(long, default_value_t = 400, value_name = "N")]
    pub playouts: u64,
    /// Channels of the net's residual tower [default: 32, or the start net's].
    #[arg(long, value_name = "N")]
    pub channels: Option<usize>,
    /// Residual blocks [default: 4, or the start net's].
    #[arg(long, value_name = "N")]
    pub blocks: Option<usize>,
    /// Start from this net instead of from nothing: a weights file, or
    /// `builtin` for the built-in net. It guides the first self-play, the
    /// first training goes on from it, and the first gate is against it.
    /// A run started so resumes without it (from DIR/net-0000.safetensors).
    #[arg(long, value_name = "FILE|builtin")]
    pub start: Option<String>,
    #[arg(long, default_value_t = 128, value_name = "N")]
    pub batch: usize,
    /// Training steps a generation.
    #[arg(long, default_value_t = 600, value_name = "N")]
    pub steps: u32,
    #[arg(long, default_value_t = 0.002, value_name = "F")]
    pub lr: f64,
    /// Generations of games kept in the replay buffer.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub window: u32,
    /// Games of the gating match (colours paired; an even number a variant).
    #[arg(long, default_value_t = 40, value_name = "N")]
    pub gate_games: u32,
    /// Score the new net needs in the gate to become the best.
    #[arg(long, default_value_t = 0.55, value_name = "F")]
    pub gate_score: f64,
    /// The net's share of a leaf's value against the playout's (0 to 1).
    #[arg(long, default_value_t = 0.5, value_name = "F")]
    pub mix: f64,
    /// Visits a node needs before the net gives its priors (1: at once).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub after: u32,
    /// Games played at once (default: one a CPU core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seed: u64,
    /// Train the net that reads views under fog of war: self-play in fog
    /// (by determinization, every tree guided by the start net, which
    /// --start must give), and nets that learn from the mover's view. Play
    /// the result as `nn:view-weights=FILE` (docs/ai.md, Fog of war).
    #[arg(long)]
    pub fog: bool,
}

fn check(args: &TrainArgs) -> Result<()> {
    let ranges: [(&str, u64, u64); 7] = [
        ("--generations", args.generations as u64, 100_000),
        ("--games", args.games as u64, 1_000_000),
        ("--playouts", args.playouts, 10_000_000),
        ("--steps", args.steps as u64, 10_000_000),
        ("--batch", args.batch as u64, 8_192),
        ("--window", args.window as u64, 1_000),
        ("--after", args.after as u64, 1_000_000),
    ];
    for (flag, value, max) in ranges {
        if !(1..=max).contains(&value) {
            bail!("{flag} must be between 1 and {max}, not {value}");
        }
    }
    if !(2..=100_000).contains(&args.gate_games) {
        bail!(
            "--gate-games must be between 2 and 100000 (colours are paired), not {}",
            args.gate_games
        );
    }
    if !args.channels.is_none_or(|c| (1..=256).contains(&c))
        || !args.blocks.is_none_or(|b| (1..=40).contains(&b))
    {
        bail!("--channels must be 1 to 256 and --blocks 1 to 40");
    }
    if !(args.lr > 0.0 && args.lr < 1.0) {
        bail!("--lr must be between 0 and 1, not {}", args.lr);
    }
    if !(0.0..=1.0).contains(&args.mix) || !(0.0..=1.0).contains(&args.gate_score) {
        bail!("--mix and --gate-score must be between 0 and 1");
    }
    Ok(())
}

#[cfg(not(feature = "train"))]
pub fn run(args: TrainArgs) -> Result<()> {
    check(&args)?;
    bail!(
        "this binary was built without training; build it with the feature:\n  \
         cargo run --release --features train -- train --dir {}",
        args.dir.display()
    )
}

#[cfg(feature = "train")]
pub fn run(args: TrainArgs) -> Result<()> {
    use std::io::IsTerminal;
    use std::sync::Mutex;
    use virus_wars_ai::learn::{self, TrainConfig};
    use virus_wars_ai::neural::NetChoice;
    use virus_wars_ai::spec::quoted;
    use virus_wars_ai::StopFlag;
    use virus_wars_net::Config;
    use virus_wars_rules::Preset;

    check(&args)?;
    let presets = args
        .variants
        .split(',')
        .map(|v| v.trim().parse::<Preset>())
        .collect::<Result<Vec<_>, _>>()?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // A run that started from a net resumes from its own copy of it.
    let kept = args.dir.join("net-0000.safetensors");
    let start = match args.start.as_deref() {
        None if kept.exists() => Some(
            NetChoice::load(&kept.display().to_string())
                .map_err(|e| anyhow::anyhow!("{}: {e}", kept.display()))?
                .net,
        ),
        None => None,
        Some("builtin") => Some(NetChoice::builtin().net),
        Some(path) => Some(
            NetChoice::load(path)
                .map_err(|e| anyhow::anyhow!("--start {path}: {e}"))?
                .net,
        ),
    };
    let net = match &start {
        Some(s) => {
            let c = s.config;
            if !(1..=256).contains(&c.channels) || !(1..=40).contains(&c.blocks) {
                bail!(
                    "the start net has {} channels and {} blocks: training takes 1 to 256 channels and 1 to 40 blocks",
                    c.channels,
                    c.blocks
                );
            }
            if args.channels.is_some_and(|n| n != c.channels)
                || args.blocks.is_some_and(|n| n != c.blocks)
            {
                bail!(
                    "the start net has {} channels and {} blocks: leave out --channels and --blocks, or give those",
                    c.channels,
                    c.blocks
                );
            }
            c
        }
        None => Config {
            channels: args.channels.unwrap_or(32),
            blocks: args.blocks.unwrap_or(4),
            value_channels: 8,
            value_hidden: 32,
        },
    };
    let config = TrainConfig {
        dir: args.dir.clone(),
        presets,
        generations: args.generations,
        games: args.games,
        playouts: args.playouts,
        net,
        batch: args.batch,
        steps: args.steps,
        lr: args.lr,
        window: args.window,
        gate_games: args.gate_games,
        gate_score: args.gate_score,
        mix: args.mix,
        after: args.after.max(1),
        threads: threads.max(1),
        seed: args.seed,
        start,
        fog: args.fog,
    };
    let style =
        ProgressStyle::with_template("gen {prefix:>3} {msg:<9} {bar:30} {pos}/{len} {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    // A run in the background (stderr a file or a pipe) gets plain lines
    // instead of bars, which would print nothing there.
    let plain = (!std::io::stderr().is_terminal()).then(PlainProgress::default);
    let progress = Mutex::new(Progress {
        style,
        bar: None,
        plain,
        header_shown: false,
    });
    let on = |e: Event| {
        if let Ok(mut progress) = progress.lock() {
            progress.on(e);
        }
    };
    let started = config.start.is_some();
    let best = learn::run(&config, &StopFlag::new(), &on)?;
    // Paths as a spec writes them (a comma in quotes), the spec in single
    // quotes for the shell.
    let in_spec = |p: &std::path::Path| quoted(&p.display().to_string());
    match best {
        Some(path) if args.fog => {
            let bytes = std::fs::read(&path)?;
            // The view net plays with the net it was trained beside, which
            // guided every tree: the run's start net.
            crate::outln!(
                "best view net: {} (sha256 {})\nplay it: virus-wars play --fog --vs 'nn:time=1s,weights={},view-weights={}'",
                path.display(),
                virus_wars_net::sha256(&bytes),
                in_spec(&args.dir.join("net-0000.safetensors")),
                in_spec(&path)
            )?;
        }
        Some(path) => {
            let bytes = std::fs::read(&path)?;
            crate::outln!(
                "best net: {} (sha256 {})\nplay it: virus-wars play --vs 'nn:time=1s,after={},weights={}'",
                path.display(),
                virus_wars_net::sha256(&bytes),
                args.after,
                in_spec(&path)
            )?;
        }
        None if started => crate::outln!("no net has beaten the start net yet")?,
        None => crate::outln!("no net has beaten the search without one yet")?,
    }
    Ok(())
}

/// A run's progress: a bar for each phase on a terminal, plain lines
/// otherwise; a line for each generation on stdout.
#[cfg(feature = "train")]
use indicatif::{ProgressBar, ProgressStyle};
#[cfg(feature = "train")]
use virus_wars_ai::learn::Event;

#[cfg(feature = "train")]
struct Progress {
    style: ProgressStyle,
    bar: Option<ProgressBar>,
    plain: Option<PlainProgress>,
    /// The table's header goes out with its first line (a run refused
    /// at once prints none).
    header_shown: bool,
}

#[cfg(feature = "train")]
impl Progress {
    fn on(&mut self, e: Event) {
        if let (Some(b), Event::Phase { .. } | Event::Generation(_)) = (&self.bar, &e) {
            b.finish_and_clear();
            self.bar = None;
        }
        match e {
            Event::Phase {
                generation,
                phase,
                total,
            } => match &mut self.plain {
                Some(plain) => plain.start(generation, phase, total),
                None => {
                    let b = ProgressBar::new(total).with_style(self.style.clone());
                    b.set_prefix(generation.to_string());
                    b.set_message(phase);
                    self.bar = Some(b);
                }
            },
            Event::Progress => {
                if let Some(b) = &self.bar {
                    b.inc(1);
                }
                if let Some(plain) = &mut self.plain {
                    plain.step();
                }
            }
            Event::Generation(g) => {
                // Progress only: log.tsv in the run's folder keeps every line.
                if !std::mem::replace(&mut self.header_shown, true) {
                    let _ = crate::outln!(
                        "generation\tsamples\tpolicy_loss\tvalue_loss\tgate\telo\trating\taccepted\tseconds"
                    );
                }
                let _ = crate::outln!(
                    "{}\t{}\t{:.4}\t{:.4}\t{:.3}\t{:+.0}\t{:.0}\t{}\t{:.0}",
                    g.generation,
                    g.samples,
                    g.policy_loss,
                    g.value_loss,
                    g.gate,
                    g.elo,
                    g.rating,
                    if g.accepted { "yes" } else { "no" },
                    g.seconds
                );
            }
        }
    }
}

/// Progress as plain lines on stderr, for a run whose stderr is not a
/// terminal: one when a phase starts, and one at every tenth of it, each
/// with the phase's time so far.
#[cfg(feature = "train")]
#[derive(Default)]
struct PlainProgress {
    generation: u32,
    phase: String,
    total: u64,
    done: u64,
    started: Option<std::time::Instant>,
}

#[cfg(feature = "train")]
impl PlainProgress {
    fn start(&mut self, generation: u32, phase: &str, total: u64) {
        self.generation = generation;
        self.phase = phase.to_string();
        self.total = total;
        self.done = 0;
        self.started = Some(std::time::Instant::now());
        self.print();
    }

    fn step(&mut self) {
        self.done += 1;
        let tenth = |n: u64| n * 10 / self.total.max(1);
        if tenth(self.done) > tenth(self.done - 1) || self.done == self.total {
            self.print();
        }
    }

    fn print(&self) {
        let secs = self.started.map_or(0, |t| t.elapsed().as_secs());
        // Progress only: a closed stderr must not stop the run.
        let line = format!(
            "gen {} {} {}/{} ({}:{:02})\n",
            self.generation,
            self.phase,
            self.done,
            self.total,
            secs / 60,
            secs % 60
        );
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    }
}
