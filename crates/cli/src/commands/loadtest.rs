//! `virus-wars loadtest`: load a running server with games over WebSockets
//! and check that nothing acknowledged was lost or doubled.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Args;
use virus_wars_client::http::Server;
use virus_wars_client::loadtest::{correspondence, run as run_load, Plan};

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The server, e.g. http://127.0.0.1:8080 (or https://, through a TLS
    /// proxy). Give it twice (or more) for
    /// several server processes on one PostgreSQL: each game's X plays on
    /// one and its O on the next, and every process is checked.
    #[arg(long, required = true)]
    pub url: Vec<String>,
    /// Games played at once (two sockets each).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub seconds: u64,
    /// Each player's pause before a step, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub think_ms: u64,
    /// Board size of the games.
    #[arg(long, default_value = "10x10")]
    pub size: String,
    /// Half of the players sign up two accounts and play rated games
    /// between them (10-minute clock); each account's finished rated games
    /// are checked against its ratings (the server needs --no-rate-limits).
    #[arg(long)]
    pub accounts: bool,
    /// Correspondence: each of the --games is a pair of signed-in players
    /// with a user socket each, who play games over days one after another,
    /// acting only on their notifications; checks that each notification
    /// is delivered exactly once and that no pair stalls, and measures the
    /// time from a step to the opponent's notification (on one process and
    /// across two). The server needs --no-rate-limits --signups-per-hour 0.
    #[arg(long, conflicts_with = "accounts")]
    pub correspondence: bool,
}

/// Most pairs of a correspondence load test.
const MOST_PAIRS: u64 = 5_000;

pub fn run(args: LoadtestArgs) -> Result<()> {
    // Why a game failed, or what a check found, goes to stderr (RUST_LOG
    // chooses; warnings by default); the closing line to stdout.
    let filter = std::env::var("RUST_LOG")
        .ok()
        .and_then(|v| tracing_subscriber::EnvFilter::try_new(v).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .with_env_filter(filter)
        .init();
    let mut servers = Vec::new();
    for url in &args.url {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            bail!("--url must start with http:// or https:// (e.g. http://127.0.0.1:8080), not '{url}'");
        }
        servers.push(Server::new(url).map_err(|e| anyhow::anyhow!("--url: {e}"))?);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    // A board the server would refuse is said now, before any game.
    virus_wars_rules::variant::parse_size(&args.size)
        .map_err(|e| anyhow::anyhow!("--size '{}': {e}", args.size))?;
    if args.correspondence {
        if args.games > MOST_PAIRS {
            bail!(
                "--games {} with --correspondence: at most {MOST_PAIRS} pairs (each player signs up first, a slow password hash on the server)",
                args.games
            );
        }
        let plan = correspondence::Plan {
            servers,
            pairs: args.games as usize,
            seconds: args.seconds as f64,
            think: Duration::from_millis(args.think_ms),
            size: args.size,
        };
        let report = runtime
            .block_on(correspondence::run(plan))
            .map_err(anyhow::Error::msg)?;
        crate::outln!("{report}")?;
        if let Some(faults) = report.faults() {
            bail!("the load test found faults: {faults} (why: the warnings above)");
        }
        return Ok(());
    }
    let plan = Plan {
        servers,
        games: args.games as usize,
        seconds: args.seconds as f64,
        think: Duration::from_millis(args.think_ms),
        settings: serde_json::json!({"variant": "classic", "size": args.size}),
        accounts: args.accounts,
    };
    let report = runtime
        .block_on(run_load(plan))
        .map_err(anyhow::Error::msg)?;
    crate::outln!("{report}")?;
    if let Some(faults) = report.faults() {
        bail!("the load test found faults: {faults} (why: the warnings above)");
    }
    Ok(())
}
