//! The lobby and what players agree on: the open games list, quick play,
//! bots, draw offers, rematches, analysis, rate limits, abandoned games
//! and the OpenAPI document; on SQLite and PostgreSQL.

mod common;

use common::{connect, create, fresh_postgres, fresh_sqlite, next, send, Server};
use serde_json::{json, Value};

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

on_both_databases!(
    the_open_list_shows_listed_games_until_their_seat_is_taken,
    quick_play_pairs_the_same_settings_only,
    bots_register_and_take_seats_with_their_token,
    draws_are_offered_and_accepted_where_the_end_rule_has_them,
    a_rematch_swaps_colours_and_keeps_both_tokens,
    untimed_games_left_alone_end
);

async fn join(server: &Server, id: &str, token: Option<&str>) -> (u16, Value) {
    server
        .call("POST", &format!("/api/games/{id}/join"), token, None)
        .await
}

async fn state(server: &Server, id: &str) -> Value {
    let (status, v) = server
        .call("GET", &format!("/api/games/{id}"), None, None)
        .await;
    assert_eq!(status, 200, "{v}");
    v
}

async fn play(server: &Server, id: &str, token: &str, seq: u64, steps: &[&str]) -> (u16, Value) {
    let body = json!({"seq": seq, "steps": steps}).to_string();
    server
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(token),
            Some(&body),
        )
        .await
}

async fn the_open_list_shows_listed_games_until_their_seat_is_taken(db: String) {
    let server = Server::start(db).await;
    let (listed, _, _) = create(&server, r#"{"size":"6x6","side":"o","listed":true}"#).await;
    let (private, _, _) = create(&server, r#"{"size":"6x6","side":"o"}"#).await;
    let (computer, _, _) = create(
        &server,
        r#"{"listed":true,"opponent":"level:1","side":"x"}"#,
    )
    .await;
    let (status, list) = server.call("GET", "/api/games", None, None).await;
    assert_eq!(status, 200, "{list}");
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [listed.as_str()], "only listed games with a free seat");
    let entry = &list[0];
    assert_eq!(entry["free_seat"], "x");
    assert_eq!(entry["waiting"], "human");
    assert!(entry["variant"]["options"]
        .as_str()
        .unwrap()
        .contains("size=6x6"));
    assert!(!ids.contains(&private.as_str()) && !ids.contains(&computer.as_str()));
    let (status, _) = join(&server, &listed, None).await;
    assert_eq!(status, 200);
    let (_, list) = server.call("GET", "/api/games", None, None).await;
    assert_eq!(list, json!([]), "a full game leaves the list");
    for bad in ["?limit=0", "?limit=101", "?limit=x"] {
        let (status, v) = server
            .call("GET", &format!("/api/games{bad}"), None, None)
            .await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (400, Some("malformed")),
            "{bad}: {v}"
        );
    }
    server.stop().await;
}

