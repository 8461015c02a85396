//! Samples agree with what the side knows and keep its legal steps; a fog
//! player given only what its side knows plays whole games.

use super::*;
use virus_wars_rules::{Content, Game, Preset, Variant};

use crate::spec::PlayerSpec;

/// Presets on small boards, double bases and trenches among them.
fn variants() -> Vec<Variant> {
    let mut out: Vec<Variant> = [
        Preset::Classic,
        Preset::PaperTactics,
        Preset::Gcr,
        Preset::Feup,
        Preset::ClassicPass,
        Preset::IgGameCenter,
    ]
    .into_iter()
    .map(|p| p.sized(7, 7))
    .collect();
    for text in [
        "size=7x7;start=corners;double-base=yes",
        "size=8x8;start=corners;trenches=20;seed=3",
    ] {
        out.push(Variant::from_options_text(text).expect("a variant"));
    }
    out
}

#[test]
fn samples_agree_with_what_the_side_knows_and_keep_its_legal_steps() {
    let mut rng = SplitMix64::new(3);
    let (mut sampled, mut missed, mut hidden_placed) = (0, 0, 0);
    let (mut hits, mut uniform) = (0usize, 0f64);
    for variant in variants() {
        for _ in 0..4 {
            let mut game = Game::new(variant.clone()).unwrap();
            while game.outcome().is_none() {
                let legal = game.position().legal_steps();
                let step = legal[rng.below(legal.len() as u32) as usize];
                game.play(step).unwrap();
                let p = *game.position();
                if p.outcome().is_some() {
                    break;
                }
                let seen = Seen::of_game(&game);
                let Some(q) = sample(&seen, &mut rng) else {
                    missed += 1;
                    continue;
                };
                sampled += 1;
                let (truth, got) = (p.to_setup(), q.to_setup());
                for (i, &hidden) in seen.view.unknown.iter().enumerate() {
                    if !hidden {
                        assert_eq!(got.cells[i], truth.cells[i], "a seen cell kept");
                    }
                }
                assert_eq!(q.legal_steps(), p.legal_steps(), "the same legal steps");
                let enemy = !p.side();
                let viruses = |s: &virus_wars_rules::Setup| {
                    s.cells
                        .iter()
                        .filter(|&&c| c == Content::Virus(enemy) || c == Content::Zombie(enemy))
                        .count()
                };
                assert_eq!(
                    viruses(&got),
                    viruses(&truth),
                    "as many enemy pieces: {} {} hidden {} of {}",
                    variant.options_text(),
                    virus_wars_rules::position_string::write(&p),
                    seen.hidden_enemy_pieces,
                    seen.view.unknown.iter().filter(|u| **u).count()
                );
                hidden_placed += seen.hidden_enemy_pieces;
                // Where the draw put the hidden pieces, against the truth;
                // and what placing them anywhere hidden would hit.
                let hidden: Vec<usize> = (0..truth.cells.len())
                    .filter(|&i| seen.view.unknown[i])
                    .collect();
                hits += hidden
                    .iter()
                    .filter(|&&i| {
                        truth.cells[i] != Content::Empty && got.cells[i] == truth.cells[i]
                    })
                    .count();
                let k = seen.hidden_enemy_pieces as f64;
                if !hidden.is_empty() {
                    uniform += k * k / hidden.len() as f64;
                }
                assert_eq!(
                    (q.side(), q.turn(), q.steps_left()),
                    (p.side(), p.turn(), p.steps_left())
                );
            }
        }
    }
    assert!(hidden_placed > 0, "some enemy viruses were hidden");
    // Drawn from its knowledge, a draw finds the hidden pieces more often
    // than placing them anywhere hidden would (measured: docs/ai.md).
    assert!(
        hits as f64 > 1.15 * uniform,
        "{hits} hidden pieces found, {uniform:.0} by chance"
    );
    assert!(
        missed * 100 <= sampled,
        "{missed} positions without a sample, {sampled} with"
    );
}

#[test]
fn a_fog_player_plays_whole_games_from_what_its_side_knows() {
    for (spec, variant) in [
        ("greedy", Preset::PaperTactics.sized(7, 7)),
        ("mcts:playouts=60", Preset::Classic.sized(6, 6)),
        ("level:1", Preset::Feup.sized(6, 6)),
        ("level:9", Preset::Gcr.sized(5, 5)),
    ] {
        let spec: PlayerSpec = spec.parse().unwrap();
        let mut players = [0u64, 1].map(|seed| {
            let (inner, budget) = spec.build();
            (FogPlayer::new(inner, 3, seed), budget)
        });
        let mut game = Game::new(variant).unwrap();
        let stop = StopFlag::new();
        while game.outcome().is_none() {
            let (player, budget) = &mut players[game.position().side().index()];
            let budget = Budget {
                time: Some(std::time::Duration::from_millis(30)),
                ..*budget
            };
            let step = player
                .step(&Seen::of_game(&game), &budget, &stop)
                .expect("a step from what it knows");
            game.play(step).expect("a legal step");
        }
    }
}

#[test]
fn a_step_asked_alone_gets_its_share_of_the_turn() {
    let mut game = Game::new(Preset::Classic.sized(6, 6)).unwrap();
    game.play(virus_wars_rules::Step::Cell(virus_wars_rules::Cell::new(
        0, 0,
    )))
    .unwrap();
    let seen = Seen::of_game(&game);
    assert_eq!(seen.view.setup.steps_left, 2);
    let turn = Budget {
        time: Some(std::time::Duration::from_millis(3000)),
        nodes: Some(900),
        ..Budget::default()
    };
    let rest = rest_of_turn(&turn, &seen);
    assert_eq!(rest.time, Some(std::time::Duration::from_millis(2000)));
    assert_eq!(rest.nodes, Some(600));
    // With a clock: its turn's time, shared the same way.
    let clocked = Budget {
        clock: Some(crate::budget::Clock {
            remaining: std::time::Duration::from_secs(60),
            increment: std::time::Duration::ZERO,
        }),
        ..Budget::default()
    };
    let whole = clocked.turn_time().unwrap();
    assert_eq!(rest_of_turn(&clocked, &seen).time, Some(whole * 2 / 3));
    // The most playouts a spec takes, shared without overflowing.
    let most = Budget::nodes(u64::MAX);
    assert_eq!(rest_of_turn(&most, &seen).nodes, Some(u64::MAX / 3 * 2));
    assert_eq!(step_share(&most, &seen).nodes, Some(u64::MAX / 2));
}
