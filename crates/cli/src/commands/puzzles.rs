//! `virus-wars puzzles`: `generate` cuts puzzles from self-play games or
//! a server's archive (docs/puzzles.md); `list` prints the shipped set as
//! JSON lines; `check` measures it (puzzle_check.rs).

use std::io::Write;
use std::sync::Mutex;

use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use serde_json::json;
use virus_wars_ai::arena::random_opening;
use virus_wars_ai::puzzles::{self, find_in_game, Finder, FinderConfig, Puzzle};
use virus_wars_ai::{Budget, PlayerSpec, StopFlag};
use virus_wars_rules::{position_string, Game, Preset, Variant};

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Cut puzzles from self-play games (or a server's finished games);
    /// each found is printed as a line of the set's text form (append
    /// them to crates/ai/puzzles/set.tsv).
    Generate(GenerateArgs),
    /// The shipped puzzle set as JSON lines.
    List,
    /// Measure a sample of the shipped set: the only win proven again, the
    /// solution against a strong defender, a weaker player's first turn.
    Check(super::puzzle_check::CheckArgs),
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Self-play games to play, spread over the presets and sizes.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// The seed of the games' random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Presets to play, comma-separated (default: every preset).
    #[arg(long, value_delimiter = ',')]
    pub presets: Vec<String>,
    /// Board sides to play (at most 6: the exact solver's boards).
    #[arg(long, value_delimiter = ',', default_values_t = [5u8, 6u8])]
    pub sizes: Vec<u8>,
    /// The player of both sides of the self-play games.
    #[arg(long, value_name = "SPEC", default_value = "level:4")]
    pub player: String,
    /// Random steps at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub opening_steps: u32,
    /// Turns the exact solver looks ahead.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=6))]
    pub depth: u32,
    /// Random turns tried from each position looked at (a slip may leave
    /// the other side one winning turn).
    #[arg(long, default_value_t = 3)]
    pub siblings: usize,
    /// Positions that start a turn looked at in each game, from its end.
    #[arg(long, default_value_t = 8)]
    pub last_turns: usize,
    /// Playouts of the judge (level 9's search on one thread) for the
    /// turns the quick judge likes best, and for the replies (playouts,
    /// not time: the same set on any machine).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub judge_playouts: u64,
    /// Games played at once (default: one a core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the positions of the puzzles in this set (a set being extended).
    #[arg(long, value_name = "FILE")]
    pub skip: Option<std::path::PathBuf>,
    /// Cut puzzles from the server's archive instead of self-play: the
    /// newest --games finished games of the server whose data folder
    /// (`serve --data`) is DIR.
    #[arg(long, value_name = "DIR", conflicts_with = "database_url")]
    pub data: Option<std::path::PathBuf>,
    /// The same from a server's PostgreSQL database (`serve --database-url`).
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
}

/// The finished games of a server's database, when asked for.
fn archive(args: &GenerateArgs) -> Result<Option<Vec<Game>>> {
    let url = match (&args.data, &args.database_url) {
        (Some(dir), _) => {
            let file = dir.join("virus-wars.sqlite");
            if !file.is_file() {
                bail!(
                    "--data: no server database in {} (no virus-wars.sqlite there)",
                    dir.display()
                );
            }
            format!("sqlite://{}?mode=rw", file.display())
        }
        (None, Some(url)) => url.clone(),
        (None, None) => return Ok(None),
    };
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let games = runtime
        .block_on(virus_wars_server::archive::finished_games(
            &url,
            args.games as i64,
        ))
        .context("cannot read the server's finished games")?;
    Ok(Some(games))
}

pub fn run(args: PuzzlesArgs) -> Result<()> {
    match args.command {
        PuzzlesCommand::List => list(),
        PuzzlesCommand::Check(c) => super::puzzle_check::run(c),
        PuzzlesCommand::Generate(g) => generate(g),
    }
}

