//! Web Push (docs/api.md, Web Push): a subscription on a loopback push
//! receiver gets each challenge and turn to play as an RFC 8291 aes128gcm
//! message signed with VAPID, which decrypts to what happened; a gone
//! subscription is dropped; bad subscriptions are refused; the VAPID key is
//! one for every process and every start.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::accounts::{sign_up, with_cookie};
use crate::common::{code, fresh_postgres, fresh_sqlite, two_servers, Server};

on_both_databases!(pushes_reach_a_subscribed_browser_encrypted);

/// A push received: its path, headers (lower-case names) and body.
struct Received {
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// A push service on loopback: answers 201, or 410 on `/gone`.
async fn receiver() -> (String, tokio::sync::mpsc::UnboundedReceiver<Received>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        loop {
            let Ok((mut c, _)) = listener.accept().await else {
                return;
            };
            let tx = tx.clone();
            tokio::spawn(async move {
                let mut data = Vec::new();
                let mut buf = [0u8; 4096];
                let (head, mut body) = loop {
                    let n = c.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    data.extend_from_slice(&buf[..n]);
                    if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                        break (
                            String::from_utf8_lossy(&data[..at]).to_string(),
                            data[at + 4..].to_vec(),
                        );
                    }
                };
                let mut lines = head.lines();
                let path = lines
                    .next()
                    .unwrap_or("")
                    .split(' ')
                    .nth(1)
                    .unwrap_or("")
                    .to_string();
                let headers: Vec<(String, String)> = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
                    .collect();
                let length: usize = headers
                    .iter()
                    .find(|(k, _)| k == "content-length")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                while body.len() < length {
                    let n = c.read(&mut buf).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    body.extend_from_slice(&buf[..n]);
                }
                let status = match path.as_str() {
                    "/gone" => "410 Gone",
                    p if p.starts_with("/fail") => "500 Internal Server Error",
                    _ => "201 Created",
                };
                let _ = c
                    .write_all(
                        format!(
                            "HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                        )
                        .as_bytes(),
                    )
                    .await;
                let _ = tx.send(Received {
                    path,
                    headers,
                    body,
                });
            });
        }
    });
    (base, rx)
}

/// A browser's subscription keys: what it gives the server, and what it
/// keeps to decrypt.
fn browser_keys() -> (Value, ece::EcKeyComponents, Vec<u8>) {
    let (pair, auth) = ece::generate_keypair_and_auth_secret().unwrap();
    let raw = pair.raw_components().unwrap();
    let keys = json!({"p256dh": URL_SAFE_NO_PAD.encode(raw.public_key()), "auth": URL_SAFE_NO_PAD.encode(auth)});
    (keys, raw, auth.to_vec())
}

async fn call(
    server: &Server,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string());
    let (status, _, v) = with_cookie(server, method, path, Some(cookie), body.as_deref()).await;
    (status, v)
}

async fn received(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Received>) -> Received {
    tokio::time::timeout(std::time::Duration::from_secs(10), rx.recv())
        .await
        .expect("a push within 10 s")
        .expect("the receiver runs")
}

