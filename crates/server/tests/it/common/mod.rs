//! A server started by the test on a loopback port with a fresh SQLite
//! file, and a small HTTP/1.1 client for it.
#![allow(dead_code)]

use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use virus_wars_server::{Clock, Config};

/// Each storage test runs on a fresh SQLite file and on a fresh PostgreSQL
/// database (`fresh_sqlite`, `fresh_postgres` must be in scope).
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),*) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::fresh_sqlite(stringify!($name))).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(url) = super::fresh_postgres(stringify!($name)).await {
                    super::$name(url).await
                }
            }
        }
    )*};
}

/// An answer's status and error code, to compare in one assertion.
pub fn code(status: u16, answer: &Value) -> (u16, &str) {
    (status, answer["error"]["code"].as_str().unwrap_or(""))
}

/// `POST /api/games/{id}/{action}` with the seat token `token`.
pub async fn act(server: &Server, id: &str, token: &str, action: &str) -> (u16, Value) {
    let path = format!("/api/games/{id}/{action}");
    server.call("POST", &path, Some(token), None).await
}

/// Registers a bot named `name`; its token.
pub async fn register_bot(server: &Server, name: &str) -> String {
    let body = serde_json::json!({ "name": name }).to_string();
    let (status, bot) = server.call("POST", "/api/bots", None, Some(&body)).await;
    assert_eq!(status, 201, "{bot}");
    bot["token"].as_str().unwrap().to_string()
}

/// The game's stored record, read back.
pub async fn stored_record(server: &Server, id: &str) -> virus_wars_rules::record::Record {
    let path = format!("/api/games/{id}/record");
    let (status, text) = server.raw("GET", &path, None, None).await;
    assert_eq!(status, 200, "{text}");
    virus_wars_rules::record::read(&text).expect("the record reads back")
}

pub struct Server {
    pub addr: SocketAddr,
    /// Where the server serves `/metrics` (its own listener).
    pub metrics_addr: SocketAddr,
    pub db: String,
    /// The server's clock: the system's unless the test's config set a
    /// stopped one (`Clock::stopped()`), which the test moves on.
    pub clock: Clock,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

fn unique(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("vw_{name}_{}_{nanos}", std::process::id())
}

/// A fresh SQLite database file in the system's temp folder.
pub fn fresh_sqlite(name: &str) -> String {
    let dir = std::env::temp_dir().join(unique(name));
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}?mode=rwc", dir.join("test.sqlite").display())
}

/// A fresh database on the PostgreSQL that scripts/test started
/// (`VW_TEST_POSTGRES_URL`); `None` outside CI when there is none.
/// Two servers on one fresh PostgreSQL database (None where there is no
/// PostgreSQL to test on, which CI never allows).
pub async fn two_servers(name: &str) -> Option<(Server, Server)> {
    let db = fresh_postgres(name).await?;
    Some((Server::start(db.clone()).await, Server::start(db).await))
}

/// Two servers on one fresh PostgreSQL database reading one stopped
/// clock (as two processes read one system clock), which the test moves.
pub async fn two_servers_on_a_stopped_clock(name: &str) -> Option<(Server, Server)> {
    let db = fresh_postgres(name).await?;
    let clock = Clock::stopped();
    let a = Server::start_with(db.clone(), |c| c.clock = clock.clone()).await;
    let b = Server::start_with(db, |c| c.clock = clock).await;
    Some((a, b))
}

