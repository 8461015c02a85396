//! One search's simulations, shared by its threads without a lock: a
//! simulation descends the tree (selection, virtual visits), is evaluated
//! (the new leaf's node, the net, the playout) and is backed up (values,
//! AMAF, solver), all on the tree's atomics (`node.rs`); only adding the new
//! leaf's node takes a lock, one shard of the tree's index, for one insert.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Bitboard, Position};

use super::batch::Evaluator;
use super::code::play;
use super::neural::{ask_net, set_priors, Guide};
use super::playout::{self, play_out, Policy};
use super::tree::{for_side, Node, Scoring, Tree, NONE};
use crate::eval::Weights;
use crate::search::StopFlag;
use crate::tt::PASS;

/// What one search for a single step shares between its threads.
pub(super) struct Shared<'a, const N: usize> {
    pub root: Position<N>,
    pub tree: &'a Tree,
    pub scoring: Scoring,
    pub policy: Policy,
    pub cutoff: u32,
    pub weights: Weights,
    pub guide: Option<&'a Guide>,
    /// Asks the guide's net, alone or in batches across the threads.
    pub evaluator: Option<Evaluator<'a>>,
    /// Simulations started (claimed; counted only under a playout limit).
    pub claimed: AtomicU64,
    /// Simulations finished, by thread (apart, so no thread writes to a
    /// cache line another one writes to).
    pub finished: Box<[Counter]>,
    pub limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a StopFlag,
    pub done: AtomicBool,
}

/// A thread's count of finished simulations, on a cache line of its own.
#[derive(Default)]
#[repr(align(128))]
pub(super) struct Counter(AtomicU64);

/// A simulation's way down the tree.
struct Descent {
    /// The steps taken from the root (played on a position afterwards).
    codes: Vec<u16>,
    /// Nodes left by a step: (node, edge).
    path: Vec<(u32, usize)>,
    /// Nodes given a virtual visit, with the share added for it.
    visited: Vec<(u32, f64)>,
    /// The first node on the path the net is due to give priors, and how
    /// many of the steps lead to it.
    to_ask: Option<(u32, usize)>,
    /// The edge whose new node this simulation makes.
    expand: Option<(u32, usize)>,
    /// The leaf's value when known without a playout (proven, game over).
    leaf_value: Option<f64>,
}

/// A simulation evaluated, waiting to be backed up.
struct Finished<const N: usize> {
    path: Vec<(u32, usize)>,
    visited: Vec<(u32, f64)>,
    /// Priors the net gave a node of the path.
    asked: Option<(u32, Vec<f32>)>,
    /// The new leaf's node, to go under `expand`.
    leaf: Option<((u32, usize), Node)>,
    /// X's share of the result.
    result: f64,
    /// Cells each side stepped on after the path (for AMAF).
    played: [Bitboard<N>; 2],
}

