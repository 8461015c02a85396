//! The puzzles' own tests: the set's text form, positions told apart up
//! to symmetry, the finder's claims checked by the solver, the shipped set.

use virus_wars_rules::symmetry::Symmetry;
use virus_wars_rules::{Game, Preset};

use super::*;
use crate::solve::Solver;
use crate::spec::PlayerSpec;

/// Whether the whole solution of `p` wins for its mover: the game is
/// over and won after it, or the other side is proven to lose within two
/// turns (its own, then the mover's).
fn solution_wins(p: &Puzzle) -> bool {
    let mover = p.position.side();
    let mut at = p.position;
    for &s in p.solution.iter().flatten() {
        at.play(s).unwrap();
    }
    match at.outcome() {
        Some(o) => o == virus_wars_rules::Outcome::Win(mover),
        None => matches!(
            Solver::new(20_000_000).prove(&at, 2),
            Ok(crate::solve::Proof::Loss(_))
        ),
    }
}

/// Puzzles found in a few seeded 5×5 games.
fn found() -> Vec<Puzzle> {
    let (judge, mut judge_budget) = crate::review::judge_spec().build();
    judge_budget.time = None;
    judge_budget.nodes = Some(300);
    let mut finder = Finder::new(FinderConfig::default(), judge, judge_budget);
    let (mut player, budget) = PlayerSpec::parse_without_files("level:4").unwrap().build();
    let mut out = Vec::new();
    let presets = [Preset::Classic, Preset::Korobkov, Preset::PaperTactics];
    for k in 0..12 {
        if out.len() >= 3 {
            break;
        }
        let preset = presets[k % presets.len()];
        let mut game = crate::arena::random_opening(&preset.sized(5, 5), 7, 4, k as u32);
        while game.outcome().is_none() {
            let p = *game.position();
            let r = player.choose(&p, &budget, &crate::StopFlag::new(), &mut |_| {});
            for s in r.steps {
                game.play(s).unwrap();
            }
        }
        out.extend(find_in_game(&mut finder, &game));
    }
    out
}

#[test]
fn each_puzzle_found_has_one_winning_turn_and_a_solution_that_plays() {
    let puzzles = found();
    assert!(
        puzzles.len() >= 3,
        "twelve games give three puzzles: {}",
        puzzles.len()
    );
    let mut ids = std::collections::HashSet::new();
    for p in &puzzles {
        assert!(ids.insert(p.id.clone()), "each position once");
        let mut solver = Solver::new(5_000_000);
        let (winners, _) = solver.winning_turns(&p.position, 3, 2).unwrap();
        assert_eq!(winners.len(), 1, "{}", write_line(p));
        assert_eq!(winners[0], p.solution[0]);
        assert_eq!(p.solution.len() % 2, 1, "it ends with the mover's turn");
        assert!(solution_wins(p), "{}", write_line(p));
        let mut at = p.position;
        for (k, turn) in p.solution.iter().enumerate() {
            let side = at.side();
            assert_eq!(side == p.position.side(), k % 2 == 0, "turns alternate");
            for &s in turn {
                at.play(s).unwrap();
            }
        }
        // The text form reads back the same.
        assert_eq!(&parse_line(&write_line(p), 1).unwrap(), p);
    }
}

#[test]
fn a_position_and_its_mirror_images_are_one_puzzle() {
    let mut game = Game::new(Preset::Classic.sized(6, 6)).unwrap();
    for s in ["a1", "b2", "c3"] {
        game.play(virus_wars_rules::notation::parse_step(s).unwrap())
            .unwrap();
    }
    let p = *game.position();
    let symmetries = virus_wars_rules::Variant::of_position(&p).symmetries();
    assert!(symmetries.len() >= 2, "{symmetries:?}");
    for s in symmetries {
        let image = s.apply_position(&p);
        assert_eq!(canonical_hash(&image), canonical_hash(&p), "{s:?}");
    }
    let other = Symmetry::Identity.apply_position(game.position_after(2).unwrap());
    assert_ne!(canonical_hash(&other), canonical_hash(&p));
}

#[test]
fn a_line_that_does_not_read_says_what_and_where() {
    let good = "0000000000000000\t5x5 steps=3,first=3,start=corner-entry,end=standard 5/5/5/5/5 x 3 1 - 0\ta1-b2-c3\t-\t1500".to_string();
    let cases = [
        (
            "a\tb".to_string(),
            "line 4: expected 5 tab-separated fields, found 2",
        ),
        (
            good.replace("a1-b2-c3", "a1-b2-z9"),
            "line 4: solution: step 3",
        ),
        (
            good.replace("a1-b2-c3", "a1-b2"),
            "line 4: solution turn 1 is not a whole turn",
        ),
        (
            good.replace("a1-b2-c3", "a1-b2-e5"),
            "line 4: solution turn 1: e5:",
        ),
        (
            good.replace("\t-\t", "\tno-such-theme\t"),
            "line 4: unknown theme 'no-such-theme'",
        ),
        (
            good.replace("1500", "high"),
            "line 4: rating 'high' is not a number",
        ),
        (
            good.clone(),
            "line 4: id 0000000000000000 is not the position's",
        ),
    ];
    for (line, says) in cases {
        let e = parse_line(&line, 4).unwrap_err().to_string();
        assert!(e.starts_with(says), "{line}: {e}");
    }
}