async fn pushes_reach_a_subscribed_browser_encrypted(db: String) {
    let server = Server::start_with(db, |c| c.push_allow_loopback = true).await;
    let (base, mut pushes) = receiver().await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let (keys, components, auth) = browser_keys();
    let endpoint = format!("{base}/push/bo");
    let (status, v) = call(
        &server,
        "POST",
        "/api/me/push",
        &bo,
        Some(json!({"endpoint": endpoint, "keys": keys, "expirationTime": null})),
    )
    .await;
    assert_eq!(status, 204, "{v}");
    // A second browser of Bo's, whose push service says it is gone.
    let (gone_keys, _, _) = browser_keys();
    assert_eq!(
        call(
            &server,
            "POST",
            "/api/me/push",
            &bo,
            Some(json!({"endpoint": format!("{base}/gone"), "keys": gone_keys}))
        )
        .await
        .0,
        204
    );
    // Bad subscriptions say what is wrong.
    for (body, says) in [
        (
            json!({"endpoint": "http://push.example.com/x", "keys": keys}),
            "https",
        ),
        (
            json!({"endpoint": "https://10.0.0.1/x", "keys": keys}),
            "public",
        ),
        (
            json!({"endpoint": endpoint, "keys": {"p256dh": "AAAA", "auth": keys["auth"]}}),
            "p256dh",
        ),
        (
            json!({"endpoint": endpoint, "keys": {"p256dh": keys["p256dh"], "auth": "!!"}}),
            "auth",
        ),
        (
            json!({"endpoint": endpoint, "keys": keys, "extra": 1}),
            "extra",
        ),
        (
            json!({"endpoint": endpoint, "keys": {"p256dh": URL_SAFE_NO_PAD.encode([0xffu8; 65]), "auth": keys["auth"]}}),
            "P-256",
        ),
        (
            json!({"endpoint": "https://[64:ff9b::7f00:1]/x", "keys": keys}),
            "public",
        ),
        (
            json!({"endpoint": format!("{base}/{}", "x".repeat(1100)), "keys": keys}),
            "1024",
        ),
    ] {
        let (status, v) = call(&server, "POST", "/api/me/push", &bo, Some(body.clone())).await;
        assert_eq!(code(status, &v), (400, "malformed"), "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{says}: {v}"
        );
    }
    // Ann challenges Bo: his browser gets it, encrypted for it alone.
    let (status, sent) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(json!({"to": "Bo", "side": "x", "clock": {"days_per_turn": 1}, "size": "7x7"})),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let mut got = Vec::new();
    for _ in 0..2 {
        got.push(received(&mut pushes).await);
    }
    got.sort_by(|a, b| a.path.cmp(&b.path));
    assert_eq!(
        (got[0].path.as_str(), got[1].path.as_str()),
        ("/gone", "/push/bo")
    );
    let push = &got[1];
    let header = |name: &str| {
        push.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(header("content-encoding"), "aes128gcm");
    assert!(
        header("authorization").starts_with("vapid t="),
        "{}",
        header("authorization")
    );
    let (_, key) = call(&server, "GET", "/api/push/key", &bo, None).await;
    assert!(
        header("authorization").ends_with(&format!("k={}", key["key"].as_str().unwrap())),
        "signed with the server's key"
    );
    assert_eq!(header("ttl"), "86400");
    assert!(
        !String::from_utf8_lossy(&push.body).contains("challenge"),
        "the body is encrypted"
    );
    let plain: Value =
        serde_json::from_slice(&ece::decrypt(&components, &auth, &push.body).unwrap()).unwrap();
    assert_eq!(
        (
            plain["kind"].as_str(),
            plain["challenge"].as_str(),
            plain["from"].as_str()
        ),
        (Some("challenge"), sent["id"].as_str(), Some("Ann")),
        "{plain}"
    );
    // Accepted; Ann moves: Bo's browser gets his turn, decrypting to the game.
    let path = format!("/api/challenges/{}/accept", sent["id"].as_str().unwrap());
    let (_, seat) = call(&server, "POST", &path, &bo, None).await;
    let id = seat["id"].as_str().unwrap();
    let mut s = call(&server, "GET", &format!("/api/games/{id}"), &ann, None)
        .await
        .1;
    while s["to_move"] == "x" {
        let body = json!({"seq": s["seq"], "steps": [s["legal"][0]]});
        s = call(
            &server,
            "POST",
            &format!("/api/games/{id}/steps"),
            &ann,
            Some(body),
        )
        .await
        .1;
    }
    let push = received(&mut pushes).await;
    assert_eq!(push.path, "/push/bo", "the gone subscription was dropped");
    let plain: Value =
        serde_json::from_slice(&ece::decrypt(&components, &auth, &push.body).unwrap()).unwrap();
    assert_eq!(
        (plain["kind"].as_str(), plain["game"].as_str()),
        (Some("your_turn"), Some(id)),
        "{plain}"
    );
    // Unsubscribed: nothing more comes.
    assert_eq!(
        call(
            &server,
            "DELETE",
            "/api/me/push",
            &bo,
            Some(json!({"endpoint": endpoint}))
        )
        .await
        .0,
        204
    );
    // The cap: five browsers.
    for n in 0..6 {
        let (k, _, _) = browser_keys();
        let (status, v) = call(
            &server,
            "POST",
            "/api/me/push",
            &ann,
            Some(json!({"endpoint": format!("{base}/ann/{n}"), "keys": k})),
        )
        .await;
        assert_eq!(status, if n < 5 { 204 } else { 409 }, "{n}: {v}");
    }
    // The key is kept: the same after a restart.
    let server = server.restart().await;
    let (_, again) = call(&server, "GET", "/api/push/key", &bo, None).await;
    assert_eq!(again, key);
    server.stop().await;
}

/// Two processes sign with one VAPID key (made by the first, read by the
/// second): a browser subscribed through one accepts pushes from both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_process_signs_with_one_key() {
    let Some((a, b)) = two_servers("one_vapid_key").await else {
        return;
    };
    let ann = sign_up(&a, "Ann").await;
    let (_, from_a) = call(&a, "GET", "/api/push/key", &ann, None).await;
    let (_, from_b) = call(&b, "GET", "/api/push/key", &ann, None).await;
    assert_eq!(from_a, from_b);
    assert_eq!(
        URL_SAFE_NO_PAD
            .decode(from_a["key"].as_str().unwrap())
            .unwrap()
            .len(),
        65
    );
    a.stop().await;
    b.stop().await;
}

