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
    let v = Preset::Classic.sized(5, 4);
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
    let mut g = Game::from_position(Preset::Gcr.variant(), start).unwrap();
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
    #[rustfmt::skip]
    let cases = [
        (format!("{head}1. a1-b2-c3 e5-d3\n"), "line 4, column 16: step 5 (d3): not accessible for O"),
        (format!("{head}1. a1-b2 e5-d4-c3\n"), "line 4, column 4: turn 'a1-b2' is unfinished: X still has 1 step(s) to play"),
        (format!("{head}2. a1-b2-c3\n"), "line 4, column 1: move number '2.' out of place: expected 1."),
        (format!("{head}1. a1-b2-zz\n"), "line 4, column 10: 'zz' is not a cell: it must start with a file letter a-s"),
        ("[Size \"25x5\"]\n".to_string(), "line 1, column 1: tag Size: board 25x5 is out of range: files and ranks must be between 3 and 19"),
        ("[Event \"x\"\n".to_string(), "line 1, column 1: unclosed tag: a tag looks like [Name \"value\"]"),
        (format!("{head}1. a1 {{ never closed\n"), "line 4, column 7: comment is never closed with }"),
    ];
    for (record, want) in cases {
        assert_eq!(err(&record), want, "{record}");
    }
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

#[test]
fn hostile_records_get_a_clear_error() {
    // A byte-order mark is skipped.
    let text = "\u{feff}[Variant \"classic\"]\n[Size \"5x5\"]\n\n1. a1-b2-c3\n*\n";
    assert_eq!(record::read(text).unwrap().game.steps().len(), 3);
    // An empty file is not a new game.
    assert!(err("").starts_with("line 1, column 1: the record is empty"));
    // A tag given twice is refused, not resolved silently.
    assert_eq!(
        err("[Size \"5x5\"]\n[X \"a\"]\n[Size \"6x6\"]\n"),
        "line 3, column 1: tag Size appears twice (lines 1 and 3): keep one"
    );
    // Escapes: \n is a newline; an unknown escape is an error.
    let r = record::read("[Event \"two\\nlines \\t\\\\ \\\"q\\\"\"]\n\n*\n").unwrap();
    assert_eq!(r.event, "two\nlines \t\\ \"q\"");
    assert!(r
        .write()
        .contains("[Event \"two\\nlines \\t\\\\ \\\"q\\\"\"]"));
    assert_eq!(record::read(&r.write()).unwrap(), r);
    assert!(err("[Event \"a\\qb\"]\n").contains("unknown escape '\\q'"));
    // Numbers past their range say the range.
    assert_eq!(
        err("[Steps \"256\"]\n"),
        "line 1, column 1: tag Steps: Steps must be between 1 and 99, not 256"
    );
    assert_eq!(
        err("[Seed \"18446744073709551616\"]\n"),
        "line 1, column 1: tag Seed: Seed must be between 0 and 18446744073709551615, not 18446744073709551616"
    );
    // Bytes that are not UTF-8 are located.
    let e = record::read_bytes(b"[Event \"ok\"]\n\n1. a1-\xff\n")
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "line 3, column 7: the record is not UTF-8 text (byte 0xff)"
    );
}

#[test]
fn layout_tags_must_fit_the_position_tag() {
    let position = "[Position \"3x3 classic 3/3/3 x 3 1 - 0\"]";
    let base = "[Variant \"classic\"]\n[Size \"3x3\"]\n";
    assert!(record::read(&format!("{base}{position}\n\n*\n")).is_ok());
    assert_eq!(
        err(&format!("{base}[Obstacles \"b2\"]\n{position}\n\n1. b2\n")),
        "line 4, column 1: tag Position: the position does not fit the variant: obstacles is b2 but the position's is -"
    );
    assert_eq!(
        err(&format!("{base}[End \"pass\"]\n[Trenches \"20\"]\n{position}\n\n*\n")),
        "line 5, column 1: tag Position: the position does not fit the variant: end is pass but the position's is standard; trenches 20 cannot apply to a game from a position: its board already shows the layout"
    );
}

#[test]
fn reading_is_linear_in_the_text() {
    // One line of 400,000 tokens (about 2.4 MB), and a 2 MB comment: before
    // the fix the tokenizer counted columns from the line's start for every
    // token, which took minutes. An error arrives after one pass.
    let line = "1. a1-b2-c3 ".repeat(200_000);
    let text = format!("[Size \"5x5\"]\n\n{line}\n");
    assert!(text.len() > 2_000_000);
    assert!(err(&text).starts_with("line 3, column 13: move number '1.' out of place"));
    let comment = format!("[Size \"5x5\"]\n\n{{{}}} 1. a1 {{\n", "x".repeat(2_000_000));
    assert_eq!(
        err(&comment),
        "line 3, column 2000010: comment is never closed with }"
    );
    let words = format!("[Size \"5x5\"]\n\n{}", "{c} ".repeat(500_000));
    assert!(record::read(&words).is_ok());
}
