use super::*;
use virus_wars_rules::{AnyPosition, Preset, Side};

/// A classic position with a few steps to choose from.
/// A tree of 16 MB rooted at `p`.
fn rooted(p: &virus_wars_rules::SmallPosition) -> Tree {
    let mut tree = Tree::new(16);
    tree.set_root(p);
    tree
}

fn classic() -> virus_wars_rules::SmallPosition {
    let mut p = match Preset::Classic.variant().start().unwrap() {
        AnyPosition::Small(p) => p,
        _ => panic!("classic is small"),
    };
    while p.legal_cells().count() < 3 {
        p.play_unchecked(p.legal_cells().first_index().unwrap());
    }
    p
}

/// A node of no position in particular, to stand for a child.
fn child(tree: &Tree, hash: u64, side: Side, proven: Option<Outcome>) -> u32 {
    tree.insert(Node::new(hash, side, proven, Vec::new()))
        .expect("room for it")
}

#[test]
fn reroot_keeps_the_subtree_and_drops_the_rest() {
    let p = classic();
    let mut tree = rooted(&p);
    let first = tree.node(0).edges[0].code;
    let second = tree.node(0).edges[1].code;
    let mut a = p;
    a.play_unchecked(first as usize);
    let ia = tree.add(&a).unwrap();
    tree.link(0, 0, ia);
    let mut b = p;
    b.play_unchecked(second as usize);
    let ib = tree.add(&b).unwrap();
    tree.link(0, 1, ib);
    let mut aa = a;
    aa.play_unchecked(a.legal_cells().first_index().unwrap());
    let iaa = tree.add(&aa).unwrap();
    tree.link(ia, 0, iaa);
    for _ in 0..7 {
        tree.node(iaa).visit(1.0);
    }
    tree.set_root(&a);
    assert_eq!(
        tree.len(),
        2,
        "a and its child survive, b and the old root go"
    );
    assert_eq!(tree.node(0).hash, a.hash());
    assert_eq!(tree.find(aa.hash()), Some(tree.node(0).edges[0].child()));
    assert_eq!(tree.node(tree.node(0).edges[0].child()).n(), 7);
    assert_eq!(tree.find(b.hash()), None);
    tree.set_root(&b);
    assert_eq!(tree.len(), 1, "an unknown root starts a new tree");
}

#[test]
fn the_solver_proves_wins_and_losses() {
    let p = classic();
    let tree = rooted(&p);
    let side = p.side();
    let edges = tree.node(0).edges.len();
    // Every child proven won for the opponent: the root is lost.
    for k in 0..edges {
        let id = child(&tree, k as u64 + 1, !side, Some(Outcome::Win(!side)));
        tree.link(0, k, id);
        let done = tree.try_prove(0);
        assert_eq!(done, k + 1 == edges);
    }
    assert_eq!(tree.node(0).proven(), Some(Outcome::Win(!side)));
    // One winning child is enough, and selection takes it at once.
    let tree = rooted(&p);
    for k in 0..edges {
        let wins = k + 1 == edges;
        let proven = Some(Outcome::Win(if wins { side } else { !side }));
        let id = child(&tree, k as u64 + 1, !side, proven);
        tree.link(0, k, id);
    }
    assert!(tree.try_prove(0));
    assert_eq!(tree.node(0).proven(), Some(Outcome::Win(side)));
    let how = Selection {
        c_puct: 1.0,
        rave: 300.0,
    };
    assert_eq!(tree.select(0, &Scoring::new(how)), edges - 1);
    assert_eq!(tree.best_edge(0), Some(edges - 1));
}

