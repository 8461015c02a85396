//! `virus-wars play` in plain mode, driven through stdin as a script or a
//! screen reader would: a whole game, junk lines, saving and loading, EOF.

use crate::common::{refusal, Driven};
use virus_wars_rules::{position_string, Preset};

/// Plays the first legal step at every prompt until the game ends.
fn play_to_the_end(game: &mut Driven) -> Vec<String> {
    let mut all = Vec::new();
    loop {
        let lines = game.until_either(&["position ", "game over: "]);
        all.extend(lines.iter().cloned());
        let last = lines.last().unwrap();
        if last.starts_with("game over: ") {
            return all;
        }
        let p = position_string::read(last.strip_prefix("position ").unwrap()).unwrap();
        let step = p.legal_steps()[0];
        game.send(&step.to_string());
    }
}

#[test]
fn a_whole_game_against_random_in_plain_mode() {
    let mut g = Driven::start(&[
        "play",
        "--plain",
        "--vs",
        "random:seed=4",
        "--as",
        "o",
        "--variant",
        "korobkov",
        "--size",
        "6x6",
    ]);
    let lines = play_to_the_end(&mut g);
    assert!(
        // The computer is named by its whole spec, seed included (a
        // printed spec reads back as the same player).
        lines[0].starts_with("Virus Wars: 6x6, 3 steps a turn. X: random:seed=4. O: human."),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("X (random:seed=4) plays ")),
        "the computer moved"
    );
    assert!(lines.iter().any(|l| l.starts_with("last turn: X ")));
    let end = lines.last().unwrap();
    assert!(end.contains(" wins (") && end.contains(" after "), "{end}");
    assert!(g.wait().success());
}

#[test]
fn junk_gets_a_reason_and_a_new_prompt_and_eof_ends_cleanly() {
    let mut g = Driven::start(&["play", "--plain", "--two-players"]);
    g.until("X to step, 3 of 3 steps left:");
    for (input, answer) in [
        ("hello there", "error: 'hello there' is neither steps nor a command"),
        ("k5", "error: step 1 (k5): k5 is off the 10x10 board"),
        ("e5", "error: step 1 (e5): not accessible for X: X has not entered yet, so its first step must be on a1"),
        ("undo", "error: nothing to undo: no step has been played"),
        ("save", "error: save needs a file name, e.g. 'save game.vwr'"),
        ("a1-a2-b2-b3", "error: step 4 (b3): X's turn ends before this step"),
    ] {
        g.send(input);
        let reply = g.until("error: ").pop().unwrap();
        assert!(reply.starts_with(answer), "{input}: {reply}");
        g.until("X to step, 3 of 3 steps left:");
    }
    // Bytes that are not UTF-8 get an error; reading goes on.
    g.send_raw(b"a\xff1\n");
    let reply = g.until("error: ").pop().unwrap();
    assert_eq!(
        reply,
        "error: the line is not UTF-8 text (byte 0xff at column 2); it was ignored"
    );
    g.until("X to step, 3 of 3 steps left:");
    g.send("a1");
    g.until("X to step, 2 of 3 steps left:");
    g.send("hint");
    let hint = g.last("hint: ");
    assert_eq!(hint.split('-').count(), 2, "the rest of the turn: {hint}");
    g.close();
    assert!(g
        .rest()
        .contains(&"end of input: the game is left unfinished".to_string()));
    assert!(g.wait().success());
}

