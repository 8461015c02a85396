//! The Virus Wars game server: games between people and the computer over
//! HTTP and WebSocket, refereed by the rules engine, every accepted step
//! committed to the database (SQLite by default, PostgreSQL by URL) before
//! it is acknowledged. docs/api.md describes the API.
//!
//! [`serve`] takes a bound listener (tests bind port 0) and runs until
//! the shutdown future completes.

pub mod admin;
mod api;
pub mod archive;
pub mod backup;
mod chat;
mod clock;
mod code;
mod computer;
mod connection;
mod games;
mod health;
mod ids;
mod inbox;
mod listen;
mod live;
mod metrics;
mod names;
mod notify;
mod password;
mod present;
pub mod private;
pub mod proxy;
mod push;
pub mod ratelimit;
mod rating;
mod seat;
mod session;
mod store;
pub mod tournament;
mod view;
mod visible;

use std::future::Future;
use std::sync::Arc;

pub use api::ApiError;
pub use api::{openapi_json, web};
pub use clock::Clock;
pub use listen::Connections;
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
    /// In a real-time game, how long a player has to make the first step of
    /// their first turn before the game is called off (as lichess aborts a
    /// game whose first move does not come): a player who left is not
    /// waited for through a whole base time.
    pub first_step_within_ms: u64,
    /// Limits on connections: per address, in all, and how long a client
    /// may take to send a request or to take an answer.
    pub connections: Connections,
    /// A game nobody holds that has not changed for this long leaves memory.
    pub idle_in_memory_ms: u64,
    /// The address players reach the server at (`https://vw.example`), if
    /// it is behind a proxy: sign-in cookies are `Secure` under https, and
    /// only pages from this origin may use them. Unset: the request's host.
    pub public_url: Option<String>,
    /// Passwords hashed at once (each takes about 19 MiB for a moment).
    pub password_workers: usize,
    /// Analyse every finished game in the background, newest first, when
    /// no analysis is asked for (`serve --analyse-finished`).
    pub analyse_finished: bool,
    /// Tournaments made ahead on a schedule (`serve --tournaments`).
    pub tournaments: Vec<tournament::schedule::Scheduled>,
    /// Where the time is read: the system's clock, or a test's.
    pub clock: Clock,
    /// Reverse proxies whose word on the client's address is taken (none:
    /// every connection's own address is the client's).
    pub trusted_proxies: proxy::TrustedProxies,
    /// Web Push may go to `http://` on loopback (`serve
    /// --push-allow-loopback`: for tests only).
    pub push_allow_loopback: bool,
    /// Where `/metrics` is served (`serve --metrics-addr`), on a listener
    /// of its own; none: nowhere. The public address never serves it.
    pub metrics_addr: Option<std::net::SocketAddr>,
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
            first_step_within_ms: 30_000,
            connections: Connections::default(),
            idle_in_memory_ms: live::IDLE_IN_MEMORY_MS,
            public_url: None,
            password_workers: 2,
            analyse_finished: false,
            tournaments: Vec::new(),
            clock: Clock::system(),
            trusted_proxies: proxy::TrustedProxies::default(),
            push_allow_loopback: false,
            metrics_addr: None,
        }
    }

    /// A server on the SQLite file `path` (created if missing).
    pub fn sqlite(path: &std::path::Path) -> Config {
        Config::new(format!("sqlite://{}?mode=rwc", path.display()))
    }
}

/// Everything the handlers share.
pub(crate) struct App {
    /// The time, for everything that depends on it.
    pub clock: Clock,
    pub store: store::Store,
    pub games: live::Registry,
    pub metrics: metrics::Metrics,
    /// Whether the database answers (`/healthz`, requests refused fast).
    pub health: health::Health,
    pub computer: computer::Pool,
    pub limits: Limiters,
    /// Quick play pairs one request at a time.
    pub quick: tokio::sync::Mutex<()>,
    /// The leaderboards' overview as last read, and when (it is read again
    /// at most once every few seconds: each read is 64 small queries).
    pub leaderboard_overview: tokio::sync::Mutex<Option<(std::time::Instant, serde_json::Value)>>,
    /// Writes of accounts' "seen" (online) in flight (`session::mark_seen`).
    pub presence: session::Presence,
    /// The user sockets open on this process, by account (`inbox`).
    pub doorbells: inbox::Doorbells,
    /// The games' chat channels on this process (`chat`).
    pub rooms: chat::Rooms,
    /// How fast each account may chat.
    pub chat_rate: ratelimit::PerAccount,
    /// Sends Web Push messages.
    pub pusher: Arc<push::Pusher>,
    /// Wakes the computer for a game whose computer seat is to move.
    pub computer_turns: tokio::sync::mpsc::Sender<String>,
    pub abandon_after_ms: u64,
    pub first_step_within_ms: u64,
    pub idle_in_memory_ms: u64,
    /// A socket message the client does not take within this closes it.
    pub write_timeout: std::time::Duration,
    /// Where players reach the server, if set (`https://…`).
    pub public_url: Option<String>,
    /// Session cookies are `Secure` (the public URL is https).
    pub secure_cookies: bool,
    pub passwords: password::Passwords,
    /// Wakes this process's analyses when one is asked for.
    pub reviews_wake: tokio::sync::Notify,
    /// Who the client is behind a reverse proxy.
    pub proxies: proxy::TrustedProxies,
    /// Set once the server stops: live sockets are told to reconnect.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// Tournaments as their pages show them, built once a version.
    pub tournament_views: api::tournament_view::Views,
}

