//! The MCTS tree: one node per position (found again by its Zobrist hash,
//! so steps that transpose share a node), edges with priors and RAVE/AMAF
//! statistics, PUCT selection, MCTS-solver proofs, and re-rooting that keeps
//! the subtree under the new root between turns.
//!
//! Values are X's share of the result (1 X wins, 0 O wins), so a node needs
//! no sign flips even where one side makes several steps in a row.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use virus_wars_rules::{Outcome, Position, Side};

use super::playout::{priors, x_share};
use crate::tt::PASS;

/// No node (an edge not yet expanded).
pub const NONE: u32 = u32::MAX;

/// A step out of a node.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Cell index, or [`PASS`].
    pub code: u16,
    pub prior: f32,
    pub child: u32,
    /// Simulations below the node in which the mover stepped on this cell later.
    pub amaf_n: u32,
    /// X's share summed over those simulations.
    pub amaf_x: f32,
}

/// A position in the tree.
#[derive(Clone, Debug, Default)]
pub struct Node {
    pub hash: u64,
    /// The side to step here.
    pub side: Side,
    /// Simulations through this node (virtual visits included while running).
    pub n: u32,
    /// X's share summed over them.
    pub x: f64,
    /// A result proven by the solver (or the game being over here).
    pub proven: Option<Outcome>,
    /// Whether the guiding net has given this node's priors.
    pub asked: bool,
    pub edges: Vec<Edge>,
}

impl Node {
    /// The node's value for `side`, from 0 to 1 (`fallback` when unvisited).
    pub fn value(&self, side: Side, fallback: f64) -> f64 {
        if let Some(o) = self.proven {
            return for_side(x_share(o), side);
        }
        if self.n == 0 {
            return fallback;
        }
        for_side(self.x / self.n as f64, side)
    }
}

/// X's share turned into `side`'s.
pub fn for_side(x: f64, side: Side) -> f64 {
    if side == Side::X {
        x
    } else {
        1.0 - x
    }
}

/// Selection constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// PUCT exploration weight.
    pub c_puct: f64,
    /// RAVE equivalence: after about this many visits an edge's own value
    /// counts as much as its AMAF value (0 turns RAVE off).
    pub rave: f64,
}

/// Keys that are Zobrist hashes already: taken as they are.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys come here; anything else is folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// The search tree, with a memory cap.
#[derive(Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    index: HashMap<u64, u32, BuildHasherDefault<ZobristHasher>>,
    edges: usize,
    cap_bytes: usize,
}

impl Tree {
    pub fn new(megabytes: usize) -> Tree {
        Tree {
            cap_bytes: megabytes.max(1) << 20,
            ..Tree::default()
        }
    }

    pub const ROOT: u32 = 0;

    /// Bytes used by nodes and edges (the hash index not counted).
    pub fn bytes(&self) -> usize {
        self.nodes.len() * (size_of::<Node>() + 24) + self.edges * size_of::<Edge>()
    }

    pub fn is_full(&self) -> bool {
        self.bytes() >= self.cap_bytes
    }

    pub fn clear(&mut self) {
        self.nodes.clear();
        self.index.clear();
        self.edges = 0;
    }

    pub fn find(&self, hash: u64) -> Option<u32> {
        self.index.get(&hash).copied()
    }

    /// Makes `p` the root, keeping what was learnt below it if it is in the
    /// tree (tree reuse); everything not under it is dropped.
    pub fn set_root<const N: usize>(&mut self, p: &Position<N>) {
        let Some(old_root) = self.find(p.hash()) else {
            self.clear();
            self.add(p);
            return;
        };
        let mut old = std::mem::take(&mut self.nodes);
        let mut remap = vec![NONE; old.len()];
        remap[old_root as usize] = 0;
        let mut nodes = vec![std::mem::take(&mut old[old_root as usize])];
        let mut i = 0;
        while i < nodes.len() {
            for k in 0..nodes[i].edges.len() {
                let child = nodes[i].edges[k].child;
                if child == NONE {
                    continue;
                }
                if remap[child as usize] == NONE {
                    remap[child as usize] = nodes.len() as u32;
                    nodes.push(std::mem::take(&mut old[child as usize]));
                }
                nodes[i].edges[k].child = remap[child as usize];
            }
            i += 1;
        }
        self.index = nodes
            .iter()
            .enumerate()
            .map(|(k, n)| (n.hash, k as u32))
            .collect();
        self.edges = nodes.iter().map(|n| n.edges.len()).sum();
        self.nodes = nodes;
    }

    /// Adds a node for `p` with its legal steps and their priors.
    pub fn add<const N: usize>(&mut self, p: &Position<N>) -> u32 {
        self.insert(Tree::node_for(p))
    }

