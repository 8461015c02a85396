//! `virus-wars tune`: tunes the evaluation weights by SPSA self-play
//! matches (`--method spsa`) or fits them to the outcomes of MCTS self-play
//! games (`--method regression`), then checks the new weights against the
//! current ones in an alpha-beta match at a fixed depth. Seeded and
//! reproducible.

use anyhow::{bail, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use virus_wars_ai::eval::Weights;
use virus_wars_ai::tune::{fit, log_loss, match_points, self_play_samples, spsa, Spsa, TuneConfig};

use crate::variant_args::VariantArgs;

/// How the weights are tuned.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Self-play matches between perturbed weights (tunes for strength).
    Spsa,
    /// Logistic regression on MCTS self-play outcomes (tunes for prediction).
    Regression,
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    #[arg(long, value_enum, default_value_t = Method::Spsa)]
    pub method: Method,
    /// SPSA iterations.
    #[arg(long, default_value_t = 100, value_name = "N")]
    pub iterations: u32,
    /// SPSA opening pairs per iteration.
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub pairs: u32,
    /// SPSA perturbation, as a fraction of each weight.
    #[arg(long, default_value_t = 0.2, value_name = "F")]
    pub perturbation: f64,
    /// SPSA rate: how far a one-sided iteration moves a weight, in perturbations.
    #[arg(long, default_value_t = 1.0, value_name = "F")]
    pub rate: f64,
    /// Regression: self-play games that make the samples.
    #[arg(long, default_value_t = 200, value_name = "N")]
    pub games: u32,
    /// Regression: MCTS playouts per step in the self-play games.
    #[arg(long, default_value_t = 300, value_name = "N")]
    pub playouts: u64,
    /// Alpha-beta depth (steps) of the SPSA games and the checking match.
    #[arg(long, default_value_t = 3, value_name = "D")]
    pub depth: u32,
    /// Opening pairs of the checking match (each played with both colours).
    #[arg(long, default_value_t = 50, value_name = "N")]
    pub check_pairs: u32,
    /// Random steps that open every game.
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub opening_steps: u32,
    #[arg(long = "tune-seed", default_value_t = 1, value_name = "N")]
    /// Seed of the openings and the self-play.
    pub tune_seed: u64,
    /// Games played at once (default: one a CPU core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Regression: gradient-descent rounds of the fit.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    pub rounds: u32,
}

pub fn run(args: TuneArgs) -> Result<()> {
    if args.games < 2 || args.playouts == 0 {
        bail!("--games must be 2 or more and --playouts at least 1");
    }
    if args.iterations == 0 || args.pairs == 0 {
        bail!("--iterations and --pairs must be at least 1");
    }
    if !(args.perturbation > 0.0 && args.perturbation <= 1.0 && args.rate > 0.0) {
        bail!("--perturbation must be in (0, 1] and --rate above 0");
    }
    let variant = args.variant.build()?;
    if variant.fog {
        bail!("--fog: tune plays whole-board games to tune the evaluation; measure fog play with arena --fog");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = TuneConfig {
        variant,
        games: args.games,
        playouts: args.playouts,
        depth: args.depth,
        opening_steps: args.opening_steps,
        seed: args.tune_seed,
        threads,
    };
    let old = Weights::TUNED;
    let (new, samples) = match args.method {
        Method::Spsa => {
            let how = Spsa {
                iterations: args.iterations,
                pairs: args.pairs,
                perturbation: args.perturbation,
                rate: args.rate,
            };
            let new = spsa(&config, &how, &old, |i| {
                if i.number % 10 == 0 || i.number == args.iterations {
                    // Progress only: a closed output shows at the final report.
                    let _ = crate::outln!("iteration {:>4}: {:?}", i.number, i.weights.as_array());
                }
            });
            (new, None)
        }
        Method::Regression => {
            let bar = ProgressBar::new(args.games as u64).with_style(
                ProgressStyle::with_template("self-play {bar:30} {pos}/{len} games {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            let samples = self_play_samples(&config, |done| bar.set_position(done as u64));
            bar.finish_and_clear();
            if samples.is_empty() {
                bail!("the self-play games gave no positions to learn from");
            }
            crate::outln!(
                "samples: {} positions from {} games",
                samples.len(),
                args.games
            )?;
            (fit(&samples, args.rounds), Some(samples))
        }
    };
    crate::outln!("{:<10} {:>8} {:>8}", "weight", "current", "tuned")?;
    for (k, name) in Weights::NAMES.iter().enumerate() {
        crate::outln!(
            "{:<10} {:>8} {:>8}",
            name,
            old.as_array()[k],
            new.as_array()[k]
        )?;
    }
    if let Some(samples) = samples {
        crate::outln!(
            "log loss: current {:.4}, fitted {:.4}",
            log_loss(&samples, &old),
            log_loss(&samples, &new)
        )?;
    }
    let (points, games) = match_points(
        &config,
        &new,
        &old,
        args.check_pairs,
        args.tune_seed ^ 0xC4EC,
    );
    crate::outln!(
        "check: tuned vs current at depth {}: {points} of {games} points ({:.1} %)",
        args.depth,
        100.0 * points / games.max(1) as f64
    )?;
    Ok(())
}
