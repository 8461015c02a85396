//! `virus-wars serve`: the game server (HTTP + WebSocket, docs/api.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;
use virus_wars_server::Config;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    pub addr: SocketAddr,
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
}

pub fn run(args: ServeArgs) -> Result<()> {
    let mut config = match &args.database_url {
        Some(url) => Config {
            database_url: url.clone(),
            ..Config::sqlite(&args.data.join("virus-wars.sqlite"))
        },
        None => {
            std::fs::create_dir_all(&args.data).with_context(|| {
                format!("cannot create the data folder {}", args.data.display())
            })?;
            Config::sqlite(&args.data.join("virus-wars.sqlite"))
        }
    };
    if let Some(n) = args.computer_workers {
        config.computer_workers = n as usize;
    }
    config.computer_memory_mb = args.computer_memory_mb as usize;
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
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
        virus_wars_server::serve(listener, config, shutdown_signal(), ready)
            .await
            .context("the server stopped")
    })
}

/// SIGTERM or Ctrl-C: stop taking requests and finish the writes in progress.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down: finishing the requests in progress");
}
