//! The Virus Wars game server: games between people and the computer over
//! HTTP and WebSocket, refereed by the rules engine, every accepted step
//! committed to the database (SQLite by default, PostgreSQL by URL) before
//! it is acknowledged. docs/api.md describes the API.
//!
//! [`serve`] takes a bound listener (tests bind port 0) and runs until
//! the shutdown future completes.

mod api;
mod computer;
mod error;
mod ids;
mod live;
pub mod loadtest;
mod metrics;
mod store;

use std::future::Future;
use std::sync::Arc;

pub use error::ApiError;
pub use store::StoreError;

/// How a server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// `sqlite://path?mode=rwc` or `postgres://…`.
    pub database_url: String,
    /// Computer players thinking at once (each on a blocking worker).
    pub computer_workers: usize,
    /// Largest MCTS tree or hash table a computer player may use, in MB.
    pub computer_memory_mb: usize,
}

impl Config {
    /// A server on the database at `url` (`sqlite://…` or `postgres://…`).
    pub fn new(database_url: String) -> Config {
        Config {
            database_url,
            computer_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            computer_memory_mb: 64,
        }
    }

    /// A server on the SQLite file `path` (created if missing).
    pub fn sqlite(path: &std::path::Path) -> Config {
        Config::new(format!("sqlite://{}?mode=rwc", path.display()))
    }
}

/// Everything the handlers share.
pub(crate) struct App {
    pub store: store::Store,
    pub games: live::Registry,
    pub metrics: metrics::Metrics,
    pub computer: computer::Pool,
}

/// Connects to the database, runs the migrations, and serves on `listener`
/// until `shutdown` completes; then stops taking requests, lets the ones
/// in progress finish their writes, and returns.
/// `ready` is called once the database is ready and connections are taken.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
    ready: impl FnOnce(),
) -> Result<(), StoreError> {
    let store = store::Store::connect(&config.database_url).await?;
    let app = Arc::new(App {
        store,
        games: live::Registry::default(),
        metrics: metrics::Metrics::default(),
        computer: computer::Pool::new(config.computer_workers, config.computer_memory_mb),
    });
    // Computer games that were waiting for the computer when the server
    // stopped go on.
    computer::resume_all(&app).await;
    let clock = tokio::spawn(live::watch_clocks(app.clone()));
    let router = api::router(app);
    ready();
    let result = axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await;
    clock.abort();
    result.map_err(|e| StoreError::Io(e.to_string()))
}
