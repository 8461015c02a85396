//! Monte Carlo tree search over steps: PUCT selection with priors, RAVE/AMAF
//! (steps are cells, as in Go), transpositions, MCTS-solver, tree reuse
//! between steps and turns, `moo` playouts with an optional evaluation
//! cut-off, and several threads sharing one tree without a lock (virtual
//! loss keeps them apart; statistics are atomics, nodes sit in segments that
//! never move, and only adding a node takes one shard of the hash index:
//! `tree.rs`, `node.rs`, `simulation.rs`). With a network ([`neural`]) a
//! node's priors are the net's policy and a new leaf's value blends the
//! net's value with the playout's.

mod batch;
mod code;
mod guided;
pub mod neural;
mod node;
pub mod playout;
mod simulation;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{with_position, AnyPosition, Position, Step};

use crate::budget::Budget;
use crate::eval::Weights;
use crate::player::Player;
use crate::score;
use crate::search::{SearchInfo, SearchResult, StopFlag};
use batch::Evaluator;
pub use batch::{BATCH_WAIT, MAX_BATCH};
use code::{decode, play};
pub use neural::Guide;
use neural::{ask_net, ask_view_net, set_priors};
use playout::Policy;
use simulation::Shared;
use tree::{Scoring, Selection, Tree};

/// How often the search reports its progress.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// MCTS settings (the `mcts:` spec options).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    pub threads: usize,
    pub policy: Policy,
    /// Steps before a playout stops and the evaluation decides (0: play to the end).
    pub cutoff: u32,
    pub selection: Selection,
    /// Tree memory cap in megabytes.
    pub tree_mb: usize,
    pub seed: u64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            threads: 2,
            policy: Policy::Moo,
            cutoff: 0,
            selection: Selection {
                c_puct: 1.0,
                rave: 300.0,
            },
            tree_mb: 256,
            seed: 1,
        }
    }
}

/// The MCTS player. Keeps its tree between calls.
pub struct Mcts {
    pub config: MctsConfig,
    pub weights: Weights,
    /// The net that guides the search, if any.
    pub guide: Option<Guide>,
    /// Dirichlet noise (alpha, weight) mixed into the root's priors before
    /// each step's search (self-play's exploration).
    pub root_noise: Option<(f64, f64)>,
    tree: Tree,
    /// Playouts started over the player's life, to vary the random streams.
    runs: u64,
}

impl Mcts {
    pub fn new(config: MctsConfig) -> Mcts {
        Mcts {
            config,
            weights: Weights::TUNED,
            guide: None,
            root_noise: None,
            tree: Tree::new(config.tree_mb),
            runs: 0,
        }
    }
}

/// The part of the turn already decided, for reports.
pub(super) struct TurnSoFar<'a> {
    pub start: Instant,
    pub playouts: u64,
    pub steps: &'a [Step],
    /// Stop once the principal line is this long (the budget's depth).
    pub depth: Option<u32>,
    /// Under fog, the view the root was drawn from: with a guide's view
    /// net, the root's priors are read from it.
    pub view: Option<&'a ViewPosition>,
}

