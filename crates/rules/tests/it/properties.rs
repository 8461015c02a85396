//! Invariants checked on random games of random variants:
//! - `legals_are_legal` and `legals_are_complete`: the fast generator agrees
//!   with a slow, obvious referee written straight from the rule texts;
//! - `incremental_zobrist`: the hash kept step by step equals the hash from scratch;
//! - `position_string_roundtrip` and `record_roundtrip`;
//! - `perft_is_symmetric`: perft is the same from every symmetric image;
//! - `a_random_playout_is_the_checked_game`: the playout fast path plays what
//!   the checked API plays with the same draws.

use crate::common::{arb_variant, referee_legal, referee_play};
use proptest::prelude::*;
use virus_wars_rules::perft::perft_any;
use virus_wars_rules::record::{self, Record};
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{position_string, AnyPosition, Cell, EndRule, Game, Variant};

/// A random game of at most `max_steps` steps, checking the fast engine
/// against the referee at every position.
fn play_checked(v: &Variant, seed: u64, max_steps: usize) -> Game {
    let mut g = Game::new(v.clone()).unwrap();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..max_steps {
        let p = *g.position();
        let s = p.to_setup();
        // Every position that play reaches meets every consistency rule.
        assert_eq!(
            AnyPosition::from_setup(&s),
            Ok(p),
            "refused: {}",
            position_string::write(&p)
        );
        let legal = p.legal_steps();
        assert_eq!(
            legal,
            referee_legal(&s),
            "legal steps differ at {}",
            position_string::write(&p)
        );
        // The opponent's mobility equals the referee's legal cells with the sides swapped.
        let mut swapped = s.clone();
        swapped.side = !s.side;
        swapped.rules.end = EndRule::Standard;
        let want: Vec<Cell> = referee_legal(&swapped)
            .into_iter()
            .filter_map(|x| match x {
                virus_wars_rules::Step::Cell(c) => Some(c),
                _ => None,
            })
            .collect();
        let got: Vec<Cell> = virus_wars_rules::with_position!(&p, q => q.reach(!q.side()).iter().map(|i| q.geometry().cell(i)).collect());
        assert_eq!(
            got,
            want,
            "opponent reach differs at {}",
            position_string::write(&p)
        );
        let over = p.outcome().is_some();
        assert_eq!(over, legal.is_empty(), "outcome and legal steps disagree");
        if over {
            break;
        }
        let step = legal[rng.below(legal.len() as u32) as usize];
        g.play(step).unwrap();
        let next = g.position();
        assert_eq!(
            next.to_setup(),
            referee_play(&s, step),
            "after {step} from {}",
            position_string::write(&p)
        );
        virus_wars_rules::with_position!(next, q => assert_eq!(q.hash(), q.hash_from_scratch()));
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn legals_are_legal_and_complete(v in arb_variant(), seed in any::<u64>()) {
        play_checked(&v, seed, 400);
    }

    #[test]
    fn position_string_roundtrip(v in arb_variant(), seed in any::<u64>(), n in 0usize..120) {
        let g = play_checked(&v, seed, n);
        let p = g.position();
        let text = position_string::write(p);
        let back = position_string::read(&text).unwrap();
        prop_assert_eq!(back, *p);
        prop_assert_eq!(position_string::write(&back), text);
    }

    #[test]
    fn record_roundtrip(v in arb_variant(), seed in any::<u64>(), n in 0usize..150) {
        let g = play_checked(&v, seed, n);
        let r = Record::new(g);
        let text = r.write();
        let back = record::read(&text).unwrap();
        prop_assert_eq!(&back, &r);
        prop_assert_eq!(back.write(), text);
    }
}

/// Perft the slow way: every leaf played on a copy through the checked API.
fn perft_naive(p: &virus_wars_rules::AnyPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.legal_steps()
        .into_iter()
        .map(|s| {
            let mut q = *p;
            q.play(s).unwrap();
            perft_naive(&q, depth - 1)
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn perft_bulk_counting_is_exact(v in arb_variant(), seed in any::<u64>(), n in 0usize..60) {
        let g = play_checked(&v, seed, n);
        let p = g.position();
        for d in 1..=3 {
            prop_assert_eq!(perft_any(p, d), perft_naive(p, d), "depth {}", d);
        }
    }

    #[test]
    fn perft_is_symmetric(v in arb_variant(), seed in any::<u64>(), n in 0usize..40) {
        let g = play_checked(&v, seed, n);
        let p = g.position();
        let want: Vec<u64> = (1..=3).map(|d| perft_any(p, d)).collect();
        for s in v.symmetries() {
            let image = s.apply_position(p);
            let got: Vec<u64> = (1..=3).map(|d| perft_any(&image, d)).collect();
            prop_assert_eq!(&got, &want, "symmetry {:?}", s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The random playout's fast path (unhashed steps, a pick by `pdep`
    /// where the CPU has it) plays the very game that the checked API plays
    /// with the same draws, to the end, and leaves the same position.
    #[test]
    fn a_random_playout_is_the_checked_game(v in arb_variant(), seed in any::<u64>()) {
        let start = v.start().unwrap();
        let mut fast = start;
        let (outcome, steps) = virus_wars_rules::with_position!(&mut fast, q => q.random_playout(&mut SplitMix64::new(seed)));
        let mut slow = start;
        let mut rng = SplitMix64::new(seed);
        let mut played = 0;
        while slow.outcome().is_none() {
            let legal = slow.legal_steps();
            slow.play(legal[rng.below(legal.len() as u32) as usize]).unwrap();
            played += 1;
        }
        prop_assert_eq!(played, steps);
        prop_assert_eq!(slow.outcome(), Some(outcome));
        prop_assert_eq!(fast, slow);
        prop_assert_eq!(fast.hash(), slow.hash());
    }
}
