//! Computer players: each search runs on a blocking worker, never on the
//! async runtime, at most `workers` at once; the rest wait in a queue that
//! the metrics count. Every search is capped in memory (trees and tables
//! at `--computer-memory-mb`, a whole-turn search's width) and in time: it
//! is asked to stop at its time and its answer is not waited for past
//! [`STOP_MARGIN`] more. Analyses wait in a bounded queue, for a bounded
//! time. The computer's turns in games are in `turns.rs`.

mod reviews;
mod turns;

pub use reviews::{read_judged, run_reviews};
pub use turns::run_turns;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use virus_wars_ai::fog::{self, FogPlayer};
use virus_wars_ai::spec::Caps;
use virus_wars_ai::{Budget, PlayerSpec, SearchResult, StopFlag};
use virus_wars_rules::fog::Seen;
use virus_wars_rules::{AnyPosition, Step};

use crate::App;

/// Most threads one search may use on the server.
pub const MAX_THREADS: usize = 2;
/// Most turns a whole-turn search looks at in each position on the server
/// (its memory grows with width times depth).
pub const MAX_TURNS_WIDTH: usize = 64;
/// A search is asked to stop at its time; its answer is waited for this
/// much longer, then the request is answered without it.
pub const STOP_MARGIN: Duration = Duration::from_millis(500);
/// A search with neither time nor any other budget gets this much.
pub const DEFAULT_TIME: Duration = Duration::from_secs(5);

/// Computer turns that may wait for each worker before a new game against
/// the computer is refused (`503 busy`).
pub const TURNS_WAITING_PER_WORKER: usize = 4;
/// Analyses that may wait for a worker at once: one more is answered 503.
pub const MAX_ANALYSES_WAITING: u64 = 16;
/// Longest an analysis waits for a worker before it is dropped (503).
pub const MAX_ANALYSIS_WAIT: Duration = Duration::from_secs(5);

pub struct Pool {
    permits: Arc<Semaphore>,
    /// Analyses have their own, smaller share of workers, so that they
    /// never keep a computer opponent waiting.
    analysis_permits: Arc<Semaphore>,
    memory_mb: usize,
    /// Analyses waiting for a worker.
    pub queued: AtomicU64,
    /// Computer turns waiting for a worker.
    pub turns_waiting: AtomicU64,
    /// Most computer turns that may wait before new games against the
    /// computer are refused.
    pub max_turns_waiting: u64,
    /// Analyses among them.
    analyses_waiting: AtomicU64,
    /// Searches being thought now.
    pub thinking: AtomicU64,
    /// Games whose computer turn this process thinks now.
    pub(crate) turns_held: std::sync::Mutex<std::collections::HashSet<String>>,
}

impl Pool {
    pub fn new(workers: usize, memory_mb: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            analysis_permits: Arc::new(Semaphore::new(workers.div_ceil(2).max(1))),
            memory_mb: memory_mb.max(1),
            queued: AtomicU64::new(0),
            turns_waiting: AtomicU64::new(0),
            max_turns_waiting: (TURNS_WAITING_PER_WORKER * workers.max(1)) as u64,
            analyses_waiting: AtomicU64::new(0),
            thinking: AtomicU64::new(0),
            turns_held: Default::default(),
        }
    }

    /// The spec a player plays with here: a level's own, with its tree or
    /// table capped at the server's memory, its threads at [`MAX_THREADS`]
    /// and a whole-turn search's width at [`MAX_TURNS_WIDTH`].
    pub fn capped(&self, spec: &PlayerSpec) -> PlayerSpec {
        spec.capped(Caps {
            memory_mb: self.memory_mb,
            threads: MAX_THREADS,
            turns_width: MAX_TURNS_WIDTH,
        })
    }
}

/// What a search is for: a computer opponent's turn, or an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Turn,
    Analysis,
}