impl Mcts {
    /// Searches for one step from `root` and returns its code and the report.
    fn search_step<const N: usize>(
        &mut self,
        root: &Position<N>,
        deadline: Option<Instant>,
        limit: u64,
        stop: &StopFlag,
        turn: TurnSoFar<'_>,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (Option<u16>, SearchInfo) {
        self.tree.set_root(root);
        let tree = &self.tree;
        if let Some(g) = &self.guide {
            let node = tree.node(Tree::ROOT);
            let mut rng = SplitMix64::new(self.config.seed ^ self.runs);
            match (&g.view_net, turn.view) {
                // A drawn root: its priors from what the side knows.
                (Some(net), Some(view)) if node.proven().is_none() => {
                    let (priors, _) = ask_view_net(|i| net.forward(&i), view, root, &mut rng);
                    set_priors(tree, Tree::ROOT, &priors);
                }
                // A root the search has not been through yet gets the net's priors too.
                _ if !node.asked() && node.proven().is_none() => {
                    let (priors, _) = ask_net(|i| g.net.forward(&i), root, &mut rng);
                    set_priors(tree, Tree::ROOT, &priors);
                }
                _ => {}
            }
        }
        if let Some((alpha, eps)) = self.root_noise {
            let mut rng = SplitMix64::new(self.config.seed ^ self.runs ^ 0x5eed);
            neural::add_root_noise(tree, alpha, eps, &mut rng);
        }
        let shared = Shared {
            root: *root,
            tree,
            scoring: Scoring::new(self.config.selection),
            policy: self.config.policy,
            cutoff: self.config.cutoff,
            weights: self.weights,
            guide: self.guide.as_ref(),
            // A batch never waits for more threads than there are.
            evaluator: self
                .guide
                .as_ref()
                .map(|g| Evaluator::new(&g.net, g.batch.min(self.config.threads.max(1)))),
            claimed: AtomicU64::new(0),
            finished: (0..self.config.threads.max(1))
                .map(|_| Default::default())
                .collect(),
            limit,
            deadline,
            stop,
            done: AtomicBool::new(false),
        };
        let TurnSoFar {
            start,
            playouts: before,
            steps: played,
            depth,
            ..
        } = turn;
        // A depth goal counts from the turn's start, like the reported line.
        let depth_goal = depth.map(|d| (d as usize).saturating_sub(played.len()).max(1));
        let base_seed = self.config.seed ^ self.runs.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let describe = |tree: &Tree, playouts: u64| {
            let mut r = report(tree, root, start, before + playouts);
            // The line starts where the turn started.
            r.pv.splice(0..0, played.iter().copied());
            r.depth = r.pv.len() as u32;
            r
        };
        std::thread::scope(|scope| {
            for t in 1..self.config.threads.max(1) {
                let shared = &shared;
                scope.spawn(move || {
                    let mut rng = SplitMix64::new(base_seed.wrapping_add(t as u64));
                    while shared.step(t, &mut rng) {}
                });
            }
            let mut rng = SplitMix64::new(base_seed);
            let mut next_report = Instant::now() + REPORT_EVERY;
            let mut simulations = 0u64;
            while shared.step(0, &mut rng) {
                simulations += 1;
                if let Some(depth) = depth_goal.filter(|_| simulations % 64 == 0) {
                    if tree.line_reaches(depth) {
                        shared.done.store(true, Ordering::Relaxed);
                    }
                }
                if Instant::now() >= next_report {
                    next_report += REPORT_EVERY;
                    info(&describe(tree, shared.playouts()));
                }
            }
        });
        let playouts = shared.playouts();
        self.runs += playouts + 1;
        let last = describe(&self.tree, playouts);
        info(&last);
        let code = self
            .tree
            .best_edge(Tree::ROOT)
            .map(|k| self.tree.node(Tree::ROOT).edges[k].code);
        (code, last)
    }
}

/// The search's state as the protocol reports it.
fn report<const N: usize>(
    tree: &Tree,
    root: &Position<N>,
    start: Instant,
    playouts: u64,
) -> SearchInfo {
    let codes = tree.principal_line(40);
    let mut pv = Vec::with_capacity(codes.len());
    let mut p = *root;
    for &c in &codes {
        pv.push(decode(&p, c));
        play(&mut p, c);
    }
    let node = tree.node(Tree::ROOT);
    let side = node.side;
    let score = match node.proven() {
        Some(virus_wars_rules::Outcome::Win(w)) => {
            let win = score::win_in(codes.len() as u32);
            if w == side {
                win
            } else {
                -win
            }
        }
        _ => {
            let v = node.value(side, 0.5).clamp(0.001, 0.999);
            (300.0 * (v / (1.0 - v)).ln()).round() as i32
        }
    };
    SearchInfo {
        depth: codes.len() as u32,
        score,
        nodes: playouts,
        elapsed: start.elapsed(),
        pv,
    }
}

impl Player for Mcts {
    fn name(&self) -> String {
        "mcts".into()
    }

