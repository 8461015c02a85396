//! Every player plays legal, complete turns; alpha-beta and MCTS prove forced wins;
//! a running search stops when asked.

use std::time::{Duration, Instant};

use virus_wars_ai::duel::play_out;
use virus_wars_ai::score;
use virus_wars_ai::{Budget, PlayerSpec, SearchHandle, StopFlag};
use virus_wars_rules::{position_string, Game, Outcome, Preset, Side, Variant};

fn small(preset: Preset) -> Variant {
    Variant {
        width: 6,
        height: 6,
        ..preset.variant()
    }
}

#[test]
fn every_player_finishes_games_on_every_preset() {
    let specs = [
        "random:seed=3",
        "greedy",
        "greedy:noise=0.5",
        "alphabeta:depth=2",
        "mcts:playouts=200",
        "mcts:playouts=100,playout=random,cutoff=8,rave=0,threads=1",
        "level:4",
    ];
    for preset in Preset::ALL {
        for (a, b) in specs.iter().zip(specs.iter().rev()) {
            let (x, bx) = a.parse::<PlayerSpec>().unwrap().build();
            let (o, bo) = b.parse::<PlayerSpec>().unwrap().build();
            let mut game = Game::new(small(preset)).unwrap();
            play_out(&mut game, &mut [x, o], [bx, bo]).unwrap();
            assert!(game.outcome().is_some(), "{preset} {a} vs {b}");
        }
    }
}

#[test]
fn the_searchers_prove_the_winning_turn() {
    // X kills O's only live virus (c3) and O's zombies give it no access.
    let p = position_string::read(
        "5x5 steps=3,first=3,start=corners,end=standard 3oo/4o/2O2/1X3/X4 x 3 3 XO 0",
    )
    .unwrap();
    for spec in ["alphabeta:depth=4", "mcts:playouts=20000,threads=2"] {
        let (mut player, budget) = spec.parse::<PlayerSpec>().unwrap().build();
        let result = player.choose(&p, &budget, &StopFlag::new(), &mut |_| {});
        let info = result.info.unwrap();
        assert!(
            score::is_proven(info.score) && info.score > 0,
            "{spec}: score {} is a proven win",
            info.score
        );
        let mut q = p;
        for s in &result.steps {
            q.play(*s).unwrap();
        }
        assert_eq!(
            q.outcome(),
            Some(Outcome::Win(Side::X)),
            "{spec}: steps {:?}",
            result.steps
        );
        if spec.starts_with("mcts") {
            assert!(
                info.nodes < 20000,
                "a proven root ends the search early ({} playouts)",
                info.nodes
            );
        }
    }
}

#[test]
fn alphabeta_beats_random() {
    for seed in 0..4 {
        let random = format!("random:seed={seed}");
        let (outcome, me) = crate::korobkov_game("alphabeta:depth=3", &random, seed % 2 == 0);
        assert_eq!(outcome, Some(Outcome::Win(me)), "seed {seed}");
    }
}

#[test]
fn a_running_search_stops_when_asked() {
    for spec in ["alphabeta:depth=64", "mcts:threads=2"] {
        let (player, _) = spec.parse::<PlayerSpec>().unwrap().build();
        let p = Preset::Gcr.variant().start().unwrap();
        let handle = SearchHandle::start(player, p, Budget::default(), |_| {});
        std::thread::sleep(Duration::from_millis(100));
        assert!(
            !handle.is_finished(),
            "{spec}: an unlimited search is still running"
        );
        let asked = Instant::now();
        handle.stop();
        while !handle.is_finished() {
            assert!(
                asked.elapsed() < Duration::from_secs(5),
                "{spec} ignored stop"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let (_, result) = handle.wait();
        assert_eq!(result.steps.len(), 1, "gcr's first turn has one step");
        let mut q = p;
        q.play(result.steps[0]).unwrap();
    }
}

#[test]
fn time_budget_is_respected_roughly() {
    let (mut ab, _) = "alphabeta:time=200ms"
        .parse::<PlayerSpec>()
        .unwrap()
        .build();
    let p = Preset::Classic.variant().start().unwrap();
    let t = Instant::now();
    let r = ab.choose(
        &p,
        &Budget::time(Duration::from_millis(200)),
        &StopFlag::new(),
        &mut |_| {},
    );
    assert_eq!(r.steps.len(), 3);
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "took {:?}",
        t.elapsed()
    );
}