/// Counts one waiting search for as long as it lives (a request dropped
/// while it waits is counted out too).
struct Waiting<'a>(&'a AtomicU64);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Why the computer did not think: the API says it in HTTP (`error.rs`),
/// its background loops log it.
#[derive(Debug, thiserror::Error)]
pub enum ComputerError {
    /// No worker now: try again in `retry_after` seconds.
    #[error("{message}")]
    Busy { message: String, retry_after: u64 },
    /// A search did not stop at its time (it was asked to; nothing changed).
    #[error("the search did not stop at its time; nothing was changed")]
    Overran,
    /// A search failed (panicked); nothing changed.
    #[error("the search failed; nothing was changed")]
    Failed,
    /// The game could not be read or changed.
    #[error(transparent)]
    Live(#[from] crate::live::LiveError),
}

impl From<crate::store::StoreError> for ComputerError {
    fn from(e: crate::store::StoreError) -> Self {
        ComputerError::Live(e.into())
    }
}

fn busy(message: String) -> ComputerError {
    ComputerError::Busy {
        message,
        retry_after: MAX_ANALYSIS_WAIT.as_secs().max(1),
    }
}

/// A worker of the pool, held while a search runs (and until it really
/// ends, if it overruns).
pub struct Worker {
    _permit: tokio::sync::OwnedSemaphorePermit,
}

/// Waits for a worker of the pool: a computer turn for as long as it
/// takes, an analysis in a bounded queue for a bounded time (`503 busy`
/// past either).
pub async fn worker(app: &App, kind: Kind) -> Result<Worker, ComputerError> {
    let pool = &app.computer;
    if kind == Kind::Analysis
        && pool.analyses_waiting.fetch_add(1, Ordering::Relaxed) >= MAX_ANALYSES_WAITING
    {
        pool.analyses_waiting.fetch_sub(1, Ordering::Relaxed);
        return Err(busy(format!(
            "{MAX_ANALYSES_WAITING} analyses are waiting already: try again in a few seconds"
        )));
    }
    let _analysis = (kind == Kind::Analysis).then(|| Waiting(&pool.analyses_waiting));
    let counter = match kind {
        Kind::Turn => &pool.turns_waiting,
        Kind::Analysis => &pool.queued,
    };
    counter.fetch_add(1, Ordering::Relaxed);
    let _waiting = Waiting(counter);
    let queued_at = std::time::Instant::now();
    let permit = match kind {
        Kind::Turn => pool.permits.clone().acquire_owned().await,
        Kind::Analysis => {
            match tokio::time::timeout(
                MAX_ANALYSIS_WAIT,
                pool.analysis_permits.clone().acquire_owned(),
            )
            .await
            {
                Ok(p) => p,
                Err(_) => {
                    return Err(busy(format!(
                        "every analysis worker stayed busy for {} s: try again in a few seconds",
                        MAX_ANALYSIS_WAIT.as_secs()
                    )))
                }
            }
        }
    }
    .map_err(|_| busy("the server is stopping".into()))?;
    app.metrics.ai_waited(queued_at.elapsed());
    Ok(Worker { _permit: permit })
}

/// How often a background analysis looks again for a free worker.
const BACKGROUND_POLL: Duration = Duration::from_millis(20);

/// A worker for one position of a game's analysis, at the lowest priority:
/// taken only while no computer turn waits and a worker is free, and held
/// for one search of [`virus_wars_ai::review::JUDGE_TIME`]. A computer
/// turn that comes meanwhile waits at most that search (plus
/// [`STOP_MARGIN`]); analyses never queue ahead of it.
pub async fn background_worker(app: &App) -> Worker {
    let pool = &app.computer;
    loop {
        if pool.turns_waiting.load(Ordering::Relaxed) == 0 {
            if let Ok(permit) = pool.permits.clone().try_acquire_owned() {
                return Worker { _permit: permit };
            }
        }
        tokio::time::sleep(BACKGROUND_POLL).await;
    }
}

/// Refuses a new game against the computer while so many computer turns
/// wait for a worker that one more would wait too long (its clock runs
/// meanwhile).
pub fn admit_computer_game(app: &App) -> Result<(), ComputerError> {
    let waiting = app.computer.turns_waiting.load(Ordering::Relaxed);
    let most = app.computer.max_turns_waiting;
    if waiting >= most {
        return Err(busy(format!(
            "the computer is thinking for {waiting} games already: try again in a few seconds"
        )));
    }
    Ok(())
}

/// Thinks about `position` with `spec` and `budget` on a worker of the
/// pool (see [`worker`]): see [`think`].
pub async fn search(
    app: &App,
    spec: PlayerSpec,
    position: AnyPosition,
    budget: Budget,
    kind: Kind,
    stop: StopFlag,
) -> Result<SearchResult, ComputerError> {
    let worker = worker(app, kind).await?;
    think(app, worker, spec, position, budget, stop).await
}

/// Thinks about `position` on `worker`: see [`think_with`].
pub async fn think(
    app: &App,
    worker: Worker,
    spec: PlayerSpec,
    position: AnyPosition,
    budget: Budget,
    stop: StopFlag,
) -> Result<SearchResult, ComputerError> {
    think_with(app, worker, budget, stop, move |budget, flag| {
        let (mut player, _) = spec.build();
        player.choose(&position, budget, flag, &mut |_| {})
    })
    .await
}

/// Chooses the next step of a fog game from what the side to move knows
/// (`seen`) alone, on `worker`: the player is given no position, only the
/// view, so it cannot peek (docs/ai.md, Fog of war). See [`think_with`].
pub async fn think_in_fog(
    app: &App,
    worker: Worker,
    spec: PlayerSpec,
    seen: Seen,
    budget: Budget,
    stop: StopFlag,
    seed: u64,
) -> Result<Option<Step>, ComputerError> {
    think_with(app, worker, budget, stop, move |budget, flag| {
        let (inner, _) = spec.build();
        // Asked a step at a time: this step's share of what is left.
        let rest = fog::rest_of_turn(budget, &seen);
        FogPlayer::new(inner, fog::SAMPLES, seed).step(&seen, &rest, flag)
    })
    .await
}

/// Runs `search` on `worker`. The search is asked to stop at its
/// time (its own, or its share of the clock in `budget`, or when `stop` is
/// set); past [`STOP_MARGIN`] more it is no longer waited for. A panic in
/// the search is an error, not the end of the server.
async fn think_with<R: Send + 'static>(
    app: &App,
    worker: Worker,
    mut budget: Budget,
    stop: StopFlag,
    search: impl FnOnce(&Budget, &StopFlag) -> R + Send + 'static,
) -> Result<R, ComputerError> {
    let pool = &app.computer;
    // Nodes or depth alone could take any time: the time caps them too.
    let time = budget.turn_time().unwrap_or(DEFAULT_TIME);
    budget.time = Some(budget.time.map_or(time, |t| t.min(time)));
    pool.thinking.fetch_add(1, Ordering::Relaxed);
    app.metrics.searches.inc();
    let _thinking = Waiting(&pool.thinking);
    let flag = stop.clone();
    // The worker is held until the search really ends, so that a search
    // that overruns still counts against the workers.
    let thought = tokio::task::spawn_blocking(move || {
        let _worker = worker;
        search(&budget, &flag)
    });
    let asked_to_stop = tokio::time::sleep(time);
    tokio::pin!(thought, asked_to_stop);
    let joined = tokio::select! {
        r = &mut thought => r,
        _ = &mut asked_to_stop => {
            stop.stop();
            match tokio::time::timeout(STOP_MARGIN, &mut thought).await {
                Ok(r) => r,
                Err(_) => {
                    tracing::error!(?time, "a search did not stop at its time");
                    return Err(ComputerError::Overran);
                }
            }
        }
    };
    joined.map_err(|e| {
        tracing::error!(error = %e, "a search failed");
        ComputerError::Failed
    })
}