pub async fn fresh_postgres(name: &str) -> Option<String> {
    let Ok(base) = std::env::var("VW_TEST_POSTGRES_URL") else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("CI runs the storage tests on PostgreSQL too: scripts/test starts one and sets VW_TEST_POSTGRES_URL");
        }
        eprintln!("SKIPPED: the PostgreSQL half of this test (no VW_TEST_POSTGRES_URL; scripts/test sets it)");
        return None;
    };
    sqlx::any::install_default_drivers();
    // PostgreSQL cuts names at 63 bytes: a short prefix keeps the unique end.
    let short: String = name.chars().take(24).collect();
    let db = unique(&short).to_lowercase();
    let pool = sqlx::AnyPool::connect(&base)
        .await
        .expect("the test PostgreSQL answers");
    // CREATE DATABASE copies template1 and fails while another test's
    // copy is in progress ("being accessed by other users"): try again.
    let mut tries = 0;
    while let Err(e) = sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {db}")))
        .execute(&pool)
        .await
    {
        tries += 1;
        assert!(tries < 50, "a fresh database: {e}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    pool.close().await;
    let (server, _) = base.rsplit_once('/').expect("a database in the URL");
    Some(format!("{server}/{db}"))
}

impl Server {
    /// A server without rate limits (tests make requests fast).
    pub async fn start(db: String) -> Server {
        Server::start_with(db, |_| {}).await
    }

    /// A server whose config `adjust` changes first.
    pub async fn start_with(db: String, adjust: impl FnOnce(&mut Config)) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let mut config = Config::new(db.clone());
        config.metrics_addr = Some(free_port());
        config.computer_workers = 2;
        config.rate_limits = virus_wars_server::RateLimits::UNLIMITED;
        config.connections.per_address = 0;
        adjust(&mut config);
        let clock = config.clock.clone();
        let metrics_addr = config.metrics_addr.expect("the test's metrics address");
        let (ready_tx, ready_rx) = oneshot::channel();
        let task = tokio::spawn(async move {
            virus_wars_server::serve(
                listener,
                config,
                async {
                    let _ = stopped.await;
                },
                move || {
                    let _ = ready_tx.send(());
                },
            )
            .await
            .expect("the server runs");
        });
        ready_rx.await.expect("the server gets ready");
        Server {
            addr,
            metrics_addr,
            db,
            clock,
            stop: Some(stop),
            task,
        }
    }

    /// The server stopped and started again on the same database.
    pub async fn restart(self) -> Server {
        let (db, clock) = (self.db.clone(), self.clock.clone());
        self.stop().await;
        Server::start_with(db, |c| c.clock = clock).await
    }

    /// Moves the server's stopped clock on by `ms`.
    pub fn advance(&self, ms: u64) {
        assert!(
            self.clock.advance(std::time::Duration::from_millis(ms)),
            "only a stopped clock moves: start the server with `c.clock = Clock::stopped()`"
        );
    }

    /// Asks `GET path` until it is answered 200 (within 5 s): for what
    /// the server does a moment after a client acts (a closed connection
    /// counted out).
    pub async fn until_answered(&self, path: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            let (status, text) = self.raw("GET", path, None, None).await;
            if status == 200 {
                return text;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{path} not answered in 5 s: {status} {text}"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Graceful shutdown.
    pub async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = (&mut self.task).await;
    }

    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> (u16, Value) {
        let (status, text) = self
            .raw(method, path, token, body.map(|b| b.as_bytes()))
            .await;
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    /// One request on its own connection; the status and the body.
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&[u8]>,
    ) -> (u16, String) {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> =
            auth.iter().map(|a| ("authorization", a.as_str())).collect();
        self.raw_with(method, path, &headers, body).await
    }

    /// A GET of a file: the status and the body's bytes as sent (files
    /// are sent whole, with their length).
    pub async fn bytes(&self, method: &str, path: &str) -> (u16, Vec<u8>) {
        let mut s = TcpStream::connect(self.addr).await.unwrap();
        let head = format!("{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n");
        s.write_all(head.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        let end = out
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no header end in {path}'s answer"));
        let head = String::from_utf8_lossy(&out[..end]).to_ascii_lowercase();
        assert!(!head.contains("chunked"), "{path} is sent whole: {head}");
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head:?}"));
        (status, out[end + 4..].to_vec())
    }

    /// One request with these headers; the status and the body.
    pub async fn raw_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> (u16, String) {
        let (status, _, body) = self.exchange(method, path, headers, body).await;
        (status, body)
    }

    /// One request with these headers; the status, the answer's headers
    /// (names in lower case) and its body.
    pub async fn exchange(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> (u16, Vec<(String, String)>, String) {
        let mut s = TcpStream::connect(self.addr).await.unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = body.unwrap_or_default();
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!(
                "content-type: application/json\r\ncontent-length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).await.unwrap();
        let _ = s.write_all(body).await;
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        let text = String::from_utf8_lossy(&out).to_string();
        let status: u16 = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        let (headers, rest) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let body = if headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(rest)
        } else {
            rest.to_string()
        };
        let headers = headers
            .lines()
            .skip(1)
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        (status, headers, body)
    }
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        text = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// Creates a game; returns (id, seat, token).
pub async fn create(server: &Server, body: &str) -> (String, String, String) {
    let (status, v) = server.call("POST", "/api/games", None, Some(body)).await;
    assert_eq!(status, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["seat"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A live socket on a game, with a seat token or without.
pub async fn connect(server: &Server, id: &str, token: Option<&str>) -> Ws {
    let query = token.map_or(String::new(), |t| format!("?token={t}"));
    let url = format!("ws://{}/api/games/{id}/live{query}", server.addr);
    tokio_tungstenite::connect_async(url)
        .await
        .expect("the socket opens")
        .0
}

/// The next JSON text message (pings are answered by the library).
pub async fn next(ws: &mut Ws) -> Value {
    use futures_util::StreamExt;
    loop {
        let m = tokio::time::timeout(std::time::Duration::from_secs(10), ws.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .expect("a frame");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = m {
            return serde_json::from_str(&t).unwrap();
        }
    }
}

/// Sends a JSON text message.
pub async fn send(ws: &mut Ws, v: Value) {
    use futures_util::SinkExt;
    ws.send(tokio_tungstenite::tungstenite::Message::Text(
        v.to_string().into(),
    ))
    .await
    .expect("the socket takes the message");
}

pub async fn join(server: &Server, id: &str, token: Option<&str>) -> (u16, Value) {
    server
        .call("POST", &format!("/api/games/{id}/join"), token, None)
        .await
}

pub async fn state(server: &Server, id: &str) -> Value {
    let (status, v) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(status, 200, "{v}");
    v
}

/// A 5x5 game created on X's seat and aborted before anyone joined: its
/// id and X's token.
pub async fn aborted_game(server: &Server) -> (String, String) {
    let (id, _, x) = create(server, r#"{"size":"5x5","side":"x"}"#).await;
    let (status, _) = server
        .call("POST", &format!("/api/games/{id}/abort"), Some(&x), None)
        .await;
    assert_eq!(status, 200);
    (id, x)
}

/// Asks `server` for game `id`'s state every `every_ms` until `done`
/// holds, for at most `secs` seconds; the state that held. Fails saying
/// `what` was awaited, with the last state.
pub async fn state_until(
    server: &Server,
    id: &str,
    (secs, every_ms): (u64, u64),
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    loop {
        let s = state(server, id).await;
        if done(&s) {
            return s;
        }
        assert!(std::time::Instant::now() < deadline, "{what}: {s}");
        tokio::time::sleep(std::time::Duration::from_millis(every_ms)).await;
    }
}

pub async fn play(
    server: &Server,
    id: &str,
    token: &str,
    seq: u64,
    steps: &[&str],
) -> (u16, Value) {
    let body = serde_json::json!({"seq": seq, "steps": steps}).to_string();
    server
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(token),
            Some(&body),
        )
        .await
}

/// A loopback address with a port free a moment ago.
pub fn free_port() -> SocketAddr {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address")
}

impl Server {
    /// What the server's metrics listener serves at `/metrics`.
    pub async fn metrics_text(&self) -> String {
        let mut s = TcpStream::connect(self.metrics_addr).await.unwrap();
        s.write_all(b"GET /metrics HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n")
            .await
            .unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out).await;
        let text = String::from_utf8_lossy(&out).to_string();
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        if text
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            dechunk(body)
        } else {
            body.to_string()
        }
    }
}

/// A counter or gauge of a server's `/metrics`.
pub async fn metric(server: &Server, name: &str) -> f64 {
    let text = server.metrics_text().await;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no {name} in {text}"))
        .trim()
        .parse()
        .unwrap()
}

/// `POST path` with a bearer token to the server at `addr` (for tasks that
/// cannot borrow a `Server`): the status and the JSON answer.
pub async fn post_to(addr: SocketAddr, path: &str, token: &str, body: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nhost: test\r\nconnection: close\r\nauthorization: Bearer {token}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}
