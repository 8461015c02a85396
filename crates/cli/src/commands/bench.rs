//! `virus-wars bench`: measured speed of the rules engine on this machine
//! (one thread): uniform random games per second, perft leaves per second
//! with bulk counting from a midgame position, alpha-beta nodes per second,
//! MCTS playouts per second, and the network's forward passes per second.

use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use virus_wars_ai::alphabeta::AlphaBeta;
use virus_wars_ai::mcts::playout::Policy;
use virus_wars_ai::mcts::{Mcts, MctsConfig};
use virus_wars_ai::{Budget, Player, SearchInfo, StopFlag};
use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::perft::perft_any;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::variant::parse_size;
use virus_wars_rules::{with_position, AnyPosition, Game, Preset};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Seconds to spend on each random-game measurement.
    #[arg(long, default_value_t = 3.0, value_name = "S")]
    pub seconds: f64,
    /// Play exactly this many random games per variant instead of timing by
    /// --seconds (for instruction-count profiling).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub games: Option<u64>,
    /// Perft depth for the midgame measurement (1 to 9; each deeper one
    /// takes about 40 times as long).
    #[arg(long, default_value_t = 7, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=9))]
    pub perft_depth: u32,
    /// Measure the rules engine only (random games and perft), not the searches
    /// and the network: what `scripts/bench-peers` compares with other engines.
    #[arg(long)]
    pub rules_only: bool,
    /// Also play random games with classic rules on these board sizes,
    /// e.g. 5x5,19x19 (3 to 19 each way).
    #[arg(long, value_name = "WxH,...", value_delimiter = ',')]
    pub sizes: Vec<String>,
}

/// The referee's `midgame-0` position (classic 10×10, 40 steps in).
pub const MIDGAME: &str = "a1 b1 c2 j10 j9 j8 d1 d3 e1 i7 j7 h7 b2 f1 d4 h8 g6 i6 c5 d2 c3 h9 g9 f10 b5 b4 d6 h5 j5 h6 b6 d5 e3 i9 g5 h4 a7 f3 f4 f5";

