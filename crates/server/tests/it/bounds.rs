//! What a client can make the server do is bounded, and the protocol is
//! kept: a socket's close answered, a client that stops reading closed
//! whatever the buffers hold, a long replay in pages, unknown fields
//! refused in every body (issue 42).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::*;
use crate::hardened::sign_up;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_close_is_answered_with_a_close() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let server = Server::start(fresh_sqlite("close_answered")).await;
    let (id, _, _) = create(&server, r#"{"size":"5x5"}"#).await;
    let mut ws = connect(&server, &id, None).await;
    next(&mut ws).await;
    ws.send(Message::Close(None)).await.unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return Ok(frame),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("closed without a close frame".into()),
            }
        }
    })
    .await
    .expect("an answer");
    assert!(answer.is_ok(), "{answer:?}");
    server.stop().await;
}

/// The reported case: a client with a 4 KB receive buffer sends pings and
/// then never reads; its answers fit in the kernels' buffers, so every
/// write completes. The connection still ends once they stay untaken for
/// the write timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_closed_whatever_the_buffers_hold() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let server = Server::start_with(fresh_sqlite("stops_reading"), |c| {
        c.connections.write_timeout = Duration::from_millis(1500);
    })
    .await;
    let (id, _, _) = create(&server, r#"{"size":"5x5"}"#).await;
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let url = format!("ws://{}/api/games/{id}/live", server.addr);
    let (ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let (mut write, _read) = futures_util::StreamExt::split(ws);
    for _ in 0..5000 {
        if write
            .send(Message::Text(r#"{"type":"ping"}"#.into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while metric(&server, "vw_sockets").await > 0.0 {
        assert!(Instant::now() < deadline, "the socket is still held");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(metric(&server, "vw_slow_clients_closed_total").await >= 1.0);
    server.stop().await;
}

/// A long game's replay comes in pages of a bounded size, each naming the
/// next; together they are the whole game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_replay_comes_in_pages() {
    let server = Server::start(fresh_sqlite("replay_pages")).await;
    // 19x19, one step a turn: X and O walk away from their corners.
    let mut moves = Vec::new();
    let files = "abcdefghijklmnopqrs";
    'walk: for rank in 1..=9 {
        for (k, file) in files.chars().enumerate() {
            let x = format!("{file}{rank}");
            let o = format!("{}{}", files.chars().nth(18 - k).unwrap(), 20 - rank);
            moves.push(x);
            moves.push(o);
            if moves.len() >= 300 {
                break 'walk;
            }
        }
    }
    let request = json!({"size": "19x19", "steps": 1, "moves": moves});
    let (status, first) = server
        .call("POST", "/api/replay", None, Some(&request.to_string()))
        .await;
    assert_eq!(status, 200, "{first}");
    let mut frames = first["frames"].as_array().unwrap().clone();
    let mut next = first["next"].clone();
    let mut pages = 1;
    while let Some(from) = next.as_u64() {
        assert_eq!(frames.len() as u64, from);
        let mut more = request.clone();
        more["from"] = json!(from);
        let (status, page) = server
            .call("POST", "/api/replay", None, Some(&more.to_string()))
            .await;
        assert_eq!(status, 200, "{page}");
        frames.extend(page["frames"].as_array().unwrap().iter().cloned());
        next = page["next"].clone();
        pages += 1;
    }
    assert!(pages > 1, "one page of {} frames", frames.len());
    assert_eq!(frames.len(), moves.len() + 1);
    for (k, f) in frames.iter().enumerate() {
        assert_eq!(f["seq"], k as u64);
    }
    let mut past = request.clone();
    past["from"] = json!(moves.len() + 1);
    let (status, v) = server
        .call("POST", "/api/replay", None, Some(&past.to_string()))
        .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    server.stop().await;
}

/// Every request body the API documents refuses a field it does not know.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_body_refuses_unknown_fields() {
    let server = Server::start(fresh_sqlite("unknown_fields")).await;
    let me = sign_up(&server, "fields").await;
    let (id, _, token) = create(&server, r#"{"size":"5x5"}"#).await;
    let doc: Value = serde_json::from_str(&virus_wars_server::openapi_json()).unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            if op.get("requestBody").is_none() {
                continue;
            }
            let concrete = path.replace("{id}", &id).replace("{name}", "fields");
            let header = format!("vw_session={me}");
            let origin = "http://test".to_string();
            let auth = format!("Bearer {token}");
            let (status, _, text) = server
                .exchange(
                    &method.to_uppercase(),
                    &concrete,
                    &[
                        ("cookie", header.as_str()),
                        ("origin", origin.as_str()),
                        ("authorization", auth.as_str()),
                    ],
                    Some(br#"{"zz_unknown_field": 1}"#),
                )
                .await;
            assert_eq!(status, 400, "{method} {path}: {text}");
            assert!(text.contains("zz_unknown_field"), "{method} {path}: {text}");
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked} bodies");
    server.stop().await;
}
