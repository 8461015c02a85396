//! What `/metrics` serves, by `prometheus-client` (OpenMetrics text): the
//! counters and gauges the server moves as it works, and those read off
//! its state when scraped.

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;
use std::time::Duration;

/// Upper bounds of the step latency histogram, in seconds.
const STEP_BUCKETS: [f64; 10] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0];
/// Upper bounds of the computer's wait for a worker, in seconds.
const WAIT_BUCKETS: [f64; 8] = [0.001, 0.01, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0];

pub struct Metrics {
    pub games_created: Counter,
    /// Open live sockets.
    pub sockets: Gauge,
    /// Open connections, HTTP and sockets alike.
    pub connections: Gauge,
    pub steps: Counter,
    pub requests_refused: Counter,
    /// Connections refused at once (too many from one address, or in all).
    pub connections_refused: Counter,
    /// Connections closed because the client did not take what was sent.
    pub slow_clients_closed: Counter,
    /// Searches run (computer turns and analyses).
    pub searches: Counter,
    /// 1 while the database answers, 0 while it cannot be reached.
    pub database_up: Gauge,
    /// Times the database could not be reached (probes and requests).
    pub database_errors: Counter,
    step_seconds: Histogram,
    ai_wait_seconds: Histogram,
    /// Read off the server when scraped (see [`Metrics::render`]).
    games_in_memory: Gauge,
    ai_queue: Gauge,
    ai_thinking: Gauge,
    registry: Registry,
}

impl Default for Metrics {
    fn default() -> Self {
        let m = Metrics {
            games_created: Counter::default(),
            sockets: Gauge::default(),
            connections: Gauge::default(),
            steps: Counter::default(),
            requests_refused: Counter::default(),
            connections_refused: Counter::default(),
            slow_clients_closed: Counter::default(),
            searches: Counter::default(),
            database_up: Gauge::default(),
            database_errors: Counter::default(),
            step_seconds: Histogram::new(STEP_BUCKETS),
            ai_wait_seconds: Histogram::new(WAIT_BUCKETS),
            games_in_memory: Gauge::default(),
            ai_queue: Gauge::default(),
            ai_thinking: Gauge::default(),
            registry: Registry::default(),
        };
        let mut r = Registry::with_prefix("vw");
        // Each metric is registered as a clone: they share their values.
        for (name, help, counter) in [
            ("games_created", "Games created", &m.games_created),
            ("steps", "Steps accepted", &m.steps),
            (
                "requests_refused",
                "Requests answered with an error",
                &m.requests_refused,
            ),
            (
                "connections_refused",
                "Connections refused at once: too many from one address, or in all",
                &m.connections_refused,
            ),
            (
                "slow_clients_closed",
                "Connections closed because the client did not take what was sent in time",
                &m.slow_clients_closed,
            ),
            (
                "ai_searches",
                "Searches run: computer turns and analyses",
                &m.searches,
            ),
            (
                "database_errors",
                "Times the database could not be reached, by a probe or a request",
                &m.database_errors,
            ),
        ] {
            r.register(name, help, counter.clone());
        }
        for (name, help, gauge) in [
            (
                "games_in_memory",
                "Games held in memory",
                &m.games_in_memory,
            ),
            ("sockets", "Open WebSocket connections", &m.sockets),
            (
                "connections",
                "Open connections, HTTP and WebSocket",
                &m.connections,
            ),
            (
                "ai_queue",
                "Computer turns waiting for a worker",
                &m.ai_queue,
            ),
            (
                "ai_thinking",
                "Computer turns being thought",
                &m.ai_thinking,
            ),
            (
                "database_up",
                "1 while the database answers (probed every second), 0 while it cannot be reached",
                &m.database_up,
            ),
        ] {
            r.register(name, help, gauge.clone());
        }
        for (name, help, histogram) in [
            (
                "ai_wait_seconds",
                "Time computer searches waited for a worker",
                &m.ai_wait_seconds,
            ),
            (
                "step_seconds",
                "Time to check, store and announce accepted steps",
                &m.step_seconds,
            ),
        ] {
            r.register(name, help, histogram.clone());
        }
        Metrics { registry: r, ..m }
    }
}

impl Metrics {
    /// An accepted request of `steps` steps that took `took` (stored and announced).
    pub fn step_done(&self, steps: u64, took: Duration) {
        self.steps.inc_by(steps);
        self.step_seconds.observe(took.as_secs_f64());
    }

    /// A computer search (a turn or an analysis) waited `waited` for a worker.
    pub fn ai_waited(&self, waited: Duration) {
        self.ai_wait_seconds.observe(waited.as_secs_f64());
    }

    /// The text `/metrics` serves (OpenMetrics), with what is read off the
    /// server as it is asked.
    pub fn render(&self, games_live: usize, ai_queue: u64, ai_thinking: u64) -> String {
        let gauge = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        self.games_in_memory.set(gauge(games_live as u64));
        self.ai_queue.set(gauge(ai_queue));
        self.ai_thinking.set(gauge(ai_thinking));
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// The content type of what [`Metrics::render`] writes.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_served_with_its_value() {
        let m = Metrics::default();
        m.steps.inc_by(3);
        m.sockets.inc();
        m.step_done(2, Duration::from_millis(3));
        m.ai_waited(Duration::from_millis(20));
        let text = m.render(7, 2, 1);
        for line in [
            "vw_steps_total 5",
            "vw_sockets 1",
            "vw_games_in_memory 7",
            "vw_ai_queue 2",
            "vw_ai_thinking 1",
            "vw_step_seconds_count 1",
            "vw_step_seconds_bucket{le=\"0.005\"} 1",
            "vw_step_seconds_bucket{le=\"0.002\"} 0",
            "vw_ai_wait_seconds_count 1",
            "vw_games_created_total 0",
            "vw_database_up 0",
            "vw_database_errors_total 0",
            "# EOF",
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in:\n{text}");
        }
    }
}
