//! `virus-wars arena`: a match between two players, or a ladder of all levels.

use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use virus_wars_ai::arena::{self, stats, Config, Contender, GameReport, Report, Sprt};
use virus_wars_ai::budget::parse_duration;
use virus_wars_rules::Side;

use super::arena_store::Store;
use crate::variant_args::VariantArgs;

#[derive(Args, Debug)]
pub struct ArenaArgs {
    /// Contender A: random, greedy, alphabeta:depth=6, level:5, or "cmd:./my-bot --flag".
    #[arg(long, value_name = "SPEC")]
    pub a: String,
    /// Contender B, as --a.
    #[arg(long, value_name = "SPEC")]
    pub b: String,
    /// Games to play (an even number gives each opening to both colours).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub games: u32,
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Time per turn for both; later than this (plus 250 ms) loses the game.
    #[arg(long, value_name = "DURATION")]
    pub time_per_turn: Option<String>,
    /// Random steps before the contenders take over (the same for both games of a pair).
    #[arg(long, default_value_t = 4, value_name = "N")]
    pub opening_steps: u32,
    /// Games played at once (default: one a CPU core).
    #[arg(long, value_name = "N")]
    pub concurrency: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub opening_seed: u64,
    /// Stop early by a sequential test: "ELO0,ELO1" (H0: A is ELO0 stronger; H1: ELO1).
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Folder for the game records (one .vwr file a game) and the results database.
    #[arg(long, default_value = "arena-results", value_name = "DIR")]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: ArenaArgs) -> Result<()> {
    let a: Contender = args.a.parse().context("--a")?;
    let b: Contender = args.b.parse().context("--b")?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let time_per_turn = args
        .time_per_turn
        .as_deref()
        .map(parse_duration)
        .transpose()
        .map_err(anyhow::Error::msg)
        .context("--time-per-turn")?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let variant = args.variant.build()?;
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let config = Config {
        a,
        b,
        games: args.games,
        variant,
        time_per_turn,
        opening_steps: args.opening_steps,
        concurrency,
        seed: args.opening_seed,
        sprt,
    };

    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let records = args.out.join(format!("match-{stamp}"));
    std::fs::create_dir_all(&records)
        .with_context(|| format!("cannot create {}", records.display()))?;
    let store = Store::open(
        &args.out.join("arena.sqlite"),
        &config.a.to_string(),
        &config.b.to_string(),
        &describe_variant(&config),
        time_per_turn.map(|t| t.as_millis()),
        config.games,
    )?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(config.games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed}]")
            .expect("valid template"),
    );
    let failures = Mutex::new(Vec::new());
    let on_game = |g: &GameReport, r: &Report| {
        let path = records.join(format!("game-{:04}.vwr", g.index + 1));
        if let Err(e) = std::fs::write(&path, g.record.write()) {
            failures
                .lock()
                .expect("not poisoned")
                .push(format!("{}: {e}", path.display()));
        }
        if let Err(e) = store.save(g) {
            failures
                .lock()
                .expect("not poisoned")
                .push(format!("{e:#}"));
        }
        let t = r.tally(None);
        bar.set_message(format!("A {}-{}-{}", t.wins, t.losses, t.draws));
        bar.inc(1);
    };
    let report = arena::run(&config, &on_game).map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    for f in failures.into_inner().expect("not poisoned") {
        eprintln!("warning: {f}");
    }
    print_report(&config, &report);
    let (_, stored) = store.totals()?;
    println!(
        "records: {}  database: {} (match {}, {stored} games stored)",
        records.display(),
        args.out.join("arena.sqlite").display(),
        store.match_id()
    );
    let t = report.tally(None);
    println!("A wins {}, B wins {}, draws {}", t.wins, t.losses, t.draws);
    Ok(())
}

fn describe_variant(c: &Config) -> String {
    let v = &c.variant;
    format!(
        "{} {}x{}",
        v.preset().map_or("custom", |p| p.name()),
        v.width,
        v.height
    )
}

fn parse_sprt(text: &str) -> Result<Sprt> {
    let (e0, e1) = text
        .split_once(',')
        .context("--sprt takes ELO0,ELO1, e.g. 0,10")?;
    let e0: f64 = e0.trim().parse().context("--sprt: ELO0 is not a number")?;
    let e1: f64 = e1.trim().parse().context("--sprt: ELO1 is not a number")?;
    if e1 <= e0 {
        bail!("--sprt: ELO1 must be greater than ELO0");
    }
    Ok(Sprt {
        elo0: e0,
        elo1: e1,
        alpha: 0.05,
        beta: 0.05,
    })
}

fn print_report(c: &Config, r: &Report) {
    println!("A = {}\nB = {}", c.a, c.b);
    for g in r.games.iter().filter(|g| {
        !g.termination.contains("no legal step") && !g.termination.contains("annihilation")
    }) {
        println!(
            "game {}: {} ({})",
            g.index + 1,
            if g.a_points() > 0.75 {
                "A won"
            } else if g.a_points() < 0.25 {
                "B won"
            } else {
                "draw"
            },
            g.termination
        );
    }
    for side in [Side::X, Side::O] {
        let t = r.tally(Some(side));
        println!(
            "A as {side}: {} wins, {} losses, {} draws",
            t.wins, t.losses, t.draws
        );
    }
    let t = r.tally(None);
    let n = t.games() as f64;
    if t.wins as f64 == n || t.losses as f64 == n {
        // A perfect score gives no finite estimate; the rule of three bounds it.
        let bound = stats::elo_of(1.0 - (3.0 / n).min(0.5));
        let (who, sign) = if t.wins as f64 == n {
            ("A", 1.0)
        } else {
            ("B", -1.0)
        };
        let beyond = if bound > 0.0 { sign * bound } else { 0.0 };
        println!(
            "{who} won every game: Elo difference A - B beyond {beyond:+.0} (95 %) over {n} games"
        );
    } else if let Some((lo, e, hi)) = t.elo() {
        println!(
            "Elo difference A - B: {e:+.0} (95 % interval {lo:+.0} to {hi:+.0}) over {n} games"
        );
    }
    if let Some(s) = c.sprt {
        let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
        println!(
            "SPRT [{}, {}]: LLR {:.2} (bounds {lower:.2}, {upper:.2}): {}",
            s.elo0,
            s.elo1,
            t.llr(s.elo0, s.elo1),
            r.sprt_decision.unwrap_or("no decision yet")
        );
    }
}
