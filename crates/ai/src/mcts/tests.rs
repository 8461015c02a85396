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
            view_net: None,
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

#[test]
fn a_view_net_gives_a_drawn_root_the_priors_of_what_the_side_knows() {
    use crate::fog::sample;
    use virus_wars_rules::fog::Seen;
    use virus_wars_rules::rng::SplitMix64;
    use virus_wars_rules::Game;
    // A fog game far enough on that the enemy is out of sight, and two
    // draws of it that put the hidden pieces in different places.
    let mut v = Preset::Korobkov.variant();
    v.fog = true;
    let mut game = Game::new(v).unwrap();
    let mut rng = SplitMix64::new(4);
    let seen = loop {
        let legal = game.position().legal_steps();
        game.play(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
        let seen = Seen::of_game(&game);
        if game.steps().len() > 12 && seen.hidden_enemy_pieces > 2 {
            break seen;
        }
    };
    let a = sample(&seen, &mut rng).unwrap();
    let b = (0..50)
        .filter_map(|_| sample(&seen, &mut rng))
        .find(|b| b != &a)
        .expect("draws differ");
    let root_priors = |view_net: Option<Arc<Network>>, draw: &AnyPosition| -> Vec<f32> {
        let mut mcts = Mcts::new(MctsConfig {
            threads: 1,
            ..MctsConfig::default()
        })
        .with_guide(Guide {
            net: Arc::new(Network::random(SMALL, 5)),
            mix: 0.5,
            after: 32,
            batch: 1,
            view_net,
        });
        mcts.weigh_step_seen(draw, &seen.view, &Budget::nodes(1), &StopFlag::new());
        let root = mcts.tree.node(Tree::ROOT);
        root.edges.iter().map(|e| e.prior()).collect()
    };
    // The whole-board net reads each draw, made-up pieces and all.
    assert_ne!(root_priors(None, &a), root_priors(None, &b));
    // The view net reads only what the side knows: the same for both.
    let view_net = Some(Arc::new(Network::random(SMALL, 6)));
    let (pa, pb) = (root_priors(view_net.clone(), &a), root_priors(view_net, &b));
    assert_eq!(pa, pb);
    assert_ne!(pa, root_priors(None, &a), "not the whole-board net's");
}
