//! One search's simulations, shared by its threads. A simulation descends
//! the tree under its lock (selection, virtual visits), is evaluated
//! without it (the new leaf's node, the net, the playout), and is backed up
//! under the lock again (values, AMAF, solver) — in the same hold as the
//! thread's next descent, so a thread takes the lock once a simulation.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Bitboard, Position};

use super::batch::Evaluator;
use super::neural::{ask_net, set_priors, Guide};
use super::play;
use super::playout::{self, play_out, Policy};
use super::tree::{for_side, Node, Selection, Tree, NONE};
use crate::eval::Weights;
use crate::search::StopFlag;
use crate::tt::PASS;

/// What one search for a single step shares between its threads.
pub(super) struct Shared<'a, const N: usize> {
    pub root: Position<N>,
    pub tree: Mutex<Tree>,
    pub how: Selection,
    pub policy: Policy,
    pub cutoff: u32,
    pub weights: Weights,
    pub guide: Option<&'a Guide>,
    /// Asks the guide's net, alone or in batches across the threads.
    pub evaluator: Option<Evaluator<'a>>,
    /// Simulations started (claimed) and finished.
    pub claimed: AtomicU64,
    pub playouts: AtomicU64,
    pub limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a StopFlag,
    pub done: AtomicBool,
}

/// A simulation's way down the tree.
struct Descent {
    /// The steps taken from the root (played on a position outside the
    /// lock).
    codes: Vec<u16>,
    /// Nodes left by a step: (node, edge).
    path: Vec<(u32, usize)>,
    /// Nodes given a virtual visit, with the share added for it.
    visited: Vec<(u32, f64)>,
    /// The first node on the path the net is due to give priors, and how
    /// many of the steps lead to it.
    to_ask: Option<(u32, usize)>,
    /// The edge whose new node this simulation makes (outside the lock).
    expand: Option<(u32, usize)>,
    /// The leaf's value when known without a playout (proven, game over).
    leaf_value: Option<f64>,
}

/// A simulation evaluated, waiting to be backed up.
pub(super) struct Finished<const N: usize> {
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
            || self.claimed.fetch_add(1, Ordering::Relaxed) >= self.limit;
        if over {
            self.done.store(true, Ordering::Relaxed);
        }
        !over
    }

    fn lock(&self) -> Option<MutexGuard<'_, Tree>> {
        match self.tree.lock() {
            Ok(tree) => Some(tree),
            Err(_) => {
                self.done.store(true, Ordering::Relaxed);
                None
            }
        }
    }

    /// One simulation: backs up the thread's last one (`pending`) and, if
    /// the search goes on, descends under the same hold of the lock, then
    /// evaluates without it; the result is left in `pending`. False when
    /// the search is over (with `pending` backed up).
    pub fn step(&self, rng: &mut SplitMix64, pending: &mut Option<Finished<N>>) -> bool {
        let Some(mut tree) = self.lock() else {
            return false;
        };
        if let Some(f) = pending.take() {
            self.back_up(&mut tree, f);
        }
        if !self.claim() {
            return false;
        }
        let Some(descent) = self.descend(&mut tree) else {
            self.done.store(true, Ordering::Relaxed);
            return false;
        };
        drop(tree);
        *pending = Some(self.evaluate(descent, rng));
        self.playouts.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// Backs up `pending`, if any (a thread's last simulation).
    pub fn finish(&self, pending: &mut Option<Finished<N>>) {
        if let Some(f) = pending.take() {
            if let Some(mut tree) = self.lock() {
                self.back_up(&mut tree, f);
            }
        }
    }

    /// Selects a path from the root to a leaf, giving each node on it a
    /// virtual visit; the tree alone, no position (the steps are played
    /// outside the lock). None when the root is proven (nothing to search).
    fn descend(&self, tree: &mut Tree) -> Option<Descent> {
        if tree.nodes[0].proven.is_some() {
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
        tree.nodes[0].n += 1;
        tree.nodes[0].x += 0.5;
        d.visited.push((0, 0.5));
        d.leaf_value = loop {
            let node = &tree.nodes[id as usize];
            if let Some(o) = node.proven {
                break Some(playout::x_share(o));
            }
            if node.edges.is_empty() {
                break None;
            }
            let side = node.side;
            let k = tree.select(id, &self.how);
            let e = &tree.nodes[id as usize].edges[k];
            let (code, child) = (e.code, e.child);
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
            let virtual_share = for_side(0.0, side);
            let n = &mut tree.nodes[child as usize];
            n.n += 1;
            n.x += virtual_share;
            d.visited.push((child, virtual_share));
            id = child;
            let node = &mut tree.nodes[id as usize];
            let due = after.is_some_and(|a| node.n >= a)
                && !node.asked
                && node.proven.is_none()
                && !node.edges.is_empty();
            if due && d.to_ask.is_none() {
                // Marked now, so other threads do not ask again.
                node.asked = true;
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
        let mut leaf = expand.map(|_| Tree::node_for(&pos));
        let leaf_value = leaf_value.or_else(|| {
            leaf.as_ref()
                .and_then(|node| node.proven.map(playout::x_share))
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
                .as_mut()
                .filter(|n| g.after <= 1 && n.proven.is_none() && !n.edges.is_empty())
            {
                // Due as soon as it is made: its priors go in with it, and
                // its value replaces or joins the playout.
                let (priors, value) = ask_net(forward, &pos, rng);
                for (e, &q) in node.edges.iter_mut().zip(&priors) {
                    e.prior = q;
                }
                node.asked = true;
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
    fn back_up(&self, tree: &mut Tree, f: Finished<N>) {
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
            // Another thread may have made the same node meanwhile.
            let child = match tree.find(node.hash) {
                Some(c) => c,
                None => tree.insert(node),
            };
            if tree.nodes[parent as usize].edges[k].child == NONE {
                tree.link(parent, k, child);
            }
            let n = &mut tree.nodes[child as usize];
            n.n += 1;
            n.x += result;
        }
        for &(id, virtual_share) in &visited {
            tree.nodes[id as usize].x += result - virtual_share;
        }
        let mut proving = true;
        for &(id, k) in path.iter().rev() {
            let side = tree.nodes[id as usize].side;
            let code = tree.nodes[id as usize].edges[k].code;
            if code != PASS {
                played[side.index()].insert(code as usize);
            }
            if self.how.rave > 0.0 {
                let mine = played[side.index()];
                for e in tree.nodes[id as usize].edges.iter_mut() {
                    if e.code != PASS && mine.contains(e.code as usize) {
                        e.amaf_n += 1;
                        e.amaf_x += result as f32;
                    }
                }
            }
            if proving {
                proving = tree.try_prove(id);
            }
        }
    }
}
