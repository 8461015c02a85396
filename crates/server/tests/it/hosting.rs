//! Hosting. Behind a reverse proxy: the client's address is read from a
//! trusted proxy's header, so that per-address limits count players, not
//! the proxy; an untrusted connection's header changes nothing. Stopping:
//! live sockets are told to connect again.

use crate::accounts::PASSWORD;
use crate::common::{fresh_sqlite, Server};
use virus_wars_server::proxy::{parse_net, ProxyHeader, TrustedProxies};

/// A sign-up sent with these headers; its status.
async fn sign_up_as(server: &Server, name: &str, headers: &[(&str, &str)]) -> u16 {
    let body = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
    let (status, _, text) = server
        .exchange("POST", "/api/accounts", headers, Some(body.as_bytes()))
        .await;
    assert!([201, 429].contains(&status), "{status} {text}");
    status
}

async fn behind(trusted: &[&str], name: &str) -> Server {
    let nets = trusted.iter().map(|n| parse_net(n).unwrap()).collect();
    Server::start_with(fresh_sqlite(name), |c| {
        c.rate_limits.signups_per_hour = 2;
        c.connections.per_address = 3;
        c.trusted_proxies = TrustedProxies {
            nets,
            header: ProxyHeader::XForwardedFor,
        };
    })
    .await
}

#[tokio::test]
async fn a_trusted_proxys_players_are_limited_each_on_their_own() {
    let server = behind(&["127.0.0.1"], "proxied_trusted").await;
    let ann = [("x-forwarded-for", "203.0.113.1")];
    let bo = [("x-forwarded-for", "6.6.6.6, 203.0.113.2")];
    assert_eq!(sign_up_as(&server, "ann1", &ann).await, 201);
    assert_eq!(sign_up_as(&server, "ann2", &ann).await, 201);
    assert_eq!(sign_up_as(&server, "ann3", &ann).await, 429, "ann's third");
    // Another player behind the same proxy (who forged a first hop) is not
    // refused for ann's sign-ups.
    assert_eq!(sign_up_as(&server, "bo1", &bo).await, 201);
    // A header that does not read counts the proxy's own address (never a
    // 500), and so does a request with none.
    let bad = [("x-forwarded-for", "not an address")];
    assert_eq!(sign_up_as(&server, "px1", &bad).await, 201);
    assert_eq!(sign_up_as(&server, "px2", &[]).await, 201);
    assert_eq!(sign_up_as(&server, "px3", &bad).await, 429);
    // The proxy holds every player's connections: the per-address cap (3
    // here) does not count its own.
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    let (status, _) = server.raw("GET", "/healthz", None, None).await;
    assert_eq!(status, 200, "a sixth connection from the proxy is served");
    drop(held);
    server.stop().await;
}

#[tokio::test]
async fn an_ipv6_host_is_limited_by_its_64_whatever_address_it_takes() {
    let server = behind(&["127.0.0.1"], "proxied_ipv6").await;
    // One host takes a fresh address in its /64 for each sign-up.
    for (k, address) in ["2001:db8:7:1::1", "2001:db8:7:1:ffff::2"]
        .iter()
        .enumerate()
    {
        let h = [("x-forwarded-for", *address)];
        assert_eq!(sign_up_as(&server, &format!("six{k}"), &h).await, 201);
    }
    let third = [("x-forwarded-for", "[2001:db8:7:1:abcd::3]:5000")];
    assert_eq!(
        sign_up_as(&server, "six2", &third).await,
        429,
        "the third from one /64"
    );
    // The next /64 is another host.
    let next = [("x-forwarded-for", "2001:db8:7:2::1")];
    assert_eq!(sign_up_as(&server, "six3", &next).await, 201);
    server.stop().await;
}

