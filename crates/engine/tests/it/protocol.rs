//! The engine protocol, driven in process: `engine::run` over a reader and
//! a writer, as the binary's `engine` command runs it over stdin and stdout.

use std::time::Duration;

use virus_wars_rules::notation::parse_steps;
use virus_wars_rules::Preset;

use crate::driven::Engine;

#[test]
fn handshake_and_readiness() {
    let mut e = Engine::start(&["engine"]);
    e.send("vwe");
    let lines = e.until("vweok");
    assert!(lines[0].starts_with("id name virus-wars "), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Player type string default level:8")));
    e.send("isready");
    assert_eq!(e.last("readyok"), "readyok");
}

#[test]
fn go_returns_a_legal_whole_turn_with_info() {
    let mut e = Engine::start(&["engine"]);
    e.send("variant classic");
    e.send("position startpos moves a1 b2 c3");
    e.send("go depth 4");
    let lines = e.until("bestturn");
    let info: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!info.is_empty(), "{lines:?}");
    assert!(
        info.last().unwrap().contains(" score winprob ") && info.last().unwrap().contains(" pv ")
    );
    classic_after_best_turn(&lines, "a1 b2 c3");
}

/// The `bestturn` (the last of `lines`) after `moves` in `classic`, checked
/// to be exactly one whole turn.
fn classic_after_best_turn(lines: &[String], moves: &str) -> String {
    let turn = lines
        .last()
        .and_then(|l| l.strip_prefix("bestturn "))
        .unwrap_or_else(|| panic!("a bestturn line last: {lines:?}"))
        .to_string();
    let mut p = Preset::Classic.variant().start().unwrap();
    for s in parse_steps(moves).unwrap() {
        p.play(s).unwrap();
    }
    let mover = p.side();
    for s in parse_steps(&turn).unwrap() {
        p.play(s).unwrap();
    }
    assert_eq!(p.side(), !mover, "exactly one whole turn: {turn}");
    turn
}

#[test]
fn bad_input_gets_an_error_and_the_engine_keeps_going() {
    let mut e = Engine::start(&["engine"]);
    e.send("fly away");
    assert!(e.last("error").starts_with("error unknown command 'fly'"));
    e.send("position startpos moves a1 e5");
    assert_eq!(e.last("error"), "error step 2 (e5): not accessible for X");
    e.send("variant chess");
    assert!(e.last("error").contains("unknown variant 'chess'"));
    e.send("variant custom size=30x3");
    assert!(e.last("error").contains("board 30x3 is out of range"));
    e.send("variant paper-tactics fog=yes");
    assert_eq!(
        e.last("error"),
        "error fog: give the variant without fog, and each position as the side sees it: 'position view <view position> hidden N'"
    );
    e.send("go depth x");
    assert_eq!(
        e.last("error"),
        "error depth must be a whole number between 1 and 64, not 'x'"
    );
    e.send("setoption name Player value level:12");
    assert!(e
        .last("error")
        .contains("level must be between 1 and 9, not 12"));
    e.send("variant korobkov size=4x4");
    e.send("position startpos moves a2 b2 b1");
    e.send("legal");
    assert_eq!(e.last("legal"), "legal c3 d3 c4");
    e.send("isready");
    e.last("readyok");
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let mut e = Engine::start(&["engine"]);
    e.send("variant gcr");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    e.last("readyok");
    e.send("stop");
    let best = e.last("bestturn");
    assert_eq!(
        best.split_whitespace().count(),
        2,
        "gcr's first turn is one step: {best}"
    );
    e.send("go ponder");
    e.send("ponderhit");
    e.send("isready");
    let lines = e.until("bestturn");
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
}

#[test]
fn mcts_plays_ponders_and_answers_ponderhit() {
    let mut e = Engine::start(&["engine"]);
    e.send("setoption name Player value mcts:threads=2");
    e.send("variant classic");
    e.send("position startpos moves a1 b2 c3");
    e.send("go nodes 2000");
    let lines = e.until("bestturn");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("an info line: {lines:?}"));
    assert!(
        info.contains(" nodes 2000 "),
        "the playout budget is met exactly: {info}"
    );
    let pv = info.split(" pv ").nth(1).unwrap_or("").trim();
    assert!(!pv.is_empty(), "the line from the turn's start: {info}");
    let turn = classic_after_best_turn(&lines, "a1 b2 c3");
    // Ponder on X's reply, then the reply happens: the tree carries over.
    let moves = format!("a1 b2 c3 {turn}");
    e.send(&format!("position startpos moves {moves}"));
    e.send("go ponder nodes 3000");
    std::thread::sleep(Duration::from_millis(100));
    e.send("ponderhit");
    let best = e.last("bestturn");
    classic_after_best_turn(&[best], &moves);
}

#[test]
fn the_game_over_is_reported_and_quit_and_eof_end_the_engine() {
    let mut e = Engine::start(&["engine"]);
    e.send("variant classic size=3x3");
    e.send("position startpos moves a1 b2 c3");
    e.send("go depth 2");
    assert_eq!(e.last("error"), "error the game is over (X wins)");
    e.send("quit");
    assert!(e.wait().is_ok(), "quit ends it");
    let mut e = Engine::start(&["engine"]);
    e.send("go depth 2");
    e.last("bestturn");
    assert!(e.wait().is_ok(), "the end of input ends it");
}

