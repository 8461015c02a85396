//! The MCTS tree: one node per position (found again by its Zobrist hash,
//! so steps that transpose share a node), edges with priors and RAVE/AMAF
//! statistics, PUCT selection, MCTS-solver proofs, and re-rooting that keeps
//! the subtree under the new root between turns.
//!
//! A search's threads share the tree without a lock ([`node`](super::node)
//! says how its statistics are kept). Nodes live in fixed-size segments that
//! never move, so a thread can read a node while another adds one; only
//! adding a node takes a lock, one of the hash index's 64 shards, for the
//! time of one map insert.
//!
//! Values are X's share of the result (1 X wins, 0 O wins), so a node needs
//! no sign flips even where one side makes several steps in a row.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard, OnceLock};

use virus_wars_rules::{Outcome, Position, Rules};

pub use super::node::{for_side, Edge, Node, NONE};
use super::playout::priors;
use crate::tt::PASS;

/// Selection constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Selection {
    /// PUCT exploration weight.
    pub c_puct: f64,
    /// RAVE equivalence: after about this many visits an edge's own value
    /// counts as much as its AMAF value (0 turns RAVE off).
    pub rave: f64,
}

/// RAVE weights worked out ahead, for edges visited fewer times than this.
const BETA_TABLE: usize = 1024;

/// Selection's constants with the RAVE weight of an edge's first visits
/// worked out ahead: selection weighs every visited step of every node on
/// its way down, and a division and a square root a step cost more than
/// one read of a small table.
#[derive(Debug)]
pub struct Scoring {
    pub how: Selection,
    /// RAVE's weight beside an edge's own value after `n` visits.
    beta: Box<[f64]>,
}

impl Scoring {
    pub fn new(how: Selection) -> Scoring {
        let beta = (0..BETA_TABLE)
            .map(|n| Scoring::beta_of(&how, n as f64))
            .collect();
        Scoring { how, beta }
    }

    fn beta_of(how: &Selection, n: f64) -> f64 {
        (how.rave / (3.0 * n + how.rave)).sqrt()
    }

    /// RAVE's weight after `visits` visits (the same as worked out anew).
    fn beta(&self, visits: u64) -> f64 {
        let ahead = usize::try_from(visits).ok().and_then(|i| self.beta.get(i));
        match ahead {
            Some(&b) => b,
            None => Scoring::beta_of(&self.how, visits as f64),
        }
    }
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

type Index = HashMap<u64, u32, BuildHasherDefault<ZobristHasher>>;

/// Nodes per segment (a power of two).
const SEGMENT_BITS: u32 = 12;
const SEGMENT: usize = 1 << SEGMENT_BITS;

/// A node's place in a segment: a cache line of its own, so that reading a
/// node in selection touches one line, not two.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Slot(OnceLock<Node>);

type Segment = Box<[Slot; SEGMENT]>;

const _: () = assert!(size_of::<Slot>() == 64, "a node fills one cache line");

/// Shards of the hash index, so that two threads adding nodes seldom wait
/// for each other (a power of two).
const SHARDS: usize = 64;

/// The tree's size, kept together (one cache line for both).
#[derive(Debug, Default)]
struct Size {
    /// Node ids handed out (ids `0..nodes`).
    nodes: AtomicU32,
    /// Bytes used by nodes and edges (and the index).
    bytes: AtomicUsize,
}

/// The search tree, with a memory cap.
#[derive(Debug)]
pub struct Tree {
    /// Node `id` is slot `id % SEGMENT` of segment `id / SEGMENT`; a segment
    /// is made when its first node comes.
    segments: Box<[OnceLock<Segment>]>,
    size: Size,
    /// Node ids by position hash, in shards by the hash's middle bits (the
    /// map itself uses its low and high bits); a shard is held while a node
    /// of its own is added.
    index: Box<[Mutex<Index>]>,
    cap_bytes: usize,
    /// The rules and board size of the positions in the tree, which their
    /// hashes leave out: a root under other rules starts a new tree.
    game: Option<(Rules, u8, u8)>,
}

/// Bytes a node counts for, besides its edges (with its index entry).
const NODE_BYTES: usize = size_of::<Slot>() + 24;

impl Tree {
    /// The most memory a tree may have: far fewer nodes than its 32-bit
    /// ids can count.
    pub const MAX_MEGABYTES: usize = 1 << 16;

    /// A tree using at most `megabytes` (from 1 to [`Tree::MAX_MEGABYTES`]).
    pub fn new(megabytes: usize) -> Tree {
        let cap_bytes = megabytes.clamp(1, Tree::MAX_MEGABYTES) << 20;
        Tree {
            segments: Tree::segment_table(cap_bytes),
            size: Size::default(),
            index: (0..SHARDS).map(|_| Mutex::default()).collect(),
            cap_bytes,
            game: None,
        }
    }