    /// The node for `p`, with its legal steps and their hand-made priors,
    /// made apart from the tree (so a search makes it outside the tree's
    /// lock, where its cost does not hold the other threads up).
    pub fn node_for<const N: usize>(p: &Position<N>) -> Node {
        let mut codes: Vec<u16> = p.legal_cells().iter().map(|i| i as u16).collect();
        if p.can_pass() {
            codes.push(PASS);
        }
        let weights = priors(p, &codes);
        let edges: Vec<Edge> = codes
            .into_iter()
            .zip(weights)
            .map(|(code, prior)| Edge {
                code,
                prior,
                child: NONE,
                amaf_n: 0,
                amaf_x: 0.0,
            })
            .collect();
        Node {
            hash: p.hash(),
            side: p.side(),
            n: 0,
            x: 0.0,
            proven: p.outcome(),
            asked: false,
            edges,
        }
    }

    /// Puts `node` in the tree and returns its id.
    pub fn insert(&mut self, node: Node) -> u32 {
        let id = self.nodes.len() as u32;
        self.edges += node.edges.len();
        self.index.insert(node.hash, id);
        self.nodes.push(node);
        id
    }

    /// The edge to follow from node `id` (which has edges): a proven win at
    /// once, never a proven loss unless nothing else is left, otherwise the
    /// best PUCT score with RAVE-blended values.
    pub fn select(&self, id: u32, how: &Selection) -> usize {
        let node = &self.nodes[id as usize];
        let side = node.side;
        let parent_value = node.value(side, 0.5);
        let sqrt_n = (node.n.max(1) as f64).sqrt();
        let mut best = (f64::NEG_INFINITY, 0);
        for (k, e) in node.edges.iter().enumerate() {
            let (mut q, n) = if e.child == NONE {
                // Unvisited: the AMAF value alone when there is one (its
                // weight is 1 at no visits), else the parent's.
                let q = if how.rave > 0.0 && e.amaf_n > 0 {
                    for_side(e.amaf_x as f64 / e.amaf_n as f64, side)
                } else {
                    parent_value
                };
                let score = q + how.c_puct * e.prior as f64 * sqrt_n;
                if score > best.0 {
                    best = (score, k);
                }
                continue;
            } else {
                let child = &self.nodes[e.child as usize];
                match child.proven {
                    Some(Outcome::Win(w)) if w == side => return k,
                    Some(Outcome::Win(_)) => {
                        if best.0 == f64::NEG_INFINITY {
                            best = (-1e9, k);
                        }
                        continue;
                    }
                    _ => {}
                }
                (child.value(side, parent_value), child.n as f64)
            };
            if how.rave > 0.0 && e.amaf_n > 0 {
                let amaf = for_side(e.amaf_x as f64 / e.amaf_n as f64, side);
                let beta = (how.rave / (3.0 * n + how.rave)).sqrt();
                q = (1.0 - beta) * q + beta * amaf;
            }
            let score = q + how.c_puct * e.prior as f64 * sqrt_n / (1.0 + n);
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }

    /// MCTS-solver: proves node `id` won when one step wins for its mover,
    /// lost (or drawn) when every step is proven and none wins. Returns
    /// whether the node is proven now.
    pub fn try_prove(&mut self, id: u32) -> bool {
        let node = &self.nodes[id as usize];
        if node.proven.is_some() {
            return true;
        }
        let side = node.side;
        let (mut all, mut draw) = (true, false);
        for e in &node.edges {
            let proven = (e.child != NONE)
                .then(|| self.nodes[e.child as usize].proven)
                .flatten();
            match proven {
                Some(Outcome::Win(w)) if w == side => {
                    self.nodes[id as usize].proven = Some(Outcome::Win(side));
                    return true;
                }
                Some(Outcome::Draw) => draw = true,
                Some(Outcome::Win(_)) => {}
                None => all = false,
            }
        }
        if all && !node.edges.is_empty() {
            self.nodes[id as usize].proven = Some(if draw {
                Outcome::Draw
            } else {
                Outcome::Win(!side)
            });
        }
        all
    }

    /// The edge a player should take from node `id`: a proven win, else the
    /// most visited step not proven lost (ties go to the better value, and
    /// the prior decides among unvisited steps).
    pub fn best_edge(&self, id: u32) -> Option<usize> {
        let node = &self.nodes[id as usize];
        let side = node.side;
        let rank = |e: &Edge| -> (u8, u32, f64) {
            if e.child == NONE {
                return (1, 0, e.prior as f64);
            }
            let child = &self.nodes[e.child as usize];
            let class = match child.proven {
                Some(Outcome::Win(w)) if w == side => 3,
                Some(Outcome::Win(_)) => 0,
                _ => 1,
            };
            (class, child.n, child.value(side, 0.5))
        };
        (0..node.edges.len()).max_by(|&a, &b| {
            let (ra, rb) = (rank(&node.edges[a]), rank(&node.edges[b]));
            ra.partial_cmp(&rb).unwrap_or(std::cmp::Ordering::Equal)
        })
    }

    /// The expected line from the root, as step codes.
    pub fn principal_line(&self, max_len: usize) -> Vec<u16> {
        self.line().take(max_len).map(|(code, _)| code).collect()
    }

    /// The best line from the root as (step code, node reached), as long as
    /// it runs through visited nodes.
    fn line(&self) -> impl Iterator<Item = (u16, u32)> + '_ {
        let mut id = Tree::ROOT;
        std::iter::from_fn(move || {
            if id as usize >= self.nodes.len() {
                return None;
            }
            let e = &self.nodes[id as usize].edges[self.best_edge(id)?];
            if e.child == NONE || self.nodes[e.child as usize].n == 0 {
                return None;
            }
            id = e.child;
            Some((e.code, id))
        })
    }

