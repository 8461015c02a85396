//! `virus-wars loadtest` against real servers: games played to their end
//! with nothing lost, doubled or rated twice (one process on SQLite, two
//! on one PostgreSQL), and a run with no server that ends on time and
//! fails with its figures.

use std::process::Command;

use super::serve::{a_dead_port, serve, two_processes_on_postgres, Served};

/// Runs `loadtest` against these servers; its one line's numbers (seven,
/// and with `accounts` the rated games and the accounts whose ratings do
/// not match them), checked for nothing lost, doubled, refused or rated
/// twice.
fn load(servers: &[&Served], games: &str, accounts: bool) -> Vec<f64> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
    command.arg("loadtest");
    if accounts {
        command.arg("--accounts");
    }
    for s in servers {
        command.args(["--url", &format!("http://{}", s.addr)]);
    }
    let out = command
        .args([
            "--games",
            games,
            "--seconds",
            "3",
            "--think-ms",
            "10",
            "--size",
            "5x5",
        ])
        .output()
        .expect("the load test runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = text.trim();
    assert_eq!(text.lines().count(), 1, "exactly one line: {text}");
    let fields: Vec<&str> = line.split(", ").collect();
    let names: Vec<&str> = fields
        .iter()
        .map(|f| f.split(' ').next().unwrap())
        .collect();
    let mut expected = vec![
        "games",
        "steps",
        "errors",
        "lost",
        "duplicated",
        "p50",
        "p99",
        "longest",
        "rate",
        "slowest",
        "reconnected",
        "ramp-p99",
    ];
    // Steal is read from /proc/stat, which Linux has.
    if cfg!(target_os = "linux") {
        expected.push("steal");
    }
    if accounts {
        expected.extend(["rated", "mismatched"]);
    }
    assert_eq!(names, expected, "{line}");
    assert!(fields[6].ends_with(" ms"), "{line}");
    let numbers: Vec<f64> = fields
        .iter()
        .map(|f| f.split(' ').nth(1).unwrap().parse::<f64>().unwrap())
        .collect();
    assert!(numbers[1] > 10.0, "steps were played: {line}");
    assert_eq!(
        (numbers[2], numbers[3], numbers[4]),
        (0.0, 0.0, 0.0),
        "{line}"
    );
    // The longest wait is at least the 99th percentile; steps were
    // acknowledged a second; nobody was told to reconnect.
    assert!(numbers[7] >= numbers[6], "{line}");
    assert!(numbers[8] > 0.0, "{line}");
    assert_eq!(numbers[10], 0.0, "{line}");
    if accounts {
        let n = numbers.len();
        assert!(numbers[n - 2] >= 1.0, "rated games finished: {line}");
        assert_eq!(
            numbers[n - 1],
            0.0,
            "every rated game moved its ratings once: {line}"
        );
    }
    numbers
}

#[test]
fn the_load_test_plays_games_and_finds_nothing_lost() {
    let data = std::env::temp_dir().join(format!("vw-serve-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = serve(&data);
    let numbers = load(&[&server], "6", false);
    assert!(numbers[0] >= 6.0, "{numbers:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_load_test_without_a_server_ends_on_time_and_fails_with_its_figures() {
    // A 2-second load test of 3 games against `port`: it fails, within
    // 30 s; its stdout and stderr.
    let load = |port: u16| {
        let started = std::time::Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(["loadtest", "--url", &format!("http://127.0.0.1:{port}")])
            .args(["--games", "3", "--seconds", "2"])
            .output()
            .expect("the load test runs");
        let took = started.elapsed();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(
            !out.status.success(),
            "faults fail the run: {stdout} {stderr}"
        );
        assert!(
            took < std::time::Duration::from_secs(30),
            "it took {took:?}"
        );
        (stdout, stderr)
    };
    // Nothing listens: it gives up at the end of its 2 s (it used to try
    // 60 s more), and says so in its line.
    let (stdout, stderr) = load(a_dead_port());
    assert!(
        stdout.starts_with("games 0, steps 0, errors 3, lost 0"),
        "{stdout}"
    );
    assert!(stderr.contains("3 games failed"), "{stderr}");
    // A server that takes connections and never answers: the same, on time
    // (each request used to wait its 60 s, and the run never ended).
    let hung = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = hung.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut taken = Vec::new();
        for stream in hung.incoming().take(64) {
            taken.push(stream);
        }
        std::thread::sleep(std::time::Duration::from_secs(60));
    });
    let (stdout, _) = load(port);
    assert!(stdout.starts_with("games 0, steps 0, errors 3"), "{stdout}");
}

/// The load test on two processes on one PostgreSQL: each game's steps
/// alternate between them, and both show every acknowledged step.
#[test]
fn the_load_test_on_two_processes_finds_nothing_lost() {
    let Some((a, b)) = two_processes_on_postgres() else {
        return;
    };
    let numbers = load(&[&a, &b], "6", true);
    assert!(numbers[0] >= 6.0, "{numbers:?}");
}