#[tokio::test]
async fn a_quote_left_open_in_forwarded_cannot_choose_the_address() {
    let nets = vec![parse_net("127.0.0.1").unwrap()];
    let server = Server::start_with(fresh_sqlite("proxied_forwarded"), |c| {
        c.rate_limits.signups_per_hour = 2;
        c.trusted_proxies = TrustedProxies {
            nets,
            header: ProxyHeader::Forwarded,
        };
    })
    .await;
    // nginx's `$http_forwarded, for=$remote_addr`: the client's open quote
    // would swallow the proxy's comma and make `for=9.9.9.N` the client.
    // The line does not read, so the proxy's address counts: one bucket.
    for k in 0..3 {
        let line = format!(r#"for=9.9.9.{k};x=", for=5.6.7.8"#);
        let expected = if k < 2 { 201 } else { 429 };
        let h = [("forwarded", line.as_str())];
        assert_eq!(
            sign_up_as(&server, &format!("fw{k}"), &h).await,
            expected,
            "{line}"
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn an_untrusted_connection_cannot_choose_its_address() {
    // Only 10.0.0.0/8 is trusted; the test connects from 127.0.0.1.
    let server = behind(&["10.0.0.0/8"], "proxied_untrusted").await;
    for (k, forged) in ["203.0.113.1", "203.0.113.2"].iter().enumerate() {
        let h = [("x-forwarded-for", *forged)];
        assert_eq!(sign_up_as(&server, &format!("eve{k}"), &h).await, 201);
    }
    let h = [("x-forwarded-for", "203.0.113.3")];
    assert_eq!(
        sign_up_as(&server, "eve3", &h).await,
        429,
        "one address, however forged"
    );
    // And its connections count against its own address.
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tokio::net::TcpStream::connect(server.addr).await.unwrap());
    }
    let (status, _) = server
        .raw_with(
            "GET",
            "/healthz",
            &[("x-forwarded-for", "203.0.113.9")],
            None,
        )
        .await;
    assert_eq!(status, 429, "the fourth connection from one address");
    drop(held);
    server.stop().await;
}

#[tokio::test]
async fn a_head_sent_half_does_not_hold_a_stop() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start(fresh_sqlite("stop_half_head")).await;
    let mut half = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // A whole request answered on another connection first: the half head
    // has surely been read by then.
    let (status, _) = server.raw("GET", "/healthz", None, None).await;
    assert_eq!(status, 200);
    let started = std::time::Instant::now();
    server.stop().await;
    // The stop used to wait out its whole 10 s grace for the rest of the
    // head; a connection answering no request is now closed at once.
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(5),
        "the stop took {took:?}"
    );
    let mut rest = Vec::new();
    let read = tokio::time::timeout(
        std::time::Duration::from_secs(5),
        half.read_to_end(&mut rest),
    )
    .await;
    assert!(
        matches!(read, Ok(Ok(_)) | Ok(Err(_))),
        "the half-sent connection is closed"
    );
}

#[tokio::test]
async fn a_stopping_server_tells_its_sockets_to_connect_again() {
    use futures_util::StreamExt;
    let server = Server::start(fresh_sqlite("stopping_sockets")).await;
    let (id, _, x) = crate::common::create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let mut ws = crate::common::connect(&server, &id, Some(&x)).await;
    let _ = crate::common::next(&mut ws).await;
    let stopped = tokio::spawn(server.stop());
    // The close frame says why: a restart (1012), so clients connect again.
    let close = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(frame))) => return frame,
                Some(Ok(_)) => continue,
                other => panic!("the socket ended without a close frame: {other:?}"),
            }
        }
    })
    .await
    .expect("a close frame within 10 s");
    let frame = close.expect("a close frame with a code");
    assert_eq!(u16::from(frame.code), 1012, "{frame:?}");
    drop(ws);
    stopped.await.unwrap();
}

/// After an upgrade is undone (the old binary started on a database the
/// new one migrated), the server refuses to start, saying which versions,
/// before it writes anything; on SQLite and on PostgreSQL.
#[tokio::test]
async fn a_database_a_newer_binary_migrated_is_refused_with_what_to_do() {
    let mut databases = vec![fresh_sqlite("newer")];
    databases.extend(crate::common::fresh_postgres("newer").await);
    for url in databases {
        // Migrated by this binary first.
        Server::start(url.clone()).await.stop().await;
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             VALUES (99999, 'from the future', TRUE, $1, 1)",
        )
        .bind(vec![0u8; 48])
        .execute(&pool)
        .await
        .unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let refused = virus_wars_server::serve(
            listener,
            virus_wars_server::Config::new(url.clone()),
            std::future::pending(),
            || panic!("a server on a newer database must not start"),
        )
        .await
        .expect_err("refused");
        let said = refused.to_string();
        assert!(said.contains("newer virus-wars"), "{said}");
        assert!(said.contains("99999"), "{said}");
        // Nothing was written: the row from the future is the newest still.
        let newest: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(newest, 99999, "{url}");
        pool.close().await;
    }
}
