//! Whether the database answers, as `/healthz` says and the requests go
//! by: probed every second by the task that says this process is alive
//! (`keep_alive`), and by `/healthz` itself when the last probe is over a
//! second old, each probe bounded to [`WITHIN`]. While it cannot be
//! reached, API requests are answered `503 unavailable` at once (no
//! request hangs on a pool that cannot connect); the outage is logged at
//! ERROR when it starts and the recovery at WARN, and
//! `vw_database_up`/`vw_database_errors_total` move. Recovery is seen at
//! the next probe: no restart.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::clock::Clock;
use crate::metrics::Metrics;
use crate::store::Store;

/// Longest a probe waits for the database.
pub const WITHIN: Duration = Duration::from_secs(2);
/// A probe younger than this is taken as it is by `/healthz`.
const FRESH_MS: u64 = 1000;

/// The database's state as last probed.
pub struct Health {
    up: AtomicBool,
    /// When `/healthz` last probed (ms, the app's clock): one probe at a
    /// time, and at most one a second however often it is asked.
    probed: tokio::sync::Mutex<u64>,
}

impl Default for Health {
    fn default() -> Self {
        Health {
            up: AtomicBool::new(true),
            probed: tokio::sync::Mutex::new(0),
        }
    }
}

impl Health {
    /// Whether the last probe reached the database.
    pub fn up(&self) -> bool {
        self.up.load(Ordering::Relaxed)
    }
}

impl Health {
    /// Records a probe's outcome: a change is logged, the metrics move.
    pub fn record(&self, metrics: &Metrics, outcome: Result<(), String>) {
        let was = self.up.swap(outcome.is_ok(), Ordering::Relaxed);
        metrics.database_up.set(i64::from(outcome.is_ok()));
        match outcome {
            Ok(()) if !was => tracing::warn!("the database answers again: requests are served"),
            Ok(()) => {}
            Err(why) => {
                metrics.database_errors.inc();
                if was {
                    tracing::error!(
                        error = %why,
                        "the database cannot be reached: /healthz answers 503 and requests are \
                         refused with 503 unavailable until it answers again"
                    );
                } else {
                    tracing::debug!(error = %why, "the database still cannot be reached");
                }
            }
        }
    }

    /// Whether the database answers now: the last probe if it is under a
    /// second old, else a new one (one at a time).
    pub async fn check(&self, store: &Store, metrics: &Metrics, clock: &Clock) -> bool {
        let mut probed = self.probed.lock().await;
        let now = clock.now_ms();
        if now.saturating_sub(*probed) < FRESH_MS {
            return self.up();
        }
        let outcome = bounded(store.ping()).await;
        *probed = clock.now_ms();
        self.record(metrics, outcome);
        self.up()
    }
}

/// Runs `probe` within [`WITHIN`]: its error, or that it took too long.
pub async fn bounded<F, T, E>(probe: F) -> Result<T, String>
where
    F: std::future::Future<Output = Result<T, E>>,
    E: std::fmt::Display,
{
    match tokio::time::timeout(WITHIN, probe).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", WITHIN.as_secs())),
    }
}