#[test]
fn the_shipped_set_reads_and_each_first_turn_is_the_only_win() {
    let set = shipped().unwrap();
    assert!(set.len() >= 500, "{} puzzles shipped", set.len());
    let ids: std::collections::HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "no position twice");
    let presets: std::collections::HashSet<String> = set
        .iter()
        .filter_map(|p| preset_of(&p.position))
        .map(|k| k.name().to_string())
        .collect();
    assert!(presets.len() >= 5, "across the presets: {presets:?}");
    // A sample, every 25th, checked again by the solver.
    for p in set.iter().step_by(25) {
        let (winners, _) = Solver::new(20_000_000)
            .winning_turns(&p.position, 3, 2)
            .unwrap();
        assert_eq!(winners, vec![p.solution[0].clone()], "{}", write_line(p));
    }
    // Every solution wins.
    let losing: Vec<&str> = set
        .iter()
        .filter(|p| !solution_wins(p))
        .map(|p| p.id.as_str())
        .collect();
    assert!(losing.is_empty(), "solutions that do not win: {losing:?}");
}

#[test]
fn a_try_is_judged_by_the_board_it_leaves() {
    let set = shipped().unwrap();
    let p = set
        .iter()
        .find(|p| p.solution.len() == 3 && p.solution[0].len() == 3)
        .expect("a puzzle of two turns to find");
    let (first, reply, last) = (&p.solution[0], &p.solution[1], &p.solution[2]);
    assert_eq!(
        p.judge(first),
        Ok(Verdict::Right {
            reply: reply.clone(),
            done: false
        })
    );
    let whole: Vec<_> = p.solution.iter().flatten().copied().collect();
    assert_eq!(
        p.judge(&whole),
        Ok(Verdict::Right {
            reply: vec![],
            done: true
        })
    );
    // Another whole turn: wrong.
    let turns_from = |q: &virus_wars_rules::AnyPosition| {
        let mut out: Vec<Vec<virus_wars_rules::Step>> = Vec::new();
        crate::turns::for_each_turn(q, &mut |t| out.push(t.to_vec()));
        out
    };
    let other = turns_from(&p.position)
        .into_iter()
        .find(|t| {
            let (mut a, mut b) = (p.position, p.position);
            t.iter().for_each(|&s| a.play(s).unwrap());
            first.iter().for_each(|&s| b.play(s).unwrap());
            a != b
        })
        .expect("another turn");
    assert_eq!(p.judge(&other), Ok(Verdict::Wrong));
    // The same cells in another legal order: right.
    let mut turned = first.clone();
    turned.reverse();
    let mut q = p.position;
    if turned.iter().all(|&s| q.play(s).is_ok()) {
        assert!(matches!(p.judge(&turned), Ok(Verdict::Right { .. })));
    }
    // Lines that cannot be judged say why.
    assert_eq!(p.judge(&[]), Err(LineError::Empty));
    assert_eq!(p.judge(&first[..1]), Err(LineError::Unfinished(1)));
    let to_reply: Vec<_> = first.iter().chain(reply).copied().collect();
    assert_eq!(p.judge(&to_reply), Err(LineError::EndsWithReply(2)));
    // A wrong turn decides the try whatever follows it (no probing).
    let mut probe = other.clone();
    probe.push(p.position.legal_steps()[0]);
    assert_eq!(p.judge(&probe), Ok(Verdict::Wrong));
    // A reply that is not the one given: off the line.
    let mut after_first = p.position;
    first.iter().for_each(|&s| after_first.play(s).unwrap());
    let other_reply = turns_from(&after_first).into_iter().find(|t| {
        let (mut a, mut b) = (after_first, after_first);
        t.iter().for_each(|&s| a.play(s).unwrap());
        reply.iter().for_each(|&s| b.play(s).unwrap());
        a != b
    });
    if let Some(r) = other_reply {
        let off: Vec<_> = first.iter().chain(&r).chain(last).copied().collect();
        assert_eq!(p.judge(&off), Err(LineError::OffLine(2)));
    }
    let mut end = p.position;
    whole.iter().for_each(|&s| end.play(s).unwrap());
    if end.outcome().is_some() {
        let past: Vec<_> = whole.iter().chain(&whole[..1]).copied().collect();
        assert!(
            matches!(p.judge(&past), Err(LineError::Illegal { index, .. }) if index == whole.len() + 1)
        );
    } else {
        let past: Vec<_> = whole.iter().chain(&turns_from(&end)[0]).copied().collect();
        assert_eq!(p.judge(&past), Err(LineError::TooLong(3)));
    }
    let illegal = [first[0], first[0]];
    let e = p.judge(&illegal).unwrap_err();
    assert!(matches!(e, LineError::Illegal { index: 2, .. }), "{e}");
}

#[test]
fn every_shipped_solution_that_leaves_the_game_on_has_a_line_to_its_end() {
    let set = shipped().unwrap();
    let mut solver = Solver::new(FINISH_NODES);
    let (mut open, mut most) = (0, 0);
    for p in &set {
        let line = p
            .line_to_end(&mut solver)
            .unwrap_or_else(|e| panic!("{}: {e}", p.id));
        let at = p.after_solution();
        if at.outcome().is_some() {
            assert!(line.is_empty(), "{}: the solution ends the game", p.id);
            continue;
        }
        open += 1;
        most = most.max(solver.nodes());
        // The line plays, turns alternate, and the mover wins at its end.
        assert!(!line.is_empty() && line.len() <= 4, "{}: {line:?}", p.id);
        let mut q = at;
        for (k, turn) in line.iter().enumerate() {
            assert_eq!(
                q.side() == p.position.side(),
                k % 2 == 1,
                "{}: turn {k}",
                p.id
            );
            for &s in turn {
                q.play(s).unwrap();
            }
        }
        assert_eq!(
            q.outcome(),
            Some(virus_wars_rules::Outcome::Win(p.position.side())),
            "{}",
            p.id
        );
    }
    assert!(open > 100, "most of the set's open solutions: {open}");
    assert!(
        most < FINISH_NODES / 2,
        "the limit has room: {most} nodes at most"
    );
    eprintln!("{open} open solutions finished, {most} nodes at most");
}