pub fn run(args: BenchArgs) -> Result<()> {
    if !(args.seconds > 0.0 && args.seconds <= 3600.0) {
        anyhow::bail!(
            "--seconds must be more than 0 and at most 3600, not {}",
            args.seconds
        );
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let mut starts = vec![];
    for preset in [Preset::Classic, Preset::Gcr] {
        starts.push((preset, preset.variant().start()?));
    }
    for size in &args.sizes {
        let (w, h) = parse_size(size).with_context(|| format!("--sizes: {size:?}"))?;
        starts.push((Preset::Classic, Preset::Classic.sized(w, h).start()?));
    }
    crate::outln!(
        "{:<34} {:>14} {:>14}",
        "measurement",
        "per second",
        "steps/s"
    )?;
    for (preset, start) in starts {
        let (games, steps, secs) = random_games(&start, budget, args.games);
        crate::outln!(
            "{:<34} {:>14.0} {:>14.0}",
            format!(
                "random games, {} {}x{}",
                preset,
                start.width(),
                start.height()
            ),
            games as f64 / secs,
            steps as f64 / secs
        )?;
    }
    let mut game = Game::new(Preset::Classic.variant())?;
    for step in parse_steps(MIDGAME)? {
        game.play(step)?;
    }
    let t = Instant::now();
    let leaves = perft_any(game.position(), args.perft_depth);
    let secs = t.elapsed().as_secs_f64();
    crate::outln!(
        "{:<34} {:>14.0} {:>14}",
        format!("perft leaves, midgame-0 depth {}", args.perft_depth),
        leaves as f64 / secs,
        format!("({leaves} in {secs:.2}s)")
    )?;
    if args.rules_only {
        return Ok(());
    }
    let positions = bench_positions(game.position())?;
    let time = budget.min(Duration::from_secs(1));
    alphabeta_speed(time, &positions)?;
    mcts_speed(time, &positions)?;
    net_speed(time, &positions)?;
    Ok(())
}

/// Positions the learned player's net evaluates a second (one thread), one
/// at a time and in batches of 8, for the built-in net and larger shapes.
fn net_speed(time: Duration, positions: &[(&str, AnyPosition)]) -> std::io::Result<()> {
    use std::sync::Arc;
    use virus_wars_net::{encode, Config, Network};
    let shape = |channels, blocks| {
        Arc::new(Network::random(
            Config {
                channels,
                blocks,
                value_channels: 4,
                value_hidden: 32,
            },
            1,
        ))
    };
    let nets = [
        ("built-in", virus_wars_ai::neural::NetChoice::builtin().net),
        ("", shape(32, 4)),
        ("", shape(64, 6)),
    ];
    for (label, net) in nets {
        let c = net.config;
        let what = format!(
            "{label}{}{}ch x {}",
            if label.is_empty() { "" } else { " " },
            c.channels,
            c.blocks
        );
        for (name, p) in positions.iter().filter(|(n, _)| n.ends_with("opening")) {
            for batch in [1usize, 8] {
                let inputs = vec![encode(p, virus_wars_rules::Symmetry::Identity); batch];
                let t = Instant::now();
                let mut n = 0u64;
                while t.elapsed() < time {
                    std::hint::black_box(net.forward_batch(&inputs));
                    n += batch as u64;
                }
                let secs = t.elapsed().as_secs_f64();
                crate::outln!(
                    "{:<34} {:>14.0} {:>14}",
                    format!("net positions, {name}"),
                    n as f64 / secs,
                    format!("({what}, batch {batch})")
                )?;
            }
        }
    }
    Ok(())
}

/// The openings and midgames of `classic` and `gcr`.
fn bench_positions(classic_midgame: &AnyPosition) -> Result<Vec<(&'static str, AnyPosition)>> {
    let mut gcr = Game::new(Preset::Gcr.variant())?;
    for step in parse_steps(GCR_MIDGAME)? {
        gcr.play(step)?;
    }
    Ok(vec![
        ("classic opening", Preset::Classic.variant().start()?),
        ("classic midgame-0", *classic_midgame),
        ("gcr opening", Preset::Gcr.variant().start()?),
        ("gcr midgame-1", *gcr.position()),
    ])
}

/// MCTS playouts per second with `moo` playouts on one thread and on two,
/// and with uniform playouts on one, searching one step for `time`.
fn mcts_speed(time: Duration, positions: &[(&str, AnyPosition)]) -> std::io::Result<()> {
    let setups = [
        ("moo, 1 thread", Policy::Moo, 1),
        ("moo, 2 threads", Policy::Moo, 2),
        ("random, 1 thread", Policy::Random, 1),
    ];
    for (name, p) in positions {
        for (setup, policy, threads) in setups {
            let mut mcts = Mcts::new(MctsConfig {
                policy,
                threads,
                ..MctsConfig::default()
            });
            if let Some(info) = last_info(&mut mcts, p, time) {
                let what = format!("MCTS playouts, {name}");
                speed_line(&what, &info, &format!("({setup})"))?;
            }
        }
    }
    Ok(())
}

/// What `player` said last of its search of `p` for `time`.
fn last_info(player: &mut dyn Player, p: &AnyPosition, time: Duration) -> Option<SearchInfo> {
    let mut last = None;
    player.choose(p, &Budget::time(time), &StopFlag::new(), &mut |i| {
        last = Some(i.clone())
    });
    last
}

/// A line of the speed table: what was counted, how many a second, how.
fn speed_line(what: &str, info: &SearchInfo, how: &str) -> std::io::Result<()> {
    crate::outln!("{what:<34} {:>14} {how:>14}", info.nodes_per_second())
}

/// Alpha-beta nodes per second (one thread), searching each position for `time`.
fn alphabeta_speed(time: Duration, positions: &[(&str, AnyPosition)]) -> std::io::Result<()> {
    for (name, p) in positions {
        let mut ab = AlphaBeta::new(64);
        if let Some(info) = last_info(&mut ab, p, time) {
            let what = format!("alpha-beta nodes, {name}");
            speed_line(&what, &info, &format!("(depth {})", info.depth))?;
        }
    }
    Ok(())
}

/// The referee's `midgame-1` (gcr 11×11).
const GCR_MIDGAME: &str = "b2 j10 j11 i11 b3 a2 b4 j9 i9 i8 c3 d4 e3 h10 h9 i7 a5 c4 c1 h7 g8 j7 f4 d5 c2 k6 h11 g11 g4 e2 e4 g7 f8 i6 e6 d2 c5 f6 j6 j5 g5 d7 f6 g9 i4 k10 d8 c7 g7 e9 h3 j8 a3 h4 d9 h5 e7 i2 a6 f3 f5";

/// Plays random games from `start` until `budget` is spent.
pub fn random_games(start: &AnyPosition, budget: Duration, limit: Option<u64>) -> (u64, u64, f64) {
    let mut rng = SplitMix64::new(0x5EED);
    let (mut games, mut steps) = (0u64, 0u64);
    let t = Instant::now();
    loop {
        // Batches of 256 between clock reads; a game count is met exactly.
        let batch = limit.map_or(256, |n| (n - games).min(256));
        for _ in 0..batch {
            let mut p = *start;
            let (_, n) = with_position!(&mut p, q => q.random_playout(&mut rng));
            steps += n as u64;
            games += 1;
        }
        let secs = t.elapsed().as_secs_f64();
        if limit.map_or(t.elapsed() >= budget, |n| games >= n) {
            return (games, steps, secs);
        }
    }
}
