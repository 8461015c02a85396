//! The position consistency rules (docs/notation.md): every position that
//! play reaches is accepted (checked at every step of the random games in
//! `properties.rs`), and each kind of impossible position is refused with
//! the rule it breaks.

use crate::common::arb_variant;
use proptest::prelude::*;
use virus_wars_rules::rng::SplitMix64;
use virus_wars_rules::{
    position_string, AnyPosition, Content, EndRule, Game, Setup, SetupError, Side, StartRule,
    Variant,
};

fn refused(text: &str) -> String {
    position_string::read(text).unwrap_err().to_string()
}

/// A random game of `n` steps at most.
fn random_game(v: &Variant, seed: u64, n: usize) -> Game {
    let mut g = Game::new(v.clone()).unwrap();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..n {
        let legal = g.position().legal_steps();
        if legal.is_empty() {
            break;
        }
        g.play(legal[rng.below(legal.len() as u32) as usize])
            .unwrap();
    }
    g
}

#[test]
fn the_examples_of_impossible_positions_are_refused_with_their_rule() {
    #[rustfmt::skip]
    let cases = [
        // Both sides "entered" on an empty board.
        ("3x3 classic 3/3/3 x 3 1 XO 0", "the position is not playable: X is marked as entered but cannot have made a step before turn 1"),
        // A side not entered that must have made its steps.
        ("3x3 classic 2O/3/3 x 3 3 O 0", "the position is not playable: X must have made a step before turn 3 but is not marked as entered"),
        // A side with pieces before its first turn.
        ("3x3 classic 2O/1X1/XX1 o 3 2 XO 0", "the position is not playable: O is marked as entered but cannot have made a step before turn 2"),
        ("3x3 classic 2O/1X1/XX1 o 3 2 X 0", "the position is not playable: O has pieces on the board but is marked as not entered"),
        // Passes counted at turn 1.
        ("3x3 classic-pass 3/3/3 x 3 1 - 1", "the position is not playable: 1 passes in a row before turn 1: only 0 turn(s) have been played"),
        // A corners start without its bases.
        ("3x3 paper-tactics 3/3/3 x 3 1 XO 0", "the position is not playable: start rule 'corners': X's base is missing (it stays on the board as a live virus, or as the other side's zombie once killed)"),
        // An entered field that lists a side twice.
        ("3x3 paper-tactics 2O/3/X2 x 3 1 XXOO 0", "column 34: entered lists X twice: write XO, X, O or -"),
        // More steps made than the pieces can account for.
        ("5x5 steps=3,first=1,start=corners,end=standard 4O/5/5/5/XXX2 x 3 3 XO 0", "the position is not playable: by turn 3 O has made 3 step(s), but its pieces on the board account for 0"),
        // An entered side's entry cell is marked for good.
        ("10x10 classic 10/10/10/10/10/10/3X6/2X7/1X8/10 o 3 2 X 0", "the position is not playable: X has entered, but under start rule 'corner-entry' its first step was on its entry cell, which holds neither its virus nor a zombie of the other side"),
    ];
    for (text, want) in cases {
        assert_eq!(refused(text), want, "{text}");
    }
    // A turn number no game reaches, and one past every range.
    assert!(refused("3x3 classic 2O/1X1/X2 x 3 401 XO 0").contains("turn 401 is too late"));
    assert_eq!(
        refused("3x3 classic 3/3/3 x 1 4294967296 - 0"),
        "column 23: the turn number must be between 1 and 4294967295, not 4294967296"
    );
    assert!(refused("3x3 classic 3/3/3 x 1 4294967295 - 0").contains("too late"));
    // Found by the fuzzer (accepted_positions_play_on): under the pass rule,
    // turn 3 with no step made and no pass pending cannot be reached (two
    // passes in a row would have ended the game), and accepting it let a
    // pass lead to a position that was then refused.
    assert!(
        refused("5x5 classic-pass,start=corners 4O/5/5/5/X4 x 3 3 XO 0").contains("too late"),
        "{}",
        refused("5x5 classic-pass,start=corners 4O/5/5/5/X4 x 3 3 XO 0")
    );
    // Counters out of range say their range.
    assert_eq!(
        refused("3x3 classic 3/3/3 x 256 1 - 0"),
        "column 21: steps left must be between 1 and 99, not 256"
    );
    assert_eq!(
        refused("3x3 steps=256 3/3/3 x 3 1 - 0"),
        "column 5: steps must be between 1 and 99, not 256"
    );
    assert_eq!(
        refused("3x3 classic-pass 3/3/3 x 3 1 - 3"),
        "column 32: passes must be between 0 and 2, not 3"
    );
    assert_eq!(
        refused("3x3 classic-pass 2O/3/X2 x 2 3 XO 1"),
        "the position is not playable: 2 steps left just after a pass: a turn after a pass starts with all its 3 steps"
    );
}

