//! `virus-wars serve`: the game server (HTTP + WebSocket, docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use virus_wars_server::{Config, Rate, RateLimits};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT", value_parser = socket_addr)]
    pub addr: SocketAddr,
    /// Serve Prometheus's `/metrics` (and `/healthz`) on this address, a
    /// listener of its own (a loopback or private address, never the
    /// public one: the public address never serves `/metrics`).
    #[arg(long, value_name = "HOST:PORT", value_parser = socket_addr)]
    pub metrics_addr: Option<SocketAddr>,
    /// Folder for the SQLite database (created if missing).
    #[arg(long, default_value = "virus-wars-data", value_name = "DIR")]
    pub data: PathBuf,
    /// Use this PostgreSQL database instead of SQLite: postgres://user@host/db
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
    /// Computer players thinking at once (default: one a CPU core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub computer_workers: Option<u64>,
    /// Largest search tree a computer player may use, in MB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub computer_memory_mb: u64,
    /// New games (create, quick play, join, rematch, bot registration) a
    /// client address may start a minute; 0: no limit.
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub games_per_minute: u32,
    /// Analyses a client address may ask for a minute; 0: no limit.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub analyses_per_minute: u32,
    /// Requests on games (HTTP) per client address, and messages per live
    /// socket, a minute; 0: no limit.
    #[arg(long, default_value_t = 1200, value_name = "N")]
    pub messages_per_minute: u32,
    /// Connections one client address may hold open at once; 0: no cap.
    #[arg(long, default_value_t = 128, value_name = "N")]
    pub connections_per_address: usize,
    /// Connections held open in all (default: the limit on open files, less
    /// 64 kept for the database and the server's own files).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: Option<u64>,
    /// Turn all rate limits and the per-address connection cap off (load
    /// tests on loopback).
    #[arg(long)]
    pub no_rate_limits: bool,
    /// An untimed game whose side to move has not moved for this many days
    /// ends: that side loses on time (aborted if not both sides moved).
    #[arg(long, default_value_t = 14, value_name = "DAYS", value_parser = clap::value_parser!(u64).range(1..=3650))]
    pub abandon_after_days: u64,
    /// Accounts one address may sign up in an hour (0: no limit).
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub signups_per_hour: u32,
    /// Logins with the right password one account may make in an hour (0:
    /// no limit): each stores a session.
    #[arg(long, default_value_t = 60, value_name = "N")]
    pub logins_per_hour: u32,
    /// The address players reach this server at, as `https://host` behind
    /// a proxy that serves https: sign-in cookies are then `Secure`, and only
    /// pages from that origin may use them (default: the request's host).
    #[arg(long, value_name = "URL", value_parser = public_url)]
    pub public_url: Option<String>,
    /// Reverse proxies (addresses or networks, e.g. 127.0.0.1 or
    /// 10.0.0.0/8; repeat the flag or separate with commas) whose header
    /// names the client's address: every per-address limit counts that
    /// address. Untrusted connections' headers are never read.
    #[arg(long, value_name = "CIDR", value_delimiter = ',', value_parser = virus_wars_server::proxy::parse_net)]
    pub trust_proxy: Vec<ipnet::IpNet>,
    /// The header a trusted proxy names the client in: x-forwarded-for
    /// (Caddy's and nginx's) or forwarded (RFC 7239).
    #[arg(long, default_value = "x-forwarded-for", value_name = "HEADER")]
    pub proxy_header: virus_wars_server::proxy::ProxyHeader,
    /// In a real-time game, the seconds a player has to make the first step
    /// of their first turn before the game is called off.
    #[arg(long, default_value_t = 30, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(5..=86_400))]
    pub first_step_within: u64,
    /// Analyse every finished game in the background, newest first, while
    /// nobody asks for an analysis (each at the lowest priority: never
    /// ahead of a computer opponent's turn).
    #[arg(long)]
    pub analyse_finished: bool,
    /// Tournaments the server makes ahead, so that the next one is always
    /// on the home page: lines split by `;`, each `EVERY arena PRESET
    /// BASE+INC MINUTESm [casual] [nobots] [at HH:MM]` or `EVERY swiss PRESET
    /// BASE+INC ROUNDSr …`, EVERY hourly, daily or `every 30m`
    /// (docs/tournaments.md), e.g. `hourly arena classic 3+2 45m; daily swiss
    /// classic 5+3 7r at 18:00`.
    #[arg(long, value_name = "SCHEDULE", value_parser = schedule)]
    pub tournaments: Option<virus_wars_server::tournament::schedule::Schedule>,
    /// Web Push may post to `http://` on loopback (for tests only: a real
    /// push service is a public `https://` address).
    #[arg(long)]
    pub push_allow_loopback: bool,
    /// Read settings from this TOML file: the flags' names as keys
    /// (`signups-per-hour = 5`); a flag or a VW_ variable wins over it.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// How log lines are written: text, or json (one object a line, for
    /// log collectors). Which lines: RUST_LOG (default: info).
    #[arg(long, default_value = "text", value_name = "FORMAT", value_parser = ["text", "json"])]
    pub log_format: String,
    /// Print the OpenAPI document of the API and exit.
    #[arg(long)]
    pub openapi: bool,
}

