//! The lines a program under test writes, read with deadlines. Shared by
//! the engine's tests (a session in process) and the binary's tests
//! (`crates/cli/tests`, which include this file by its path).
#![allow(dead_code)]

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

pub struct Lines(pub Receiver<String>);

impl Lines {
    /// Lines that arrive within `wait` (for checking that nothing came).
    pub fn within(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .0
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&self, prefix: &str) -> Vec<String> {
        self.until_either(&[prefix])
    }

    /// Lines up to and including the first that starts with any of
    /// `prefixes`. Gives up after 60 s in all, even while other lines keep
    /// coming.
    pub fn until_either(&self, prefixes: &[&str]) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .0
                .recv_timeout(left.min(Duration::from_secs(20)))
                .unwrap_or_else(|_| panic!("none of {prefixes:?}; got {seen:?}"));
            let done = prefixes.iter().any(|p| line.starts_with(p));
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// The first line that starts with `prefix`.
    pub fn last(&self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }

    /// Every line still to come, once the program ends.
    pub fn rest(&self) -> Vec<String> {
        let mut seen = Vec::new();
        while let Ok(line) = self.0.recv_timeout(Duration::from_secs(20)) {
            seen.push(line);
        }
        seen
    }
}
