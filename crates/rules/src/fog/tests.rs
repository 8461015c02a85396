//! Fog of war: what a side sees is true, holds every cell it may step on,
//! its own pieces, obstacles and the enemy zombies where its viruses
//! stood, remembers enemy pieces while they stand, and is everything once
//! the game is over.

use super::*;
use crate::rng::SplitMix64;
use crate::{position_string, Preset, Variant};

/// The variants played: presets with their options, and trenches and
/// obstacles on a small board.
fn variants() -> Vec<Variant> {
    let mut out: Vec<Variant> = [
        Preset::Classic,
        Preset::PaperTactics,
        Preset::Gcr,
        Preset::Feup,
        Preset::ClassicPass,
    ]
    .into_iter()
    .map(|p| p.sized(7, 7))
    .collect();
    out.push(
        Variant::from_options_text("size=7x7;trenches=30;obstacles=d4")
            .expect("a variant with trenches"),
    );
    out
}

/// Checks every rule of sight at `p` for both sides.
fn check(p: &AnyPosition, sight: &Sight, remembered: &mut [Vec<bool>; 2]) {
    let over = p.outcome().is_some();
    for side in Side::BOTH {
        let view = sight.view(p, side);
        for rank in 0..p.height() {
            for file in 0..p.width() {
                let c = Cell::new(file, rank);
                let truth = p.content(c);
                let i = rank as usize * p.width() as usize + file as usize;
                match view.content(c) {
                    Some(seen) => assert_eq!(seen, truth, "{c} as {side} sees it"),
                    None => {
                        assert!(!over, "{c}: everything is seen once the game is over");
                        assert!(
                            matches!(truth, Content::Empty | Content::Virus(_) | Content::Trench)
                                || truth == Content::Zombie(!side),
                            "{c} unseen holds {truth:?}"
                        );
                        assert_ne!(truth, Content::Virus(side), "{c}: own virus unseen");
                        assert!(
                            !remembered[side.index()][i],
                            "{c}: a virus seen before is forgotten"
                        );
                    }
                }
                // An enemy virus seen stays seen while it stands.
                if view.sees(c) && truth == Content::Virus(!side) {
                    remembered[side.index()][i] = true;
                }
                if truth != Content::Virus(!side) {
                    remembered[side.index()][i] = false;
                }
            }
        }
        if !over && side == p.side() {
            for c in p.legal_cells() {
                assert!(view.sees(c), "{side} may step on {c} and must see it");
            }
        }
    }
}

/// The mover's view written as text reads back: the same cells known,
/// `?` on the others.
fn as_text(p: &AnyPosition, sight: &Sight) {
    if p.outcome().is_some() {
        return;
    }
    let view = sight.view(p, p.side());
    let text = write_view(p, &view);
    let back = read_view(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    for (i, seen) in view.cells.iter().enumerate() {
        assert_eq!(back.unknown[i], seen.is_none(), "{text}: cell {i}");
        assert_eq!(
            back.setup.cells[i],
            seen.unwrap_or(Content::Empty),
            "{text}"
        );
    }
    assert_eq!(back.setup.side, p.side());
    assert_eq!(back.write(), text, "a view read back writes the same");
}

#[test]
fn sight_is_true_and_holds_what_the_rule_names_in_random_games() {
    let mut rng = SplitMix64::new(7);
    let mut unknown_seen = 0;
    for variant in variants() {
        for _ in 0..6 {
            let mut game = Game::new(variant.clone()).unwrap();
            let mut sight = Sight::start(game.position());
            let mut remembered = [vec![false; 49], vec![false; 49]];
            check(game.position(), &sight, &mut remembered);
            while game.outcome().is_none() {
                let legal = game.position().legal_steps();
                let step = legal[rng.below(legal.len() as u32) as usize];
                game.play(step).unwrap();
                sight.look(game.position());
                check(game.position(), &sight, &mut remembered);
                unknown_seen += sight.view(game.position(), Side::X).unknown();
                as_text(game.position(), &sight);
            }
            assert_eq!(Sight::of_game(&game), sight, "replayed, the same memory");
        }
    }
    assert!(unknown_seen > 0, "the fog hides something");
}

#[test]
fn a_virus_out_of_sight_is_unknown_and_one_seen_is_remembered() {
    // X at a1 sees around its group; O's viruses far away are unknown.
    let p = position_string::read(
        "5x5 steps=3,first=3,start=corners,end=standard 4O/5/5/5/X4 x 3 1 XO 0",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let sight = Sight::start(&p);
    let x = sight.view(&p, Side::X);
    assert_eq!(x.content(Cell::new(0, 0)), Some(Content::Virus(Side::X)));
    assert_eq!(x.content(Cell::new(1, 1)), Some(Content::Empty));
    assert_eq!(
        x.content(Cell::new(4, 4)),
        None,
        "O's virus is out of sight"
    );
    assert_eq!(x.content(Cell::new(2, 2)), None);
    assert_eq!(x.unknown(), 25 - 4);
}

#[test]
fn a_view_with_a_hidden_cell_its_side_must_see_is_refused_with_the_column() {
    let rules = "5x5 steps=3,first=3,start=corners,end=standard";
    let ok = format!("{rules} ?3O/5/2?2/5/X4 x 3 1 XO 0");
    let v = read_view(&ok).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.unknown.iter().filter(|u| **u).count(), 2);
    assert!(v.unknown[4 * 5], "a5 is unknown");
    // b1 is next to X's virus on a1: X sees it.
    let bad = format!("{rules} 4O/5/5/5/X?3 x 3 1 XO 0");
    let column = bad.find('?').unwrap() + 1;
    let e = read_view(&bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "column {column}: b1 is next to one of X's live groups: X sees it, so it cannot be '?'"
        )
    );
    // A plain position string refuses '?' as before.
    assert!(position_string::read(&ok).is_err());
}

