//! The net's guidance of the search: a node's priors from the net's policy,
//! and its value blended with the playout's. The net is asked while the
//! other threads go on searching, through a random board symmetry, for a node once it has
//! been visited `after` times (1: as soon as it is made; more asks the net
//! only where the search returns, so a slow net costs less), and for an
//! unsearched root. Self-play adds Dirichlet noise to the root's priors.

use std::sync::Arc;

use virus_wars_net::planes::{encode_position, encode_view, index};
use virus_wars_net::{Input, Network, Output};
use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{Position, Symmetry};

use super::tree::{for_side, Tree};

/// How a net guides the search.
#[derive(Clone, Debug)]
pub struct Guide {
    pub net: Arc<Network>,
    /// The net's value against the playout's at a new leaf (1: the net
    /// alone, no playout; 0: the playout alone).
    pub mix: f64,
    /// Visits a node needs before the net gives its priors (at least 1).
    pub after: u32,
    /// Positions the tree's threads gather for one pass of the net (1: each
    /// thread asks alone; see `batch.rs`).
    pub batch: usize,
    /// Under fog of war, the net that reads the side's view (its hidden
    /// cells on the unknown plane) for the priors of a drawn position's
    /// root: what the side knows, not what the draw made up. None: the
    /// draw's root is asked like any other.
    pub view_net: Option<Arc<Network>>,
}

/// What the net says of a position: a prior for each of its steps (in the
/// order of a node's edges: legal cells by index, then a pass) and X's share.
pub fn ask_net<const N: usize>(
    forward: impl FnOnce(Input) -> Output,
    p: &Position<N>,
    rng: &mut SplitMix64,
) -> (Vec<f32>, f64) {
    let sym = any_symmetry(p, rng);
    ask_net_on(forward, encode_position(p, sym), sym, p)
}

/// One of the symmetries of `p`'s board at random: over many nodes the
/// net's quirks average out.
fn any_symmetry<const N: usize>(p: &Position<N>, rng: &mut SplitMix64) -> Symmetry {
    let (w, h) = (p.geometry().width(), p.geometry().height());
    let fitting: Vec<Symmetry> = Symmetry::ALL.into_iter().filter(|s| s.fits(w, h)).collect();
    fitting[(rng.next_u64() % fitting.len() as u64) as usize]
}

/// [`ask_net`] with the priors for `p`'s steps read from the view it was
/// drawn from (`view`: the same side to move and legal cells, every cell
/// a side may step on being one it sees).
pub fn ask_view_net<const N: usize>(
    forward: impl FnOnce(Input) -> Output,
    view: &ViewPosition,
    p: &Position<N>,
    rng: &mut SplitMix64,
) -> (Vec<f32>, f64) {
    let sym = any_symmetry(p, rng);
    ask_net_on(forward, encode_view(view, sym), sym, p)
}

/// The net's priors for `p`'s steps and X's share, from `input` (a
/// position or view seen through `sym`).
fn ask_net_on<const N: usize>(
    forward: impl FnOnce(Input) -> Output,
    input: Input,
    sym: Symmetry,
    p: &Position<N>,
) -> (Vec<f32>, f64) {
    let (w, h) = (p.geometry().width(), p.geometry().height());
    let out = forward(input);
    let cells: Vec<usize> = p
        .legal_cells()
        .iter()
        .map(|i| index(sym.apply(p.geometry().cell(i), w, h), w))
        .collect();
    let mut priors = out.priors(&cells);
    if p.can_pass() {
        // The net has no pass output: a pass gets an equal share.
        let share = 1.0 / (priors.len() + 1) as f32;
        priors.iter_mut().for_each(|q| *q *= 1.0 - share);
        priors.push(share);
    }
    let mover_wins = (out.value as f64 + 1.0) / 2.0;
    (priors, for_side(mover_wins, p.side()))
}

/// Gives node `id` the priors `priors` (when they fit its edges).
pub fn set_priors(tree: &Tree, id: u32, priors: &[f32]) {
    let node = tree.node(id);
    node.set_asked();
    // A net whose output overflowed keeps the hand-made priors: a NaN
    // prior would win no comparison and leave selection blind.
    if node.edges.len() == priors.len() && priors.iter().all(|q| q.is_finite()) {
        for (e, &q) in node.edges.iter().zip(priors) {
            e.set_prior(q);
        }
    }
}

/// Mixes Dirichlet(`alpha`) noise into the root's priors with weight `eps`
/// (self-play's exploration).
pub fn add_root_noise(tree: &Tree, alpha: f64, eps: f64, rng: &mut SplitMix64) {
    let edges = &tree.node(Tree::ROOT).edges;
    let draws: Vec<f64> = edges.iter().map(|_| gamma(alpha, rng)).collect();
    let total: f64 = draws.iter().sum();
    if total.is_nan() || total <= 0.0 || !total.is_finite() {
        return;
    }
    for (e, d) in edges.iter().zip(draws) {
        e.set_prior(((1.0 - eps) * e.prior() as f64 + eps * d / total) as f32);
    }
}

/// A uniform draw in (0, 1).
fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A Gamma(`shape`, 1) draw (Marsaglia and Tsang; boosted below shape 1).
pub fn gamma(shape: f64, rng: &mut SplitMix64) -> f64 {
    if !(shape.is_finite() && shape > 0.0) {
        // No distribution: no draw (a NaN shape would never leave the loop).
        return 0.0;
    }
    if shape < 1.0 {
        return gamma(shape + 1.0, rng) * uniform(rng).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = uniform(rng);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::AnyPosition;

    #[test]
    fn gamma_draws_have_their_shape_as_mean() {
        let mut rng = SplitMix64::new(7);
        for shape in [0.03, 0.3, 1.0, 2.5] {
            let n = 20_000;
            let mean = (0..n).map(|_| gamma(shape, &mut rng)).sum::<f64>() / n as f64;
            assert!((mean - shape).abs() < 0.1 * shape + 0.01, "{shape}: {mean}");
        }
        for odd in [f64::NAN, 0.0, -1.0, f64::INFINITY] {
            assert_eq!(gamma(odd, &mut rng), 0.0, "{odd}");
        }
    }

    #[test]
    fn priors_that_are_not_numbers_leave_the_hand_made_ones() {
        let p = match virus_wars_rules::Preset::Feup.variant().start().unwrap() {
            AnyPosition::Small(p) => p,
            _ => panic!("feup is small"),
        };
        let mut tree = Tree::new(1);
        tree.set_root(&p);
        let priors = |tree: &Tree| -> Vec<f32> {
            tree.node(Tree::ROOT)
                .edges
                .iter()
                .map(|e| e.prior())
                .collect()
        };
        let before = priors(&tree);
        let mut bad = vec![0.1; before.len()];
        bad[1] = f32::NAN;
        set_priors(&tree, Tree::ROOT, &bad);
        assert_eq!(priors(&tree), before);
        assert!(
            tree.node(Tree::ROOT).asked(),
            "the net was asked all the same"
        );
        let good = vec![1.0 / before.len() as f32; before.len()];
        set_priors(&tree, Tree::ROOT, &good);
        assert_eq!(priors(&tree), good);
    }
}