/// A puzzle as the JSON line `puzzles list` prints (and the API answers).
pub fn puzzle_json(p: &Puzzle) -> serde_json::Value {
    let variant = Variant::of_position(&p.position);
    json!({
        "id": p.id,
        "variant": puzzles::preset_of(&p.position).map_or_else(|| variant.options_text(), |k| k.name().to_string()),
        "position": position_string::write(&p.position),
        "solution": p.solution.iter().map(|t| t.iter().map(|s| s.to_string()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "themes": p.themes.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "rating": p.rating.round(),
    })
}

fn list() -> Result<()> {
    for p in puzzles::shipped().context("the shipped puzzle set")? {
        crate::outln!("{}", puzzle_json(&p))?;
    }
    Ok(())
}

fn generate(args: GenerateArgs) -> Result<()> {
    let presets: Vec<Preset> = if args.presets.is_empty() {
        Preset::ALL.to_vec()
    } else {
        args.presets
            .iter()
            .map(|name| {
                Preset::ALL
                    .into_iter()
                    .find(|p| p.name() == name)
                    .with_context(|| format!("--presets: unknown preset '{name}'"))
            })
            .collect::<Result<_>>()?
    };
    if let Some(s) = args.sizes.iter().find(|&&s| !(3..=6).contains(&s)) {
        bail!("--sizes: {s} is not within 3 and 6 (the exact solver's boards, at most 36 cells)");
    }
    let spec = PlayerSpec::parse_without_files(&args.player)
        .with_context(|| format!("--player '{}'", args.player))?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let skip: Vec<u64> = match &args.skip {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            puzzles::read_set(&text)
                .with_context(|| path.display().to_string())?
                .iter()
                .filter_map(|p| u64::from_str_radix(&p.id, 16).ok())
                .collect()
        }
        None => Vec::new(),
    };
    let archive = archive(&args)?;
    // The header says how the set was made: where the games came from,
    // then how their positions were searched.
    let source = match &archive {
        Some(games) => format!(
            "--games {} from the archive of a server ({} finished games read)",
            args.games,
            games.len()
        ),
        None => format!(
            "--games {} --seed {} --presets {} --sizes {} --player {} --opening-steps {}",
            args.games,
            args.seed,
            presets
                .iter()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(","),
            args.sizes
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(","),
            args.player,
            args.opening_steps
        ),
    };
    crate::outln!(
        "# virus-wars puzzles generate {source} --depth {} --last-turns {} --siblings {} --judge-playouts {} --threads {threads}",
        args.depth,
        args.last_turns,
        args.siblings,
        args.judge_playouts
    )?;
    let games = archive.as_ref().map_or(args.games, |g| g.len() as u32);
    let next = Mutex::new(0u32);
    // One finder for all threads' games: positions told apart across them.
    let seen = Mutex::new(skip.into_iter().collect::<std::collections::HashSet<u64>>());
    let out = Mutex::new(std::io::stdout());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let (judge, mut judge_budget) = virus_wars_ai::review::judge_spec().build();
                judge_budget.time = None;
                judge_budget.nodes = Some(args.judge_playouts);
                let config = FinderConfig {
                    depth: args.depth,
                    last_turns: args.last_turns,
                    siblings: args.siblings,
                    ..FinderConfig::default()
                };
                let mut finder = Finder::new(config, judge, judge_budget);
                let (mut player, budget) = spec.build();
                loop {
                    let k = {
                        let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                        if *n >= games {
                            return;
                        }
                        *n += 1;
                        *n - 1
                    };
                    let game = match &archive {
                        Some(games) => games[k as usize].clone(),
                        None => {
                            let preset = presets[k as usize % presets.len()];
                            let size = args.sizes[(k as usize / presets.len()) % args.sizes.len()];
                            self_play(
                                &mut *player,
                                &budget,
                                preset.sized(size, size),
                                args.seed,
                                args.opening_steps,
                                k,
                            )
                        }
                    };
                    for id in seen.lock().unwrap_or_else(|e| e.into_inner()).iter() {
                        finder.seen(*id);
                    }
                    for p in find_in_game(&mut finder, &game) {
                        let id = u64::from_str_radix(&p.id, 16).unwrap_or(0);
                        if !seen.lock().unwrap_or_else(|e| e.into_inner()).insert(id) {
                            continue;
                        }
                        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) =
                            writeln!(o, "{}", puzzles::write_line(&p)).and_then(|_| o.flush())
                        {
                            *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e).context("cannot write the puzzles");
    }
    Ok(())
}

/// A game of `player` against itself on `variant`, after `opening_steps`
/// random steps (seeded by `seed` and the game's number `k`), to its end.
fn self_play(
    player: &mut dyn virus_wars_ai::Player,
    budget: &Budget,
    variant: Variant,
    seed: u64,
    opening_steps: u32,
    k: u32,
) -> Game {
    let mut game = random_opening(&variant, seed, opening_steps, k);
    player.new_game();
    while game.outcome().is_none() {
        let p = *game.position();
        let r = player.choose(&p, budget, &StopFlag::new(), &mut |_| {});
        if r.steps.is_empty() {
            break;
        }
        for s in r.steps {
            if game.play(s).is_err() {
                return game;
            }
        }
    }
    game
}