impl<const N: usize> Shared<'_, N> {
    /// Claims the next simulation; false when the search must end (so a
    /// playout budget is met exactly, whatever the number of threads).
    fn claim(&self) -> bool {
        if self.done.load(Ordering::Relaxed) {
            return false;
        }
        let over = self.stop.is_stopped()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || (self.limit != u64::MAX
                && self.claimed.fetch_add(1, Ordering::Relaxed) >= self.limit);
        if over {
            self.done.store(true, Ordering::Relaxed);
        }
        !over
    }

    /// Simulations finished so far, over all threads.
    pub fn playouts(&self) -> u64 {
        self.finished
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }

    /// One simulation by thread `thread`: descends, evaluates and backs up.
    /// False when the search is over.
    pub fn step(&self, thread: usize, rng: &mut SplitMix64) -> bool {
        if !self.claim() {
            return false;
        }
        let Some(descent) = self.descend() else {
            self.done.store(true, Ordering::Relaxed);
            return false;
        };
        let finished = self.evaluate(descent, rng);
        self.back_up(finished);
        // This thread alone writes its counter: no locked add needed.
        let count = &self.finished[thread].0;
        count.store(count.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        true
    }

    /// Selects a path from the root to a leaf, giving each node on it a
    /// virtual visit; the tree alone, no position (the steps are played
    /// afterwards). None when the root is proven (nothing to search).
    fn descend(&self) -> Option<Descent> {
        let tree = self.tree;
        let root = tree.node(Tree::ROOT);
        if root.proven().is_some() {
            return None;
        }
        let after = self.guide.map(|g| g.after);
        let mut d = Descent {
            codes: Vec::with_capacity(64),
            path: Vec::with_capacity(64),
            visited: Vec::with_capacity(64),
            to_ask: None,
            expand: None,
            leaf_value: None,
        };
        let mut id = Tree::ROOT;
        root.visit(0.5);
        d.visited.push((Tree::ROOT, 0.5));
        d.leaf_value = loop {
            let node = tree.node(id);
            if let Some(o) = node.proven() {
                break Some(playout::x_share(o));
            }
            if node.edges.is_empty() {
                break None;
            }
            let k = tree.select(id, &self.scoring);
            let e = &node.edges[k];
            let (code, child) = (e.code, e.child());
            d.codes.push(code);
            d.path.push((id, k));
            if child == NONE {
                // A new leaf (or a position the tree holds under another
                // path: found when it is backed up).
                if !tree.is_full() {
                    d.expand = Some((id, k));
                }
                break None;
            }
            // A virtual loss for the mover, undone at the back-up.
            let virtual_share = for_side(0.0, node.side);
            let next = tree.node(child);
            next.visit(virtual_share);
            d.visited.push((child, virtual_share));
            id = child;
            let due = after.is_some_and(|a| next.n() >= u64::from(a))
                && !next.asked()
                && next.proven().is_none()
                && !next.edges.is_empty();
            // Marked now, so other threads do not ask again.
            if due && d.to_ask.is_none() && next.claim_ask() {
                d.to_ask = Some((id, d.codes.len()));
            }
        };
        Some(d)
    }

    /// The leaf's node, the net's word and the playout, outside the lock.
    fn evaluate(&self, d: Descent, rng: &mut SplitMix64) -> Finished<N> {
        let Descent {
            codes,
            path,
            visited,
            to_ask,
            expand,
            leaf_value,
        } = d;
        let mut pos = self.root;
        let mut to_ask = to_ask.map(|(id, at)| (id, at, self.root));
        for (i, &code) in codes.iter().enumerate() {
            play(&mut pos, code);
            if let Some((_, _, q)) = to_ask.as_mut().filter(|a| a.1 == i + 1) {
                *q = pos;
            }
        }
        let leaf = expand.map(|_| Tree::node_for(&pos));
        let leaf_value = leaf_value.or_else(|| {
            leaf.as_ref()
                .and_then(|node| node.proven().map(playout::x_share))
        });
        // The net's word: priors for a node already in the tree, and a value
        // (with its share) for the new leaf.
        let mut asked: Option<(u32, Vec<f32>)> = None;
        let mut net_value: Option<(f64, f64)> = None;
        if let Some((g, ev)) = self.guide.zip(self.evaluator.as_ref()) {
            let forward = |i| ev.evaluate(i);
            if let Some((id, _, q)) = to_ask {
                asked = Some((id, ask_net(forward, &q, rng).0));
            } else if let Some(node) = leaf
                .as_ref()
                .filter(|n| g.after <= 1 && n.proven().is_none() && !n.edges.is_empty())
            {
                // Due as soon as it is made: its priors go in with it, and
                // its value replaces or joins the playout.
                let (priors, value) = ask_net(forward, &pos, rng);
                for (e, &q) in node.edges.iter().zip(&priors) {
                    e.set_prior(q);
                }
                node.set_asked();
                net_value = Some((value, g.mix));
            }
        }
        let mut played = [Bitboard::<N>::EMPTY; 2];
        let result = match (leaf_value, net_value) {
            (Some(v), _) => v,
            (None, Some((value, mix))) if mix >= 1.0 => value,
            (None, net_value) => {
                let p = play_out(
                    &mut pos,
                    self.policy,
                    self.cutoff,
                    &self.weights,
                    rng,
                    &mut played,
                );
                match net_value {
                    Some((value, mix)) => mix * value + (1.0 - mix) * p,
                    None => p,
                }
            }
        };
        Finished {
            path,
            visited,
            asked,
            leaf: expand.zip(leaf),
            result,
            played,
        }
    }

    /// Backs a finished simulation up: the net's priors, the new leaf,
    /// values (undoing the virtual visits), AMAF and the solver.
    fn back_up(&self, f: Finished<N>) {
        let tree = self.tree;
        let Finished {
            path,
            visited,
            asked,
            leaf,
            result,
            mut played,
        } = f;
        if let Some((id, priors)) = asked {
            set_priors(tree, id, &priors);
        }
        if let Some(((parent, k), node)) = leaf {
            // Another thread may have made the same node meanwhile: then
            // that one is found and this one dropped.
            if let Some(child) = tree.insert(node) {
                tree.link(parent, k, child);
                tree.node(child).visit(result);
            }
        }
        for &(id, virtual_share) in &visited {
            tree.node(id).revalue(virtual_share, result);
        }
        let mut proving = true;
        for &(id, k) in path.iter().rev() {
            let node = tree.node(id);
            let side = node.side;
            let code = node.edges[k].code;
            if code != PASS {
                played[side.index()].insert(code as usize);
            }
            if self.scoring.how.rave > 0.0 {
                let mine = played[side.index()];
                for e in node.edges.iter() {
                    if e.code != PASS && mine.contains(e.code as usize) {
                        e.add_amaf(result as f32);
                    }
                }
            }
            if proving {
                proving = tree.try_prove(id);
            }
        }
    }
}
