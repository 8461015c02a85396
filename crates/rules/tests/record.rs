//! Game records: written and read back exactly, errors with line and column.

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::record::{self, Record};
use virus_wars_rules::{Game, Outcome, Preset, Side, Variant};

fn game(variant: Variant, steps: &str) -> Game {
    let mut g = Game::new(variant).unwrap();
    for s in parse_steps(steps).unwrap() {
        g.play(s).unwrap();
    }
    g
}

#[test]
fn a_finished_game_round_trips_exactly() {
    // A seeded random game on a small board, played to its end.
    let v = Variant {
        width: 5,
        height: 4,
        ..Preset::Classic.variant()
    };
    let mut g = Game::new(v).unwrap();
    let mut rng = virus_wars_rules::rng::SplitMix64::new(3);
    while g.outcome().is_none() {
        let steps = g.position().legal_steps();
        g.play(steps[rng.below(steps.len() as u32) as usize])
            .unwrap();
    }
    let winner = match g.outcome() {
        Some(Outcome::Win(s)) => s,
        other => panic!("standard games have a winner, got {other:?}"),
    };
    let mut r = Record::new(g);
    r.event = "Test \"quoted\" event".into();
    r.x_player = "Alice".into();
    r.extra_tags.push(("Annotator".into(), "me".into()));
    let text = r.write();
    let token = if winner == Side::X { "1-0" } else { "0-1" };
    assert!(
        text.contains(&format!(
            "[Result \"{token}\"]\n[Termination \"no legal step\"]"
        )),
        "{text}"
    );
    assert!(text.contains("\n\n1. a1-"), "{text}");
    assert!(text.ends_with(&format!("\n{token}\n")), "{text}");
    let back = record::read(&text).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.write(), text);
}

#[test]
fn an_unfinished_game_and_a_custom_variant_round_trip() {
    let v = Variant {
        trench_percent: 20,
        seed: 5,
        rules: virus_wars_rules::Rules {
            deathmatch: true,
            ..Preset::PaperTactics.variant().rules
        },
        ..Preset::PaperTactics.variant()
    };
    let mut g = Game::new(v.clone()).unwrap();
    let mut rng = virus_wars_rules::rng::SplitMix64::new(1);
    for _ in 0..20 {
        let steps = g.position().legal_steps();
        g.play(steps[rng.below(steps.len() as u32) as usize])
            .unwrap();
    }
    let r = Record::new(g);
    let text = r.write();
    assert!(text.contains("[Variant \"custom\"]") && text.contains("[Deathmatch \"yes\"]"));
    assert_eq!(record::read(&text).unwrap(), r);
}

#[test]
fn a_game_from_a_set_up_position_round_trips() {
    let start = game(Preset::Gcr.variant(), "b2 j10 j11 i11")
        .position()
        .to_owned();
    let mut g = Game::from_position(Preset::Gcr.variant(), start);
    g.play(
        "b3".parse::<virus_wars_rules::Cell>()
            .map(virus_wars_rules::Step::Cell)
            .unwrap(),
    )
    .unwrap();
    let r = Record::new(g);
    let text = r.write();
    assert!(text.contains("[Position \"11x11 "), "{text}");
    assert!(text.contains("\n2. b3\n*\n"), "{text}");
    assert_eq!(record::read(&text).unwrap(), r);
}

fn err(text: &str) -> String {
    record::read(text).unwrap_err().to_string()
}

#[test]
fn errors_name_line_and_column() {
    let head = "[Variant \"classic\"]\n[Size \"5x5\"]\n\n";
    assert_eq!(
        err(&format!("{head}1. a1-b2-c3 e5-d3\n")),
        "line 4, column 16: step 5 (d3): not accessible for O"
    );
    assert_eq!(
        err(&format!("{head}1. a1-b2 e5-d4-c3\n")),
        "line 4, column 4: turn 'a1-b2' is unfinished: X still has 1 step(s) to play"
    );
    assert_eq!(
        err(&format!("{head}2. a1-b2-c3\n")),
        "line 4, column 1: move number '2.' out of place: expected 1."
    );
    assert_eq!(
        err(&format!("{head}1. a1-b2-zz\n")),
        "line 4, column 10: 'zz' is not a cell: it must start with a file letter a-s"
    );
    assert_eq!(err("[Size \"25x5\"]\n"), "line 1, column 1: tag Size: board 25x5 is out of range: files and ranks must be between 3 and 19");
    assert_eq!(
        err("[Event \"x\"\n"),
        "line 1, column 1: unclosed tag: a tag looks like [Name \"value\"]"
    );
    assert_eq!(
        err(&format!("{head}1. a1 {{ never closed\n")),
        "line 4, column 7: comment is never closed with }"
    );
}

#[test]
fn result_must_agree_with_the_board() {
    // 3x3: X's first turn a1-b2-c3 takes O's corner, so O cannot enter.
    let text = "[Variant \"classic\"]\n[Size \"3x3\"]\n\n1. a1-b2-c3\n*\n";
    assert_eq!(
        err(text),
        "line 5, column 1: the game is over (X wins) but the record says *"
    );
    let over = record::read("[Variant \"classic\"]\n[Size \"3x3\"]\n\n1. a1-b2-c3\n1-0\n").unwrap();
    assert_eq!(over.game.outcome(), Some(Outcome::Win(Side::X)));
    let resigned = "[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. a1-b2-c3\n0-1\n";
    let r = record::read(resigned).unwrap();
    assert_eq!(r.result, Some(Outcome::Win(Side::O)));
    assert_eq!(r.termination, "resignation");
}