    /// Searches each step of the turn in turn, sharing the turn's time and
    /// playouts equally between the steps still to make (the tree carries
    /// over from one step to the next, and to the next turn).
    fn choose(
        &mut self,
        p: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let deadline = budget.deadline(start);
        let mut pos = *p;
        let (side, turn) = (p.side(), p.turn());
        let mut steps = Vec::new();
        let mut last: Option<SearchInfo> = None;
        let mut used = 0u64;
        while pos.outcome().is_none() && pos.side() == side && pos.turn() == turn {
            let share = pos.steps_left().max(1) as u32;
            let now = Instant::now();
            let step_deadline = deadline.map(|d| now + d.saturating_duration_since(now) / share);
            let limit = budget
                .nodes
                .map_or(u64::MAX, |n| n.saturating_sub(used) / share as u64)
                .max(1);
            let (code, report) = with_position!(&pos, q => {
                let so_far = TurnSoFar { start, playouts: used, steps: &steps, depth: budget.depth, view: None };
                let (code, report) = self.search_step(q, step_deadline, limit, stop, so_far, info);
                (code.map(|c| decode(q, c)), report)
            });
            used = report.nodes;
            last = Some(report);
            let Some(step) = code else { break };
            if pos.play(step).is_err() {
                break;
            }
            steps.push(step);
        }
        SearchResult { steps, info: last }
    }

    /// One step's search with the whole budget; the root's steps shared by
    /// visits (a proven win alone, proven losses at nothing).
    fn weigh_step(
        &mut self,
        p: &AnyPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        self.weigh(p, None, budget, stop)
    }

    fn weigh_step_seen(
        &mut self,
        draw: &AnyPosition,
        view: &ViewPosition,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        self.weigh(draw, Some(view), budget, stop)
    }

    fn new_game(&mut self) {
        self.tree.clear();
    }
}

impl Mcts {
    /// [`Player::weigh_step`], the root's priors from `view` (the view it
    /// was drawn from, under fog) where the guide has a view net.
    fn weigh(
        &mut self,
        p: &AnyPosition,
        view: Option<&ViewPosition>,
        budget: &Budget,
        stop: &StopFlag,
    ) -> Vec<(Step, f64)> {
        if p.outcome().is_some() {
            return Vec::new();
        }
        let start = Instant::now();
        let limit = budget.nodes.unwrap_or(u64::MAX).max(1);
        with_position!(p, q => {
            let so_far = TurnSoFar { start, playouts: 0, steps: &[], depth: budget.depth, view };
            let (code, _) = self.search_step(q, budget.deadline(start), limit, stop, so_far, &mut |_| {});
            let mut shares: Vec<(Step, f64)> = root_shares(&self.tree)
                .into_iter()
                .map(|(c, w)| (decode(q, c), w))
                .collect();
            // The search's own choice first, whatever its share.
            if let Some(best) = code.map(|c| decode(q, c)) {
                match shares.iter().position(|&(s, _)| s == best) {
                    Some(i) => shares[..=i].rotate_right(1),
                    None => shares.insert(0, (best, 0.0)),
                }
                if shares.iter().all(|&(_, w)| w == 0.0) {
                    shares[0].1 = 1.0;
                }
            }
            shares
        })
    }
}

/// The root's steps (codes) with their shares of its visits, summing to 1:
/// a step proven to win takes it all, one proven to lose has none.
fn root_shares(tree: &Tree) -> Vec<(u16, f64)> {
    let root = tree.node(Tree::ROOT);
    let side = root.side;
    let mut out: Vec<(u16, f64)> = Vec::with_capacity(root.edges.len());
    for e in root.edges.iter() {
        let child = e.child();
        let (n, proven) = if child == node::NONE {
            (0, None)
        } else {
            let c = tree.node(child);
            (c.n(), c.proven())
        };
        match proven {
            Some(virus_wars_rules::Outcome::Win(w)) if w == side => return vec![(e.code, 1.0)],
            Some(virus_wars_rules::Outcome::Win(_)) => out.push((e.code, 0.0)),
            _ => out.push((e.code, n as f64)),
        }
    }
    let total: f64 = out.iter().map(|&(_, n)| n).sum();
    if total > 0.0 {
        for (_, n) in &mut out {
            *n /= total;
        }
    }
    out.retain(|&(_, w)| w > 0.0);
    out
}

#[cfg(test)]
mod tests;