async fn quick_play_pairs_the_same_settings_only(db: String) {
    let server = Server::start(db).await;
    let blitz = r#"{"variant":"classic","clock":{"base_s":180,"inc_s":2}}"#;
    let (status, first) = server.call("POST", "/api/quick", None, Some(blitz)).await;
    assert_eq!(status, 201, "the first waits in a new listed game: {first}");
    let id = first["id"].as_str().unwrap();
    // Other settings do not pair with it.
    let (status, other) = server
        .call("POST", "/api/quick", None, Some(r#"{"variant":"classic"}"#))
        .await;
    assert_eq!(status, 201, "{other}");
    assert_ne!(other["id"], first["id"]);
    let (status, second) = server.call("POST", "/api/quick", None, Some(blitz)).await;
    assert_eq!(status, 200, "paired: {second}");
    assert_eq!(second["id"], first["id"]);
    assert_ne!(second["seat"], first["seat"]);
    let s = state(&server, id).await;
    assert_eq!(s["seats_free"], json!({"x": false, "o": false}));
    assert_eq!(s["clocks"]["base_s"], 180.0);
    // Both tokens play their own seat.
    let (x, o) = if first["seat"] == "x" {
        (&first, &second)
    } else {
        (&second, &first)
    };
    let (status, _) = play(&server, id, o["token"].as_str().unwrap(), 0, &["a1"]).await;
    assert_eq!(status, 403);
    let (status, _) = play(&server, id, x["token"].as_str().unwrap(), 0, &["a1"]).await;
    assert_eq!(status, 200);
    let (status, v) = server
        .call(
            "POST",
            "/api/quick",
            None,
            Some(r#"{"opponent":"level:3"}"#),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    server.stop().await;
}

async fn bots_register_and_take_seats_with_their_token(db: String) {
    let server = Server::start(db).await;
    let (status, bot) = server
        .call("POST", "/api/bots", None, Some(r#"{"name":"tester-1"}"#))
        .await;
    assert_eq!(status, 201, "{bot}");
    let token = bot["token"].as_str().unwrap().to_string();
    let (status, v) = server
        .call("POST", "/api/bots", None, Some(r#"{"name":"tester-1"}"#))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("name_taken"))
    );
    for bad in [
        r#"{"name":"x"}"#,
        r#"{"name":"no spaces"}"#,
        r#"{"name":"ok","x":1}"#,
    ] {
        let (status, _) = server.call("POST", "/api/bots", None, Some(bad)).await;
        assert_eq!(status, 400, "{bad}");
    }
    let (id, _, human) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (status, seat) = join(&server, &id, Some(&token)).await;
    assert_eq!(status, 200, "{seat}");
    assert_eq!(
        seat["token"],
        token.as_str(),
        "a bot plays with its own token"
    );
    let s = state(&server, &id).await;
    assert_eq!(s["players"], json!({"x": "human", "o": "bot:tester-1"}));
    let (status, _) = play(&server, &id, &human, 0, &["a1", "b2", "c3"]).await;
    assert_eq!(status, 200);
    let (status, v) = play(&server, &id, &token, 3, &["e5"]).await;
    assert_eq!(status, 200, "{v}");
    // A bot does not sit on both sides, and a wrong bot token is refused.
    let (id2, _, _) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (status, v) = join(&server, &id2, Some("bot-nonsense")).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (403, Some("wrong_token"))
    );
    let (status, _) = server
        .call(
            "POST",
            "/api/games",
            Some(&token),
            Some(r#"{"size":"5x5","side":"x"}"#),
        )
        .await;
    assert_eq!(status, 201);
    let (_, list) = server.call("GET", "/api/games", None, None).await;
    assert_eq!(list, json!([]));
    let (status, created) = server
        .call(
            "POST",
            "/api/games",
            Some(&token),
            Some(r#"{"size":"5x5","side":"x","listed":true}"#),
        )
        .await;
    assert_eq!(status, 201);
    let (status, v) = join(&server, created["id"].as_str().unwrap(), Some(&token)).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("already_seated"))
    );
    server.stop().await;
}

async fn draws_are_offered_and_accepted_where_the_end_rule_has_them(db: String) {
    let server = Server::start(db).await;
    let draw = |id: &str| format!("/api/games/{id}/draw");
    let (id, _, x) = create(&server, r#"{"variant":"classic","side":"x"}"#).await;
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("no_draws")),
        "{v}"
    );
    let (id, _, x) = create(
        &server,
        r#"{"variant":"classic-pass","size":"6x6","side":"x"}"#,
    )
    .await;
    let (_, o) = join(&server, &id, None).await;
    let o = o["token"].as_str().unwrap().to_string();
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!((status, v["draw_offer"].as_str()), (200, Some("x")), "{v}");
    assert_eq!(v["draws_allowed"], true);
    // O plays on: the offer is declined.
    let (status, _) = play(&server, &id, &x, 0, &["a1", "b2", "c3"]).await;
    assert_eq!(status, 200);
    let (status, v) = play(&server, &id, &o, 3, &["f6"]).await;
    assert_eq!(status, 200);
    assert_eq!(v["draw_offer"], Value::Null, "playing on declines: {v}");
    let (_, v) = server.call("POST", &draw(&id), Some(&o), None).await;
    assert_eq!(v["draw_offer"], "o");
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("draw")), "{v}");
    assert_eq!(v["ending"], "draw agreed");
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("game_over"))
    );
    // Stored: a restarted server shows the same.
    let db = server.db.clone();
    server.stop().await;
    let server = Server::start(db).await;
    assert_eq!(state(&server, &id).await["status"], "draw");
    server.stop().await;
}

async fn a_rematch_swaps_colours_and_keeps_both_tokens(db: String) {
    let server = Server::start(db).await;
    let (id, _, x) = create(
        &server,
        r#"{"size":"5x5","side":"x","clock":{"base_s":60,"inc_s":1}}"#,
    )
    .await;
    let (_, o) = join(&server, &id, None).await;
    let o = o["token"].as_str().unwrap().to_string();
    let rematch = format!("/api/games/{id}/rematch");
    let (status, v) = server.call("POST", &rematch, Some(&x), None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("not_over"))
    );
    let mut watcher = connect(&server, &id, None).await;
    next(&mut watcher).await;
    let (status, _) = server
        .call("POST", &format!("/api/games/{id}/resign"), Some(&o), None)
        .await;
    assert_eq!(status, 200);
    next(&mut watcher).await;
    let (status, mine) = server.call("POST", &rematch, Some(&x), None).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(
        (mine["seat"].as_str(), mine["token"].as_str()),
        (Some("o"), Some(x.as_str()))
    );
    let new_id = mine["id"].as_str().unwrap();
    assert_ne!(new_id, id);
    assert_eq!(
        next(&mut watcher).await["rematch"],
        new_id,
        "the other side hears of it"
    );
    let (status, theirs) = server.call("POST", &rematch, Some(&o), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        (theirs["id"].as_str(), theirs["seat"].as_str()),
        (Some(new_id), Some("x"))
    );
    let s = state(&server, new_id).await;
    assert_eq!(s["seats_free"], json!({"x": false, "o": false}));
    assert_eq!(s["clocks"]["base_s"], 60.0);
    // O of the old game is X now, with the same token.
    let (status, _) = play(&server, new_id, &o, 0, &["a1"]).await;
    assert_eq!(status, 200);
    let (status, _) = play(&server, new_id, &x, 1, &["b2"]).await;
    assert_eq!(status, 403);
    server.stop().await;
}

