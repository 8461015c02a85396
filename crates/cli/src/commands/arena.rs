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
    /// Contender A: random, greedy, alphabeta:depth=6, mcts:time=1s, level:5, or "cmd:./my-bot --flag";
    /// with --fog also "naive:SPEC" and "peek:SPEC".
    #[arg(long, value_name = "SPEC", required_unless_present = "ladder")]
    pub a: Option<String>,
    /// Contender B, as --a.
    #[arg(long, value_name = "SPEC", required_unless_present = "ladder")]
    pub b: Option<String>,
    /// Rate the levels instead: each level plays the one below it (--games
    /// each), and one table gives every level's rating.
    #[arg(long, conflicts_with_all = ["a", "b"])]
    pub ladder: bool,
    /// Highest level the ladder climbs to.
    #[arg(long, default_value_t = 8, value_name = "N", requires = "ladder", value_parser = clap::value_parser!(u8).range(2..=8))]
    pub top_level: u8,
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
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.ladder {
        return ladder(&args);
    }
    let a: Contender = args
        .a
        .as_deref()
        .unwrap_or_default()
        .parse()
        .context("--a")?;
    let b: Contender = args
        .b
        .as_deref()
        .unwrap_or_default()
        .parse()
        .context("--b")?;
    let (report, _) = play_match(&args, a, b)?;
    let t = report.tally(None);
    crate::outln!("A wins {}, B wins {}, draws {}", t.wins, t.losses, t.draws)?;
    Ok(())
}

/// Each level against the one below; ratings chained from level 1 = 0.
fn ladder(args: &ArenaArgs) -> Result<()> {
    let top = args.top_level;
    let mut rows = Vec::new();
    let mut rating = 0.0;
    for upper in 2..=top {
        let a: Contender = format!("level:{upper}").parse()?;
        let b: Contender = format!("level:{}", upper - 1).parse()?;
        let (report, _) = play_match(args, a, b)?;
        let t = report.tally(None);
        let score = t.score().unwrap_or(0.5);
        // A perfect score has no finite estimate: count its rule-of-three bound.
        let n = t.games() as f64;
        let eps = (1.5 / n).min(0.49);
        let bounded = score.clamp(eps, 1.0 - eps);
        rating += stats::elo_of(bounded);
        rows.push((upper, t, score, rating));
    }
    crate::outln!("\nlevel  name        vs level below (W-L-D)  score   rating (level 1 = 0)")?;
    crate::outln!(
        "    1  {:<10}  -                       -       0",
        virus_wars_ai::levels::LEVELS[0]
    )?;
    for (level, t, score, rating) in &rows {
        crate::outln!(
            "{level:>5}  {:<10}  {:>6}-{}-{:<12}  {:>5.1}%  {rating:+.0}",
            virus_wars_ai::levels::LEVELS[*level as usize - 1],
            t.wins,
            t.losses,
            t.draws,
            score * 100.0
        )?;
    }
    // The levels' promise: each wins at least 65 % against the one below.
    let monotonic = rows.iter().all(|r| r.2 >= 0.65);
    crate::outln!(
        "every level scores 65 % or more against the one below: {}",
        if monotonic { "yes" } else { "no" }
    )?;
    Ok(())
}

fn play_match(args: &ArenaArgs, a: Contender, b: Contender) -> Result<(Report, i64)> {
    let time_per_turn = args
        .time_per_turn
        .as_deref()
        .map(parse_duration)
        .transpose()
        .map_err(anyhow::Error::msg)
        .context("--time-per-turn")?;
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    // Under --fog each built-in player plays from its side's view alone, a
    // step at a time ("naive:SPEC" reads hidden cells as empty, "peek:SPEC"
    // is given the whole board).
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
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let records = fresh_folder(
        &args.out,
        &format!("match-{stamp}-{}-vs-{}", slug(&config.a), slug(&config.b)),
    )?;
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
        let _ =
            std::io::Write::write_all(&mut std::io::stderr(), format!("warning: {f}\n").as_bytes());
    }
    print_report(&config, &report)?;
    let (_, stored) = store.totals()?;
    crate::outln!(
        "records: {}  database: {} (match {}, {stored} games stored)",
        records.display(),
        args.out.join("arena.sqlite").display(),
        store.match_id()
    )?;
    Ok((report, store.match_id()))
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
    let elo = |t: &str, name: &str| -> Result<f64> {
        t.trim()
            .parse::<f64>()
            .ok()
            .filter(|e| e.is_finite() && e.abs() <= 1000.0)
            .with_context(|| {
                format!(
                    "--sprt: {name} must be a number of Elo from -1000 to 1000, not '{}'",
                    t.trim()
                )
            })
    };
    let (e0, e1) = (elo(e0, "ELO0")?, elo(e1, "ELO1")?);
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

fn print_report(c: &Config, r: &Report) -> std::io::Result<()> {
    crate::outln!("A = {}\nB = {}", c.a, c.b)?;
    for g in r.games.iter().filter(|g| {
        !g.termination.contains("no legal step") && !g.termination.contains("annihilation")
    }) {
        crate::outln!(
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
        )?;
    }
    for side in [Side::X, Side::O] {
        let t = r.tally(Some(side));
        crate::outln!(
            "A as {side}: {} wins, {} losses, {} draws",
            t.wins,
            t.losses,
            t.draws
        )?;
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
        crate::outln!(
            "{who} won every game: Elo difference A - B beyond {beyond:+.0} (95 %) over {n} games"
        )?;
    } else if let Some((lo, e, hi)) = t.elo() {
        // Adding 0.0 turns a negative zero into zero for printing.
        let (lo, e, hi) = (lo + 0.0, e + 0.0, hi + 0.0);
        crate::outln!(
            "Elo difference A - B: {e:+.0} (95 % interval {lo:+.0} to {hi:+.0}) over {n} games"
        )?;
    }
    if let Some(s) = c.sprt {
        let (lower, upper) = stats::sprt_bounds(s.alpha, s.beta);
        crate::outln!(
            "SPRT [{}, {}]: LLR {:.2} (bounds {lower:.2}, {upper:.2}): {}",
            s.elo0,
            s.elo1,
            t.llr(s.elo0, s.elo1),
            r.sprt_decision.unwrap_or("no decision yet")
        )?;
    }
    Ok(())
}

/// A contender as a safe folder-name part.
fn slug(c: &Contender) -> String {
    let s: String = c
        .to_string()
        .chars()
        .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '-' })
        .collect();
    s.chars().take(40).collect()
}

/// A new folder `name` in `out`, or `name-2`, `name-3`, … where one is
/// there already: two matches started in the same second between players
/// written alike (`noise=0` and `noise=-0`) never write over each other's
/// records.
fn fresh_folder(out: &std::path::Path, name: &str) -> Result<std::path::PathBuf> {
    for k in 1..10_000 {
        let path = match k {
            1 => out.join(name),
            k => out.join(format!("{name}-{k}")),
        };
        match std::fs::create_dir(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", path.display())),
        }
    }
    bail!("{}: 10,000 folders named {name} already", out.display())
}

#[cfg(test)]
mod tests {
    use super::fresh_folder;

    #[test]
    fn a_second_match_of_the_same_name_gets_its_own_folder() {
        let out = std::env::temp_dir().join(format!("vw-arena-folders-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        let a = fresh_folder(&out, "match-1-a-vs-b").unwrap();
        let b = fresh_folder(&out, "match-1-a-vs-b").unwrap();
        assert_ne!(a, b);
        assert!(b.ends_with("match-1-a-vs-b-2"), "{}", b.display());
        std::fs::remove_dir_all(&out).unwrap();
    }
}
