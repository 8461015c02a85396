//! `virus-wars serve` as a new user runs it: it prints where it listens,
//! serves a game, is killed with SIGKILL mid-game, and comes back with
//! every game, step and seat token.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

pub(super) struct Served {
    pub(super) child: Child,
    pub(super) addr: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(super) fn serve(data: &std::path::Path) -> Served {
    serve_with(&["--data".as_ref(), data.as_os_str()])
}

/// Two `serve` processes on the PostgreSQL scripts/test starts; None
/// (and a loud SKIPPED) without one, which CI never allows.
fn two_processes_on_postgres() -> Option<(Served, Served)> {
    let Ok(url) = std::env::var("VW_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI runs this test: scripts/test sets VW_TEST_POSTGRES_URL"
        );
        eprintln!("SKIPPED: two processes on PostgreSQL (no VW_TEST_POSTGRES_URL)");
        return None;
    };
    let url_arg = std::ffi::OsString::from(&url);
    let args = ["--database-url".as_ref(), url_arg.as_os_str()];
    Some((serve_with(&args), serve_with(&args)))
}

pub(super) fn serve_with(args: &[&std::ffi::OsStr]) -> Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
    command
        .args(["serve", "--no-rate-limits", "--addr", "127.0.0.1:0"])
        .args(args);
    started(command)
}

/// The server `command` starts, once its first line says where it listens.
pub(super) fn started(mut command: Command) -> Served {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("the first line says where: {line:?}"))
        .to_string();
    Served { child, addr }
}

