//! What a load test measured, and the closing line that says it: the
//! latencies of the steady state apart from the ramp (players joining),
//! the longest wait any player had (a restart included), the steps a
//! second and the slowest second, and the CPU time the machine's host
//! took away over the run ("steal", on a virtual machine).

use std::time::Duration;

/// The figures of the closing line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Games played (finished or not when the time was up).
    pub games: u64,
    pub steps: u64,
    pub errors: u64,
    pub lost: u64,
    pub duplicated: u64,
    /// Games whose stored steps could not be read afterwards (their
    /// acknowledged steps count as lost).
    pub unchecked: u64,
    /// Step latencies of the steady state (steps sent after the ramp).
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// The longest wait for a step's acknowledgement, ramp and
    /// reconnections included: the longest pause a player saw.
    pub longest_ms: f64,
    /// Steps acknowledged a second in the steady state.
    pub steps_per_s: f64,
    /// The fewest steps acknowledged in one whole second of the steady state.
    pub slowest_second: u64,
    /// Sockets connected again after the server closed them (a restart).
    pub reconnected: u64,
    /// The 99th percentile of the steps sent during the ramp.
    pub ramp_p99_ms: f64,
    /// The share of the machine's CPU time its host took (/proc/stat's
    /// steal) over the run, in percent; `None` where it cannot be read.
    pub steal_percent: Option<f64>,
    /// Rated games that finished (with accounts).
    pub rated: u64,
    /// Accounts whose rated games counted on their page differ from those
    /// they finished (a rating moved twice, or never).
    pub rating_mismatches: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, steps {}, errors {}, lost {}, duplicated {}, p50 {:.1} ms, p99 {:.1} ms, \
             longest {:.1} ms, rate {:.0} steps/s, slowest {} steps/s, reconnected {}, \
             ramp-p99 {:.1} ms",
            self.games,
            self.steps,
            self.errors,
            self.lost,
            self.duplicated,
            self.p50_ms,
            self.p99_ms,
            self.longest_ms,
            self.steps_per_s,
            self.slowest_second,
            self.reconnected,
            self.ramp_p99_ms,
        )?;
        if let Some(steal) = self.steal_percent {
            write!(f, ", steal {steal:.1} %")?;
        }
        if self.unchecked > 0 {
            write!(f, ", unchecked {}", self.unchecked)?;
        }
        if self.rated > 0 || self.rating_mismatches > 0 {
            write!(
                f,
                ", rated {}, mismatched {}",
                self.rated, self.rating_mismatches
            )?;
        }
        Ok(())
    }
}

impl Report {
    /// What went wrong, in words; `None` when nothing did (every game
    /// played without an error, every acknowledged step stored once,
    /// every rated game counted once).
    pub fn faults(&self) -> Option<String> {
        let named = [
            (self.errors, "games failed"),
            (self.lost, "acknowledged steps lost"),
            (self.duplicated, "steps stored twice"),
            (self.unchecked, "games could not be checked"),
            (self.rating_mismatches, "accounts' rated games miscounted"),
        ];
        let said: Vec<String> = named
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if self.steps == 0 && said.is_empty() {
            return Some("no step was played".into());
        }
        (!said.is_empty()).then(|| said.join(", "))
    }
}

/// One acknowledged step: when it was sent and when its answer came,
/// from the start of the run.
#[derive(Clone, Copy, Debug)]
pub struct Ack {
    pub sent: Duration,
    pub answered: Duration,
}