#[test]
fn each_side_knows_its_own_steps_and_the_enemy_steps_it_saw_land() {
    let mut rng = SplitMix64::new(11);
    let (mut hidden_steps, mut watcher_cells_hidden) = (0, 0);
    for variant in variants() {
        for _ in 0..4 {
            let mut game = Game::new(variant.clone()).unwrap();
            // One memory followed step by step, with steps taken back now
            // and then, is the game replayed from the start.
            let mut followed = Known::of_game(&game);
            while game.outcome().is_none() {
                let legal = game.position().legal_steps();
                let step = legal[rng.below(legal.len() as u32) as usize];
                let mover = game.position().side();
                game.play(step).unwrap();
                let p = *game.position();
                let known = Known::of_game(&game);
                followed.catch_up(&game);
                assert_eq!(followed, known, "followed to step {}", game.steps().len());
                if rng.below(9) == 0 {
                    let mut back = game.clone();
                    back.undo_step();
                    followed.catch_up(&back);
                    assert_eq!(followed, Known::of_game(&back), "a step taken back");
                }
                assert_eq!(known.sight(), &Sight::of_game(&game));
                let k = game.steps().len() - 1;
                assert!(known.step_seen(Viewer::Player(mover), k), "own step");
                let other = !mover;
                let saw = known.step_seen(Viewer::Player(other), k);
                if let crate::Step::Cell(c) = step {
                    // Seen exactly when it sees the cell stepped on now: in
                    // its sight, or its own virus taken there.
                    let i = c.rank as usize * p.width() as usize + c.file as usize;
                    let view = known.sight().view(&p, other);
                    assert_eq!(saw, view.sees(c), "{c}");
                    // Out of its sight, only a step on its own virus (it
                    // sees it taken) or on a trench it saw (seen for ever).
                    let before = game.position_after(k).map(|q| q.content(c));
                    if saw && !in_sight(&p, other)[i] {
                        assert!(
                            before == Some(Content::Virus(other))
                                || before == Some(Content::Trench),
                            "{c}: {before:?}"
                        );
                    }
                    if !saw {
                        hidden_steps += 1;
                    }
                } else {
                    assert!(saw, "a pass is seen");
                }
                assert_eq!(
                    known.step_seen(Viewer::Watcher, k),
                    saw,
                    "watchers see a step both saw"
                );
                if p.outcome().is_some() {
                    break;
                }
                // Watchers: only what both sides see, and that truly.
                let x = known.cells(&p, Viewer::Player(Side::X));
                let o = known.cells(&p, Viewer::Player(Side::O));
                let w = known.cells(&p, Viewer::Watcher);
                for i in 0..w.len() {
                    match w[i] {
                        Some(c) => assert_eq!((x[i], o[i]), (Some(c), Some(c))),
                        None => {
                            assert!(x[i].is_none() || o[i].is_none());
                            watcher_cells_hidden += 1;
                        }
                    }
                }
                // Remembered: enemy viruses shown but out of sight now.
                for side in Side::BOTH {
                    let now = in_sight(&p, side);
                    for c in known.remembered(&p, side) {
                        let i = c.rank as usize * p.width() as usize + c.file as usize;
                        assert!(!now[i]);
                        assert_eq!(p.content(c), Content::Virus(!side));
                        assert_eq!(
                            known.cells(&p, Viewer::Player(side))[i],
                            Some(Content::Virus(!side))
                        );
                    }
                }
            }
        }
    }
    assert!(hidden_steps > 0, "some enemy steps land out of sight");
    assert!(watcher_cells_hidden > 0);
}