#[test]
fn selection_prefers_value_then_explores() {
    let p = classic();
    let tree = rooted(&p);
    let side = p.side();
    let how = Selection {
        c_puct: 1.0,
        rave: 0.0,
    };
    for (k, share) in [(0usize, 0.9), (1, 0.1)] {
        let id = child(&tree, 100 + k as u64, !side, None);
        for _ in 0..50 {
            tree.node(id).visit(for_side(share, side));
        }
        tree.link(0, k, id);
    }
    for _ in 0..100 {
        tree.node(0).visit(for_side(0.5, side));
    }
    let pick = tree.select(0, &Scoring::new(how));
    assert_ne!(pick, 1, "never the bad step while others are unexplored");
    assert_eq!(tree.best_edge(0), Some(0));
}

#[test]
fn a_position_goes_in_once_and_a_full_table_refuses() {
    let tree = Tree::new(1);
    let a = child(&tree, 5, Side::X, None);
    assert_eq!(
        tree.insert(Node::new(5, Side::X, None, Vec::new())),
        Some(a)
    );
    assert_eq!(tree.len(), 1);
    // Far more nodes than a megabyte holds: the table stops taking them
    // instead of growing past its cap (or panicking).
    let mut last = None;
    for h in 6..200_000u64 {
        last = tree.insert(Node::new(h, Side::X, None, Vec::new()));
        if last.is_none() {
            break;
        }
    }
    assert_eq!(last, None, "the table is bounded");
    assert!(tree.is_full());
    assert!(tree.len() * NODE_BYTES <= (1 << 20) + 2 * SEGMENT * NODE_BYTES);
}

#[test]
fn threads_adding_the_same_positions_share_one_node_each() {
    let tree = Tree::new(64);
    let ids: Vec<Vec<u32>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|t| {
                let tree = &tree;
                s.spawn(move || {
                    (0..5000u64)
                        .map(|h| {
                            let h = if t % 2 == 0 { h } else { 4999 - h };
                            tree.insert(Node::new(h, Side::X, None, Vec::new()))
                                .unwrap()
                        })
                        .collect::<Vec<u32>>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(tree.len(), 5000);
    for (t, seen) in ids.iter().enumerate() {
        for (k, &id) in seen.iter().enumerate() {
            let h = if t % 2 == 0 { k } else { 4999 - k } as u64;
            assert_eq!(tree.node(id).hash, h);
            assert_eq!(tree.find(h), Some(id));
        }
    }
}

/// A preset's start, on the small board.
fn start(preset: Preset) -> virus_wars_rules::SmallPosition {
    match preset.variant().start().unwrap() {
        AnyPosition::Small(p) => p,
        _ => panic!("{} is small", preset.name()),
    }
}

#[test]
fn a_root_under_other_rules_starts_a_new_tree() {
    // Both starts are an empty 10×10 board with X to step: one hash, but
    // feup lets X enter on a whole file and classic in a corner.
    let (feup, classic) = (start(Preset::Feup), start(Preset::Classic));
    assert_eq!(feup.hash(), classic.hash());
    assert_ne!(feup.legal_cells(), classic.legal_cells());
    let mut tree = rooted(&feup);
    tree.set_root(&classic);
    let codes: Vec<usize> = tree
        .node(Tree::ROOT)
        .edges
        .iter()
        .map(|e| e.code as usize)
        .collect();
    let legal: Vec<usize> = classic.legal_cells().iter().collect();
    assert_eq!(codes, legal, "the root's steps are classic's");
}

#[test]
fn rave_weights_worked_out_ahead_are_the_formulas_own() {
    let how = Selection {
        c_puct: 1.0,
        rave: 300.0,
    };
    let scoring = Scoring::new(how);
    for visits in [
        0u64,
        1,
        2,
        7,
        100,
        1023,
        1024,
        1025,
        50_000,
        u64::from(u32::MAX) + 9,
    ] {
        let n = visits as f64;
        let fresh = (how.rave / (3.0 * n + how.rave)).sqrt();
        assert_eq!(scoring.beta(visits).to_bits(), fresh.to_bits(), "{visits}");
    }
    assert_eq!(scoring.beta(0), 1.0, "no visits: RAVE alone");
}
