//! The lobby and what players agree on: the open games list, quick play,
//! bots, draw offers, rematches, analysis, rate limits, abandoned games
//! and the OpenAPI document; on SQLite and PostgreSQL.

use crate::common::{
    act, code, connect, create, fresh_postgres, fresh_sqlite, join, next, play, register_bot,
    state, Server,
};
use serde_json::{json, Value};

on_both_databases!(
    the_open_list_shows_listed_games_until_their_seat_is_taken,
    quick_play_pairs_the_same_settings_only,
    bots_register_and_take_seats_with_their_token,
    draws_are_offered_and_accepted_where_the_end_rule_has_them,
    a_rematch_swaps_colours_and_keeps_both_tokens,
    untimed_games_left_alone_end
);

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
    assert_eq!(
        entry["waiting"],
        json!({"kind": "human", "level": null, "name": null})
    );
    assert!(entry["variant"]["options"]
        .as_str()
        .unwrap()
        .contains("size=6x6"));
    assert!(!ids.contains(&private.as_str()) && !ids.contains(&computer.as_str()));
    let watched = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, playing) = server.call("GET", "/api/watch", None, None).await;
    assert_eq!(
        watched(&playing),
        [computer.as_str()],
        "a listed game with both seats taken is there to watch: {playing}"
    );
    // Activity is ordered by the millisecond: let one pass.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    let (status, taken) = join(&server, &listed, None).await;
    assert_eq!(status, 200);
    let (_, list) = server.call("GET", "/api/games", None, None).await;
    assert_eq!(list, json!([]), "a full game leaves the list");
    let (_, playing) = server.call("GET", "/api/watch", None, None).await;
    assert_eq!(
        watched(&playing),
        [listed.as_str(), computer.as_str()],
        "the game just joined is the most recently active: {playing}"
    );
    let entry = &playing[0];
    let human = json!({"kind": "human", "level": null, "name": null});
    assert_eq!(entry["players"], json!({"x": human, "o": human}));
    assert_eq!(
        (entry["seq"].as_u64(), entry["status"].as_str()),
        (Some(0), Some("X to move"))
    );
    assert!(
        !watched(&playing).contains(&private),
        "an unlisted game is not shown"
    );
    let (status, _) = server
        .call(
            "POST",
            &format!("/api/games/{listed}/abort"),
            Some(taken["token"].as_str().unwrap()),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (_, playing) = server.call("GET", "/api/watch", None, None).await;
    assert_eq!(
        watched(&playing),
        [computer.as_str()],
        "a finished game leaves: {playing}"
    );
    for bad in ["?limit=0", "?limit=101", "?limit=x"] {
        for list in ["/api/games", "/api/watch"] {
            let (status, v) = server
                .call("GET", &format!("{list}{bad}"), None, None)
                .await;
            assert_eq!(code(status, &v), (400, "malformed"), "{list}{bad}: {v}");
        }
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
    let token = register_bot(&server, "tester-1").await;
    let (status, v) = server
        .call("POST", "/api/bots", None, Some(r#"{"name":"tester-1"}"#))
        .await;
    assert_eq!(code(status, &v), (409, "name_taken"));
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
    assert_eq!(
        s["players"],
        json!({"x": {"kind": "human", "level": null, "name": null},
               "o": {"kind": "bot", "level": null, "name": "tester-1"}})
    );
    let (status, _) = play(&server, &id, &human, 0, &["a1", "b2", "c3"]).await;
    assert_eq!(status, 200);
    let (status, v) = play(&server, &id, &token, 3, &["e5"]).await;
    assert_eq!(status, 200, "{v}");
    // A bot does not sit on both sides, and a wrong bot token is refused.
    let (id2, _, _) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (status, v) = join(&server, &id2, Some("bot-nonsense")).await;
    assert_eq!(code(status, &v), (403, "wrong_token"));
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
    assert_eq!(code(status, &v), (409, "already_seated"));
    server.stop().await;
}

async fn draws_are_offered_and_accepted_where_the_end_rule_has_them(db: String) {
    let server = Server::start(db).await;
    let draw = |id: &str| format!("/api/games/{id}/draw");
    let (id, _, x) = create(&server, r#"{"variant":"classic","side":"x"}"#).await;
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!(code(status, &v), (409, "no_draws"), "{v}");
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
    assert_eq!(
        v["ending"],
        json!({"reason": "agreement", "winner": null, "text": "draw (draw agreed)"})
    );
    let (status, v) = server.call("POST", &draw(&id), Some(&x), None).await;
    assert_eq!(code(status, &v), (409, "game_over"));
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
    assert_eq!(code(status, &v), (409, "not_over"));
    let mut watcher = connect(&server, &id, None).await;
    next(&mut watcher).await;
    let (status, _) = act(&server, &id, &o, "resign").await;
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
    assert_eq!(
        (
            last["ending"]["reason"].as_str(),
            last["ending"]["winner"].as_str()
        ),
        (Some("time"), Some("o")),
        "{last}"
    );
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        state(&server, &never).await["status"],
        "aborted",
        "no one moved: aborted"
    );
    server.stop().await;
}
