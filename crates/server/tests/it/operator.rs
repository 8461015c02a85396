//! What an operator relies on (issue 59): the security headers of every
//! answer, `/metrics` on its own listener, and an unreachable database
//! said, refused fast and recovered from.

use serde_json::json;

use crate::accounts::sign_up;
use crate::challenges::call;
use crate::common::{code, fresh_postgres, fresh_sqlite, Server};

/// Every answer carries the page's security headers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let server = Server::start(fresh_sqlite("security_headers")).await;
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/web/js/app.js"),
        ("GET", "/api/games"),
        ("GET", "/no-such-route"),
        // The framework's own refusal: a method no route takes.
        ("DELETE", "/api/games"),
    ] {
        let (_, headers, _) = server.exchange(method, path, &[], None).await;
        let header = |name: &str| {
            headers
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let csp = header("content-security-policy");
        for part in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(part), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe-inline"), "{path}: {csp}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("referrer-policy"), "same-origin", "{path}");
    }
    // /metrics is the metrics listener's alone.
    assert_eq!(server.raw("GET", "/metrics", None, None).await.0, 404);
    assert!(server.metrics_text().await.contains("vw_database_up 1"));
    server.stop().await;
}

/// A TCP gate on loopback in front of `target`: open, it forwards every
/// connection; shut, it drops those it carries and every new one.
struct Gate {
    addr: std::net::SocketAddr,
    open: std::sync::Arc<std::sync::atomic::AtomicBool>,
    cut: tokio::sync::watch::Sender<u64>,
}

impl Gate {
    async fn new(target: std::net::SocketAddr) -> Gate {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let open = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (cut, _) = tokio::sync::watch::channel(0u64);
        let (is_open, cuts) = (open.clone(), cut.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if !is_open.load(std::sync::atomic::Ordering::SeqCst) {
                    continue;
                }
                let mut cut = cuts.subscribe();
                tokio::spawn(async move {
                    let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = cut.changed() => {}
                    }
                });
            }
        });
        Gate { addr, open, cut }
    }

    fn shut(&self) {
        self.open.store(false, std::sync::atomic::Ordering::SeqCst);
        self.cut.send_modify(|n| *n += 1);
    }

    fn reopen(&self) {
        self.open.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Asks `/healthz` until it answers `status` (within 10 s); how long it took.
async fn healthz_until(server: &Server, status: u16) -> std::time::Duration {
    let began = std::time::Instant::now();
    loop {
        if server.raw("GET", "/healthz", None, None).await.0 == status {
            return began.elapsed();
        }
        assert!(
            began.elapsed() < std::time::Duration::from_secs(10),
            "/healthz never answered {status}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Two processes cut off their PostgreSQL: /healthz says 503, requests are
/// refused 503 unavailable at once (not held), the metrics say it; back,
/// both serve again without a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_database_is_said_refused_fast_and_recovered_from() {
    let Some(url) = fresh_postgres("database_outage").await else {
        return;
    };
    let (head, rest) = url.split_once('@').expect("user@host in the URL");
    let (host, db) = rest.split_once('/').expect("a database");
    let target = tokio::net::lookup_host(host).await.unwrap().next().unwrap();
    let gate = Gate::new(target).await;
    let gated = format!("{head}@{}/{db}", gate.addr);
    let a = Server::start(gated.clone()).await;
    let b = Server::start(gated).await;
    let ann = sign_up(&a, "Ann").await;
    for s in [&a, &b] {
        assert_eq!(s.raw("GET", "/healthz", None, None).await.0, 200);
    }
    gate.shut();
    for s in [&a, &b] {
        healthz_until(s, 503).await;
        let asked = std::time::Instant::now();
        let (status, v) = call(s, "POST", "/api/games", &ann, Some(json!({"size": "7x7"}))).await;
        assert_eq!(code(status, &v), (503, "unavailable"), "{v}");
        assert!(
            asked.elapsed() < std::time::Duration::from_secs(1),
            "refused at once: {:?}",
            asked.elapsed()
        );
        let text = s.metrics_text().await;
        assert!(text.contains("vw_database_up 0"), "{text}");
        assert!(!text.contains("vw_database_errors_total 0\n"), "{text}");
        // The page's own files are still served.
        assert_eq!(s.raw("GET", "/", None, None).await.0, 200);
    }
    gate.reopen();
    for s in [&a, &b] {
        healthz_until(s, 200).await;
        let (status, v) = call(s, "POST", "/api/games", &ann, Some(json!({"size": "7x7"}))).await;
        assert_eq!(status, 201, "{v}");
        assert!(s.metrics_text().await.contains("vw_database_up 1"));
    }
    a.stop().await;
    b.stop().await;
}