/// A push service on loopback that takes every connection and never
/// answers: the connections it holds.
async fn black_hole() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let held = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = held.clone();
    tokio::spawn(async move {
        let mut kept = Vec::new();
        while let Ok((c, _)) = listener.accept().await {
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            kept.push(c);
        }
    });
    (base, held)
}

/// Three accounts with five subscriptions each on a push service that
/// never answers hold a fourth account's push back by at most one send
/// (it waited 29.5 s behind them, first come first served); an endpoint
/// that keeps failing is dropped after five failures in a row.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_endpoints_of_some_never_hold_back_the_push_of_another() {
    let server =
        Server::start_with(fresh_sqlite("push_fair"), |c| c.push_allow_loopback = true).await;
    let (hole, held) = black_hole().await;
    let (base, mut pushes) = receiver().await;
    let sender = sign_up(&server, "Sender").await;
    let mut slow = Vec::new();
    for name in ["Slow1", "Slow2", "Slow3"] {
        let cookie = sign_up(&server, name).await;
        for k in 0..5 {
            let (keys, _, _) = browser_keys();
            let endpoint = format!("{hole}/{name}/{k}");
            let (status, v) = call(
                &server,
                "POST",
                "/api/me/push",
                &cookie,
                Some(json!({"endpoint": endpoint, "keys": keys})),
            )
            .await;
            assert_eq!(status, 204, "{v}");
        }
        slow.push(name);
    }
    let victim = sign_up(&server, "Victim").await;
    let (keys, _, _) = browser_keys();
    let (status, v) = call(
        &server,
        "POST",
        "/api/me/push",
        &victim,
        Some(json!({"endpoint": format!("{base}/victim"), "keys": keys})),
    )
    .await;
    assert_eq!(status, 204, "{v}");
    let challenge =
        |to: &str| json!({"to": to, "side": "x", "clock": {"days_per_turn": 1}, "size": "7x7"});
    for name in &slow {
        let (status, v) = call(
            &server,
            "POST",
            "/api/challenges",
            &sender,
            Some(challenge(name)),
        )
        .await;
        assert_eq!(status, 201, "{v}");
    }
    // The slow accounts' sends have taken their senders.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while held.load(std::sync::atomic::Ordering::SeqCst) < 3 {
        assert!(std::time::Instant::now() < deadline, "the slow sends began");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let asked = std::time::Instant::now();
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &sender,
        Some(challenge("Victim")),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let got = received(&mut pushes).await;
    assert_eq!(got.path, "/victim");
    // Each slow account holds one sender at a time: the victim's push went
    // out beside them, not after their 15 sends of up to 5 s each.
    assert!(
        asked.elapsed() < std::time::Duration::from_secs(4),
        "the victim's push took {:?}",
        asked.elapsed()
    );
}

/// A subscription whose push service fails every send (500) is dropped
/// after five in a row: the account has room for another browser again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_that_keeps_failing_is_dropped() {
    let server = Server::start_with(fresh_sqlite("push_failing"), |c| {
        c.push_allow_loopback = true
    })
    .await;
    let (base, mut pushes) = receiver().await;
    let sender = sign_up(&server, "Sender").await;
    let bo = sign_up(&server, "Bo").await;
    let subscribe = |endpoint: String| {
        let (server, bo) = (&server, bo.clone());
        async move {
            let (keys, _, _) = browser_keys();
            call(
                server,
                "POST",
                "/api/me/push",
                &bo,
                Some(json!({"endpoint": endpoint, "keys": keys})),
            )
            .await
        }
    };
    for k in 0..4 {
        assert_eq!(subscribe(format!("{base}/ok/{k}")).await.0, 204);
    }
    assert_eq!(subscribe(format!("{base}/fail")).await.0, 204);
    let (status, v) = subscribe(format!("{base}/ok/more")).await;
    assert_eq!(code(status, &v), (409, "too_many"), "{v}");
    // Five challenges: five sends to each endpoint, the failing one's fail.
    for _ in 0..5 {
        let body = json!({"to": "Bo", "side": "x", "clock": {"days_per_turn": 1}, "size": "7x7"});
        let (status, v) = call(&server, "POST", "/api/challenges", &sender, Some(body)).await;
        assert_eq!(status, 201, "{v}");
        for _ in 0..5 {
            received(&mut pushes).await;
        }
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let (status, v) = subscribe(format!("{base}/ok/more")).await;
        if status == 204 {
            break;
        }
        assert_eq!(code(status, &v), (409, "too_many"), "{v}");
        assert!(
            std::time::Instant::now() < deadline,
            "the failing endpoint was never dropped"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    server.stop().await;
}
