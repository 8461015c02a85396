//! A slow, obvious referee written straight from the rule texts, shared by
//! the tests: it works on plain [`Setup`]s with searches over neighbour cells,
//! and shares nothing with the bitboard engine but the data types.
#![allow(dead_code)]

use proptest::prelude::*;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::rules::entry_cells;
use virus_wars_rules::{Cell, Content, EndRule, Rules, Setup, Side, StartRule, Step, Variant};

/// The referee: legal steps of a setup, straight from the rules.
pub fn referee_legal(s: &Setup) -> Vec<Step> {
    if referee_over(s) {
        return vec![];
    }
    let me = s.side;
    let (w, h) = (s.width as i32, s.height as i32);
    let at = |f: i32, r: i32| s.cells[(r * w + f) as usize];
    let mut cells = Vec::new();
    if !s.entered[me.index()] {
        for c in entry_cells(s.rules.start, s.width, s.height, me) {
            if s.cell(c) == Content::Empty {
                cells.push(c);
            }
        }
    } else {
        let own =
            |f: i32, r: i32| matches!(at(f, r), Content::Virus(x) | Content::Zombie(x) if x == me);
        // Live region: search from every live virus through own cells.
        let mut live = vec![false; (w * h) as usize];
        let mut stack: Vec<(i32, i32)> = Vec::new();
        for r in 0..h {
            for f in 0..w {
                if at(f, r) == Content::Virus(me) {
                    live[(r * w + f) as usize] = true;
                    stack.push((f, r));
                }
            }
        }
        while let Some((f, r)) = stack.pop() {
            for (nf, nr) in neighbours(f, r, w, h) {
                if own(nf, nr) && !live[(nr * w + nf) as usize] {
                    live[(nr * w + nf) as usize] = true;
                    stack.push((nf, nr));
                }
            }
        }
        for r in 0..h {
            for f in 0..w {
                let takeable = matches!(at(f, r), Content::Empty | Content::Trench)
                    || at(f, r) == Content::Virus(!me);
                let near = neighbours(f, r, w, h)
                    .into_iter()
                    .any(|(nf, nr)| live[(nr * w + nf) as usize]);
                if takeable && near {
                    cells.push(Cell::new(f as u8, r as u8));
                }
            }
        }
    }
    cells.sort_by_key(|c| (c.rank, c.file));
    let mut steps: Vec<Step> = cells.into_iter().map(Step::Cell).collect();
    if s.rules.end == EndRule::Pass && s.steps_left == s.rules.steps_in_turn(s.turn) {
        steps.push(Step::Pass);
    }
    steps
}

fn neighbours(f: i32, r: i32, w: i32, h: i32) -> Vec<(i32, i32)> {
    let mut v = vec![];
    for df in -1..=1 {
        for dr in -1..=1 {
            let (nf, nr) = (f + df, r + dr);
            if (df, dr) != (0, 0) && nf >= 0 && nr >= 0 && nf < w && nr < h {
                v.push((nf, nr));
            }
        }
    }
    v
}

pub fn referee_over(s: &Setup) -> bool {
    match s.rules.end {
        EndRule::Standard => false,
        EndRule::Pass => {
            s.passes >= 2
                || Side::BOTH
                    .iter()
                    .any(|&x| s.entered[x.index()] && !s.cells.contains(&Content::Virus(x)))
        }
    }
}

/// The referee's step: returns the next setup.
pub fn referee_play(s: &Setup, step: Step) -> Setup {
    let mut n = s.clone();
    let me = s.side;
    let end_turn = |n: &mut Setup| {
        n.side = !n.side;
        n.turn += 1;
        n.steps_left = n.rules.steps_in_turn(n.turn);
    };
    match step {
        Step::Pass => {
            n.passes += 1;
            end_turn(&mut n);
            return n;
        }
        Step::Cell(c) => {
            let i = c.rank as usize * s.width as usize + c.file as usize;
            n.cells[i] = match s.cells[i] {
                Content::Empty => Content::Virus(me),
                Content::Virus(_) | Content::Trench => Content::Zombie(me),
                other => panic!("referee asked to step on {other:?}"),
            };
            n.passes = 0;
            n.entered[me.index()] = true;
            n.steps_left -= 1;
        }
    }
    // A turn ends when its steps are used up or, under the pass rule, when
    // no legal step is left.
    let stuck = n.rules.end == EndRule::Pass && !referee_over(&n) && referee_legal(&n).is_empty();
    if n.steps_left == 0 || stuck {
        end_turn(&mut n);
    }
    n
}

/// Perft by the referee.
pub fn referee_perft(s: &Setup, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    referee_legal(s)
        .into_iter()
        .map(|step| referee_perft(&referee_play(s, step), depth - 1))
        .sum()
}

/// A random variant: any size up to 13x13, any turn rules, trenches, bases and obstacles.
pub fn arb_variant() -> impl Strategy<Value = Variant> {
    (
        3u8..=13,
        3u8..=13,
        1u8..=5,
        1u8..=5,
        0usize..3,
        any::<bool>(),
        any::<bool>(),
        prop_oneof![Just(0u8), 0u8..=40],
        any::<u64>(),
        0usize..3,
    )
        .prop_map(
            |(w, h, steps, first, start, pass, deathmatch, trench, seed, obstacles)| {
                let start = [
                    StartRule::Corners,
                    StartRule::CornerEntry,
                    StartRule::EdgeEntry,
                ][start];
                let end = if pass {
                    EndRule::Pass
                } else {
                    EndRule::Standard
                };
                let mut v = Variant {
                    width: w,
                    height: h,
                    rules: Rules {
                        steps_per_turn: steps,
                        first_turn_steps: first,
                        start,
                        end,
                        deathmatch,
                    },
                    trench_percent: trench,
                    double_base: start == StartRule::Corners && seed % 3 == 0,
                    random_bases: start == StartRule::Corners && seed % 5 == 0,
                    obstacles: vec![],
                    seed,
                    fog: seed % 4 == 1,
                };
                let mut rng = SplitMix64::new(seed);
                for _ in 0..obstacles {
                    let c = Cell::new(1 + rng.below(w as u32 - 2) as u8, rng.below(h as u32) as u8);
                    if !v.obstacles.contains(&c) && !v.bases().iter().any(|(b, _)| *b == c) {
                        v.obstacles.push(c);
                    }
                }
                v
            },
        )
}
