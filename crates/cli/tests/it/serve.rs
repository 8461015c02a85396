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
pub(super) fn two_processes_on_postgres() -> Option<(Served, Served)> {
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
    let metrics_port = a_dead_port();
    let script = format!(
        "ulimit -n 256 && exec '{binary}' serve --addr 127.0.0.1:0 --connections-per-address 0 \
         --metrics-addr 127.0.0.1:{metrics_port} --data '{}'",
        data.display()
    );
    let mut command = Command::new("sh");
    command.args(["-c", &script]);
    let server = started(command);
    // One connection kept alive, served before and after; one to the
    // metrics listener (its own address: never the public one).
    let mut kept = TcpStream::connect(&server.addr).unwrap();
    let mut metrics = TcpStream::connect(("127.0.0.1", metrics_port)).unwrap();
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
    // cap is 256 - 64 = 192): asked on the kept metrics connection.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        metrics
            .write_all(b"GET /metrics HTTP/1.1\r\nhost: t\r\n\r\n")
            .unwrap();
        let mut text = String::new();
        let mut buf = [0u8; 8192];
        while !text.contains("vw_step_seconds_count") {
            let n = metrics.read(&mut buf).unwrap();
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

/// A port nothing listens on (taken, then given back).
pub(super) fn a_dead_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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
