//! Tests of the search as a whole.

use super::tree::NONE;
use super::*;
use crate::testing::self_play;
use std::sync::Arc;
use virus_wars_net::{Config, Network};
use virus_wars_rules::Preset;

const SMALL: Config = Config {
    channels: 8,
    blocks: 1,
    value_channels: 4,
    value_hidden: 8,
};

#[test]
fn a_net_guided_search_plays_whole_legal_games() {
    // Batches of 2: the two threads' evaluations gathered into one pass.
    for (mix, batch) in [(1.0, 1), (0.5, 1), (0.5, 2)] {
        let net = Arc::new(Network::random(SMALL, 3));
        let mut mcts = Mcts::new(MctsConfig {
            threads: 2,
            ..MctsConfig::default()
        })
        .with_guide(Guide {
            net,
            mix,
            after: 1,
            batch,
        });
        let start = Preset::Korobkov.variant().start().unwrap();
        let p = self_play(&mut mcts, start, &Budget::nodes(60), 300);
        assert!(
            p.outcome().is_some(),
            "mix {mix}, batch {batch}: the game ends"
        );
    }
}

#[test]
fn the_nets_policy_is_the_prior() {
    // A net of zeros gives every step the same prior, where the
    // hand-made priors favour kills.
    let mut p = Preset::Classic.variant().start().unwrap();
    let kills = loop {
        let with_kills = with_position!(&p, q => (q.legal_cells() & q.viruses(!q.side())).any());
        if with_kills {
            break p;
        }
        let steps = p.legal_steps();
        p.play(steps[(p.turn() as usize * 5) % steps.len()])
            .unwrap();
    };
    let mut plain = Mcts::new(MctsConfig {
        threads: 1,
        ..MctsConfig::default()
    });
    let mut guided = Mcts::new(MctsConfig {
        threads: 1,
        ..MctsConfig::default()
    })
    .with_net(Arc::new(Network::zeros(SMALL)), 1.0);
    for mcts in [&mut plain, &mut guided] {
        mcts.choose(&kills, &Budget::nodes(1), &StopFlag::new(), &mut |_| {});
    }
    let priors = |m: &Mcts| -> Vec<f32> {
        m.tree
            .node(Tree::ROOT)
            .edges
            .iter()
            .map(|e| e.prior())
            .collect()
    };
    let (a, b) = (priors(&plain), priors(&guided));
    assert!(
        a.iter().any(|q| (q - a[0]).abs() > 1e-6),
        "hand priors differ: {a:?}"
    );
    assert!(
        b.iter().all(|q| (q - b[0]).abs() < 1e-6),
        "the net's are uniform: {b:?}"
    );
}

#[test]
fn under_the_pass_rule_the_first_turn_is_played_not_passed() {
    // Two passes draw: passing at once would end the game before it began.
    for seed in 1..4 {
        let p = Preset::ClassicPass.variant().start().unwrap();
        let mut mcts = Mcts::new(MctsConfig {
            threads: 1,
            seed,
            ..MctsConfig::default()
        });
        let turn = mcts.choose(&p, &Budget::nodes(400), &StopFlag::new(), &mut |_| {});
        assert!(
            !turn.steps.contains(&Step::Pass),
            "seed {seed}: {:?}",
            turn.steps
        );
    }
}

#[test]
fn the_tree_is_reused_for_the_next_step_and_turn() {
    let p = Preset::Classic.variant().start().unwrap();
    let mut mcts = Mcts::new(MctsConfig {
        threads: 1,
        ..MctsConfig::default()
    });
    let turn = mcts.choose(&p, &Budget::nodes(3000), &StopFlag::new(), &mut |_| {});
    let mut q = p;
    for s in &turn.steps {
        q.play(*s).unwrap();
    }
    // The opponent's likeliest reply is in the tree with its statistics.
    let reply = with_position!(&q, r => {
        let id = mcts.tree.find(r.hash()).expect("the position after the turn is in the tree");
        let visits = mcts.tree.node(id).n();
        assert!(visits > 0);
        mcts.tree.set_root(r);
        assert_eq!(mcts.tree.node(Tree::ROOT).n(), visits, "statistics survive re-rooting");
        assert!(mcts.tree.len() > 1, "so does the subtree");
        visits
    });
    assert!(reply > 0);
}

#[test]
fn threads_sharing_a_tree_leave_it_consistent() {
    // The threads share the tree without a lock and make leaves at the same
    // time, so two may make the same node: it must still be in the tree
    // once, with every visit counted and every virtual visit undone.
    let p = Preset::Classic.variant().start().unwrap();
    for threads in [2, 4] {
        let mut mcts = Mcts::new(MctsConfig {
            threads,
            ..MctsConfig::default()
        });
        let visits = mcts.search_visits(&p, 3000);
        let tree = &mcts.tree;
        let root = tree.node(Tree::ROOT);
        assert_eq!(root.n(), 3000, "no virtual visit left, none lost");
        let below: u32 = visits.iter().map(|&(_, n)| n).sum();
        assert!(below <= 3000 && below + threads as u32 >= 3000, "{below}");
        let mut hashes: Vec<u64> = tree.nodes().map(|n| n.hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), tree.len(), "each position once");
        for (id, node) in tree.nodes().enumerate() {
            let (n, x) = (node.n() as f64, node.x());
            assert!(x >= 0.0 && x <= n + 1e-6, "node {id}: {x} over {n} visits");
            assert_eq!(tree.find(node.hash), Some(id as u32));
        }
        with_position!(&p, q => {
            for e in root.edges.iter() {
                if e.child() != NONE {
                    let mut r = *q;
                    play(&mut r, e.code);
                    assert_eq!(tree.node(e.child()).hash, r.hash());
                }
            }
        });
    }
}
