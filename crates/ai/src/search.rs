//! What a search reports and how it is stopped (`thinking.rs` runs one on
//! its own thread).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use virus_wars_rules::{Position, Step};

use crate::budget::Budget;
use crate::score;

/// Shared flag that asks a running search to stop as soon as it can.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Depth in steps (alpha-beta) or the principal line's length (MCTS).
    pub depth: u32,
    /// Score for the side to step (see [`crate::score`]).
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The expected line, steps of both sides.
    pub pv: Vec<Step>,
}

impl SearchInfo {
    pub fn nodes_per_second(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }
}

/// A decision: the rest of the current turn.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The steps to play now, all by the side to step (empty only when the game is over).
    pub steps: Vec<Step>,
    /// The last completed iteration's report, if the player searches.
    pub info: Option<SearchInfo>,
}

/// What a depth-first search spends and when it must stop: the nodes
/// searched against a node limit, a deadline and a stop flag (the clock and
/// the flag are read every `every` nodes, a power of two).
pub struct Spent<'a> {
    pub nodes: u64,
    pub node_limit: u64,
    pub deadline: Option<std::time::Instant>,
    pub stop: &'a StopFlag,
    pub stopped: bool,
    every: u64,
}

impl<'a> Spent<'a> {
    pub fn new(
        budget: &Budget,
        start: std::time::Instant,
        nodes: u64,
        stop: &'a StopFlag,
        every: u64,
    ) -> Spent<'a> {
        Spent {
            nodes,
            node_limit: budget.nodes.unwrap_or(u64::MAX),
            deadline: budget.deadline(start),
            stop,
            stopped: false,
            every: every.next_power_of_two(),
        }
    }

    /// Reads the clock and the stop flag now (work between nodes that
    /// takes long, such as listing a node's turns); whether to stop.
    pub fn clock_says_stop(&mut self) -> bool {
        let late = self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d);
        if late || self.stop.is_stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the search must stop now (the clock and the flag read
    /// every `every` nodes).
    pub fn out_of_budget(&mut self) -> bool {
        if self.nodes & (self.every - 1) == 0 {
            self.clock_says_stop();
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// What every node of a negamax starts with: counts the node `p`,
    /// `ply` from the root, and gives its value where the search ends
    /// there: 0 past the root once the budget is spent (the search's
    /// answer is then thrown away), or the game's end, scored for the side
    /// to move by its distance.
    #[inline]
    pub fn enter<const N: usize>(&mut self, p: &Position<N>, ply: u32) -> Option<i32> {
        self.nodes += 1;
        if ply > 0 && self.out_of_budget() {
            return Some(0);
        }
        p.outcome().map(|o| score::ended(o, p.side(), ply))
    }
}