pub(super) fn call(
    s: &Served,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, serde_json::Value) {
    let mut c = TcpStream::connect(&s.addr).unwrap();
    let auth = token.map_or(String::new(), |t| format!("authorization: Bearer {t}\r\n"));
    write!(
        c,
        "{method} {path} HTTP/1.1\r\nhost: t\r\nconnection: close\r\n{auth}content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    c.read_to_string(&mut text).unwrap();
    let status = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (
        status,
        serde_json::from_str(body).unwrap_or(serde_json::Value::Null),
    )
}

/// One step for the seat of `token` in game `id` at `seq`.
pub(super) fn step_at(
    s: &Served,
    id: &str,
    token: &str,
    seq: &serde_json::Value,
    step: serde_json::Value,
) -> (u16, serde_json::Value) {
    let body = serde_json::json!({"seq": seq, "steps": [step]}).to_string();
    call(
        s,
        "POST",
        &format!("/api/games/{id}/steps"),
        Some(token),
        &body,
    )
}

/// A 5×5 game created on `creator` (X), joined on `joiner` (O), and X's
/// first turn (a1 b2 c3) played on `creator`: the game's id, O's token and
/// the state after that turn.
fn first_turn_played(creator: &Served, joiner: &Served) -> (String, String, serde_json::Value) {
    let new_game = r#"{"size":"5x5","side":"x"}"#;
    let (status, created) = call(creator, "POST", "/api/games", None, new_game);
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let (status, joined) = call(joiner, "POST", &format!("/api/games/{id}/join"), None, "");
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let first = r#"{"seq":0,"steps":["a1","b2","c3"]}"#;
    let (status, state) = call(
        creator,
        "POST",
        &format!("/api/games/{id}/steps"),
        Some(&x),
        first,
    );
    assert_eq!(status, 200, "{state}");
    (id, o, state)
}

#[test]
fn a_game_survives_kill_9() {
    let data = std::env::temp_dir().join(format!("vw-serve-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut server = serve(&data);
    let (id, o, before) = first_turn_played(&server, &server);
    let steps = format!("/api/games/{id}/steps");
    // SIGKILL: no shutdown, no flush.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let server = serve(&data);
    let (status, after) = call(&server, "GET", &format!("/api/games/{id}"), None, "");
    assert_eq!(status, 200);
    assert_eq!(after["steps"], before["steps"]);
    assert_eq!(after["position"], before["position"]);
    let (status, v) = call(
        &server,
        "POST",
        &steps,
        Some(&o),
        r#"{"seq":3,"steps":["e5"]}"#,
    );
    assert_eq!(status, 200, "the game goes on with the old token: {v}");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// The reported case: `ulimit -n 256` and 300 idle connections from one
/// address, after which `/healthz` timed out and the log filled with "Too
/// many open files". Now the connections past the cap (the limit less 64)
/// are refused at once with a JSON 503, and an open connection is served.
#[test]
fn out_of_file_descriptors_refuses_new_connections_and_serves_the_open_ones() {
    let data = std::env::temp_dir().join(format!("vw-serve-fds-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();
    let binary = env!("CARGO_BIN_EXE_virus-wars");
    let script = format!(
        "ulimit -n 256 && exec '{binary}' serve --addr 127.0.0.1:0 --connections-per-address 0 --data '{}'",
        data.display()
    );
    let mut command = Command::new("sh");
    command.args(["-c", &script]);
    let server = started(command);
    // One connection kept alive, served before and after.
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    let healthz = |s: &mut TcpStream| {
        s.write_all(b"GET /healthz HTTP/1.1\r\nhost: t\r\n\r\n")
            .unwrap();
        let mut buf = [0u8; 512];
        s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        let n = s.read(&mut buf).unwrap();
        String::from_utf8_lossy(&buf[..n]).to_string()
    };
    assert!(healthz(&mut kept).starts_with("HTTP/1.1 200"));
    // All 300 at once, then what each was told (well inside the 30 s a
    // connection may wait for its request).
    let all: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    // The server has taken them all once it counts the refused ones (the
    // cap is 256 - 64 = 192): asked on the kept connection.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        kept.write_all(b"GET /metrics HTTP/1.1\r\nhost: t\r\n\r\n")
            .unwrap();
        let mut text = String::new();
        let mut buf = [0u8; 8192];
        while !text.contains("vw_step_seconds_count") {
            let n = kept.read(&mut buf).unwrap();
            assert!(n > 0, "the kept connection is served");
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        let refused: f64 = text
            .lines()
            .find_map(|l| l.strip_prefix("vw_connections_refused_total "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0.0);
        if refused >= 100.0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{refused} refused so far"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let mut idle = Vec::new();
    let mut refused = 0;
    for mut s in all {
        s.set_nonblocking(true).unwrap();
        let mut buf = [0u8; 512];
        match s.read(&mut buf) {
            // Nothing said: an open connection, waiting for its request.
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => idle.push(s),
            Err(e) => panic!("{e}"),
            Ok(n) => {
                let answer = String::from_utf8_lossy(&buf[..n]).to_string();
                assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
                assert!(answer.contains("\"busy\""), "{answer}");
                refused += 1;
            }
        }
    }
    assert!(
        refused > 0 && idle.len() < 256,
        "{} open, {refused} refused",
        idle.len()
    );
    assert!(
        healthz(&mut kept).starts_with("HTTP/1.1 200"),
        "the open connection is served"
    );
    drop(idle);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let (status, _) = call(&server, "GET", "/healthz", None, "");
    assert_eq!(status, 200, "new connections once there is room");
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

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

/// The load test on two processes on one PostgreSQL: each game's steps
/// alternate between them, and both show every acknowledged step.
/// A SIGTERM sent the moment the server says it listens (as a service
/// manager may) stops it cleanly: the handlers are in place by then (it was
/// killed by the signal now and then).
#[test]
fn a_sigterm_as_soon_as_it_listens_is_a_clean_stop() {
    let data = std::env::temp_dir().join(format!("vw-cli-term-{}", std::process::id()));
    for round in 0..8 {
        let mut served = serve(&data);
        let pid = served.child.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        let status = served.child.wait().unwrap();
        assert!(status.success(), "round {round}: {status}");
    }
    let _ = std::fs::remove_dir_all(&data);
}

/// A port nothing listens on (taken, then given back).
fn a_dead_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_database_that_cannot_be_reached_is_said_with_its_cause() {
    // `serve` on `url`: it fails, and says why on stderr.
    let refused = |url: String| {
        let out = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
            .args(["serve", "--addr", "127.0.0.1:0", "--database-url", &url])
            .output()
            .expect("serve runs");
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success(), "{stderr}");
        stderr
    };
    let stderr = refused(format!("postgres://vw@127.0.0.1:{}/x", a_dead_port()));
    // Not the pool's "timed out" after 30 s: why it could not connect.
    assert!(
        stderr.contains("cannot connect") && stderr.contains("refused"),
        "{stderr}"
    );
    assert!(!stderr.contains("timed out"), "{stderr}");
    // A port that takes the connection and never answers: said, not
    // waited on for ever.
    let hung = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let stderr = refused(format!("postgres://vw@{}/x", hung.local_addr().unwrap()));
    assert!(
        stderr.contains("cannot connect: no answer within 10 s"),
        "{stderr}"
    );
    drop(hung);
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

#[test]
fn the_load_test_on_two_processes_finds_nothing_lost() {
    let Some((a, b)) = two_processes_on_postgres() else {
        return;
    };
    let numbers = load(&[&a, &b], "6", true);
    assert!(numbers[0] >= 6.0, "{numbers:?}");
}

/// Two `serve` processes on one PostgreSQL (the one scripts/test starts):
/// what is played on one is seen on the other.
#[test]
fn two_server_processes_share_one_postgres() {
    let Some((a, b)) = two_processes_on_postgres() else {
        return;
    };
    // A knows of the join: X plays there.
    let (id, o, _) = first_turn_played(&a, &b);
    let steps = format!("/api/games/{id}/steps");
    // B holds the game in memory since the join: the news reaches it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let (_, s) = call(&b, "GET", &format!("/api/games/{id}"), None, "");
        if s["seq"] == 3 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "B never heard of A's steps: {s}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (status, v) = call(&b, "POST", &steps, Some(&o), r#"{"seq":3,"steps":["e5"]}"#);
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(&a, "POST", &steps, Some(&o), r#"{"seq":3,"steps":["e5"]}"#);
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("stale_seq")),
        "{v}"
    );
    let (_, s) = call(&a, "GET", &format!("/api/games/{id}"), None, "");
    assert_eq!(s["steps"], serde_json::json!(["a1", "b2", "c3", "e5"]));
}

/// The computer's turn outlives the process that was thinking it: a game
/// against level 8 created on A, the person's turn played on A, A killed
/// 0.3 s later; B takes the turn over once A's lease lapses and plays it.
/// (Before: B never played it until A came back.)
#[test]
fn a_computer_turn_outlives_its_process() {
    let Some((mut a, b)) = two_processes_on_postgres() else {
        return;
    };
    let (status, created) = call(
        &a,
        "POST",
        "/api/games",
        None,
        r#"{"size":"7x7","side":"x","opponent":"level:8"}"#,
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let (status, v) = call(
        &a,
        "POST",
        &format!("/api/games/{id}/steps"),
        Some(&x),
        r#"{"seq":0,"steps":["a1","b2","c3"]}"#,
    );
    assert_eq!(
        (status, v["status"].as_str()),
        (200, Some("O to move")),
        "{v}"
    );
    std::thread::sleep(std::time::Duration::from_millis(300));
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let killed = std::time::Instant::now();
    // Level 8 thinks 2 s; the lease lapses within 5 s; B looks every second.
    loop {
        let (_, s) = call(&b, "GET", &format!("/api/games/{id}"), None, "");
        if s["status"] == "X to move" {
            assert!(s["seq"].as_u64().unwrap() > 3, "{s}");
            eprintln!(
                "B played the computer's turn {:?} after A died",
                killed.elapsed()
            );
            break;
        }
        assert!(
            killed.elapsed() < std::time::Duration::from_secs(15),
            "B never played the orphaned computer turn: {s}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Puzzles cut from a server's archive: 5×5 games played to their end
/// on a server, then `puzzles generate --data` on its data folder.
#[test]
fn puzzles_are_cut_from_a_servers_finished_games() {
    let data = std::env::temp_dir().join(format!("vw-serve-archive-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let server = serve(&data);
    for pick in 0..4 {
        let (status, created) = call(
            &server,
            "POST",
            "/api/games",
            None,
            r#"{"size":"5x5","side":"x"}"#,
        );
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let x = created["token"].as_str().unwrap().to_string();
        let (_, joined) = call(&server, "POST", &format!("/api/games/{id}/join"), None, "");
        let o = joined["token"].as_str().unwrap().to_string();
        let (_, mut state) = call(&server, "GET", &format!("/api/games/{id}"), None, "");
        for n in 0.. {
            let token = match state["to_move"].as_str() {
                Some("x") => &x,
                Some("o") => &o,
                _ => break,
            };
            assert!(n < 300, "a 5x5 game ends");
            let legal = state["legal"].as_array().unwrap();
            let step = legal[(pick * 7 + n) % legal.len()].clone();
            let (status, next) = step_at(&server, &id, token, &state["seq"], step);
            assert_eq!(status, 200, "{next}");
            state = next;
        }
    }
    drop(server);
    let o = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args([
            "puzzles",
            "generate",
            "--games",
            "10",
            "--threads",
            "1",
            "--judge-playouts",
            "200",
            "--data",
        ])
        .arg(&data)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        text.starts_with("# virus-wars puzzles generate --games 10 from the archive of a server (4 finished games read)"),
        "{text}"
    );
    assert!(
        text.lines().count() > 1,
        "four loose games hold a puzzle: {text}"
    );
    for (k, line) in text.lines().enumerate().skip(1) {
        virus_wars_ai::puzzles::parse_line(line, k + 1).unwrap();
    }
    let o = Command::new(env!("CARGO_BIN_EXE_virus-wars"))
        .args(["puzzles", "generate", "--data", "/nonexistent/vw"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("--data: no server database in /nonexistent/vw"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&data);
}
