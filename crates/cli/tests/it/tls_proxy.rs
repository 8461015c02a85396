//! The server behind a real TLS proxy (Debian's Caddy, with a throwaway
//! certificate authority of its own): a person and a bot play a rated
//! game through it, the bot a `virus-wars bot --server https://…` that
//! trusts the authority by `SSL_CERT_FILE`, as curl would; without it, the
//! bot refuses the proxy's certificate.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use virus_wars_client::http::Server;

/// Caddy, stopped when dropped.
struct Proxy(Child);

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback port free a moment ago.
fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

/// Caddy serving `https://localhost:port` in front of `upstream`, from
/// `dir`; the proxy and its authority's root certificate (PEM).
fn caddy(dir: &std::path::Path, port: u16, upstream: &str) -> (Proxy, Vec<u8>) {
    let storage = dir.join("caddy-data");
    let config = format!(
        "{{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n\thttp_port {}\n\tstorage file_system {}\n}}\n\
         https://localhost:{port} {{\n\ttls internal\n\treverse_proxy {upstream}\n}}\n",
        free_port(),
        storage.display()
    );
    let file = dir.join("Caddyfile");
    std::fs::write(&file, config).unwrap();
    let mut child = Command::new("caddy")
        .args(["run", "--adapter", "caddyfile", "--config"])
        .arg(&file)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir)
        .env("XDG_CONFIG_HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("caddy starts");
    // Caddy logs to stderr; keep reading it so that it never blocks.
    let log = child.stderr.take().unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let kept = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(log).lines().map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let proxy = Proxy(child);
    let root = storage.join("pki/authorities/local/root.crt");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let listening = std::net::TcpStream::connect(("127.0.0.1", port)).is_ok();
        if let (true, Ok(pem)) = (listening, std::fs::read(&root)) {
            return (proxy, pem);
        }
        assert!(
            Instant::now() < deadline,
            "caddy did not serve within 30 s: {:?}",
            lines.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Caddy from Debian's package, or None (and a loud SKIPPED) without it,
/// which CI never allows.
fn have_caddy() -> bool {
    let found = Command::new("caddy").arg("version").output().is_ok();
    if !found {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "CI runs this test: scripts/test installs caddy"
        );
        eprintln!("SKIPPED: the TLS proxy test (no caddy: apt-get install caddy)");
    }
    found
}

#[test]
fn a_bot_plays_a_rated_game_against_a_person_through_a_tls_proxy() {
    if !have_caddy() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("vw-tls-proxy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let port = free_port();
    let public = format!("https://localhost:{port}");
    let data = dir.join("data");
    let public_arg = std::ffi::OsString::from(&public);
    let served = super::serve::serve_with(&[
        "--data".as_ref(),
        data.as_os_str(),
        "--public-url".as_ref(),
        public_arg.as_os_str(),
    ]);
    let (_proxy, root) = caddy(&dir, port, &served.addr);
    let root_file = dir.join("root.crt");
    std::fs::write(&root_file, &root).unwrap();

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = Server::with_roots(&public, vec![root.clone()]).unwrap();
    // Two people sign up through the proxy; the owner registers a bot.
    let sign_up = |name: &str| {
        let body = json!({"name": name, "password": "violet tram under paper"}).to_string();
        let (status, me, cookie) = runtime
            .block_on(server.http_session("POST", "/api/accounts", None, &body))
            .unwrap();
        assert_eq!(status, 201, "{me}");
        cookie.expect("a session cookie, __Host- over https")
    };
    let (owner, player) = (sign_up("owner"), sign_up("player"));
    let (status, bot, _) = runtime
        .block_on(server.http_session("POST", "/api/bots", Some(&owner), r#"{"name":"tls-bot"}"#))
        .unwrap();
    assert_eq!(status, 201, "{bot}");
    let bot_token = bot["token"].as_str().unwrap().to_string();

    let engine = format!("{} engine", env!("CARGO_BIN_EXE_virus-wars"));
    let run_bot = |trust: Option<&std::path::Path>| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_virus-wars"));
        c.args(["bot", "--server", &public, "--engine", &engine])
            .args([
                "--token",
                &bot_token,
                "--games",
                "1",
                "--move-time-ms",
                "50",
            ])
            .env_remove("SSL_CERT_FILE")
            .env_remove("SSL_CERT_DIR")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(file) = trust {
            c.env("SSL_CERT_FILE", file);
        }
        c.spawn().expect("the bot starts")
    };
    // Not trusting the proxy's authority, the bot refuses its certificate.
    let refused = run_bot(None).wait_with_output().unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr).to_lowercase();
    assert!(said.contains("certificate"), "{said}");
    // And says what to do about it.
    assert!(
        said.contains("hint:") && said.contains("ssl_cert_file="),
        "{said}"
    );

    // A rated game against the bot: it waits for the bot to join.
    let rated =
        r#"{"rated":true,"side":"x","opponent":"bot:tls-bot","clock":{"base_s":300,"inc_s":0}}"#;
    let (status, created, _) = runtime
        .block_on(server.http_session("POST", "/api/games", Some(&player), rated))
        .unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let x = created["token"].as_str().unwrap().to_string();
    let bot = run_bot(Some(&root_file));

    // The person plays through the proxy: a whole turn, then the bot's
    // (heard on the socket, over wss), then resigns, so that each side
    // played a turn and the game is rated.
    let state = runtime.block_on(async {
        let (_out, mut inbox) = server.socket(&id, &x).await.unwrap();
        // The seq at which the person's first turn ended.
        let mut turn_ended: Option<u64> = None;
        loop {
            let state: Value = tokio::time::timeout(Duration::from_secs(60), inbox.recv())
                .await
                .expect("a state within 60 s")
                .expect("the socket is open");
            if state["type"] != "state" || state["to_move"] != "x" {
                continue;
            }
            let seq = state["seq"].as_u64().unwrap();
            if let Some(ended) = turn_ended {
                if seq > ended {
                    // The bot played its turn: each side has played one.
                    let path = format!("/api/games/{id}/resign");
                    let (status, over) = server.http_as("POST", &path, Some(&x), "").await.unwrap();
                    assert_eq!(status, 200, "{over}");
                    return over;
                }
                continue;
            }
            let step = state["legal"][0]
                .as_str()
                .expect("a legal step")
                .to_string();
            let body = json!({"seq": seq, "steps": [step]}).to_string();
            let path = format!("/api/games/{id}/steps");
            let (status, after) = server
                .http_as("POST", &path, Some(&x), &body)
                .await
                .unwrap();
            match (status, after["error"]["code"].as_str()) {
                (200, _) if after["to_move"] == "o" => turn_ended = Some(seq + 1),
                (200, _) => {}
                // Before the bot takes its seat (its join is announced),
                // or a state this loop read late.
                (409, Some("waiting_for_opponent" | "stale_seq")) => {}
                _ => panic!("{status} {after}"),
            }
        }
    });
    assert_eq!(state["ending"]["reason"], "resignation", "{state}");
    assert_eq!(state["rated"], true, "{state}");
    let out = bot.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains(&format!("game {id}:")), "{said}");
    // The result moved the person's rating, read through the proxy.
    let (_, page) = runtime
        .block_on(server.http("GET", "/api/players/player", ""))
        .unwrap();
    let games: u64 = page["ratings"]
        .as_object()
        .map_or(0, |r| r.values().filter_map(|v| v["games"].as_u64()).sum());
    assert_eq!(games, 1, "{page}");
    drop(served);
    let _ = std::fs::remove_dir_all(&dir);
}