    /// Room for as many nodes as the cap allows, and a segment over for the
    /// few that threads add after the tree fills up.
    fn segment_table(cap_bytes: usize) -> Box<[OnceLock<Segment>]> {
        let most = cap_bytes / NODE_BYTES + 1;
        (0..most.div_ceil(SEGMENT) + 1)
            .map(|_| OnceLock::new())
            .collect()
    }

    pub const ROOT: u32 = 0;

    /// Nodes in the tree (ids handed out; with threads adding nodes, the
    /// last few may not be in yet).
    pub fn len(&self) -> usize {
        self.size.nodes.load(Acquire) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Node `id`, if it is in.
    fn get(&self, id: u32) -> Option<&Node> {
        let id = id as usize;
        self.segments
            .get(id >> SEGMENT_BITS)?
            .get()?
            .get(id & (SEGMENT - 1))?
            .0
            .get()
    }

    /// Node `id` (an edge's child, or the root).
    pub fn node(&self, id: u32) -> &Node {
        self.get(id)
            .expect("a node is complete before its id is published")
    }

    /// The nodes, by id.
    pub fn nodes(&self) -> impl Iterator<Item = &Node> + '_ {
        (0..self.len() as u32).filter_map(|id| self.get(id))
    }

    /// Bytes used by nodes and edges (and the index).
    pub fn bytes(&self) -> usize {
        self.size.bytes.load(Relaxed)
    }

    pub fn is_full(&self) -> bool {
        self.bytes() >= self.cap_bytes
    }

    pub fn clear(&mut self) {
        self.segments = Tree::segment_table(self.cap_bytes);
        self.size = Size::default();
        for shard in self.index.iter_mut() {
            shard
                .get_mut()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .clear();
        }
    }

    /// The index's shard for `hash` (a thread that panicked while holding
    /// it left it whole: one map insert is all it guards).
    fn shard(&self, hash: u64) -> MutexGuard<'_, Index> {
        self.index[(hash >> 32) as usize & (SHARDS - 1)]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn find(&self, hash: u64) -> Option<u32> {
        self.shard(hash).get(&hash).copied()
    }

    /// Makes `p` the root, keeping what was learnt below it if it is in the
    /// tree under the same rules and board size (tree reuse); everything not
    /// under it is dropped.
    pub fn set_root<const N: usize>(&mut self, p: &Position<N>) {
        let geometry = p.geometry();
        let game = Some((*p.rules(), geometry.width(), geometry.height()));
        let kept = if self.game == game {
            self.find(p.hash())
        } else {
            None
        };
        self.game = game;
        let Some(old_root) = kept else {
            self.clear();
            self.add(p);
            return;
        };
        let len = self.len();
        let mut old: Vec<Option<Node>> = Vec::with_capacity(len);
        for segment in self.segments.iter_mut() {
            let Some(segment) = segment.get_mut() else {
                break;
            };
            old.extend(segment.iter_mut().map(|slot| slot.0.take()));
        }
        old.truncate(len);
        let mut remap = vec![NONE; len];
        remap[old_root as usize] = 0;
        let mut kept: Vec<Node> = old[old_root as usize].take().into_iter().collect();
        let mut i = 0;
        while i < kept.len() {
            for k in 0..kept[i].edges.len() {
                let child = kept[i].edges[k].child();
                if child == NONE {
                    continue;
                }
                if remap[child as usize] == NONE {
                    if let Some(node) = old[child as usize].take() {
                        remap[child as usize] = kept.len() as u32;
                        kept.push(node);
                    }
                }
                kept[i].edges[k].relink(remap[child as usize]);
            }
            i += 1;
        }
        self.clear();
        for node in kept {
            self.insert(node);
        }
    }

    /// Adds a node for `p` with its legal steps and their priors.
    pub fn add<const N: usize>(&self, p: &Position<N>) -> Option<u32> {
        self.insert(Tree::node_for(p))
    }

    /// The node for `p`, with its legal steps and their hand-made priors,
    /// made apart from the tree (so a search makes it while other threads
    /// go on with theirs).
    pub fn node_for<const N: usize>(p: &Position<N>) -> Node {
        let mut codes: Vec<u16> = p.legal_cells().iter().map(|i| i as u16).collect();
        if p.can_pass() {
            codes.push(PASS);
        }
        let weights = priors(p, &codes);
        let edges: Vec<Edge> = codes
            .into_iter()
            .zip(weights)
            .map(|(code, prior)| Edge::new(code, prior))
            .collect();
        Node::new(p.hash(), p.side(), p.outcome(), edges)
    }

