//! The Virus Wars game server: games between people and the computer over
//! HTTP and WebSocket, refereed by the rules engine, every accepted step
//! committed to the database (SQLite by default, PostgreSQL by URL) before
//! it is acknowledged. docs/api.md describes the API.
//!
//! [`serve`] takes a bound listener (tests bind port 0) and runs until
//! the shutdown future completes.

mod api;
pub mod bot;
pub mod client;
mod computer;
mod error;
mod ids;
mod live;
pub mod loadtest;
mod metrics;
mod notify;
pub mod ratelimit;
mod store;
mod view;
pub mod web;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

pub use api::openapi_json;
pub use error::ApiError;
pub use live::ABANDONED_AFTER_MS;
pub use ratelimit::{Rate, RateLimits};
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
    /// Per-client limits on requests.
    pub rate_limits: RateLimits,
    /// An untimed game whose side to move has not moved for this long ends.
    pub abandon_after_ms: u64,
}

impl Config {
    /// A server on the database at `url` (`sqlite://…` or `postgres://…`).
    pub fn new(database_url: String) -> Config {
        Config {
            database_url,
            computer_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            computer_memory_mb: 64,
            rate_limits: RateLimits::default(),
            abandon_after_ms: ABANDONED_AFTER_MS,
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
    pub limits: Limiters,
    /// Quick play pairs one request at a time.
    pub quick: tokio::sync::Mutex<()>,
}

/// The rate limiters, by kind of request.
pub(crate) struct Limiters {
    pub create: ratelimit::Limiter,
    pub analyze: ratelimit::Limiter,
    pub actions: ratelimit::Limiter,
    /// Per socket: each socket keeps its own bucket.
    pub messages: Rate,
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
        limits: Limiters {
            create: ratelimit::Limiter::new(config.rate_limits.create),
            analyze: ratelimit::Limiter::new(config.rate_limits.analyze),
            actions: ratelimit::Limiter::new(config.rate_limits.actions),
            messages: config.rate_limits.messages,
        },
        quick: Default::default(),
    });
    // Computer games that were waiting for the computer when the server
    // stopped go on.
    computer::resume_all(&app).await;
    let clock = tokio::spawn(live::watch_clocks(app.clone(), config.abandon_after_ms));
    let notes = tokio::spawn(notify::listen(app.clone(), config.database_url.clone()));
    let router = api::router(app);
    ready();
    let result = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await;
    clock.abort();
    notes.abort();
    result.map_err(|e| StoreError::Io(e.to_string()))
}