/// The timing figures of `acks` over a run of `run` whose first `ramp`
/// is the ramp.
pub fn timing(report: &mut Report, acks: &[Ack], ramp: Duration, run: Duration) {
    let wait_us = |a: &Ack| a.answered.saturating_sub(a.sent).as_micros() as u64;
    let mut steady: Vec<u64> = acks
        .iter()
        .filter(|a| a.sent >= ramp)
        .map(wait_us)
        .collect();
    let mut ramping: Vec<u64> = acks.iter().filter(|a| a.sent < ramp).map(wait_us).collect();
    steady.sort_unstable();
    ramping.sort_unstable();
    report.p50_ms = percentile(&steady, 0.50);
    report.p99_ms = percentile(&steady, 0.99);
    report.ramp_p99_ms = percentile(&ramping, 0.99);
    report.longest_ms = acks.iter().map(wait_us).max().unwrap_or(0) as f64 / 1000.0;
    // Whole seconds from the end of the ramp to the end of the run.
    let first = ramp.as_secs_f64().ceil() as usize;
    let last = run.as_secs_f64().floor() as usize;
    if last > first {
        let mut per_second = vec![0u64; last - first];
        for a in acks {
            let s = a.answered.as_secs() as usize;
            if (first..last).contains(&s) {
                per_second[s - first] += 1;
            }
        }
        report.steps_per_s = per_second.iter().sum::<u64>() as f64 / per_second.len() as f64;
        report.slowest_second = per_second.iter().copied().min().unwrap_or(0);
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k] as f64 / 1000.0
}

/// The machine's CPU time so far from /proc/stat's first line: all of it
/// and the host's steal, in ticks (Linux only).
pub fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    parse_cpu_line(stat.lines().next()?)
}

/// `cpu  user nice system idle iowait irq softirq steal …`.
fn parse_cpu_line(line: &str) -> Option<(u64, u64)> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: Vec<u64> = fields
        .take(8)
        .map(|f| f.parse().ok())
        .collect::<Option<_>>()?;
    (ticks.len() == 8).then(|| (ticks.iter().sum(), ticks[7]))
}

/// The steal between two readings, in percent of all CPU time.
pub fn steal_percent(before: Option<(u64, u64)>, after: Option<(u64, u64)>) -> Option<f64> {
    let ((t0, s0), (t1, s1)) = (before?, after?);
    let total = t1.checked_sub(t0)?;
    (total > 0).then(|| s1.saturating_sub(s0) as f64 * 100.0 / total as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(sent_ms: u64, wait_ms: u64) -> Ack {
        Ack {
            sent: Duration::from_millis(sent_ms),
            answered: Duration::from_millis(sent_ms + wait_ms),
        }
    }

    #[test]
    fn the_ramp_is_measured_apart_and_the_slowest_second_is_found() {
        let mut acks = vec![ack(100, 900), ack(500, 800)];
        // Seconds 2, 3 and 4 of the steady state: 3, 1 and 2 steps.
        acks.extend([ack(2000, 5), ack(2100, 7), ack(2200, 9)]);
        acks.push(ack(3000, 400));
        acks.extend([ack(4000, 3), ack(4100, 3)]);
        let mut r = Report::default();
        timing(
            &mut r,
            &acks,
            Duration::from_secs(2),
            Duration::from_secs(5),
        );
        assert_eq!(r.ramp_p99_ms, 900.0);
        assert_eq!(r.p99_ms, 400.0);
        assert_eq!(r.p50_ms, 7.0);
        assert_eq!(r.longest_ms, 900.0);
        assert_eq!(r.slowest_second, 1);
        assert_eq!(r.steps_per_s, 2.0);
    }

    #[test]
    fn steal_is_read_from_the_eighth_number_of_the_cpu_line() {
        let before = parse_cpu_line("cpu  100 0 50 800 10 0 0 40 0 0");
        let after = parse_cpu_line("cpu  200 0 100 1450 10 0 0 240 0 0");
        assert_eq!(before, Some((1000, 40)));
        assert_eq!(after, Some((2000, 240)));
        assert_eq!(steal_percent(before, after), Some(20.0));
        assert_eq!(parse_cpu_line("cpu0 1 2 3 4 5 6 7 8"), None);
        assert_eq!(parse_cpu_line("cpu 1 2 3"), None);
        assert_eq!(steal_percent(None, after), None);
    }
}
