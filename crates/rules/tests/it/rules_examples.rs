//! The examples of docs/rules.md, played through the public API.

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::{
    position_string, Cell, Game, Outcome, Preset, Side, Step, StepError, Variant,
};

fn cells(list: &str) -> Vec<Cell> {
    let mut v: Vec<Cell> = list
        .split_whitespace()
        .map(|c| c.parse().unwrap())
        .collect();
    v.sort_by_key(|c| (c.rank, c.file));
    v
}

#[test]
fn access_runs_through_zombies_that_touch_a_live_virus() {
    let p = position_string::read(
        "5x5 steps=3,first=3,start=corners,end=standard 3OO/2O2/2x2/1X3/X3x x 3 3 XO 0",
    )
    .unwrap();
    assert_eq!(p.legal_cells(), cells("a2 b1 c1 c2 a3 b3 d2 d3 d4 b4 c4"));
    let mut q = p;
    assert!(matches!(
        q.play(Step::Cell("d1".parse().unwrap())),
        Err(StepError::NotAccessible { .. })
    ));
}

#[test]
fn a_kill_can_cut_a_group_off() {
    // O's only live virus is c4; its zombie chain d5..e5 dies with it.
    let mut p = position_string::read(
        "5x5 steps=3,first=3,start=corners,end=standard 3oo/2O2/2x2/1X3/X4 x 3 3 XO 0",
    )
    .unwrap();
    p.play(Step::Cell("c4".parse().unwrap())).unwrap();
    p.play(Step::Cell("c5".parse().unwrap())).unwrap();
    p.play(Step::Cell("b5".parse().unwrap())).unwrap();
    assert_eq!(p.side(), Side::O);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win(Side::X)),
        "O has no live group left"
    );
}

#[test]
fn taking_the_enemy_corner_before_it_enters_wins_on_3x3() {
    let v = Preset::Classic.sized(3, 3);
    let mut g = Game::new(v).unwrap();
    for s in parse_steps("a1 b2 c3").unwrap() {
        g.play(s).unwrap();
    }
    assert_eq!(g.outcome(), Some(Outcome::Win(Side::X)));
}

#[test]
fn pass_rule_passes_draws_and_ends_stuck_turns() {
    let mut g = Game::new(Preset::ClassicPass.variant()).unwrap();
    assert!(g.position().legal_steps().contains(&Step::Pass));
    g.play(Step::Cell("a1".parse().unwrap())).unwrap();
    assert_eq!(g.play(Step::Pass), Err(StepError::PassMidTurn));
    let mut g = Game::new(Preset::ClassicPass.variant()).unwrap();
    g.play(Step::Pass).unwrap();
    g.play(Step::Pass).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    // 3x3: X enters a1-b2 and then takes c3, O's corner: O can only pass.
    let v = Preset::ClassicPass.sized(3, 3);
    let mut g = Game::new(v).unwrap();
    for s in parse_steps("a1 b2 c3").unwrap() {
        g.play(s).unwrap();
    }
    assert_eq!(g.position().legal_steps(), vec![Step::Pass]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn pass_rule_annihilation_loses() {
    let mut p =
        position_string::read("4x4 steps=3,first=3,start=corners,end=pass 4/4/1O2/X3 x 3 1 XO 0")
            .unwrap();
    p.play(Step::Cell("b2".parse().unwrap())).unwrap();
    assert_eq!(p.outcome(), Some(Outcome::Win(Side::X)));
}

#[test]
fn a_turn_that_cannot_be_completed_ends_early_under_pass() {
    // X's only access is a2; after it, every neighbour is an O zombie.
    let walled = "3O/oo2/1o2/Xo2";
    let mut p = position_string::read(&format!(
        "4x4 steps=3,first=3,start=corners,end=pass {walled} x 3 3 XO 0"
    ))
    .unwrap();
    assert_eq!(p.legal_cells(), cells("a2"));
    p.play(Step::Cell("a2".parse().unwrap())).unwrap();
    assert_eq!(p.side(), Side::O, "the turn ended early");
    assert_eq!(p.outcome(), None);
    // Under the standard rule the same X loses: it cannot complete its turn.
    let mut s = position_string::read(&format!(
        "4x4 steps=3,first=3,start=corners,end=standard {walled} x 3 3 XO 0"
    ))
    .unwrap();
    s.play(Step::Cell("a2".parse().unwrap())).unwrap();
    assert_eq!(s.outcome(), Some(Outcome::Win(Side::O)));
}

#[test]
fn deathmatch_turns_grow() {
    let v = Variant {
        rules: virus_wars_rules::Rules {
            deathmatch: true,
            ..Preset::Gcr.variant().rules
        },
        ..Preset::Gcr.variant()
    };
    let mut g = Game::new(v).unwrap();
    let mut lengths = vec![];
    while lengths.len() < 5 {
        let turn = g.position().turn();
        let step = g.position().legal_steps()[0];
        g.play(step).unwrap();
        if g.position().turn() != turn {
            lengths.push(g.turns().last().unwrap().steps.len());
        }
    }
    assert_eq!(lengths, vec![1, 3, 4, 4, 5]);
}

#[test]
fn trenches_become_the_takers_zombies() {
    let mut p = position_string::read("4x4 paper-tactics 3O/4/1#2/X3 x 3 1 XO 0").unwrap();
    p.play(Step::Cell("b2".parse().unwrap())).unwrap();
    assert_eq!(
        p.content("b2".parse().unwrap()),
        virus_wars_rules::Content::Zombie(Side::X)
    );
    assert!(
        p.legal_cells().contains(&"c3".parse().unwrap()),
        "a taken trench extends the live group"
    );
}
