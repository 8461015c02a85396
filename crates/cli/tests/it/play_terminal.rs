//! The full-screen game end to end: the real binary in a real pseudo-terminal
//! (tmux), played with keys, typing and a mouse click, read off the screen.

use std::process::Command;
use std::time::{Duration, Instant};

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The screen once `want` is on it (panics after 20 s with what was there).
fn wait_for(session: &str, want: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = tmux(&["capture-pane", "-p", "-t", session]);
        if screen.contains(want) {
            return screen;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "'{want}' never appeared; the screen:\n{screen}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Ends the tmux session when dropped, also when the test fails.
struct Session(String);

impl Drop for Session {
    fn drop(&mut self) {
        tmux(&["kill-session", "-t", &self.0]);
    }
}

/// Whether tmux is here (on CI it must be: scripts/test installs it).
fn have_tmux() -> bool {
    if Command::new("tmux").arg("-V").output().is_err() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "tmux is needed for the terminal test (scripts/test installs it)"
        );
        eprintln!("skipped: tmux is not installed");
        return false;
    }
    true
}

/// `virus-wars ARGS` in a new 120x35 tmux session named after `name`.
fn start(name: &str, args: &str) -> Session {
    let session = format!("vw-{name}-{}", std::process::id());
    let binary = env!("CARGO_BIN_EXE_virus-wars");
    let command = format!("{binary} {args}; echo EXITED $?; sleep 30");
    tmux(&["kill-session", "-t", &session]);
    let started = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "120",
            "-y",
            "35",
            &command,
        ])
        .status()
        .expect("tmux starts");
    assert!(started.success());
    Session(session)
}

#[test]
fn a_game_against_the_computer_with_keys_typing_and_the_mouse() {
    if !have_tmux() {
        return;
    }
    let cleanup = start("play", "play --vs level:2 --variant classic");
    let session = cleanup.0.clone();
    let key = |k: &[&str]| {
        let mut args = vec!["send-keys", "-t", &session];
        args.extend_from_slice(k);
        tmux(&args);
    };
    wait_for(&session, "X to step — 3 of 3 steps left");
    // The cursor starts on the only legal cell, a1: Enter steps there.
    key(&["Enter"]);
    wait_for(&session, "X to step — 2 of 3 steps left");
    key(&["a2-b2", "Enter"]);
    let screen = wait_for(&session, "2. O ");
    assert!(screen.contains("1. X a1-a2-b2"), "{screen}");
    wait_for(&session, "X to step — 3 of 3 steps left");
    // A click on c3: the board's cells are 3 columns wide from column 4,
    // rank 10 on row 2 (SGR mouse reports count from 1).
    key(&["-l", "\u{1b}[<0;12;10M"]);
    key(&["-l", "\u{1b}[<0;12;10m"]);
    let screen = wait_for(&session, "X to step — 2 of 3 steps left");
    assert!(
        screen.contains(" 3  +  + [X] +"),
        "c3 taken by the click:\n{screen}"
    );
    key(&["z9", "Enter"]);
    wait_for(&session, "'z9' is neither steps nor a command");
    key(&["C-e"]);
    wait_for(&session, "hint: ");
    key(&["C-t"]);
    wait_for(&session, "X to step — 3 of 3 steps left");
    key(&["C-q"]);
    let screen = wait_for(&session, "EXITED 0");
    assert!(
        !screen.contains("moves"),
        "the screen is given back:\n{screen}"
    );
}

#[test]
fn a_fog_game_shows_the_fog_and_hides_the_computers_steps() {
    if !have_tmux() {
        return;
    }
    let cleanup = start(
        "fog",
        "play --vs level:2 --variant korobkov --size 6x6 --fog",
    );
    let session = cleanup.0.clone();
    let key = |k: &[&str]| {
        let mut args = vec!["send-keys", "-t", &session];
        args.extend_from_slice(k);
        tmux(&args);
    };
    let screen = wait_for(&session, "X to step — 3 of 3 steps left");
    assert!(screen.contains("? fog (not seen)"), "{screen}");
    assert!(
        screen.contains(" 6  ?  ?  ?  ?  ?  ? "),
        "O's corner is fogged:\n{screen}"
    );
    key(&["a2-b2-b1", "Enter"]);
    // O's turn, from its far corner, is not all seen.
    let screen = wait_for(&session, "2. O ");
    assert!(screen.contains("1. X a2-b2-b1"), "{screen}");
    let o_turn = screen.lines().find(|l| l.contains("2. O ")).unwrap();
    assert!(o_turn.contains('?'), "{screen}");
    wait_for(&session, "X to step — 3 of 3 steps left");
    key(&["C-q"]);
    wait_for(&session, "EXITED 0");
}
