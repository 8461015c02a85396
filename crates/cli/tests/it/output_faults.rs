//! Every subcommand meets a closed pipe (`| head -1`) and a full disk
//! (`>/dev/full`) without a panic: a closed pipe ends it quietly with
//! status 0, a full disk with one line on stderr and status 1.

use std::fs::File;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_virus-wars"))
}

/// The subcommands, each with arguments that make it print and end soon.
fn commands(dir: &std::path::Path) -> Vec<Vec<String>> {
    let record = dir.join("game.vwr");
    std::fs::write(
        &record,
        "[Variant \"classic\"]\n[Size \"5x5\"]\n\n1. a1-b2-c3\n*\n",
    )
    .unwrap();
    let arena_out = dir.join("arena");
    [
        vec!["perft", "--size", "3x3", "--steps", "1", "--depth", "12"],
        vec!["replay", "--record", record.to_str().unwrap()],
        vec!["replay", "--moves", "a1 b2 c3", "--size", "5x5"],
        vec![
            "bench",
            "--seconds",
            "0.05",
            "--games",
            "20",
            "--perft-depth",
            "2",
        ],
        vec![
            "arena",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "2",
            "--size",
            "5x5",
            "--quiet",
            "--out",
            arena_out.to_str().unwrap(),
        ],
        vec![
            "tune",
            "--method",
            "regression",
            "--games",
            "2",
            "--playouts",
            "20",
            "--size",
            "5x5",
        ],
        vec!["play", "--plain", "--two-players"],
        vec!["engine"],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect()
}

fn run_with_stdout(args: &[String], stdout: Stdio) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        // The engine and plain play read commands; the others ignore stdin.
        let _ = stdin.write_all(b"vwe\nisready\nshow\nlegal\nquit\n");
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_pipe_ends_every_subcommand_quietly() {
    let dir = tempdir();
    for args in commands(&dir) {
        // A pipe whose reader is already gone: the first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let o = run_with_stdout(&args, Stdio::from(writer));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.status.success(), "{args:?}: {:?} {err}", o.status);
        assert!(!err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn a_full_disk_gives_one_line_and_status_1() {
    let dir = tempdir();
    for args in commands(&dir) {
        let full = File::create("/dev/full").unwrap();
        let o = run_with_stdout(&args, Stdio::from(full));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or_default();
        assert_eq!(
            last, "error: cannot write to standard output: No space left on device (os error 28)",
            "{args:?}: {err}"
        );
    }
}

/// A fresh folder under the system's temp dir, removed by the OS eventually.
fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "virus-wars-output-faults-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