#[test]
fn the_side_to_move_knows_how_many_enemy_pieces_are_hidden() {
    let mut rng = SplitMix64::new(13);
    let mut hidden_somewhere = 0;
    let mut all = variants();
    all.push(Variant::from_options_text("size=7x7;start=corners;double-base=yes").unwrap());
    for variant in all {
        for _ in 0..4 {
            let mut game = Game::new(variant.clone()).unwrap();
            while game.outcome().is_none() {
                let legal = game.position().legal_steps();
                game.play(legal[rng.below(legal.len() as u32) as usize])
                    .unwrap();
                let p = *game.position();
                let seen = Seen::of_game(&game);
                let enemy = !p.side();
                let truth = seen
                    .view
                    .unknown
                    .iter()
                    .enumerate()
                    .filter(|&(i, &u)| {
                        let c = Cell::new(
                            (i % p.width() as usize) as u8,
                            (i / p.width() as usize) as u8,
                        );
                        u && matches!(p.content(c), Content::Virus(s) | Content::Zombie(s) if s == enemy)
                    })
                    .count() as u64;
                assert_eq!(
                    seen.hidden_enemy_pieces,
                    truth,
                    "{}",
                    variant.options_text()
                );
                hidden_somewhere += truth;
                assert_eq!(seen.view.setup.side, p.side());
            }
        }
    }
    assert!(hidden_somewhere > 0);
}

#[test]
fn a_trench_taken_out_of_sight_stays_hidden_with_its_step() {
    // The hostile test's game: O takes two trenches far from X.
    let v = Variant::from_options_text("size=8x8;start=corners;trenches=40;seed=0").unwrap();
    let mut game = Game::new(v).unwrap();
    for step in ["b1", "c1", "d1", "g7", "h6", "h5"] {
        game.play(crate::notation::parse_step(step).unwrap())
            .unwrap_or_else(|e| panic!("{step}: {e}"));
    }
    let p = *game.position();
    assert_eq!(
        p.content(Cell::new(7, 5)),
        Content::Zombie(Side::O),
        "h6 taken"
    );
    let known = Known::of_game(&game);
    let x = known.sight().view(&p, Side::X);
    for (k, name) in [(4, "h6"), (5, "h5")] {
        let c: Cell = name.parse().unwrap();
        assert_eq!(x.content(c), None, "{name} is out of X's sight");
        assert!(!known.step_seen(Viewer::Player(Side::X), k), "{name}");
        assert!(!known.step_seen(Viewer::Watcher, k), "{name}");
    }
}

#[test]
fn a_trench_seen_stays_seen_and_is_seen_taken() {
    // X at a1 sees the trench on b1, and so its twin on g8; O takes g8.
    let v = Variant::from_options_text("size=8x8;start=corners;trenches=40;seed=0").unwrap();
    let mut game = Game::new(v).unwrap();
    let g8: Cell = "g8".parse().unwrap();
    assert_eq!(game.position().content(g8), Content::Trench);
    let x = Known::of_game(&game).sight().view(game.position(), Side::X);
    assert_eq!(x.content(g8), Some(Content::Trench), "the twin of b1");
    for step in ["a2", "b2", "c2", "g8"] {
        game.play(crate::notation::parse_step(step).unwrap())
            .unwrap_or_else(|e| panic!("{step}: {e}"));
    }
    let p = *game.position();
    assert_eq!(p.content(g8), Content::Zombie(Side::O));
    let known = Known::of_game(&game);
    let x = known.sight().view(&p, Side::X);
    assert_eq!(x.content(g8), Some(Content::Zombie(Side::O)), "seen taken");
    assert!(
        known.step_seen(Viewer::Player(Side::X), 3),
        "the step that took it"
    );
}
