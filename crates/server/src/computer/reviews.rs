//! The engine's analyses of finished games (docs/api.md, Analysis of a
//! game), run in the background: each process takes one analysis at a
//! time from the queue in the database, judges the positions that start
//! each turn one by one on a worker of the pool taken at the lowest
//! priority ([`super::background_worker`]), and saves each judged position
//! with its lease renewed: a restart, or another process once the lease
//! lapses, goes on from the last one saved.

use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use virus_wars_ai::review::{self, Judged};
use virus_wars_ai::StopFlag;
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::Game;

use super::ComputerError;
use crate::live::{self};
use crate::App;

/// How long a lease on an analysis holds unless renewed (it is renewed
/// every third of that while the analysis runs, and by each position saved).
pub const LEASE_MS: u64 = 5_000;
/// How often a process with nothing to analyse looks at the queue again
/// (a request on this process wakes it at once).
const LOOK_EVERY: Duration = Duration::from_secs(1);

/// One judged position as stored: X's win chance and the best turn.
#[derive(Serialize, Deserialize)]
struct Stored {
    x: f64,
    best: Vec<String>,
}

/// The judged positions stored as `text`, as far as they read (a position
/// that does not read ends the list: it is judged again).
pub fn read_judged(text: &str) -> Vec<Judged> {
    let stored: Vec<Stored> = serde_json::from_str(text).unwrap_or_default();
    let mut out = Vec::with_capacity(stored.len());
    for s in stored {
        let Ok(best) = s.best.iter().map(|c| parse_step(c)).collect() else {
            break;
        };
        if !(0.0..=1.0).contains(&s.x) {
            break;
        }
        out.push(Judged { x_win: s.x, best });
    }
    out
}

fn write_judged(judged: &[Judged]) -> String {
    let stored: Vec<Stored> = judged
        .iter()
        .map(|j| Stored {
            x: (j.x_win * 10_000.0).round() / 10_000.0,
            best: j.best.iter().map(|s| s.to_string()).collect(),
        })
        .collect();
    serde_json::to_string(&stored).unwrap_or_else(|_| "[]".into())
}

/// Runs the queued analyses, one at a time, until the server stops; with
/// `analyse_finished`, when the queue is empty, queues the most recently
/// finished game that has no analysis.
pub async fn run_reviews(app: Arc<App>, analyse_finished: bool) {
    loop {
        let now = app.clock.now_ms();
        match app
            .store
            .take_analysis(now as i64, (now + LEASE_MS) as i64)
            .await
        {
            Ok(Some(row)) => {
                if let Err(e) = analyse(&app, &row.game_id, read_judged(&row.judged)).await {
                    tracing::warn!(game = %row.game_id, error = ?e, "an analysis failed");
                    tokio::time::sleep(LOOK_EVERY).await;
                }
                continue;
            }
            Ok(None) if analyse_finished => match app.store.queue_next_finished(now as i64).await {
                Ok(true) => continue,
                Ok(false) => {}
                Err(e) => tracing::warn!(error = %e, "cannot queue a finished game's analysis"),
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "cannot look at the analyses' queue"),
        }
        tokio::select! {
            _ = app.reviews_wake.notified() => {}
            _ = tokio::time::sleep(LOOK_EVERY) => {}
        }
    }
}

/// Positions of one game judged at once, each on its own worker.
const AT_ONCE: usize = 2;

/// Judges game `id`'s positions from where `judged` stops, saving them as
/// they are judged ([`AT_ONCE`] at a time).
async fn analyse(app: &App, id: &str, mut judged: Vec<Judged>) -> Result<(), ComputerError> {
    let game: Game = {
        let shared = live::get(app, id).await?;
        let g = shared.lock().await;
        g.table.contest.game.clone()
    };
    let starts = review::turn_starts(&game);
    judged.truncate(starts.len());
    if judged.len() == starts.len() {
        // Whole already (saved before its last save could say so).
        let now = app.clock.now_ms() as i64;
        let text = write_judged(&judged);
        app.store.save_analysis(id, &text, true, now, now).await?;
        return Ok(());
    }
    let spec = app.computer.capped(&review::judge_spec());
    let lost = StopFlag::new();
    let mut saved_whole = false;
    let renewing = Renewing(tokio::spawn(renew(
        app.store.clone(),
        app.clock.clone(),
        id.to_string(),
        lost.clone(),
    )));
    while judged.len() < starts.len() && !lost.is_stopped() {
        // The next positions, judged at once on workers of their own (as
        // many as are free for background work, up to [`AT_ONCE`]): each
        // search is independent, and a 2-core machine reviews in half the
        // time.
        let next = judged.len()..(judged.len() + AT_ONCE).min(starts.len());
        let searches = next.map(|k| {
            let p = starts[k];
            let spec = spec.clone();
            async move {
                match Judged::over(&p) {
                    Some(j) => Ok(j),
                    None => {
                        let worker = super::background_worker(app).await;
                        // Its own flag: `think` sets it at the search's time.
                        let budget = spec.budget();
                        let r = super::think(app, worker, spec, p, budget, StopFlag::new()).await?;
                        Ok::<_, ComputerError>(Judged::searched(&p, r))
                    }
                }
            }
        });
        let found = futures_util::future::join_all(searches).await;
        if lost.is_stopped() {
            break;
        }
        for j in found {
            judged.push(j?);
        }
        let done = judged.len() == starts.len();
        let now = app.clock.now_ms();
        saved_whole = done;
        if !app
            .store
            .save_analysis(
                id,
                &write_judged(&judged),
                done,
                now as i64,
                (now + LEASE_MS) as i64,
            )
            .await?
        {
            saved_whole = false;
            break;
        }
    }
    drop(renewing);
    if !saved_whole {
        tracing::info!(game = %id, "another process took this analysis over");
    }
    Ok(())
}

/// The lease's renewal, stopped with the analysis.
struct Renewing(tokio::task::JoinHandle<()>);

impl Drop for Renewing {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Renews this process's lease on game `id`'s analysis until aborted; if
/// the lease is lost (another process took the analysis over), says so in
/// `lost`.
async fn renew(store: crate::store::Store, clock: crate::Clock, id: String, lost: StopFlag) {
    loop {
        tokio::time::sleep(Duration::from_millis(LEASE_MS / 3)).await;
        match store
            .renew_analysis(&id, (clock.now_ms() + LEASE_MS) as i64)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                lost.stop();
                return;
            }
            Err(e) => tracing::warn!(game = %id, error = %e, "cannot renew an analysis's lease"),
        }
    }
}