fn schedule(
    text: &str,
) -> std::result::Result<virus_wars_server::tournament::schedule::Schedule, String> {
    text.parse()
        .map_err(|e: virus_wars_server::tournament::schedule::ScheduleError| e.to_string())
}

pub fn run(args: ServeArgs, said: crate::settings::Said) -> Result<()> {
    if args.openapi {
        crate::outln!("{}", virus_wars_server::openapi_json())?;
        return Ok(());
    }
    // Every file the server makes is its owner's alone (password and
    // token hashes are in the database), whatever the shell's umask.
    virus_wars_server::private::owner_only_from_now();
    let mut config = match &args.database_url {
        Some(url) => Config {
            database_url: url.clone(),
            ..Config::sqlite(&args.data.join("virus-wars.sqlite"))
        },
        None => {
            virus_wars_server::private::owner_only(&args.data).with_context(|| {
                format!(
                    "cannot make the data folder {} its owner's alone (0700, its files 0600)",
                    args.data.display()
                )
            })?;
            Config::sqlite(&args.data.join("virus-wars.sqlite"))
        }
    };
    if let Some(n) = args.computer_workers {
        config.computer_workers = n as usize;
    }
    config.computer_memory_mb = args.computer_memory_mb as usize;
    config.abandon_after_ms = args.abandon_after_days * 86_400_000;
    config.first_step_within_ms = args.first_step_within * 1000;
    config.analyse_finished = args.analyse_finished;
    config.tournaments = args.tournaments.clone().unwrap_or_default().0;
    config.connections.per_address = if args.no_rate_limits {
        0
    } else {
        args.connections_per_address
    };
    config.connections.total = args.max_connections.map(|n| n as usize);
    config.rate_limits = if args.no_rate_limits {
        RateLimits::UNLIMITED
    } else {
        let per_minute = |n: u32, burst: f64| match n {
            0 => Rate::UNLIMITED,
            n => Rate::per_minute(f64::from(n), burst.min(f64::from(n))),
        };
        RateLimits {
            create: per_minute(args.games_per_minute, 10.0),
            analyze: per_minute(args.analyses_per_minute, 5.0),
            actions: per_minute(args.messages_per_minute, 60.0),
            messages: per_minute(args.messages_per_minute, 60.0),
            signups_per_hour: args.signups_per_hour,
            logins_per_hour: args.logins_per_hour,
            ..RateLimits::default()
        }
    };
    config.public_url = args.public_url.clone();
    if args.metrics_addr == Some(args.addr) {
        anyhow::bail!(
            "--metrics-addr {} is the address the game is served on (--addr): give the metrics an \
             address of their own, as 127.0.0.1:9101",
            args.addr
        );
    }
    config.metrics_addr = args.metrics_addr;
    config.push_allow_loopback = args.push_allow_loopback;
    config.trusted_proxies = virus_wars_server::proxy::TrustedProxies {
        nets: args.trust_proxy.clone(),
        header: args.proxy_header,
    };
    // RUST_LOG chooses the lines (as `info,virus_wars_server=debug`);
    // a filter that does not read is said, and info is kept.
    // An empty RUST_LOG is none.
    let chosen = std::env::var("RUST_LOG")
        .ok()
        .filter(|v| !v.trim().is_empty());
    let filter = match chosen
        .as_deref()
        .map(tracing_subscriber::EnvFilter::try_new)
    {
        Some(Ok(filter)) => filter,
        Some(Err(e)) => {
            eprintln!("warning: RUST_LOG does not read ({e}): logging at info");
            tracing_subscriber::EnvFilter::new("info")
        }
        None => tracing_subscriber::EnvFilter::new("info"),
    };
    // Colours only for a terminal: a file or a pipe gets plain text.
    let logs = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .with_env_filter(filter);
    if args.log_format == "json" {
        logs.json().init();
    } else {
        logs.init();
    }
    // What the server runs with, and what it was told that nothing reads.
    tracing::info!(settings = %said.in_force.join(" "), "settings in force");
    for warning in &said.unknown {
        tracing::warn!("{warning}: it is ignored");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let bound = listener.local_addr()?;
        let ready = move || {
            let _ = crate::outln!("listening on http://{bound}");
        };
        virus_wars_server::serve(listener, config, shutdown_signal()?, ready)
            .await
            .context("the server stopped")
    })
}