async fn untimed_games_left_alone_end(db: String) {
    let server = Server::start_with(db, |c| c.abandon_after_ms = 600).await;
    let (never, _, _) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (id, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (_, o) = join(&server, &id, None).await;
    let o = o["token"].as_str().unwrap().to_string();
    let (status, _) = play(&server, &id, &x, 0, &["a1", "b2", "c3"]).await;
    assert_eq!(status, 200);
    let (status, _) = play(&server, &id, &o, 3, &["e5", "d4", "e4"]).await;
    assert_eq!(status, 200);
    let mut live = connect(&server, &id, None).await;
    let mut last = next(&mut live).await;
    while last["status"] == "X to move" {
        last = next(&mut live).await;
    }
    assert_eq!(last["status"], "O wins", "{last}");
    assert_eq!(last["ending"], "X ran out of time");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        state(&server, &never).await["status"],
        "aborted",
        "no one moved: aborted"
    );
    server.stop().await;
}

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
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
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
    let server = Server::start(fresh_sqlite("waiting")).await;
    let (id, _, x) = create(
        &server,
        r#"{"size":"5x5","side":"x","listed":true,"clock":{"base_s":1}}"#,
    )
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let s = state(&server, &id).await;
    assert_eq!(
        s["status"], "X to move",
        "no clock runs while a seat is free: {s}"
    );
    assert_eq!(s["clocks"]["x_ms"], 1000);
    let (status, v) = play(&server, &id, &x, 0, &["a1"]).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("waiting_for_opponent")),
        "{v}"
    );
    let (status, _) = join(&server, &id, None).await;
    assert_eq!(status, 200);
    let (status, v) = play(&server, &id, &x, 0, &["a1"]).await;
    assert_eq!(status, 200, "the game has started: {v}");
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
    let (_, bot) = server
        .call("POST", "/api/bots", None, Some(r#"{"name":"lurker"}"#))
        .await;
    let token = bot["token"].as_str().unwrap().to_string();
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
    let (status, games) = server
        .call("GET", "/api/bots/games", Some(&token), None)
        .await;
    assert_eq!(status, 200, "{games}");
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
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (405, Some("method_not_allowed")),
        "{v}"
    );
    let (status, v) = server.call("GET", "/api/games/%FF%FE", None, None).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("malformed")),
        "{v}"
    );
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
    let (_, metrics) = server.raw("GET", "/metrics", None, None).await;
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
