//! Counters for `/metrics` (Prometheus text format).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the step latency histogram, in seconds.
const BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0];

#[derive(Default)]
pub struct Metrics {
    pub games_created: AtomicU64,
    pub sockets: AtomicU64,
    pub steps: AtomicU64,
    pub requests_refused: AtomicU64,
    /// Connections refused at once (too many from one address, or in all).
    pub connections_refused: AtomicU64,
    /// Connections closed because the client did not take what was sent.
    pub slow_clients_closed: AtomicU64,
    /// Searches run (computer turns and analyses).
    pub searches: AtomicU64,
    latency_buckets: [AtomicU64; 10],
    latency_count: AtomicU64,
    latency_sum_us: AtomicU64,
    ai_wait_count: AtomicU64,
    ai_wait_sum_us: AtomicU64,
}

impl Metrics {
    /// An accepted request of `steps` steps that took `took` (stored and announced).
    pub fn step_done(&self, steps: u64, took: Duration) {
        self.steps.fetch_add(steps, Ordering::Relaxed);
        let secs = took.as_secs_f64();
        for (k, bound) in BUCKETS.iter().enumerate() {
            if secs <= *bound {
                self.latency_buckets[k].fetch_add(1, Ordering::Relaxed);
            }
        }
        self.latency_count.fetch_add(1, Ordering::Relaxed);
        self.latency_sum_us
            .fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    /// A computer search (a turn or an analysis) waited `waited` for a worker.
    pub fn ai_waited(&self, waited: Duration) {
        self.ai_wait_count.fetch_add(1, Ordering::Relaxed);
        self.ai_wait_sum_us
            .fetch_add(waited.as_micros() as u64, Ordering::Relaxed);
    }

    /// The text `/metrics` serves.
    pub fn render(&self, games_live: usize, ai_queue: u64, ai_thinking: u64) -> String {
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut out = String::new();
        let mut metric = |name: &str, kind: &str, help: &str, value: String| {
            out.push_str(&format!(
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{value}"
            ));
        };
        metric(
            "vw_games_created_total",
            "counter",
            "Games created.",
            format!("vw_games_created_total {}\n", get(&self.games_created)),
        );
        metric(
            "vw_games_in_memory",
            "gauge",
            "Games held in memory.",
            format!("vw_games_in_memory {games_live}\n"),
        );
        metric(
            "vw_sockets",
            "gauge",
            "Open WebSocket connections.",
            format!("vw_sockets {}\n", get(&self.sockets)),
        );
        metric(
            "vw_steps_total",
            "counter",
            "Steps accepted.",
            format!("vw_steps_total {}\n", get(&self.steps)),
        );
        metric(
            "vw_requests_refused_total",
            "counter",
            "Requests answered with an error.",
            format!(
                "vw_requests_refused_total {}\n",
                get(&self.requests_refused)
            ),
        );
        metric(
            "vw_connections_refused_total",
            "counter",
            "Connections refused at once: too many from one address, or in all.",
            format!(
                "vw_connections_refused_total {}\n",
                get(&self.connections_refused)
            ),
        );
        metric(
            "vw_slow_clients_closed_total",
            "counter",
            "Connections closed because the client did not take what was sent in time.",
            format!(
                "vw_slow_clients_closed_total {}\n",
                get(&self.slow_clients_closed)
            ),
        );
        metric(
            "vw_ai_searches_total",
            "counter",
            "Searches run: computer turns and analyses.",
            format!("vw_ai_searches_total {}\n", get(&self.searches)),
        );
        metric(
            "vw_ai_queue",
            "gauge",
            "Computer turns waiting for a worker.",
            format!("vw_ai_queue {ai_queue}\n"),
        );
        metric(
            "vw_ai_thinking",
            "gauge",
            "Computer turns being thought.",
            format!("vw_ai_thinking {ai_thinking}\n"),
        );
        metric(
            "vw_ai_wait_seconds",
            "summary",
            "Time computer searches waited for a worker.",
            format!(
                "vw_ai_wait_seconds_sum {}\nvw_ai_wait_seconds_count {}\n",
                get(&self.ai_wait_sum_us) as f64 / 1e6,
                get(&self.ai_wait_count)
            ),
        );
        let mut h = String::new();
        for (k, bound) in BUCKETS.iter().enumerate() {
            h.push_str(&format!(
                "vw_step_seconds_bucket{{le=\"{bound}\"}} {}\n",
                get(&self.latency_buckets[k])
            ));
        }
        let count = get(&self.latency_count);
        h.push_str(&format!("vw_step_seconds_bucket{{le=\"+Inf\"}} {count}\n"));
        h.push_str(&format!(
            "vw_step_seconds_sum {}\n",
            get(&self.latency_sum_us) as f64 / 1e6
        ));
        h.push_str(&format!("vw_step_seconds_count {count}\n"));
        metric(
            "vw_step_seconds",
            "histogram",
            "Time to check, store and announce accepted steps.",
            h,
        );
        out
    }
}