    /// Whether a depth goal is met: the principal line is `depth` steps long,
    /// or runs into a proven node or the game's end, or the tree cannot grow
    /// any more.
    pub fn line_reaches(&self, depth: usize) -> bool {
        let mut path = vec![Tree::ROOT];
        path.extend(self.line().take(depth).map(|(_, id)| id));
        let end = path[path.len() - 1];
        path.len() > depth
            || path
                .iter()
                .any(|&id| self.nodes[id as usize].proven.is_some())
            || self.best_edge(end).is_none()
            || self.is_full()
    }

    /// Links edge `k` of `parent` to `child`.
    pub fn link(&mut self, parent: u32, k: usize, child: u32) {
        self.nodes[parent as usize].edges[k].child = child;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::{AnyPosition, Preset};

    /// A classic position with a few steps to choose from.
    fn classic() -> virus_wars_rules::SmallPosition {
        let mut p = match Preset::Classic.variant().start().unwrap() {
            AnyPosition::Small(p) => p,
            AnyPosition::Large(_) => panic!("classic is small"),
        };
        while p.legal_cells().count() < 3 {
            p.play_unchecked(p.legal_cells().first_index().unwrap());
        }
        p
    }

    #[test]
    fn reroot_keeps_the_subtree_and_drops_the_rest() {
        let p = classic();
        let mut tree = Tree::new(16);
        tree.set_root(&p);
        let first = tree.nodes[0].edges[0].code;
        let second = tree.nodes[0].edges[1].code;
        let mut a = p;
        a.play_unchecked(first as usize);
        let ia = tree.add(&a);
        tree.link(0, 0, ia);
        let mut b = p;
        b.play_unchecked(second as usize);
        let ib = tree.add(&b);
        tree.link(0, 1, ib);
        let mut aa = a;
        aa.play_unchecked(a.legal_cells().first_index().unwrap());
        let iaa = tree.add(&aa);
        tree.link(ia, 0, iaa);
        tree.nodes[iaa as usize].n = 7;
        tree.set_root(&a);
        assert_eq!(
            tree.nodes.len(),
            2,
            "a and its child survive, b and the old root go"
        );
        assert_eq!(tree.nodes[0].hash, a.hash());
        assert_eq!(tree.find(aa.hash()), Some(tree.nodes[0].edges[0].child));
        assert_eq!(tree.nodes[tree.nodes[0].edges[0].child as usize].n, 7);
        assert_eq!(tree.find(b.hash()), None);
        tree.set_root(&b);
        assert_eq!(tree.nodes.len(), 1, "an unknown root starts a new tree");
    }

    #[test]
    fn the_solver_proves_wins_and_losses() {
        let p = classic();
        let mut tree = Tree::new(16);
        tree.set_root(&p);
        let side = p.side();
        let edges = tree.nodes[0].edges.len();
        // Every child proven won for the opponent: the root is lost.
        for k in 0..edges {
            let id = tree.nodes.len() as u32;
            tree.nodes.push(Node {
                hash: k as u64 + 1,
                side: !side,
                proven: Some(Outcome::Win(!side)),
                ..Node::default()
            });
            tree.link(0, k, id);
            let done = tree.try_prove(0);
            assert_eq!(done, k + 1 == edges);
        }
        assert_eq!(tree.nodes[0].proven, Some(Outcome::Win(!side)));
        // One winning child is enough, and selection takes it at once.
        tree.nodes[0].proven = None;
        let last = tree.nodes[0].edges[edges - 1].child;
        tree.nodes[last as usize].proven = Some(Outcome::Win(side));
        assert!(tree.try_prove(0));
        assert_eq!(tree.nodes[0].proven, Some(Outcome::Win(side)));
        let how = Selection {
            c_puct: 1.0,
            rave: 300.0,
        };
        assert_eq!(tree.select(0, &how), edges - 1);
        assert_eq!(tree.best_edge(0), Some(edges - 1));
    }

    #[test]
    fn selection_prefers_value_then_explores() {
        let p = classic();
        let mut tree = Tree::new(16);
        tree.set_root(&p);
        let side = p.side();
        let how = Selection {
            c_puct: 1.0,
            rave: 0.0,
        };
        for (k, share) in [(0usize, 0.9), (1, 0.1)] {
            let id = tree.nodes.len() as u32;
            tree.nodes.push(Node {
                hash: 100 + k as u64,
                side: !side,
                n: 50,
                x: for_side(share, side) * 50.0,
                ..Node::default()
            });
            tree.link(0, k, id);
        }
        tree.nodes[0].n = 100;
        tree.nodes[0].x = for_side(0.5, side) * 100.0;
        let pick = tree.select(0, &how);
        assert_ne!(pick, 1, "never the bad step while others are unexplored");
        assert_eq!(tree.best_edge(0), Some(0));
    }
}
