//! A node of the MCTS tree and its edges, with statistics kept in atomics so
//! that a search's threads share the tree without a lock: each thread reads
//! and updates them as it descends and backs up.
//!
//! - A node's visits and value are exact: `fetch_add` on a visit count and
//!   on a fixed-point sum (X's share in units of 2⁻²⁴), so every virtual
//!   visit is undone exactly and none is lost.
//! - An edge's AMAF statistics are updated with a plain load and store:
//!   where two threads update the same edge at the same instant one update
//!   can be lost, which costs RAVE a sample (it is a heuristic average) and
//!   saves a locked instruction on each of the many edges a back-up touches.
//! - A prior is replaced as a whole when the net's word comes; a thread
//!   selecting at that moment sees the old or the new one.
//! - A proof, once set, is never taken back while the search runs.

use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicU8, Ordering::*};

use virus_wars_rules::{Outcome, Side};

use super::playout::x_share;

/// No node (an edge not yet expanded).
pub const NONE: u32 = u32::MAX;

/// Units of X's share in a node's fixed-point sum.
const UNIT: f64 = (1u64 << 24) as f64;

/// AMAF samples an edge takes: then its average is settled, and its `f32`
/// sum (exact in steps of 1/8 up to here) stops before rounding could bias it.
pub(super) const AMAF_SAMPLES: u32 = 1 << 20;

fn fixed(share: f64) -> i64 {
    (share * UNIT).round() as i64
}

/// A step out of a node.
#[derive(Debug)]
pub struct Edge {
    /// Cell index, or the pass code.
    pub code: u16,
    /// The prior, as `f32` bits.
    prior: AtomicU32,
    child: AtomicU32,
    /// Simulations below the node in which the mover stepped on this cell later.
    amaf_n: AtomicU32,
    /// X's share summed over those simulations, as `f32` bits.
    amaf_x: AtomicU32,
}

impl Edge {
    pub fn new(code: u16, prior: f32) -> Edge {
        Edge {
            code,
            prior: AtomicU32::new(prior.to_bits()),
            child: AtomicU32::new(NONE),
            amaf_n: AtomicU32::new(0),
            amaf_x: AtomicU32::new(0f32.to_bits()),
        }
    }

    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Relaxed))
    }

    pub fn set_prior(&self, prior: f32) {
        self.prior.store(prior.to_bits(), Relaxed);
    }

    /// The node this step leads to, or [`NONE`].
    pub fn child(&self) -> u32 {
        // Pairs with the release in `link`: a node is complete before its id
        // can be read here.
        self.child.load(Acquire)
    }

    /// Links the edge to `child` unless another thread linked it first.
    pub(super) fn link(&self, child: u32) {
        let _ = self.child.compare_exchange(NONE, child, Release, Relaxed);
    }

    /// Points the edge at `child` (re-rooting, with the tree to itself).
    pub(super) fn relink(&mut self, child: u32) {
        *self.child.get_mut() = child;
    }

    /// The AMAF count and X's share summed over it.
    pub fn amaf(&self) -> (u32, f32) {
        (
            self.amaf_n.load(Relaxed),
            f32::from_bits(self.amaf_x.load(Relaxed)),
        )
    }

    /// One more AMAF sample with X's share `x` (may be lost in a race; see
    /// the module's notes); none after [`AMAF_SAMPLES`].
    pub(super) fn add_amaf(&self, x: f32) {
        let n = self.amaf_n.load(Relaxed);
        if n >= AMAF_SAMPLES {
            return;
        }
        self.amaf_n.store(n + 1, Relaxed);
        let sum = f32::from_bits(self.amaf_x.load(Relaxed));
        self.amaf_x.store((sum + x).to_bits(), Relaxed);
    }
}

/// A position in the tree.
#[derive(Debug, Default)]
pub struct Node {
    pub hash: u64,
    /// The side to step here.
    pub side: Side,
    /// Simulations through this node (virtual visits included while running;
    /// 64 bits, so that no search, however long, can wrap it).
    n: AtomicU64,
    /// X's share summed over them, in units of 2⁻²⁴.
    x: AtomicI64,
    /// 0 unproven, else 1 + the proven outcome's code (see `encode`).
    proven: AtomicU8,
    /// Whether the guiding net has given (or is giving) this node's priors.
    asked: AtomicBool,
    pub edges: Box<[Edge]>,
}

fn encode(o: Option<Outcome>) -> u8 {
    match o {
        None => 0,
        Some(Outcome::Win(Side::X)) => 1,
        Some(Outcome::Win(Side::O)) => 2,
        Some(Outcome::Draw) => 3,
    }
}

