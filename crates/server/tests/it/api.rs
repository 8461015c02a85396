//! The HTTP contract (docs/api.md), on a real server over loopback with a
//! fresh SQLite file per test.

use crate::common::{act, code, create, fresh_postgres, fresh_sqlite, stored_record, Server};
use serde_json::{json, Value};

/// The token of the side to move.
fn mover_token<'a>(state: &Value, x: &'a str, o: &'a str) -> &'a str {
    match state["status"].as_str().unwrap() {
        "X to move" => x,
        "O to move" => o,
        other => panic!("the game is not running: {other}"),
    }
}

fn over(state: &Value) -> bool {
    matches!(state["status"].as_str(), Some("X wins" | "O wins" | "draw"))
}

async fn two_people_play_a_whole_game_and_download_its_record(db: String) {
    let server = Server::start(db.clone()).await;
    let (id, seat, x) = create(
        &server,
        r#"{"variant":"classic","size":"5x5","opponent":"human","side":"x","clock":null}"#,
    )
    .await;
    assert_eq!(seat, "x");
    let (status, joined) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    assert_eq!((status, joined["seat"].as_str()), (200, Some("o")));
    let o = joined["token"].as_str().unwrap().to_string();
    let (status, mut state) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(status, 200);
    let mut turns = 0;
    while !over(&state) {
        let token = mover_token(&state, &x, &o);
        let seq = state["seq"].as_u64().unwrap();
        let step = state["legal"][turns % state["legal"].as_array().unwrap().len()].clone();
        let step = step.as_str().unwrap();
        let (status, next) = crate::common::play(&server, &id, token, seq, &[step]).await;
        assert_eq!(status, 200, "{next}");
        assert_eq!(next["seq"].as_u64(), Some(seq + 1));
        state = next;
        turns += 1;
        assert!(turns < 100, "a 5x5 game ends");
    }
    let r = stored_record(&server, &id).await;
    let steps: Vec<String> = r.game.steps().iter().map(|s| s.to_string()).collect();
    assert_eq!(json!(steps), state["steps"]);
    assert_eq!(
        r.result.map(|o| o.to_string()),
        state["status"].as_str().map(String::from)
    );
    server.stop().await;
}

