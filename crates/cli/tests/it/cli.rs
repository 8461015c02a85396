//! The command-line contract, checked by running the real binary.

use std::process::Output;

use crate::common::{run, stderr};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Asserts that the command's stderr says `words`.
fn says(o: &Output, words: &str) {
    assert!(stderr(o).contains(words), "{}", stderr(o));
}

fn last_line(o: &Output) -> String {
    stdout(o).lines().last().unwrap_or_default().to_string()
}

#[test]
fn perft_prints_one_line_per_depth() {
    let o = run(&["perft", "--variant", "classic", "--depth", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1 1\n2 3\n3 15\n4 15\n5 45\n");
    let o = run(&[
        "perft",
        "--size=11x11",
        "--steps=3",
        "--first-turn=1",
        "--start=corners",
        "--depth=3",
    ]);
    assert_eq!(stdout(&o), "1 3\n2 9\n3 45\n");
    let o = run(&[
        "perft",
        "--variant=korobkov",
        "--moves=a2 b2 b1",
        "--depth=1",
    ]);
    assert_eq!(stdout(&o), "1 3\n");
}

#[test]
fn perft_from_a_position_string() {
    let o = run(&[
        "perft",
        "--position=4x4 feup 4/4/4/4 x 3 1 - 0",
        "--depth=2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1 4\n2 16\n");
}

#[test]
fn replay_reports_who_moves_or_who_won() {
    let o = run(&["replay", "--variant", "gcr", "--moves", "b2, j10-j11 i11"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "X to move");
    assert!(stdout(&o).contains("position: 11x11 "));
    let o = run(&[
        "replay",
        "--variant=classic",
        "--size=3x3",
        "--moves=a1 b2 c3",
    ]);
    assert_eq!(last_line(&o), "X wins");
    let o = run(&["replay", "--variant", "classic", "--moves", "a1 b2 c3"]);
    assert_eq!(last_line(&o), "O to move");
}

#[test]
fn replay_shows_a_sides_view_after_every_turn() {
    let moves = "b2 c3 d4 e5 d5 c5 e4 f4";
    let args = [
        "replay",
        "--variant",
        "paper-tactics",
        "--size",
        "6x6",
        "--moves",
        moves,
    ];
    let o = run(&[&args[..], &["--view", "x"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("1. X b2-c3-d4\n"), "{out}");
    // O's corner is out of X's sight after X's first turn.
    let first: Vec<&str> = out.lines().take(4).collect();
    assert_eq!(first[2], " 6 ? ? ? ? ? ?  6", "{out}");
    assert!(
        out.contains("2. O e5-d5-c5\n"),
        "X saw O's steps land: {out}"
    );
    assert_eq!(last_line(&o), "X to move", "the last lines as without it");
    // O did not see X's first steps land.
    let o = run(&[&args[..], &["--view", "o"]].concat());
    assert!(stdout(&o).starts_with("1. X ?-?-?\n"), "{}", stdout(&o));
    let o = run(&[&args[..], &["--view", "z"]].concat());
    assert!(!o.status.success());
    says(&o, "--view is x, o or watchers, not 'z'");
}

#[test]
fn replay_names_the_illegal_step() {
    let o = run(&["replay", "--variant=classic", "--moves=a1 b2 c3 j10 j9 e5"]);
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o).trim(),
        "error: step 6 (e5): not accessible for O"
    );
    let o = run(&["replay", "--variant", "classic", "--moves", "b2"]);
    assert_eq!(
        stderr(&o).trim(),
        "error: step 1 (b2): not accessible for X: X has not entered yet, so its first step must be on a1"
    );
    let o = run(&["replay", "--moves", "a1 a1"]);
    assert_eq!(
        stderr(&o).trim(),
        "error: step 2 (a1): a1 already holds your own virus"
    );
    let o = run(&["replay", "--moves", "a1 k5"]);
    assert_eq!(
        stderr(&o).trim(),
        "error: step 2 (k5): k5 is off the 10x10 board"
    );
    let o = run(&["replay", "--moves", "a1 q"]);
    says(&o, "--moves: step 2: 'q' is not a cell");
}

#[test]
fn replay_reads_a_record_file() {
    let dir = std::env::temp_dir().join(format!("vw-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.vwr");
    let won = "[Variant \"classic\"]\n[Size \"3x3\"]\n\n1. a1-b2-c3\n1-0\n";
    std::fs::write(&good, won).unwrap();
    let o = run(&["replay", "--record", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(last_line(&o), "X wins");
    let bad = dir.join("bad.vwr");
    std::fs::write(&bad, "[Variant \"classic\"]\n\n1. a1-b2-c3 j10-a5\n").unwrap();
    let o = run(&["replay", "--record", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    says(
        &o,
        "bad.vwr: line 3, column 17: step 5 (a5): not accessible for O",
    );
    let missing = dir.join("missing.vwr");
    let o = run(&["replay", "--record", missing.to_str().unwrap()]);
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
    let good = good.to_str().unwrap();
    let o = run(&["replay", "--record", good, "--variant", "gcr"]);
    says(&o, "cannot be combined with --record");
}

#[test]
fn bad_flags_get_clear_errors() {
    let o = run(&["perft", "--variant", "chess", "--depth", "2"]);
    assert!(!o.status.success());
    says(&o, "unknown variant 'chess'");
    let o = run(&["perft", "--size", "25x5", "--depth", "2"]);
    says(&o, "board 25x5 is out of range");
    let o = run(&["perft", "--start", "middle", "--depth", "2"]);
    says(&o, "unknown start rule 'middle'");
    let o = run(&["perft", "--depth", "0"]);
    says(&o, "--depth must be at least 1");
    let o = run(&["perft", "--variant=classic", "--double-base", "--depth=1"]);
    says(&o, "double-base needs start rule 'corners'");
    let o = run(&["replay"]);
    says(&o, "give the game with --moves");
    let o = run(&["perft", "--steps", "many", "--depth", "1"]);
    assert!(!o.status.success());
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn large_boards_and_layout_options_work() {
    let o = run(&[
        "perft", "--size", "19x19", "--start", "corners", "--depth", "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1 3\n2 15\n3 105\n");
    let o = run(&[
        "replay",
        "--variant=paper-tactics",
        "--trenches=30",
        "--seed=7",
        "--moves=a1",
    ]);
    assert!(!o.status.success());
    let o = run(&[
        "replay",
        "--variant=paper-tactics",
        "--double-base",
        "--obstacles=e5 f6",
        "--moves=i1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(" 5 . . . . * . . . . .  5"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bench_measures_something() {
    let o = run(&["bench", "--games=20", "--perft-depth=3", "--seconds=0.2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("random games, classic 10x10"));
    assert!(text.contains("(15290 in "), "{text}");
    assert!(text.contains("alpha-beta nodes, gcr midgame-1"), "{text}");
}

#[test]
fn bench_of_the_rules_alone_measures_the_sizes_asked_for() {
    let o = run(&[
        "bench",
        "--rules-only",
        "--sizes=5x5,19x19",
        "--games=10",
        "--perft-depth=3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for line in ["classic 10x10", "gcr 11x11", "classic 5x5", "classic 19x19"] {
        assert!(text.contains(&format!("random games, {line}")), "{text}");
    }
    assert!(text.contains("(15290 in "), "{text}");
    assert!(
        !text.contains("alpha-beta") && !text.contains("MCTS"),
        "{text}"
    );
    for (bad, why) in [
        ("--sizes=2x2", "--sizes: \"2x2\""),
        ("--sizes=abc", "--sizes: \"abc\""),
    ] {
        let o = run(&["bench", "--rules-only", bad, "--games=1"]);
        assert!(!o.status.success());
        assert!(stderr(&o).contains(why), "{bad}: {}", stderr(&o));
    }
    let o = run(&["bench", "--perft-depth=10"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--perft-depth"), "{}", stderr(&o));
}

#[test]
fn variant_flags_that_do_not_fit_a_position_are_refused() {
    let o = run(&[
        "perft",
        "--size=5x5",
        "--obstacles=b2",
        "--end=pass",
        "--position=3x3 classic 3/3/3 x 3 1 - 0",
        "--depth=1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: the variant flags do not fit --position: --size: size is 5x5 but the position's is 3x3; --end: end is pass but the position's is standard; --obstacles: obstacles is b2 but the position's is -\n"
    );
    let o = run(&[
        "perft",
        "--variant=gcr",
        "--trenches=10",
        "--position=3x3 classic 3/3/3 x 3 1 - 0",
        "--depth=1",
    ]);
    let err = stderr(&o);
    assert!(err.contains("--variant: size is 11x11"), "{err}");
    assert!(
        err.contains("--trenches: trenches 10 cannot apply"),
        "{err}"
    );
    // Flags that agree with the position are fine.
    let o = run(&[
        "perft",
        "--size=3x3",
        "--end=standard",
        "--position=3x3 classic 3/3/3 x 3 1 - 0",
        "--depth=1",
    ]);
    assert_eq!(stdout(&o), "1 1\n", "{}", stderr(&o));
    let o = run(&["perft", "--steps", "256", "--depth", "1"]);
    says(&o, "256 is not in 1..=99");
}

#[test]
fn numbers_past_their_range_and_impossible_positions_say_so_once() {
    let o = run(&["bench", "--seconds", "1e300"]);
    assert_eq!(o.status.code(), Some(1));
    says(&o, "--seconds must be more than 0 and at most 3600");
    let o = run(&[
        "perft",
        "--depth=1",
        "--position=3x3 classic 3/3/3 x 3 1 OX 0",
    ]);
    let err = stderr(&o);
    assert_eq!(err.matches("is marked as entered").count(), 1, "{err}");
    let o = run(&["arena", "--ladder", "--top-level", "9"]);
    assert!(stderr(&o).contains("9 is not in 2..=8"), "{}", stderr(&o));
}

#[test]
fn analyse_reviews_a_record_turn_by_turn() {
    let dir = std::env::temp_dir().join(format!("vw-cli-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.vwr");
    // X's turn, then O's: on 5×5 each side's first turn is three steps.
    let game = "[Variant \"classic\"]\n[Size \"5x5\"]\n\n1. a1-b2-c3 e5-d4-d5 2. b3\n*\n";
    std::fs::write(&path, game).unwrap();
    let analyse = |more: &[&str]| {
        let record = path.to_str().unwrap();
        run(&[&["analyse", "--record", record, "--player"], more].concat())
    };
    let o = analyse(&["alphabeta:depth=1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines.len(),
        4,
        "three turns and the accuracy: {}",
        stdout(&o)
    );
    assert_eq!(lines[0]["side"], "x");
    assert_eq!(lines[0]["steps"], serde_json::json!(["a1", "b2", "c3"]));
    assert_eq!(lines[1]["x_win_before"], lines[0]["x_win_after"]);
    assert!(lines[0]["best"].as_array().is_some_and(|b| !b.is_empty()));
    let accuracy = &lines[3]["accuracy"];
    assert!(
        (0.0..=100.0).contains(&accuracy["x"].as_f64().unwrap()),
        "{accuracy}"
    );
    let o = analyse(&["alphabeta:depth=1", "--table"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(
        table.len(),
        6,
        "a head, three turns, the sparkline, the accuracy: {table:?}"
    );
    assert!(table[1].contains("a1-b2-c3") && table[4].starts_with("X's chance, turn by turn: "));
    let o = analyse(&["nobody"]);
    says(&o, "--player 'nobody'");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_list_prints_the_shipped_set_and_generate_makes_lines_that_read() {
    let o = run(&["puzzles", "list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() >= 500, "{} puzzles", lines.len());
    let first = &lines[0];
    for field in ["id", "variant", "position", "solution", "themes", "rating"] {
        assert!(!first[field].is_null(), "{field}: {first}");
    }
    assert!(first["solution"][0]
        .as_array()
        .is_some_and(|t| !t.is_empty()));
    let o = run(&[
        "puzzles",
        "generate",
        "--games",
        "6",
        "--presets",
        "classic,korobkov",
        "--sizes",
        "5",
        "--threads",
        "1",
        "--judge-playouts",
        "200",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with(
            "# virus-wars puzzles generate --games 6 --seed 1 --presets classic,korobkov"
        ),
        "{text}"
    );
    for (k, line) in text.lines().enumerate().skip(1) {
        virus_wars_ai::puzzles::parse_line(line, k + 1).unwrap();
    }
    says(
        &run(&["puzzles", "generate", "--sizes", "9"]),
        "--sizes: 9 is not within 3 and 6",
    );
    says(
        &run(&["puzzles", "generate", "--presets", "chess"]),
        "--presets: unknown preset 'chess'",
    );
    // The set measured: three puzzles, each re-proven, each solution
    // played on to a win against a defender.
    let o = run(&[
        "puzzles",
        "check",
        "--sample",
        "3",
        "--defender",
        "level:3",
        "--finder",
        "level:1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4, "a line a puzzle and the sums: {lines:?}");
    let sums = &lines[3];
    assert_eq!(sums["checked"], 3);
    assert_eq!(sums["only_win_proven"], 3, "{sums}");
    assert_eq!(sums["beats_defender"], 3, "{sums}");
    says(
        &run(&["puzzles", "check", "--id", "0123456789abcdef"]),
        "--id: no shipped puzzle 0123456789abcdef",
    );
}