fn decode(code: u8) -> Option<Outcome> {
    match code {
        1 => Some(Outcome::Win(Side::X)),
        2 => Some(Outcome::Win(Side::O)),
        3 => Some(Outcome::Draw),
        _ => None,
    }
}

impl Node {
    pub fn new(hash: u64, side: Side, proven: Option<Outcome>, edges: Vec<Edge>) -> Node {
        Node {
            hash,
            side,
            proven: AtomicU8::new(encode(proven)),
            edges: edges.into_boxed_slice(),
            ..Node::default()
        }
    }

    /// Simulations through the node.
    pub fn n(&self) -> u64 {
        self.n.load(Relaxed)
    }

    /// X's share summed over the simulations through the node.
    pub fn x(&self) -> f64 {
        self.x.load(Relaxed) as f64 / UNIT
    }

    pub fn proven(&self) -> Option<Outcome> {
        decode(self.proven.load(Relaxed))
    }

    pub fn set_proven(&self, o: Outcome) {
        self.proven.store(encode(Some(o)), Relaxed);
    }

    pub fn asked(&self) -> bool {
        self.asked.load(Relaxed)
    }

    pub fn set_asked(&self) {
        self.asked.store(true, Relaxed);
    }

    /// Marks the node asked; true for the one thread that marked it.
    pub(super) fn claim_ask(&self) -> bool {
        !self.asked.swap(true, Relaxed)
    }

    /// One more simulation through the node with X's share `x`.
    pub fn visit(&self, x: f64) {
        self.n.fetch_add(1, Relaxed);
        self.x.fetch_add(fixed(x), Relaxed);
    }

    /// Replaces a virtual visit's share `old` with the result `new`.
    pub(super) fn revalue(&self, old: f64, new: f64) {
        self.x.fetch_add(fixed(new) - fixed(old), Relaxed);
    }

    /// The node's value for `side`, from 0 to 1 (`fallback` when unvisited).
    pub fn value(&self, side: Side, fallback: f64) -> f64 {
        if let Some(o) = self.proven() {
            return for_side(x_share(o), side);
        }
        let n = self.n();
        if n == 0 {
            return fallback;
        }
        // Visits and sums are read apart, so while threads run the value
        // can stray past 0 or 1 by a share or so: harmless in selection.
        for_side(self.x() / n as f64, side)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_visits_are_undone_exactly() {
        let node = Node::new(1, Side::X, None, Vec::new());
        for k in 0..1000 {
            let result = (k % 7) as f64 / 7.0;
            node.visit(1.0);
            node.revalue(1.0, result);
        }
        let expected: f64 = (0..1000).map(|k| (k % 7) as f64 / 7.0).sum();
        assert_eq!(node.n(), 1000);
        assert!((node.x() - expected).abs() < 1e-3, "{}", node.x());
    }

    #[test]
    fn visits_count_past_the_32_bit_range() {
        let node = Node::new(1, Side::X, None, Vec::new());
        node.n.store(u64::from(u32::MAX), Relaxed);
        node.visit(1.0);
        assert_eq!(node.n(), u64::from(u32::MAX) + 1);
    }

    #[test]
    fn an_edge_amaf_average_holds_after_its_last_sample() {
        // Past 2^24 samples an f32 sum no longer grows by 1: the average
        // would sink below 1 if samples were still taken.
        let e = Edge::new(3, 0.25);
        for _ in 0..(1 << 24) + 1000 {
            e.add_amaf(1.0);
        }
        let (n, sum) = e.amaf();
        assert_eq!(n, AMAF_SAMPLES);
        assert_eq!(sum / n as f32, 1.0);
    }

    #[test]
    fn outcomes_round_trip() {
        let node = Node::new(1, Side::O, None, Vec::new());
        assert_eq!(node.proven(), None);
        for o in [Outcome::Win(Side::X), Outcome::Win(Side::O), Outcome::Draw] {
            node.set_proven(o);
            assert_eq!(node.proven(), Some(o));
        }
        assert_eq!(node.value(Side::O, 0.5), 0.5, "a draw is worth half");
    }

    #[test]
    fn an_edge_links_once() {
        let e = Edge::new(3, 0.25);
        assert_eq!(e.child(), NONE);
        e.link(7);
        e.link(9);
        assert_eq!(e.child(), 7, "the first link stays");
        e.add_amaf(1.0);
        e.add_amaf(0.5);
        assert_eq!(e.amaf(), (2, 1.5));
        e.set_prior(0.5);
        assert_eq!(e.prior(), 0.5);
    }
}