impl App {
    /// The shared state of a server of `config` on `store`.
    fn new(
        config: &Config,
        store: store::Store,
        pusher: Arc<push::Pusher>,
        computer_turns: tokio::sync::mpsc::Sender<String>,
    ) -> App {
        let clock = config.clock.clone();
        App {
            clock: clock.clone(),
            store,
            games: live::Registry::default(),
            metrics: metrics::Metrics::default(),
            health: health::Health::default(),
            computer: computer::Pool::new(config.computer_workers, config.computer_memory_mb),
            limits: Limiters {
                create: ratelimit::Limiter::new(config.rate_limits.create, &clock),
                analyze: ratelimit::Limiter::new(config.rate_limits.analyze, &clock),
                actions: ratelimit::Limiter::new(config.rate_limits.actions, &clock),
                replay_bytes: ratelimit::Limiter::new(config.rate_limits.replay_bytes, &clock),
                messages: config.rate_limits.messages,
                signups_per_hour: config.rate_limits.signups_per_hour,
                logins_per_hour: config.rate_limits.logins_per_hour,
            },
            quick: Default::default(),
            leaderboard_overview: Default::default(),
            presence: Default::default(),
            doorbells: Default::default(),
            rooms: Default::default(),
            chat_rate: ratelimit::PerAccount::new(chat::SPEAK_RATE, &clock),
            pusher,
            computer_turns,
            abandon_after_ms: config.abandon_after_ms,
            first_step_within_ms: config.first_step_within_ms,
            idle_in_memory_ms: config.idle_in_memory_ms,
            write_timeout: config.connections.write_timeout,
            secure_cookies: config
                .public_url
                .as_deref()
                .is_some_and(|u| u.to_ascii_lowercase().starts_with("https://")),
            public_url: config.public_url.clone(),
            passwords: password::Passwords::new(config.password_workers),
            reviews_wake: tokio::sync::Notify::new(),
            proxies: config.trusted_proxies.clone(),
            stopping: tokio::sync::watch::Sender::new(false),
            tournament_views: Default::default(),
        }
    }
}

/// The rate limiters, by kind of request.
pub(crate) struct Limiters {
    pub create: ratelimit::Limiter,
    pub analyze: ratelimit::Limiter,
    pub actions: ratelimit::Limiter,
    /// Replay bytes served, per client.
    pub replay_bytes: ratelimit::Limiter,
    /// Per socket: each socket keeps its own bucket.
    pub messages: Rate,
    /// Sign-ups an hour from one address (0: no limit).
    pub signups_per_hour: u32,
    /// Right-password logins an hour of one account (0: no limit).
    pub logins_per_hour: u32,
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
    // After the whole service was down, the clocks go on from where they stood.
    let clock = config.clock.clone();
    let now = clock.now_ms() as i64;
    let moved = store.resume_clocks(now).await?;
    if moved > 0 {
        tracing::info!(
            down_ms = moved,
            "no server was running: the clocks of the games in play move on by that time"
        );
    }
    store.alive(now).await?;
    // The shipped puzzles, each kept as it is when already there.
    let set = virus_wars_ai::puzzles::shipped().map_err(|e| StoreError::Io(e.to_string()))?;
    store.seed_puzzles(&set).await?;
    let pusher = push::Pusher::new(
        &store,
        config.push_allow_loopback,
        config.public_url.as_deref(),
    )
    .await?;
    let pusher = Arc::new(pusher);
    pusher.start();
    let (computer_turns, wakes) = tokio::sync::mpsc::channel(1024);
    let app = Arc::new(App::new(&config, store, pusher, computer_turns));
    let heard = notify::subscribe(&app, &config.database_url)
        .await
        .map_err(|e| StoreError::Database(format!("cannot listen for other processes: {e}")))?;
    let tasks = [
        // Computer turns: woken by changes, and those nobody holds (after
        // a restart, or another process's death) found every second.
        tokio::spawn(computer::run_turns(app.clone(), wakes)),
        tokio::spawn(live::watch_deadlines(app.clone())),
        tokio::spawn(live::evict_idle(app.clone())),
        tokio::spawn(notify::listen(
            app.clone(),
            config.database_url.clone(),
            heard,
        )),
        tokio::spawn(keep_alive(app.clone())),
        // Analyses of finished games, queued in the database.
        tokio::spawn(computer::run_reviews(app.clone(), config.analyse_finished)),
        // Tournaments: started, paired and ended by the process that
        // holds each one's lease.
        tokio::spawn(tournament::pairer::run(app.clone())),
        tokio::spawn(tournament::pairer::make_scheduled(
            app.clone(),
            config.tournaments.clone(),
        )),
    ];
    let metrics = match config.metrics_addr {
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| {
                StoreError::Io(format!(
                    "--metrics-addr {addr}: cannot listen there: {e} (is another process on that port?)"
                ))
            })?;
            tracing::info!(%addr, "metrics served at http://{addr}/metrics");
            Some(tokio::spawn(api::serve_metrics(listener, app.clone())))
        }
        None => None,
    };
    let router = api::router(app.clone(), &config.connections);
    ready();
    let result = listen::serve(listener, router, config.connections, app.clone(), shutdown).await;
    for task in tasks.into_iter().chain(metrics) {
        task.abort();
    }
    result.map_err(|e| StoreError::Io(e.to_string()))
}

/// Probes the database every second (`health`) and, where it answers,
/// says that this process is alive (see `store::service`).
async fn keep_alive(app: Arc<App>) {
    app.metrics.database_up.set(1);
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let outcome = health::bounded(app.store.ping()).await;
        let reached = outcome.is_ok();
        app.health.record(&app.metrics, outcome);
        if reached {
            if let Err(e) = app.store.alive(app.clock.now_ms() as i64).await {
                tracing::warn!(error = %e, "cannot record that this server is alive");
            }
        }
    }
}