#[test]
fn bytes_that_are_not_utf8_get_an_error_and_reading_goes_on() {
    let mut e = Engine::start(&["engine"]);
    e.send_raw(b"isready\n\xff\nisready\nlegal \xc3\x28\n");
    let lines = e.until("readyok");
    assert_eq!(lines, ["readyok"]);
    assert_eq!(
        e.last("error"),
        "error the line is not UTF-8 text (byte 0xff at column 1); it was ignored"
    );
    e.last("readyok");
    assert_eq!(
        e.last("error"),
        "error the line is not UTF-8 text (byte 0xc3 at column 7); it was ignored"
    );
    // A line of 3 MB is refused whole; the next line is read as usual.
    let mut long = vec![b'x'; 3 << 20];
    long.extend_from_slice(b"\nisready\n");
    e.send_raw(&long);
    assert!(e
        .last("error")
        .starts_with("error the line is 3145728 bytes long"));
    e.last("readyok");
}

#[test]
fn ponder_and_infinite_wait_for_their_answer_on_a_solved_position() {
    // 3x3: X's third step c3 takes O's corner before O enters, so the
    // search proves the win at once and ends by itself.
    for (go, release) in [("go infinite", "stop"), ("go ponder", "ponderhit")] {
        let mut e = Engine::start(&["engine"]);
        e.send("variant classic size=3x3");
        e.send("position startpos moves a1 b2");
        e.send(go);
        let early = e.within(Duration::from_millis(800));
        assert!(
            !early.iter().any(|l| l.starts_with("bestturn")),
            "{go} answered on its own: {early:?}"
        );
        e.send("isready");
        e.last("readyok");
        e.send(release);
        assert_eq!(e.last("bestturn"), "bestturn c3", "{go} then {release}");
    }
}

#[test]
fn messages_name_the_protocol_and_say_what_is_wrong() {
    let mut e = Engine::start(&["engine"]);
    e.send("variant classic size=2x3");
    assert_eq!(
        e.last("error"),
        "error size: board 2x3 is out of range: files and ranks must be between 3 and 19"
    );
    e.send("variant classic steps=256");
    assert_eq!(
        e.last("error"),
        "error steps must be between 1 and 99, not 256"
    );
    e.send("go time 1e3");
    assert!(e.last("error").contains("'1e3' is not a duration"));
    e.send("go depth 99999999999");
    assert_eq!(
        e.last("error"),
        "error depth must be between 1 and 64, not 99999999999"
    );
    e.send("setoption name Player value level:1,level:2");
    assert!(e.last("error").contains("option 'level:2' needs a value"));
    e.send("position set 3x3 classic 3/3/3 x 1 4294967295 - 0 moves a1");
    assert!(e.last("error").contains("turn 4294967295 is too late"));
    e.send("position set 3x3 classic 3/3/3 x 3 1 XO 0");
    assert!(e.last("error").contains("X is marked as entered"));
    // After setoption, the handshake still reports the option's default.
    e.send("setoption name Player value level:3");
    e.send("vwe");
    let hello = e.until("vweok");
    assert!(hello.contains(&"option name Player type string default level:8".to_string()));
    // A finished game has no legal step.
    e.send("variant classic size=3x3");
    e.send("position startpos moves a1 b2 c3");
    e.send("legal");
    assert_eq!(e.last("legal"), "legal none");
}

#[test]
fn a_new_variant_is_searched_under_its_own_rules() {
    // With one-step first turns, feup's and classic's starts hash alike (an
    // empty 10×10 board, X to make one step), but feup enters anywhere on
    // the a-file and classic at a1 only: nothing searched under feup may
    // carry over, or classic would be answered with feup's step.
    let mut e = Engine::start(&["engine"]);
    e.send("setoption name Player value mcts:playouts=3000,threads=1,seed=3");
    e.send("variant feup first=1");
    e.send("position startpos");
    e.send("go nodes 3000");
    let feup = e.until("bestturn");
    assert_ne!(
        feup.last().unwrap(),
        "bestturn a1",
        "the premise: feup's step is not classic's"
    );
    e.send("variant classic first=1");
    e.send("position startpos");
    e.send("go nodes 3000");
    assert_eq!(e.until("bestturn").last().unwrap(), "bestturn a1");
}

#[test]
fn a_view_is_answered_with_one_step_it_may_play() {
    let mut e = Engine::start(&["engine"]);
    // X at a1 sees only around it; O's corner is fog.
    let view = "5x5 steps=3,first=3,start=corners,end=standard ??3/5/5/5/X4 x 3 1 XO 0";
    e.send(&format!("position view {view} hidden 1"));
    e.send("legal");
    assert_eq!(e.last("legal"), "legal b1 a2 b2");
    e.send("go movetime 100");
    let best = e.last("bestturn");
    assert!(
        ["bestturn a2", "bestturn b1", "bestturn b2"].contains(&best.as_str()),
        "{best}"
    );
    e.send("show");
    assert_eq!(
        e.last("info string view"),
        format!("info string view {view}")
    );
    // Bad views say what is wrong and where.
    e.send("position view 5x5 steps=3,first=3,start=corners,end=standard 4O/5/5/5/X?3 x 3 1 XO 0 hidden 1");
    assert!(
        e.last("error")
            .contains("b1 is next to one of X's live groups"),
        "a '?' X must see"
    );
    e.send(&format!("position view {view}"));
    assert!(e.last("error").contains("hidden N"));
    e.send(&format!("position view {view} hidden many"));
    assert!(e.last("error").contains("hidden"));
    // A view is checked as a position is, but for its counters.
    e.send("position view 5x5 steps=3,first=3,start=corners,end=standard ??3/5/5/5/X4 x 9 1 XO 0 hidden 1");
    assert!(e
        .last("error")
        .contains("9 steps left, but turn 1 has only 3 steps"));
    e.send("legal");
    assert_eq!(
        e.last("legal"),
        "legal b1 a2 b2",
        "the last good view stays"
    );
    // A whole position again: the view is forgotten.
    e.send("position startpos moves a1");
    e.send("show");
    assert!(e.last("info string position").contains(" x 2 1 "));
    e.send("isready");
    e.last("readyok");
}