#[test]
fn a_saved_game_loads_and_goes_on() {
    let dir = std::env::temp_dir().join(format!("vw-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("saved.vwr");
    let mut g = Driven::start(&["play", "--plain", "--two-players", "--variant", "gcr"]);
    g.send("b2");
    g.send("j10");
    g.send(&format!("save {}", file.display()));
    assert_eq!(g.last("saved to "), format!("saved to {}", file.display()));
    g.send("quit");
    assert!(g
        .rest()
        .contains(&"quit: the game is left unfinished".to_string()));
    assert!(g.wait().success());

    let mut g = Driven::start(&["play", "--plain", "--load", file.to_str().unwrap()]);
    let position = g.last("position ");
    let p = position_string::read(position.strip_prefix("position ").unwrap()).unwrap();
    let mut expected = Preset::Gcr.variant().start().unwrap();
    for s in ["b2", "j10"] {
        expected
            .play(virus_wars_rules::notation::parse_step(s).unwrap())
            .unwrap();
    }
    assert_eq!(p, expected, "the game goes on where it was saved");
    g.send("undo");
    assert_eq!(g.last("took back "), "took back j10");
    g.send("redo");
    assert_eq!(g.last("played again "), "played again j10");
    g.send("resign");
    let end = g.last("game over: ");
    let resigned = p.side();
    assert!(
        end.starts_with(&format!(
            "game over: {} wins ({resigned} resigned)",
            !resigned
        )),
        "{end}"
    );
    assert!(g.wait().success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn analyse_reviews_the_game_so_far_as_a_table_and_a_sparkline() {
    let mut g = Driven::start(&["play", "--plain", "--two-players", "--size", "5x5"]);
    g.until("X to step, 3 of 3 steps left:");
    g.send("analyse");
    g.until("error: the game has no turn to review");
    g.send("a1-b2-c3");
    g.until("O to step, 3 of 3 steps left:");
    g.send("analyse");
    let lines = g.until_either(&["accuracy: "]);
    let row = lines
        .iter()
        .position(|l| l.starts_with("turn side  played"))
        .unwrap();
    assert!(lines[row + 1].contains("   1 X     a1-b2-c3"), "{lines:?}");
    assert!(
        lines[row + 2].starts_with("X's chance, turn by turn: "),
        "{lines:?}"
    );
    assert_eq!(
        lines[row + 2]
            .chars()
            .filter(|c| ('▁'..='█').contains(c))
            .count(),
        1
    );
    g.send("analyse /no/such/file.vwr");
    g.until("error: cannot read /no/such/file.vwr");
    g.send("quit");
    assert!(g.wait().success());
}

/// The board rows `board_text` printed in `lines` (between its two rows
/// of file letters), top rank first, one letter a cell.
fn board_rows(lines: &[String], width: usize) -> Vec<Vec<char>> {
    let header = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("a b"))
        .expect("the board's bottom letters");
    let top = lines[..header]
        .iter()
        .rposition(|l| l.trim_start().starts_with("a b"))
        .expect("the board's top letters");
    lines[top + 1..header]
        .iter()
        .map(|l| {
            (0..width)
                .map(|f| l.chars().nth(3 + 2 * f).unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn a_fog_game_at_the_terminal_shows_only_what_the_person_sees() {
    use virus_wars_rules::fog::{read_view, write_view, Known, Viewer};
    use virus_wars_rules::{diagram, record, Cell, Content, Side};
    let dir = std::env::temp_dir().join(format!("vw-play-fog-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("so-far.vwr");
    let save = format!("save {}", saved.display());
    let mut g = Driven::start(&[
        "play",
        "--plain",
        "--fog",
        "--level",
        "2",
        "--variant",
        "korobkov",
        "--size",
        "6x6",
    ]);
    let mut prompts = 0;
    let mut hidden_seen = 0;
    let mut turns_hidden = 0;
    loop {
        let lines = g.until_either(&["view ", "game over: "]);
        assert!(
            !lines.iter().any(|l| l.starts_with("position ")),
            "no position string under fog: {lines:?}"
        );
        let last = lines.last().unwrap().clone();
        if last.starts_with("game over: ") {
            // The fog lifts: the whole board, no `?`.
            let rows = board_rows(&lines, 6);
            assert!(rows.iter().flatten().all(|&c| c != '?'), "{lines:?}");
            break;
        }
        turns_hidden += lines
            .iter()
            .filter(|l| l.starts_with("O (") && l.contains(" plays ") && l.contains('?'))
            .count();
        if prompts == 0 {
            // The review reads the whole board: not while fog hides it.
            g.send("analyse");
            g.until("error: a fog game is reviewed once it is over");
            g.until_either(&["view "]);
        }
        // The truth, from the game saved so far; then the same prompt again.
        g.send(&save);
        let lines = g.until_either(&["view "]);
        let bytes = std::fs::read(&saved).unwrap();
        let game = record::read_bytes(&bytes).unwrap().game;
        let p = game.position();
        let known = Known::of_game(&game);
        let seen = known.cells(p, Viewer::Player(Side::X));
        let legal = p.legal_cells();
        let rows = board_rows(&lines, 6);
        for (k, row) in rows.iter().enumerate() {
            let rank = 5 - k as u8;
            for (file, &shown) in row.iter().enumerate() {
                let cell = Cell::new(file as u8, rank);
                let want = match seen[rank as usize * 6 + file] {
                    None => '?',
                    Some(Content::Empty) if legal.contains(&cell) => '+',
                    Some(c) => diagram::letter(c),
                };
                assert_eq!(
                    shown,
                    want,
                    "{cell} after {} steps: {lines:?}",
                    game.steps().len()
                );
            }
        }
        hidden_seen += seen.iter().filter(|c| c.is_none()).count();
        let view_line = lines.last().unwrap().strip_prefix("view ").unwrap();
        let view = known.sight().view(p, Side::X);
        assert_eq!(view_line, write_view(p, &view));
        let step = read_view(view_line).unwrap().as_if_empty().legal_steps()[0];
        g.send(&step.to_string());
        prompts += 1;
    }
    assert!(
        prompts > 5 && hidden_seen > 0,
        "{prompts} prompts, {hidden_seen} hidden"
    );
    assert!(turns_hidden > 0, "some of the computer's turns were hidden");
    assert!(g.wait().success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn two_people_at_one_screen_cannot_play_in_fog() {
    let err = refusal(&["play", "--plain", "--two-players", "--fog"]);
    assert!(
        err.contains("hidden from the other") && err.contains("--level"),
        "{err}"
    );
}

#[test]
fn a_typed_fog_turn_is_judged_by_what_was_seen_before_it() {
    let mut g = Driven::start(&[
        "play",
        "--plain",
        "--fog",
        "--level",
        "1",
        "--variant",
        "korobkov",
        "--size",
        "6x6",
    ]);
    let before = g.until_either(&["view "]);
    // b3 is next to a2, but out of sight until a2 is played: the whole
    // turn is refused and nothing is played, whatever b3 holds.
    g.send("a2-b3");
    g.until("error: step 2 (b3): not accessible for X");
    let after = g.until_either(&["view "]);
    assert_eq!(before.last(), after.last(), "nothing was played");
    // Cells seen now may be typed together; a step at a time goes further.
    g.send("a2-b2");
    g.send("c3");
    g.until("O (level:1) plays ");
    assert!(g.wait().success());
}

#[test]
fn a_fog_games_hidden_layout_comes_from_a_seed_nobody_chose() {
    let err = refusal(&[
        "play",
        "--plain",
        "--fog",
        "--trenches",
        "20",
        "--seed",
        "5",
    ]);
    assert!(
        err.contains("--seed") && err.contains("nobody sees"),
        "{err}"
    );
    let dir = std::env::temp_dir().join(format!("vw-fog-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seeds: Vec<String> = (0..2)
        .map(|k| {
            let file = dir.join(format!("{k}.vwr"));
            let mut g = Driven::start(&[
                "play",
                "--plain",
                "--fog",
                "--trenches",
                "20",
                "--level",
                "1",
            ]);
            g.send(&format!("save {}", file.display()));
            g.until("saved to ");
            g.send("quit");
            assert!(g.wait().success());
            let text = std::fs::read_to_string(&file).unwrap();
            let seed = text
                .lines()
                .find(|l| l.starts_with("[Seed "))
                .unwrap()
                .to_string();
            seed
        })
        .collect();
    assert_ne!(seeds[0], seeds[1], "a seed drawn anew for each game");
    assert_ne!(seeds[0], "[Seed \"0\"]");
    std::fs::remove_dir_all(&dir).ok();
}