    /// Puts `node` in the tree and returns its id; where another thread
    /// put the same position in first, that node's id (and `node` is
    /// dropped). None when the tree has no room left.
    pub fn insert(&self, node: Node) -> Option<u32> {
        let mut shard = self.shard(node.hash);
        if let Some(&id) = shard.get(&node.hash) {
            return Some(id);
        }
        let bytes = NODE_BYTES + node.edges.len() * size_of::<Edge>();
        let id = self.size.nodes.fetch_add(1, AcqRel);
        self.size.bytes.fetch_add(bytes, Relaxed);
        let slot = id as usize;
        let segment = self.segments.get(slot >> SEGMENT_BITS)?.get_or_init(|| {
            let slots: Box<[Slot]> = (0..SEGMENT).map(|_| Slot::default()).collect();
            slots.try_into().expect("a segment has SEGMENT slots")
        });
        let hash = node.hash;
        segment[slot & (SEGMENT - 1)].0.set(node).ok()?;
        shard.insert(hash, id);
        Some(id)
    }

    /// The edge to follow from node `id` (which has edges): a proven win at
    /// once, never a proven loss unless nothing else is left, otherwise the
    /// best PUCT score with RAVE-blended values.
    pub fn select(&self, id: u32, scoring: &Scoring) -> usize {
        let how = &scoring.how;
        let node = self.node(id);
        let side = node.side;
        let parent_value = node.value(side, 0.5);
        let sqrt_n = (node.n().max(1) as f64).sqrt();
        let mut best = (f64::NEG_INFINITY, 0);
        for (k, e) in node.edges.iter().enumerate() {
            let (amaf_n, amaf_x) = if how.rave > 0.0 { e.amaf() } else { (0, 0.0) };
            let amaf = (amaf_n > 0).then(|| for_side(amaf_x as f64 / amaf_n as f64, side));
            let prior = e.prior() as f64;
            let child = e.child();
            if child == NONE {
                // Unvisited: the AMAF value alone when there is one (its
                // weight is 1 at no visits), else the parent's.
                let score = amaf.unwrap_or(parent_value) + how.c_puct * prior * sqrt_n;
                if score > best.0 {
                    best = (score, k);
                }
                continue;
            }
            let child = self.node(child);
            match child.proven() {
                Some(Outcome::Win(w)) if w == side => return k,
                Some(Outcome::Win(_)) => {
                    if best.0 == f64::NEG_INFINITY {
                        best = (-1e9, k);
                    }
                    continue;
                }
                _ => {}
            }
            // The child's value (a draw proven counts a half).
            let visits = child.n();
            let n = visits as f64;
            let mut q = match child.proven() {
                Some(_) => 0.5,
                None if visits == 0 => parent_value,
                None => for_side(child.x() / n, side),
            };
            if let Some(amaf) = amaf {
                let beta = scoring.beta(visits);
                q = (1.0 - beta) * q + beta * amaf;
            }
            let score = q + how.c_puct * prior * sqrt_n / (1.0 + n);
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }

    /// MCTS-solver: proves node `id` won when one step wins for its mover,
    /// lost (or drawn) when every step is proven and none wins. Returns
    /// whether the node is proven now.
    pub fn try_prove(&self, id: u32) -> bool {
        let node = self.node(id);
        if node.proven().is_some() {
            return true;
        }
        let side = node.side;
        let (mut all, mut draw) = (true, false);
        for e in node.edges.iter() {
            let child = e.child();
            let proven = (child != NONE).then(|| self.node(child).proven()).flatten();
            match proven {
                Some(Outcome::Win(w)) if w == side => {
                    node.set_proven(Outcome::Win(side));
                    return true;
                }
                Some(Outcome::Draw) => draw = true,
                Some(Outcome::Win(_)) => {}
                None => all = false,
            }
        }
        if all && !node.edges.is_empty() {
            node.set_proven(if draw {
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
        let node = self.node(id);
        let side = node.side;
        let rank = |e: &Edge| -> (u8, u64, f64) {
            let child = e.child();
            if child == NONE {
                return (1, 0, e.prior() as f64);
            }
            let child = self.node(child);
            let class = match child.proven() {
                Some(Outcome::Win(w)) if w == side => 3,
                Some(Outcome::Win(_)) => 0,
                _ => 1,
            };
            (class, child.n(), child.value(side, 0.5))
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
            if id as usize >= self.len() {
                return None;
            }
            let e = &self.node(id).edges[self.best_edge(id)?];
            let child = e.child();
            if child == NONE || self.node(child).n() == 0 {
                return None;
            }
            id = child;
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
            || path.iter().any(|&id| self.node(id).proven().is_some())
            || self.best_edge(end).is_none()
            || self.is_full()
    }

    /// Links edge `k` of `parent` to `child`, unless another thread linked
    /// it first.
    pub fn link(&self, parent: u32, k: usize, child: u32) {
        self.node(parent).edges[k].link(child);
    }
}

#[cfg(test)]
mod tests;