/// SIGTERM or Ctrl-C: stop taking requests and finish the writes in
/// progress. The handlers are installed here, before the server says it
/// listens: a SIGTERM sent as soon as it does is a clean stop, not a kill.
fn shutdown_signal() -> Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    let (mut term, mut interrupt) = {
        use tokio::signal::unix::{signal, SignalKind};
        (
            signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
            signal(SignalKind::interrupt()).context("cannot listen for SIGINT")?,
        )
    };
    Ok(async move {
        #[cfg(unix)]
        tokio::select! {
            _ = term.recv() => {},
            _ = interrupt.recv() => {},
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("shutting down: finishing the requests in progress");
    })
}

/// A public URL: `http://` or `https://`, a host, no path.
fn public_url(text: &str) -> Result<String, String> {
    let lower = text.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("https://")
        .or_else(|| lower.strip_prefix("http://"))
        .ok_or("it begins with https:// (or http://)")?;
    let host = rest.trim_end_matches('/');
    if host.is_empty()
        || host.contains(['/', '?', '#', ' ', '@', '\\'])
        || host.chars().any(|c| c.is_control() || c.is_whitespace())
    {
        return Err(
            "it is a scheme and a host (and port), without a path: https://vw.example".into(),
        );
    }
    Ok(text.trim_end_matches('/').to_string())
}

/// An address to listen on, `HOST:PORT`, said in words where it does not
/// read (a port over 65535, a missing port, a host name).
pub fn socket_addr(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(format!(
            "'{text}' has no port: HOST:PORT, as 127.0.0.1:8080 or [::1]:8080"
        ));
    };
    match port.parse::<u32>() {
        Ok(p) if p > 65_535 => Err(format!(
            "port {p} is out of range: a port is 1 to 65535 (as 127.0.0.1:8080)"
        )),
        Ok(_) => Err(format!(
            "'{host}' is not an IP address: listen on an address (127.0.0.1, 0.0.0.0, [::1]), not a host name"
        )),
        Err(_) => Err(format!("'{port}' is not a port number: 1 to 65535")),
    }
}

#[cfg(test)]
mod tests {
    use super::socket_addr;

    #[test]
    fn an_address_that_does_not_read_says_why() {
        assert!(socket_addr("127.0.0.1:8080").is_ok());
        assert!(socket_addr("[::1]:0").is_ok());
        for (text, says) in [
            ("127.0.0.1:99999", "port 99999 is out of range"),
            ("127.0.0.1", "has no port"),
            ("localhost:8080", "not an IP address"),
            ("127.0.0.1:http", "not a port number"),
        ] {
            let why = socket_addr(text).unwrap_err();
            assert!(why.contains(says), "{text}: {why}");
        }
    }
}