/// A mutated setup, what was done, and the errors that name the rule it breaks.
type Mutation = (&'static str, Setup, fn(&SetupError) -> bool);

/// Mutations of a position that play reached, each breaking one rule.
fn mutations(p: &AnyPosition) -> Vec<Mutation> {
    let s = p.to_setup();
    let cells = s.cells.len() as u32;
    let mut out: Vec<Mutation> = Vec::new();
    if s.turn > 1 && !(s.rules.deathmatch && s.passes > 0) {
        let mut late = s.clone();
        late.turn += 4 * cells + 4;
        out.push(("turn far too late", late, |e| {
            matches!(e, SetupError::TurnTooLate { .. })
        }));
    }
    if s.rules.start == StartRule::Corners && s.turn == 1 {
        let mut no_base = s.clone();
        for c in no_base.cells.iter_mut() {
            if *c == Content::Virus(Side::X) {
                *c = Content::Empty;
            }
        }
        out.push(("X's base removed", no_base, |e| {
            *e == SetupError::BaseMissing(Side::X)
        }));
    }
    if s.rules.start != StartRule::Corners && s.turn == 1 && s.entered == [false, false] {
        let mut both = s.clone();
        both.entered = [true, true];
        out.push(("both entered at the start", both, |e| {
            matches!(e, SetupError::EnteredWithoutStep { .. })
        }));
    }
    if s.rules.end == EndRule::Pass && s.turn == 1 {
        let mut passed = s.clone();
        passed.passes = 1;
        out.push(("a pass before any turn", passed, |e| {
            matches!(e, SetupError::PassesBeforeTurn { .. })
        }));
    }
    if s.rules.end == EndRule::Standard && s.rules.start != StartRule::Corners && s.turn >= 3 {
        // Every piece gone, though both sides have played full turns.
        let mut wiped = s.clone();
        for c in wiped.cells.iter_mut() {
            if matches!(c, Content::Virus(_) | Content::Zombie(_)) {
                *c = Content::Empty;
            }
        }
        out.push(("every piece wiped", wiped, |e| {
            matches!(
                e,
                SetupError::NoVirusAtAll
                    | SetupError::TurnTooLate { .. }
                    | SetupError::EnteredWithoutStep { .. }
                    | SetupError::StepCount { .. }
            )
        }));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mutations_that_break_a_rule_are_refused_with_it(
        v in arb_variant(), seed in any::<u64>(), n in 0usize..80
    ) {
        let g = random_game(&v, seed, n);
        for (what, setup, is_the_rule) in mutations(g.position()) {
            let got = AnyPosition::from_setup(&setup);
            prop_assert!(
                matches!(&got, Err(e) if is_the_rule(e)),
                "{what}: got {got:?} for {}",
                position_string::write_setup(&setup)
            );
        }
    }

    #[test]
    fn every_reached_position_reads_back(v in arb_variant(), seed in any::<u64>(), n in 0usize..200) {
        let g = random_game(&v, seed, n);
        for k in 0..=g.steps().len() {
            let p = g.position_after(k).unwrap();
            prop_assert_eq!(position_string::read(&position_string::write(p)), Ok(*p));
        }
    }
}
