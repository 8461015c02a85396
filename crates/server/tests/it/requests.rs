//! Requests one at a time: analysis, rate limits, the OpenAPI document,
//! games waiting for a second player, challenges to bots, errors that are
//! always JSON, and WebSocket frames the protocol refuses.

use crate::common::{
    code, connect, create, fresh_sqlite, join, next, play, register_bot, send, state, Server,
};
use serde_json::{json, Value};
use virus_wars_server::Clock;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_answers_the_best_turn_and_refuses_bad_requests() {
    let server = Server::start(fresh_sqlite("analyze")).await;
    let body = r#"{"variant":"classic","moves":["a1","b2","c3"],"player":"level:3","time_ms":300}"#;
    let (status, a) = server.call("POST", "/api/analyze", None, Some(body)).await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["side"], "o");
    let turn: Vec<&str> = a["turn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(turn.len(), 3, "O's whole first turn: {a}");
    let p = a["win_probability"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    // The answer is legal: the server plays it in a game.
    let (id, _, x) = create(&server, r#"{"variant":"classic","side":"x"}"#).await;
    let (_, o) = join(&server, &id, None).await;
    play(&server, &id, &x, 0, &["a1", "b2", "c3"]).await;
    let (status, v) = play(&server, &id, o["token"].as_str().unwrap(), 3, &turn).await;
    assert_eq!(status, 200, "{v}");
    let from_position = json!({"position": a["position"], "time_ms": 200}).to_string();
    let (status, b) = server
        .call("POST", "/api/analyze", None, Some(&from_position))
        .await;
    assert_eq!((status, b["side"].as_str()), (200, Some("o")), "{b}");
    for (body, status, words) in [
        (
            r#"{"time_ms":6000}"#,
            400,
            "time_ms must be between 1 and 5000",
        ),
        (
            r#"{"player":"mcts:hash=9999"}"#,
            400,
            "hash must be between",
        ),
        (
            r#"{"player":"nn:time=1s,weights=/dev/zero"}"#,
            400,
            "weights files cannot be named here",
        ),
        (r#"{"moves":["a1","j10"]}"#, 422, "step 2 (j10)"),
        (r#"{"moves":["zz"]}"#, 400, "moves[0]"),
        (r#"{"position":"nonsense"}"#, 400, "position:"),
        (
            r#"{"position":"3x3 steps=1,first=1,start=corner-entry,end=standard 3/3/3 x 1 1 - 0","variant":"classic"}"#,
            400,
            "not both",
        ),
        (r#"{"opponent":"human"}"#, 400, "analyze takes"),
    ] {
        let (got, v) = server.call("POST", "/api/analyze", None, Some(body)).await;
        assert_eq!(got, status, "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(words),
            "{body}: {v}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_answer_429_with_when_to_try_again() {
    use virus_wars_server::{Rate, RateLimits};
    let server = Server::start_with(fresh_sqlite("limits"), |c| {
        c.rate_limits = RateLimits {
            create: Rate::per_minute(1.0, 2.0),
            analyze: Rate::per_minute(1.0, 1.0),
            actions: Rate::UNLIMITED,
            messages: Rate::per_minute(60.0, 3.0),
            replay_bytes: Rate::UNLIMITED,
            signups_per_hour: 0,
            logins_per_hour: 0,
        }
    })
    .await;
    for _ in 0..2 {
        create(&server, r#"{"size":"5x5"}"#).await;
    }
    let (status, text) = server
        .raw("POST", "/api/games", None, Some(br#"{"size":"5x5"}"#))
        .await;
    assert_eq!(status, 429, "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["error"]["code"], "rate_limited");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("too many new games"));
    let (status, _) = server
        .call("POST", "/api/analyze", None, Some(r#"{"time_ms":50}"#))
        .await;
    assert_eq!(status, 200);
    let (status, _) = server
        .call("POST", "/api/analyze", None, Some(r#"{"time_ms":50}"#))
        .await;
    assert_eq!(status, 429);
    // A socket may send its burst, then gets errors, and stays open.
    let (status, g) = server.call("GET", "/api/games", None, None).await;
    assert_eq!(status, 200, "{g}");
    let db = server.db.clone();
    let _ = db;
    server.stop().await;
    let server = Server::start_with(fresh_sqlite("limits2"), |c| {
        c.rate_limits.messages = Rate::per_minute(60.0, 3.0);
        c.clock = Clock::stopped();
    })
    .await;
    let (id, _, _) = create(&server, r#"{"size":"5x5"}"#).await;
    let mut ws = connect(&server, &id, None).await;
    next(&mut ws).await;
    for _ in 0..3 {
        send(&mut ws, json!({"type":"ping"})).await;
        assert_eq!(next(&mut ws).await["type"], "pong");
    }
    send(&mut ws, json!({"type":"ping"})).await;
    let v = next(&mut ws).await;
    assert_eq!(
        (v["type"].as_str(), v["error"]["code"].as_str()),
        (Some("error"), Some("rate_limited")),
        "{v}"
    );
    server.advance(1000);
    send(&mut ws, json!({"type":"ping"})).await;
    assert_eq!(next(&mut ws).await["type"], "pong", "the bucket refills");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_openapi_document_has_every_route_and_is_in_docs() {
    let server = Server::start(fresh_sqlite("openapi")).await;
    let (status, doc) = server.call("GET", "/api/openapi.json", None, None).await;
    assert_eq!(status, 200);
    for (path, method) in [
        ("/api/games", "post"),
        ("/api/games", "get"),
        ("/api/quick", "post"),
        ("/api/games/{id}", "get"),
        ("/api/games/{id}/join", "post"),
        ("/api/games/{id}/steps", "post"),
        ("/api/games/{id}/resign", "post"),
        ("/api/games/{id}/abort", "post"),
        ("/api/games/{id}/draw", "post"),
        ("/api/games/{id}/rematch", "post"),
        ("/api/games/{id}/record", "get"),
        ("/api/games/{id}/live", "get"),
        ("/api/bots", "post"),
        ("/api/analyze", "post"),
    ] {
        assert!(
            doc["paths"][path][method].is_object(),
            "{method} {path} is documented"
        );
    }
    assert!(doc["components"]["schemas"]["GameState"]["properties"]["seq"].is_object());
    server.stop().await;
    // docs/openapi.json is the generated document, kept in step by this test.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let generated = virus_wars_server::openapi_json() + "\n";
    let stored = std::fs::read_to_string(path).unwrap_or_default();
    if stored != generated {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("docs/openapi.json is out of date: run `cargo run -- serve --openapi > docs/openapi.json`");
        }
        std::fs::write(path, &generated).expect("docs/openapi.json is written");
        eprintln!("docs/openapi.json was out of date and has been written anew");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_waits_for_both_seats_before_its_clock_runs() {
    let server = Server::start_with(fresh_sqlite("waiting"), |c| c.clock = Clock::stopped()).await;
    let (id, _, x) = create(
        &server,
        r#"{"size":"5x5","side":"x","listed":true,"clock":{"base_s":1}}"#,
    )
    .await;
    server.advance(1300);
    let s = state(&server, &id).await;
    assert_eq!(
        s["status"], "X to move",
        "no clock runs while a seat is free: {s}"
    );
    assert_eq!(s["clocks"]["x_ms"], 1000);
    let (status, v) = play(&server, &id, &x, 0, &["a1"]).await;
    assert_eq!(code(status, &v), (409, "waiting_for_opponent"), "{v}");
    let (status, o) = join(&server, &id, None).await;
    assert_eq!(status, 200);
    let o = o["token"].as_str().unwrap().to_string();
    let (status, v) = play(&server, &id, &x, 0, &["a1"]).await;
    assert_eq!(status, 200, "the game has started: {v}");
    // Each side's first turn is not charged: the clocks start after both.
    server.advance(700);
    let (status, v) = play(&server, &id, &x, 1, &["b2", "c3"]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["clocks"]["x_ms"].as_u64(), &v["clocks"]["running"]),
        (Some(1000), &serde_json::Value::Null),
        "X's first turn took 0.7 s of a 1 s clock: {v}"
    );
    server.advance(700);
    let (status, v) = play(&server, &id, &o, 3, &["e5", "d4", "e4"]).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["clocks"]["o_ms"], 1000, "and so did O's: {v}");
    assert_eq!(
        v["clocks"]["running"], "x",
        "from now on the mover's clock runs: {v}"
    );
    // A first turn past the base time calls the game off (nobody lost).
    let (late, _, _) = create(&server, r#"{"size":"5x5","side":"x","clock":{"base_s":1}}"#).await;
    join(&server, &late, None).await;
    server.advance(1000);
    let s = crate::common::state_until(&server, &late, (40, 100), "called off", |s| {
        s["ending"]["reason"] == "aborted"
    })
    .await;
    assert!(s["to_move"].is_null(), "{s}");
    // Correspondence clocks say so.
    let (cid, _, _) = create(&server, r#"{"size":"5x5","clock":{"days_per_turn":3}}"#).await;
    let c = state(&server, &cid).await;
    assert_eq!(c["clocks"]["days_per_turn"], 3, "{c}");
    let (status, v) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some(r#"{"clock":{"days_per_turn":1.5}}"#),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_challenges_a_bot_and_the_bot_finds_the_game() {
    let server = Server::start(fresh_sqlite("challenge")).await;
    let token = register_bot(&server, "lurker").await;
    let (status, v) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some(r#"{"opponent":"bot:nobody"}"#),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    let (id, _, _) = create(
        &server,
        r#"{"size":"5x5","side":"x","opponent":"bot:lurker"}"#,
    )
    .await;
    let s = state(&server, &id).await;
    assert_eq!(
        s["seats_free"],
        json!({"x": false, "o": false}),
        "the seat waits for the bot"
    );
    let (status, v) = join(&server, &id, None).await;
    assert_eq!(status, 409, "people cannot take it: {v}");
    // Not online until its program asks for its games; online once it has.
    let online = || async {
        let (_, page) = server.call("GET", "/api/players/lurker", None, None).await;
        page["online"].clone()
    };
    assert_eq!(online().await, json!(false));
    let (status, games) = server
        .call("GET", "/api/bots/games", Some(&token), None)
        .await;
    assert_eq!(status, 200, "{games}");
    assert_eq!(online().await, json!(true), "a bot that asks is online");
    assert_eq!(
        games,
        json!([{"id": id, "seat": "o", "seated": false, "status": "X to move"}])
    );
    let (status, seat) = join(&server, &id, Some(&token)).await;
    assert_eq!((status, seat["seat"].as_str()), (200, Some("o")), "{seat}");
    let (_, games) = server
        .call("GET", "/api/bots/games", Some(&token), None)
        .await;
    assert_eq!(games[0]["seated"], true);
    let (status, _) = server
        .call("GET", "/api/bots/games", Some("nonsense"), None)
        .await;
    assert_eq!(status, 403);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_is_json_and_authorization_is_read_with_care() {
    let server = Server::start(fresh_sqlite("errors")).await;
    let (status, v) = server.call("DELETE", "/api/games", None, None).await;
    assert_eq!(code(status, &v), (405, "method_not_allowed"), "{v}");
    let (status, v) = server.call("GET", "/api/games/%FF%FE", None, None).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("UTF-8"),
        "{v}"
    );
    let (status, v) = server.call("GET", "/api/games/abc/live", None, None).await;
    assert!(status == 404 || status == 400, "{v}");
    assert!(v["error"]["code"].is_string(), "{v}");
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    join(&server, &id, None).await;
    // The scheme's case does not matter; another scheme is refused.
    let lower = format!("bearer {x}");
    let (status, text) = server
        .raw_with(
            "POST",
            &format!("/api/games/{id}/steps"),
            &[("authorization", lower.as_str())],
            Some(br#"{"seq":0,"steps":["a1"]}"#),
        )
        .await;
    assert_eq!(status, 200, "{text}");
    let (status, text) = server
        .raw_with(
            "POST",
            "/api/quick",
            &[("authorization", "Token x")],
            Some(b"{}"),
        )
        .await;
    assert_eq!(status, 401, "{text}");
    // A socket with a wrong token is refused at once.
    let url = format!("ws://{}/api/games/{id}/live?token=bogus", server.addr);
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
    let metrics = server.metrics_text().await;
    let refused = metrics
        .lines()
        .find_map(|l| l.strip_prefix("vw_requests_refused_total "))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap();
    assert!(refused >= 5, "every error answer is counted: {refused}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_frame_that_is_not_utf8_closes_with_1007() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
    use tokio_tungstenite::tungstenite::protocol::frame::Frame;
    use tokio_tungstenite::tungstenite::Message;
    let server = Server::start(fresh_sqlite("utf8")).await;
    let (id, _, _) = create(&server, r#"{"size":"5x5"}"#).await;
    let mut ws = connect(&server, &id, None).await;
    next(&mut ws).await;
    let frame = Frame::message(vec![0xff, 0xfe], OpCode::Data(Data::Text), true);
    ws.send(Message::Frame(frame)).await.unwrap();
    let mut closed = None;
    while let Ok(Some(m)) = tokio::time::timeout(std::time::Duration::from_secs(5), ws.next()).await
    {
        match m {
            Ok(Message::Close(Some(c))) => {
                closed = Some((u16::from(c.code), c.reason.to_string()));
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    let (code, reason) = closed.expect("a close frame that says why");
    assert_eq!(code, 1007, "{reason}");
    assert!(reason.contains("UTF-8"), "{reason}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_far_over_the_limit_closes_with_1009() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let server = Server::start(fresh_sqlite("too_big")).await;
    let (id, _, _) = create(&server, r#"{"size":"5x5"}"#).await;
    for size in [70 * 1024, 1024 * 1024, 16 * 1024 * 1024] {
        let mut ws = connect(&server, &id, None).await;
        next(&mut ws).await;
        // Before: over 64 KiB the connection was reset, with no word why.
        let _ = ws.send(Message::Text("x".repeat(size).into())).await;
        let mut closed = None;
        while let Ok(Some(m)) =
            tokio::time::timeout(std::time::Duration::from_secs(5), ws.next()).await
        {
            match m {
                Ok(Message::Close(Some(c))) => {
                    closed = Some((u16::from(c.code), c.reason.to_string()));
                    break;
                }
                Ok(_) => continue,
                Err(e) => panic!("{size} bytes: {e}"),
            }
        }
        let (code, reason) = closed.expect("a close frame that says why");
        assert_eq!(code, 1009, "{size} bytes: {reason}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_gives_every_position_of_a_record_or_a_line() {
    let server = Server::start(fresh_sqlite("replay")).await;
    let record = "[Variant \"classic\"]\n[Size \"5x5\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\n1. a1-b2-c3 e5\n0-1\n";
    let (status, r) = server
        .call(
            "POST",
            "/api/replay",
            None,
            Some(&json!({"record": record}).to_string()),
        )
        .await;
    assert_eq!(status, 200, "{r}");
    let frames = r["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 5, "the start and one position a step");
    assert_eq!(frames[0]["step"], Value::Null);
    assert_eq!(frames[4]["step"], "e5");
    assert_eq!(frames[4]["board"][0], "....O");
    assert_eq!(frames[3]["status"], "O to move");
    assert_eq!(frames[4]["steps_left"], 2);
    assert_eq!(
        r["declared"],
        json!({"reason": "resignation", "winner": "o", "text": "O wins (X resigned)"})
    );
    let line = json!({"position": frames[3]["position"], "moves": ["e5", "d4"]});
    let (status, v) = server
        .call("POST", "/api/replay", None, Some(&line.to_string()))
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["frames"][1]["position"], frames[4]["position"]);
    // The server's own record of a game with a layout (trenches, double
    // bases) replays from the board it was laid out on.
    let (id, _, x) = create(
        &server,
        r#"{"variant":"paper-tactics","size":"8x8","trenches":30,"double-base":true,"side":"x"}"#,
    )
    .await;
    let (status, _) = join(&server, &id, None).await;
    assert_eq!(status, 200);
    let legal = state(&server, &id).await["legal"][0].clone();
    let (status, played) = play(&server, &id, &x, 0, &[legal.as_str().unwrap()]).await;
    assert_eq!(status, 200, "{played}");
    let (_, text) = server
        .raw("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    let (status, v) = server
        .call(
            "POST",
            "/api/replay",
            None,
            Some(&json!({"record": text}).to_string()),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["frames"][1]["board"], played["board"], "{text}");
    assert!(
        v["frames"][0]["board"].to_string().contains('#'),
        "trenches"
    );
    for (body, status, words) in [
        (json!({"record": "1. a1 zz"}), 400, "record:"),
        (json!({"moves": ["a1", "j10"]}), 422, "step 2 (j10)"),
        (json!({"record": record, "position": "x"}), 400, "not both"),
        (json!({"position": "nonsense"}), 400, "position:"),
    ] {
        let (got, v) = server
            .call("POST", "/api/replay", None, Some(&body.to_string()))
            .await;
        assert_eq!(got, status, "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(words),
            "{body}: {v}"
        );
    }
    server.stop().await;
}