async fn refused_requests_say_why_and_change_nothing(db: String) {
    let server = Server::start(db.clone()).await;
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (_, joined) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    let o = joined["token"].as_str().unwrap().to_string();
    let steps = format!("/api/games/{id}/steps");
    let big = format!(r#"{{"seq":0,"steps":["{}"]}}"#, "a".repeat(20_000));
    #[rustfmt::skip]
    let cases: Vec<(Option<&str>, &str, u16, &str, &str)> = vec![
        (None, r#"{"seq":0,"steps":["a1"]}"#, 401, "no_token", "Authorization"),
        (Some("nonsense"), r#"{"seq":0,"steps":["a1"]}"#, 403, "wrong_token", "no seat"),
        (Some(&o), r#"{"seq":0,"steps":["e5"]}"#, 403, "not_your_turn", "it is X's turn, not O's"),
        (Some(&x), r#"{"seq":4,"steps":["a1"]}"#, 409, "stale_seq", "sent for step 4"),
        (Some(&x), r#"{"seq":0,"steps":["e5"]}"#, 422, "illegal_step", "step 1 (e5): not accessible for X"),
        (Some(&x), r#"{"seq":0,"steps":["a1","b2","c3","d4"]}"#, 422, "illegal_step", "step 4 (d4): X's turn ends"),
        (Some(&x), r#"{"seq":0,"steps":["zz"]}"#, 400, "malformed", "steps[0]: 'zz' is not a cell"),
        (Some(&x), r#"{"seq":0,"steps":["a1"],"extra":1}"#, 400, "malformed", "unknown field"),
        (Some(&x), r#"{"seq":0,"#, 400, "malformed", "EOF"),
        (Some(&x), r#"{"seq":-1,"steps":[]}"#, 400, "malformed", "seq"),
        (Some(&x), &big, 413, "too_large", "limit"),
    ];
    for (token, body, status, code, words) in cases {
        let (got, v) = server.call("POST", &steps, token, Some(body)).await;
        assert_eq!(got, status, "{body:.80}: {v}");
        assert_eq!(v["error"]["code"], code, "{body:.80}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{body:.80}: {message}");
    }
    // A refused step says which, where and why, for a client's own words.
    let (_, v) = server
        .call(
            "POST",
            &steps,
            Some(&x),
            Some(r#"{"seq":0,"steps":["e5"]}"#),
        )
        .await;
    assert_eq!(
        v["error"]["detail"],
        json!({"step": 1, "cell": "e5", "reason": "not_entry", "entry": "a1"}),
        "{v}"
    );
    let (_, v) = server
        .call(
            "POST",
            &steps,
            Some(&x),
            Some(r#"{"seq":0,"steps":["a1","b2","c3","d4"]}"#),
        )
        .await;
    assert_eq!(v["error"]["detail"]["reason"], "turn_over", "{v}");
    let (_, state) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(state["seq"], 0, "nothing changed: {state}");
    let (status, v) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    assert_eq!(code(status, &v), (409, "no_free_seat"));
    let (status, v) = server
        .call("GET", "/api/games/nosuchgame", None, None)
        .await;
    assert_eq!(code(status, &v), (404, "not_found"));
    for (body, words) in [
        (r#"{"size":"30x3"}"#, "board 30x3 is out of range"),
        (
            r#"{"steps":256}"#,
            "steps must be between 1 and 99, not 256",
        ),
        (r#"{"colour":"red"}"#, "unknown variant key 'colour'"),
        (
            r#"{"opponent":"level:10"}"#,
            "level must be between 1 and 9",
        ),
        (
            r#"{"opponent":"nn:weights=/etc/passwd"}"#,
            "weights files cannot be named here",
        ),
        (
            r#"{"opponent":"mcts:time=100s"}"#,
            "the computer ('level:1' to 'level:9')",
        ),
        (r#"{"side":"both"}"#, "side is x, o or random"),
        (
            r#"{"clock":{"base_s":-5}}"#,
            "clock.base_s must be from 1 to 604800, not -5",
        ),
        (
            r#"{"clock":{"days_per_turn":3,"base_s":5}}"#,
            "correspondence",
        ),
        (r#"[1,2]"#, "invalid type"),
    ] {
        let (status, v) = server.call("POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, 400, "{body}: {v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{body}: {message}");
    }
    server.stop().await;
}

async fn a_game_against_level_3_plays_to_the_end(db: String) {
    let server = Server::start(db.clone()).await;
    let (id, seat, token) = create(
        &server,
        r#"{"variant":"korobkov","size":"5x5","opponent":"level:3","side":"o"}"#,
    )
    .await;
    assert_eq!(seat, "o");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let (_, state) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        if over(&state) {
            assert_eq!(
                state["players"]["x"],
                serde_json::json!({"kind": "computer", "level": 3, "name": null, "account": false})
            );
            let metrics = server.metrics_text().await;
            let waits = metrics
                .lines()
                .find_map(|l| l.strip_prefix("vw_ai_wait_seconds_count "))
                .and_then(|n| n.parse::<u64>().ok());
            assert!(
                waits.is_some_and(|n| n > 0),
                "the computer's waits are counted: {metrics}"
            );
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the game ends: {state}"
        );
        if state["status"] == "O to move" {
            let body = json!({"seq": state["seq"], "steps": [state["legal"][0]]}).to_string();
            let (status, v) = server
                .call(
                    "POST",
                    &format!("/api/games/{id}/steps"),
                    Some(&token),
                    Some(&body),
                )
                .await;
            assert!(status == 200 || status == 409, "{v}");
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
    server.stop().await;
}

async fn a_restarted_server_has_every_game_and_token(db: String) {
    let server = Server::start(db.clone()).await;
    let (id, _, x) = create(
        &server,
        r#"{"size":"5x5","side":"x","clock":{"base_s":600,"inc_s":2}}"#,
    )
    .await;
    let (_, joined) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    let o = joined["token"].as_str().unwrap().to_string();
    let body = r#"{"seq":0,"steps":["a1","b2","c3"]}"#;
    let (status, before) = server
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&x),
            Some(body),
        )
        .await;
    assert_eq!(status, 200);
    server.stop().await;
    let server = Server::start(db).await;
    let (_, after) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    for field in ["steps", "seq", "position", "status", "legal"] {
        assert_eq!(after[field], before[field], "{field}");
    }
    // X's clock stood still (O is to move); O's did not run while the server was down.
    assert_eq!(after["clocks"]["x_ms"], before["clocks"]["x_ms"]);
    assert!(
        after["clocks"]["o_ms"].as_u64().unwrap() > 599_000,
        "{after}"
    );
    let body = r#"{"seq":3,"steps":["e5"]}"#;
    let (status, v) = server
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&o),
            Some(body),
        )
        .await;
    assert_eq!(status, 200, "the old token still plays: {v}");
    server.stop().await;
}

async fn resign_abort_health_and_metrics(db: String) {
    let server = Server::start(db.clone()).await;
    let (status, body) = server.raw("GET", "/healthz", None, None).await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (status, v) = act(&server, &id, &x, "abort").await;
    assert_eq!((status, v["status"].as_str()), (200, Some("aborted")));
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    let (status, v) = act(&server, &id, &x, "resign").await;
    assert_eq!(
        (status, v["status"].as_str(), v["to_move"].as_str()),
        (200, Some("O wins"), None)
    );
    assert_eq!(
        v["ending"],
        serde_json::json!({"reason": "resignation", "winner": "o", "text": "O wins (X resigned)"})
    );
    let (status, v) = act(&server, &id, &x, "resign").await;
    assert_eq!(code(status, &v), (409, "game_over"));
    let (_, text) = server
        .raw("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    let metrics = server.metrics_text().await;
    // Never on the public address.
    let (status, _) = server.raw("GET", "/metrics", None, None).await;
    assert_eq!(status, 404);
    assert!(metrics.contains("vw_games_created_total 2"), "{metrics}");
    assert!(metrics.contains("vw_step_seconds_bucket"), "{metrics}");
    server.stop().await;
}

mod socket {
    use crate::common::{connect, create, next, Server};
    use futures_util::SinkExt;
    use serde_json::json;
    use tokio_tungstenite::tungstenite::Message;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn sockets_get_every_change_and_may_send_steps() {
        let server = Server::start(super::fresh_sqlite("socket")).await;
        let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
        let (status, _) = server
            .call("POST", &format!("/api/games/{id}/join"), None, None)
            .await;
        assert_eq!(status, 200);
        let mut player = connect(&server, &id, Some(&x)).await;
        let mut watcher = connect(&server, &id, None).await;
        let first = next(&mut player).await;
        assert_eq!(
            (first["type"].as_str(), first["seq"].as_u64()),
            (Some("state"), Some(0))
        );
        assert_eq!(next(&mut watcher).await["seq"], 0);
        player
            .send(Message::Text(
                json!({"type":"steps","seq":0,"steps":["a1","b2"]})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
        for ws in [&mut player, &mut watcher] {
            let s = next(ws).await;
            assert_eq!(
                (s["type"].as_str(), s["seq"].as_u64()),
                (Some("state"), Some(2)),
                "{s}"
            );
        }
        // Errors come back on the socket, which stays open.
        for (text, code) in [
            ("not json".to_string(), "malformed"),
            (
                json!({"type":"steps","seq":0,"steps":["c3"]}).to_string(),
                "stale_seq",
            ),
            (
                json!({"type":"steps","seq":2,"steps":["e5"]}).to_string(),
                "illegal_step",
            ),
            (json!({"type":"dance"}).to_string(), "malformed"),
            // Every kind of message is read whole: no field it does not know.
            (json!({"type":"ping","extra":1}).to_string(), "malformed"),
            (
                json!({"type":"seat","token":"t","extra":1}).to_string(),
                "malformed",
            ),
            (json!({"type":"seat"}).to_string(), "malformed"),
            (json!({"steps":["c3"],"seq":2}).to_string(), "malformed"),
            ("x".repeat(20_000), "too_large"),
        ] {
            player.send(Message::Text(text.into())).await.unwrap();
            let e = next(&mut player).await;
            assert_eq!(
                (e["type"].as_str(), e["error"]["code"].as_str()),
                (Some("error"), Some(code)),
                "{e}"
            );
        }
        watcher
            .send(Message::Text(
                json!({"type":"steps","seq":2,"steps":["c3"]})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
        assert_eq!(next(&mut watcher).await["error"]["code"], "no_token");
        player
            .send(Message::Text(json!({"type":"ping"}).to_string().into()))
            .await
            .unwrap();
        assert_eq!(next(&mut player).await["type"], "pong");
        // A message's own token plays that seat on any socket; a wrong one
        // is refused there.
        for (message, code) in [
            (
                json!({"type":"steps","seq":2,"steps":["c3"],"token":"nonsense"}),
                "wrong_token",
            ),
            (
                json!({"type":"steps","seq":2,"steps":["c3"],"token":5}),
                "malformed",
            ),
        ] {
            watcher
                .send(Message::Text(message.to_string().into()))
                .await
                .unwrap();
            assert_eq!(next(&mut watcher).await["error"]["code"], code);
        }
        let (_, o) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(o["seq"], 2, "nothing was played");
        // A step sent over HTTP reaches the sockets too.
        let (status, _) = server
            .call(
                "POST",
                &format!("/api/games/{id}/steps"),
                Some(&x),
                Some(r#"{"seq":2,"steps":["c3"]}"#),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(next(&mut watcher).await["seq"], 3);
        // X's token on the watcher's socket: refused as X's, not as a watcher's.
        watcher
            .send(Message::Text(
                json!({"type":"steps","seq":3,"steps":["e5"],"token":x})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
        assert_eq!(next(&mut watcher).await["error"]["code"], "not_your_turn");
        server.stop().await;
    }
}

on_both_databases!(
    two_people_play_a_whole_game_and_download_its_record,
    refused_requests_say_why_and_change_nothing,
    a_game_against_level_3_plays_to_the_end,
    a_restarted_server_has_every_game_and_token,
    resign_abort_health_and_metrics
);
