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

/// The fields of a correspondence load test's line, by name.
fn fields(line: &str) -> std::collections::HashMap<String, f64> {
    line.trim()
        .split(", ")
        .filter_map(|f| {
            let mut words = f.split(' ');
            Some((words.next()?.to_string(), words.next()?.parse().ok()?))
        })
        .collect()
}

/// A correspondence load test: its line's fields, checked for nothing
/// duplicated, missed or stalled. With `kill` set, that server is killed
/// (SIGKILL) 3 s into the run.
fn correspondence(
    servers: &mut [&mut Served],
    kill: Option<usize>,
) -> std::collections::HashMap<String, f64> {
    correspondence_with(
        servers,
        kill,
        &["--games", "8", "--seconds", "10", "--think-ms", "40"],
    )
}

/// As [`correspondence`], with these `--games`, `--seconds`, `--think-ms`
/// and `--size`.
fn correspondence_with(
    servers: &mut [&mut Served],
    kill: Option<usize>,
    plan: &[&str],
) -> std::collections::HashMap<String, f64> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
    command.args(["loadtest", "--correspondence"]);
    for s in servers.iter() {
        command.args(["--url", &format!("http://{}", s.addr)]);
    }
    let mut child = command
        .args(plan)
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the load test runs");
    let stderr = child.stderr.take().unwrap();
    let (started, starts) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut seen = Vec::new();
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            // The run's clock starts once every player signed up.
            if line.contains("the run starts") {
                let _ = started.send(());
            }
            seen.push(line);
        }
        seen
    });
    if let Some(k) = kill {
        starts
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the players sign up");
        std::thread::sleep(std::time::Duration::from_secs(3));
        servers[k].child.kill().unwrap();
        servers[k].child.wait().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let seen = reader.join().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text} {seen:?}");
    assert_eq!(text.lines().count(), 1, "exactly one line: {text}");
    let f = fields(&text);
    for name in ["duplicated", "missed", "stalled", "errors"] {
        assert_eq!(f[name], 0.0, "{name}: {text}");
    }
    assert!(f["turns"] >= 20.0, "turns were passed: {text}");
    assert!(
        f["notifications"] > f["turns"],
        "each turn notified: {text}"
    );
    assert!(f["same-p99"] >= f["same-p50"], "{text}");
    f
}

#[test]
fn correspondence_players_get_each_notification_once() {
    let data = std::env::temp_dir().join(format!("vw-serve-mail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut server = serve(&data);
    let f = correspondence(&mut [&mut server], None);
    assert_eq!(f["players"], 16.0);
    assert_eq!(f["reconnected"], 0.0);
    assert!(!f.contains_key("across-p50"), "one process: {f:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// Two processes, one killed with SIGKILL mid-run: its players' sockets
/// open again on the other, and nothing is missed, doubled or left
/// without its notification.
#[test]
fn correspondence_over_two_processes_survives_a_kill() {
    let Some((mut a, mut b)) = two_processes_on_postgres() else {
        return;
    };
    let f = correspondence(&mut [&mut a, &mut b], Some(1));
    assert!(
        f["reconnected"] >= 1.0,
        "the killed process's players came back: {f:?}"
    );
    assert!(f.contains_key("across-p50"), "{f:?}");
}

/// A pair that plays fast reaches the server's cap on challenges an hour
/// (20 an account; the two challenge in turn): it stops there, and that is
/// no fault (it used to fail the run as an error and a stall).
#[test]
fn a_pair_stops_at_the_cap_on_challenges_and_that_is_no_fault() {
    let data = std::env::temp_dir().join(format!("vw-serve-capped-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut server = serve(&data);
    let f = correspondence_with(
        &mut [&mut server],
        None,
        &[
            "--games",
            "1",
            "--seconds",
            "20",
            "--think-ms",
            "0",
            "--size",
            "5x5",
        ],
    );
    assert_eq!(f["capped"], 1.0, "{f:?}");
    assert_eq!(f["games"], 40.0, "{f:?}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// A board the server would refuse, and an address that is no Virus Wars
/// server, are said at once, before anyone signs up.
#[test]
fn a_correspondence_load_test_refuses_what_cannot_work_at_once() {
    let run = |url: &str, size: &str| {
        let started = std::time::Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(["loadtest", "--correspondence", "--url", url, "--size", size])
            .args(["--games", "2", "--seconds", "30"])
            .output()
            .expect("the load test runs");
        assert!(!out.status.success());
        assert!(started.elapsed() < std::time::Duration::from_secs(15));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let e = run("http://127.0.0.1:9", "1x1");
    assert!(e.contains("--size '1x1'"), "{e}");
    // Takes connections and never answers.
    let hung = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = hung.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut taken = Vec::new();
        for stream in hung.incoming().take(8) {
            taken.push(stream);
        }
        std::thread::sleep(std::time::Duration::from_secs(30));
    });
    let e = run(&format!("http://127.0.0.1:{port}"), "6x6");
    assert!(e.contains("did not answer GET /healthz within 5 s"), "{e}");
}
