//! Computer players: each turn is thought on a blocking worker, never on
//! the async runtime, at most `workers` at once; the rest wait in a queue
//! that the metrics count. Memory per search is capped for the server.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;
use virus_wars_ai::levels;
use virus_wars_ai::{Budget, PlayerSpec, SearchResult, StopFlag};
use virus_wars_rules::AnyPosition;

use crate::live::{self, Player, Shared};
use crate::App;

/// Most threads one search may use on the server.
pub const MAX_THREADS: usize = 2;

pub struct Pool {
    permits: Arc<Semaphore>,
    /// Analyses have their own, smaller share of workers, so that they
    /// never keep a computer opponent waiting.
    analysis_permits: Arc<Semaphore>,
    memory_mb: usize,
    /// Turns waiting for a worker.
    pub queued: AtomicU64,
    /// Turns being thought now.
    pub thinking: AtomicU64,
}

impl Pool {
    pub fn new(workers: usize, memory_mb: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            analysis_permits: Arc::new(Semaphore::new(workers.div_ceil(2).max(1))),
            memory_mb: memory_mb.max(1),
            queued: AtomicU64::new(0),
            thinking: AtomicU64::new(0),
        }
    }

    /// The spec a level plays with here: its own, with the tree capped.
    pub fn capped(&self, spec: &PlayerSpec) -> PlayerSpec {
        let spec = match spec {
            PlayerSpec::Level(n) => levels::level(*n).map_or(spec.clone(), |l| l.spec),
            other => other.clone(),
        };
        match spec {
            PlayerSpec::Mcts { budget, mut config } => {
                config.tree_mb = config.tree_mb.min(self.memory_mb);
                config.threads = config.threads.min(MAX_THREADS);
                PlayerSpec::Mcts { budget, config }
            }
            PlayerSpec::Net {
                budget,
                mut config,
                net,
                mix,
                after,
                batch,
            } => {
                config.tree_mb = config.tree_mb.min(self.memory_mb);
                config.threads = config.threads.min(MAX_THREADS);
                PlayerSpec::Net {
                    budget,
                    config,
                    net,
                    mix,
                    after,
                    batch,
                }
            }
            PlayerSpec::AlphaBeta { budget, hash_mb } => PlayerSpec::AlphaBeta {
                budget,
                hash_mb: hash_mb.min(self.memory_mb),
            },
            PlayerSpec::Turns {
                budget,
                width,
                hash_mb,
            } => PlayerSpec::Turns {
                budget,
                width,
                hash_mb: hash_mb.min(self.memory_mb),
            },
            other => other,
        }
    }
}

/// If the computer is to move in this game and not yet thinking, starts
/// its turn in the background.
pub fn maybe_move(app: &Arc<App>, shared: &Shared) {
    let task: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> =
        Box::pin(think(app.clone(), shared.clone()));
    tokio::spawn(task);
}

async fn think(app: Arc<App>, shared: Shared) {
    let (spec, side, seq, position) = {
        let mut g = shared.lock().await;
        if g.contest.finished() || g.thinking {
            return;
        }
        let side = g.contest.side_to_move();
        let Player::Computer(spec) = &g.players[side.index()] else {
            return;
        };
        let spec = app.computer.capped(spec);
        g.thinking = true;
        (spec, side, g.contest.seq(), *g.contest.game.position())
    };
    {
        let budget = spec.budget();
        let thought = search(&app, spec, position, budget, Kind::Turn).await;
        shared.lock().await.thinking = false;
        match thought.map(|r| r.steps) {
            Ok(steps) if !steps.is_empty() => {
                if let Err(e) = live::play(&app, &shared, side, seq, &steps).await {
                    tracing::warn!(error = ?e, "the computer's turn was refused");
                }
            }
            Ok(_) => tracing::warn!("the computer found no step"),
            // A panic in a search ends that search, not the server.
            Err(e) => tracing::error!(error = %e, "a computer player failed"),
        }
    }
}

/// What a search is for: a computer opponent's turn, or an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Turn,
    Analysis,
}

/// Thinks about `position` with `spec` and `budget` on a worker of the
/// pool (waiting for one if all are busy). A panic in the search is an
/// error, not the end of the server.
pub async fn search(
    app: &App,
    spec: PlayerSpec,
    position: AnyPosition,
    budget: Budget,
    kind: Kind,
) -> Result<SearchResult, tokio::task::JoinError> {
    app.computer.queued.fetch_add(1, Ordering::Relaxed);
    let queued_at = std::time::Instant::now();
    let permits = match kind {
        Kind::Turn => &app.computer.permits,
        Kind::Analysis => &app.computer.analysis_permits,
    };
    let permit = permits.clone().acquire_owned().await;
    app.computer.queued.fetch_sub(1, Ordering::Relaxed);
    app.metrics.ai_waited(queued_at.elapsed());
    app.computer.thinking.fetch_add(1, Ordering::Relaxed);
    let thought = tokio::task::spawn_blocking(move || {
        let (mut player, _) = spec.build();
        player.choose(&position, &budget, &StopFlag::new(), &mut |_| {})
    })
    .await;
    drop(permit);
    app.computer.thinking.fetch_sub(1, Ordering::Relaxed);
    thought
}

/// After a restart: every unfinished game where the computer is to move.
pub async fn resume_all(app: &Arc<App>) {
    let ids = match app.store.unfinished().await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!(error = %e, "cannot list unfinished games");
            return;
        }
    };
    for id in ids {
        match live::get(app, &id).await {
            Ok(shared) => maybe_move(app, &shared),
            Err(e) => tracing::error!(game = %id, error = ?e, "cannot resume a game"),
        }
    }
}
