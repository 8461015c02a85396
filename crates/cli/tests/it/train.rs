//! `virus-wars train` on the real binary, with a tiny net and a few games.
//! Only with the cargo feature `train` (scripts/test builds with every
//! feature).
#![cfg(feature = "train")]

use std::process::Command;

/// A run whose stderr is a pipe, as under `nohup … &` or a CI log, reports
/// its progress as plain lines (bars would print nothing there), and its
/// log line goes to stdout.
#[test]
fn a_run_without_a_terminal_reports_progress_in_lines() {
    let dir = std::env::temp_dir().join(format!("vw-train-lines-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = dir.join("run");
    let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(["train", "--dir", run.to_str().unwrap()])
        .args(["--variants", "korobkov", "--generations", "1"])
        .args(["--games", "2", "--playouts", "8", "--channels", "2"])
        .args(["--blocks", "1", "--batch", "8", "--steps", "20"])
        .args(["--gate-games", "2", "--threads", "1"])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    for line in [
        "gen 1 self-play 0/2 (",
        "gen 1 self-play 2/2 (",
        "gen 1 training 0/20 (",
        "gen 1 training 2/20 (",
        "gen 1 training 20/20 (",
        "gen 1 gating 2/2 (",
    ] {
        assert!(stderr.contains(line), "no {line:?} in:\n{stderr}");
    }
    // One line at each tenth, not one a step.
    assert_eq!(stderr.matches("gen 1 training ").count(), 11, "{stderr}");
    assert!(stdout.starts_with("generation\tsamples"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("1\t")), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--start builtin` goes on from the built-in net (kept as generation 0);
/// a start file that is not there, or a shape the start net does not have,
/// is refused before anything is written.
#[test]
fn a_run_starts_from_the_built_in_net_or_says_why_not() {
    let dir = std::env::temp_dir().join(format!("vw-train-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let train = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(["train", "--dir", dir.to_str().unwrap()])
            .args(["--variants", "korobkov", "--generations", "1"])
            .args(["--games", "2", "--playouts", "8", "--batch", "8"])
            .args(["--steps", "2", "--gate-games", "2", "--threads", "1"])
            .args(extra)
            .output()
            .expect("the binary runs")
    };
    let missing = dir.with_extension("none.safetensors");
    let out = train(&["--start", missing.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(&format!("--start {}: cannot read", missing.display())),
        "{stderr}"
    );
    let out = train(&["--start", "builtin", "--channels", "32"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("the start net has 16 channels"), "{stderr}");
    assert!(!dir.exists(), "nothing is written for a refused run");

    let out = train(&["--start", "builtin"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.join("net-0000.safetensors").exists());
    assert!(dir.join("net-0001.safetensors").exists());
    assert!(
        std::fs::read_to_string(dir.join("run.txt"))
            .unwrap()
            .contains("channels=16 blocks=4"),
        "the run takes the start net's shape"
    );
    // Started again without --start, the run resumes from its own copy.
    let out = train(&[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !stdout.lines().any(|l| l.starts_with("1\t")),
        "generation 1 is done, not played again:\n{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
