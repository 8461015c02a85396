//! Challenges by name and the notifications they raise (docs/api.md,
//! Challenges, Blocks): on SQLite and PostgreSQL, and across two processes.
//! The user socket's own bounds are in `notifications.rs`.

use serde_json::{json, Value};
use virus_wars_server::Clock;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{code, fresh_postgres, fresh_sqlite, next, register_bot, send, Server};
use crate::notifications::user_socket;

on_both_databases!(
    a_challenge_by_name_is_told_accepted_and_played,
    refusals_blocks_and_settings,
    declines_withdrawals_and_lapses
);

pub(crate) async fn call(
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

/// The game's state as `cookie`'s seat sees it.
pub(crate) async fn game(server: &Server, id: &str, cookie: &str) -> Value {
    let (status, v) = call(server, "GET", &format!("/api/games/{id}"), cookie, None).await;
    assert_eq!(status, 200, "{v}");
    v
}

/// Plays a whole turn for `cookie`'s account (the first legal cell each step).
pub(crate) async fn play_turn(server: &Server, id: &str, cookie: &str) {
    let mover = game(server, id, cookie).await["to_move"].clone();
    loop {
        let s = game(server, id, cookie).await;
        if s["to_move"] != mover || !s["result"].is_null() {
            return;
        }
        let body = json!({"seq": s["seq"], "steps": [s["legal"][0]]});
        let (status, v) = call(
            server,
            "POST",
            &format!("/api/games/{id}/steps"),
            cookie,
            Some(body),
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
}

async fn a_challenge_by_name_is_told_accepted_and_played(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let mut bell = user_socket(&server, &bo, None).await;
    let hello = next(&mut bell).await;
    assert_eq!(hello, json!({"type": "hello", "unread": 0, "last": 0}));
    let (status, sent) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(json!({"to": "bo", "clock": {"days_per_turn": 3}, "side": "x", "size": "7x7"})),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let challenge = sent["id"].as_str().unwrap().to_string();
    assert_eq!(sent["game"], Value::Null);
    // Bo hears of it at once.
    let note = next(&mut bell).await;
    assert_eq!(note["type"], "notification", "{note}");
    assert_eq!(note["kind"], "challenge");
    assert_eq!(note["challenge"], challenge.as_str());
    assert_eq!(note["from"], "Ann");
    assert_eq!(note["unread"], 1);
    assert_eq!(note["read"], false);
    // Both lists show it.
    let (_, bos) = call(&server, "GET", "/api/me/challenges", &bo, None).await;
    assert_eq!(bos["incoming"][0]["id"], challenge.as_str(), "{bos}");
    assert_eq!(bos["incoming"][0]["from"], "Ann");
    assert_eq!(bos["incoming"][0]["time_control"], "3d/turn", "{bos}");
    assert_eq!(bos["incoming"][0]["variant"]["size"], "7x7");
    assert_eq!(bos["outgoing"], json!([]));
    let (_, anns) = call(&server, "GET", "/api/me/challenges", &ann, None).await;
    assert_eq!(anns["outgoing"][0]["to"], "Bo", "{anns}");
    // Bo reads it (his page opens the bell) and accepts: the game starts,
    // both seats held by their accounts.
    let up_to = json!({"up_to": note["id"]});
    let (status, _) = call(
        &server,
        "POST",
        "/api/me/notifications/read",
        &bo,
        Some(up_to),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        next(&mut bell).await,
        json!({"type": "unread", "unread": 0})
    );
    let (status, seat) = call(
        &server,
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        &bo,
        None,
    )
    .await;
    assert_eq!(status, 201, "{seat}");
    assert_eq!(seat["seat"], "o", "Ann asked for X");
    let id = seat["id"].as_str().unwrap().to_string();
    let state = game(&server, &id, &ann).await;
    assert_eq!(state["players"]["x"]["name"], "Ann", "{state}");
    assert_eq!(state["players"]["o"]["name"], "Bo");
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/challenges/{challenge}/accept"),
        &bo,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("accepted"),
        "{v}"
    );
    let (_, bos) = call(&server, "GET", "/api/me/challenges", &bo, None).await;
    assert_eq!(
        bos["incoming"],
        json!([]),
        "an accepted challenge is not open"
    );
    // Both are told, with the game's id; Bo's is read, his own doing (it
    // stayed unread behind his page's back when the page went to the game).
    let accepted = next(&mut bell).await;
    assert_eq!(
        (accepted["kind"].as_str(), accepted["game"].as_str()),
        (Some("challenge_accepted"), Some(id.as_str())),
        "{accepted}"
    );
    assert_eq!(
        (accepted["read"].clone(), accepted["unread"].clone()),
        (json!(true), json!(0)),
        "{accepted}"
    );
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    assert_eq!(notes["unread"], 1, "{notes}");
    assert_eq!(notes["items"][0]["kind"], "challenge_accepted");
    assert_eq!(notes["items"][0]["game"], id.as_str());
    assert_eq!(notes["items"][0]["side"], "x");
    // Ann plays her turn: Bo is told it is his (once, however many turns
    // pass unread), and on the socket.
    play_turn(&server, &id, &ann).await;
    let turn = next(&mut bell).await;
    assert_eq!(
        (turn["kind"].as_str(), turn["game"].as_str()),
        (Some("your_turn"), Some(id.as_str())),
        "{turn}"
    );
    assert_eq!(turn["opponent"], "Ann");
    play_turn(&server, &id, &bo).await;
    play_turn(&server, &id, &ann).await;
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &bo, None).await;
    let turns = notes["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "your_turn")
        .count();
    assert_eq!(turns, 1, "one unread your_turn a game: {notes}");
    // Read up to the newest: the count drops, on the socket too.
    let newest = notes["items"][0]["id"].as_i64().unwrap();
    let (status, read) = call(
        &server,
        "POST",
        "/api/me/notifications/read",
        &bo,
        Some(json!({"up_to": newest})),
    )
    .await;
    assert_eq!((status, read), (200, json!({"unread": 0})));
    let unread = next(&mut bell).await;
    assert_eq!(unread, json!({"type": "unread", "unread": 0}));
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &bo, None).await;
    assert_eq!(notes["items"][0]["read"], true);
    // An older mark changes nothing; the page's next turn notes again.
    call(
        &server,
        "POST",
        "/api/me/notifications/read",
        &bo,
        Some(json!({"up_to": 1})),
    )
    .await;
    play_turn(&server, &id, &bo).await;
    play_turn(&server, &id, &ann).await;
    let turn = next(&mut bell).await;
    assert_eq!(turn["kind"], "your_turn", "{turn}");
    assert_eq!(turn["unread"], 1);
    // Ann resigns: both are told the game is over.
    let (status, _) = call(
        &server,
        "POST",
        &format!("/api/games/{id}/resign"),
        &ann,
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200);
    let over = next(&mut bell).await;
    assert_eq!(
        (over["kind"].as_str(), over["result"].as_str()),
        (Some("game_over"), Some("won")),
        "{over}"
    );
    // A page that reconnects with ?after= misses nothing.
    let mut again = user_socket(&server, &bo, Some(newest)).await;
    let hello = next(&mut again).await;
    assert_eq!(hello["type"], "hello");
    let first = next(&mut again).await;
    assert_eq!(first["kind"], "your_turn", "{first}");
    assert_eq!(next(&mut again).await["kind"], "game_over");
    // The socket answers pings, and refuses anything else.
    send(&mut again, json!({"type": "ping"})).await;
    assert_eq!(next(&mut again).await, json!({"type": "pong"}));
    send(&mut again, json!({"type": "steps"})).await;
    let refused = next(&mut again).await;
    assert_eq!(refused["error"]["code"], "malformed", "{refused}");
    server.stop().await;
}

async fn refusals_blocks_and_settings(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let challenge = |to: &str| json!({"to": to});
    for (body, expected, says) in [
        (challenge("ann"), (400, "malformed"), "yourself"),
        (
            json!({"to": "bo", "opponent": "level:3"}),
            (400, "malformed"),
            "opponent",
        ),
        (
            json!({"to": "bo", "listed": true}),
            (400, "malformed"),
            "listed",
        ),
        (
            json!({"to": "bo", "size": "2x2"}),
            (400, "malformed"),
            "size",
        ),
        (
            json!({"to": "bo", "rated": true}),
            (400, "malformed"),
            "clock",
        ),
        (json!({"to": 7}), (400, "malformed"), "name"),
        (json!({}), (400, "malformed"), "to"),
        (json!([1]), (400, "malformed"), "object"),
        (challenge("Nobody"), (404, "not_found"), "Nobody"),
    ] {
        let (status, v) = call(&server, "POST", "/api/challenges", &ann, Some(body.clone())).await;
        assert_eq!(code(status, &v), expected, "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {v}"
        );
    }
    let (status, _, v) = with_cookie(
        &server,
        "POST",
        "/api/challenges",
        None,
        Some(r#"{"to":"Bo"}"#),
    )
    .await;
    assert_eq!(code(status, &v), (401, "login_needed"));
    // Bo takes challenges only from those he follows, then from nobody.
    let (status, me) = call(
        &server,
        "PATCH",
        "/api/me",
        &bo,
        Some(json!({"challenges": "following"})),
    )
    .await;
    assert_eq!(
        (status, me["challenges"].as_str()),
        (200, Some("following")),
        "{me}"
    );
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(challenge("Bo")),
    )
    .await;
    assert_eq!(code(status, &v), (403, "not_taking"), "{v}");
    call(&server, "PUT", "/api/me/following/Ann", &bo, None).await;
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(challenge("Bo")),
    )
    .await;
    assert_eq!(status, 201, "Bo follows Ann: {v}");
    call(
        &server,
        "PATCH",
        "/api/me",
        &bo,
        Some(json!({"challenges": "nobody"})),
    )
    .await;
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(challenge("Bo")),
    )
    .await;
    assert_eq!(code(status, &v), (403, "not_taking"), "{v}");
    let (status, v) = call(
        &server,
        "PATCH",
        "/api/me",
        &bo,
        Some(json!({"challenges": "friends"})),
    )
    .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    call(
        &server,
        "PATCH",
        "/api/me",
        &bo,
        Some(json!({"challenges": "everyone"})),
    )
    .await;
    // Bo blocks Ann: her open challenge ends, a new one is refused, and
    // neither may challenge the other; unblocked, they may again.
    let (status, _) = call(&server, "PUT", "/api/me/blocks/ann", &bo, None).await;
    assert_eq!(status, 204);
    let (_, bos) = call(&server, "GET", "/api/me/challenges", &bo, None).await;
    assert_eq!(bos["incoming"], json!([]), "{bos}");
    for (from, to) in [(&ann, "Bo"), (&bo, "Ann")] {
        let (status, v) = call(
            &server,
            "POST",
            "/api/challenges",
            from,
            Some(challenge(to)),
        )
        .await;
        assert_eq!(code(status, &v), (403, "blocked"), "{v}");
    }
    let (_, list) = call(&server, "GET", "/api/me/blocks", &bo, None).await;
    assert_eq!(list, json!({"players": ["Ann"]}));
    let (status, v) = call(&server, "PUT", "/api/me/blocks/Bo", &bo, None).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    // Quick play never pairs them.
    let quick = json!({"variant": "classic", "clock": {"base_s": 300, "inc_s": 3}});
    let (status, first) = call(&server, "POST", "/api/quick", &ann, Some(quick.clone())).await;
    assert_eq!(status, 201, "{first}");
    let (status, second) = call(&server, "POST", "/api/quick", &bo, Some(quick.clone())).await;
    assert_eq!(
        status, 201,
        "Bo is not paired with Ann, who waits: {second}"
    );
    assert_ne!(first["id"], second["id"]);
    let (status, _) = call(&server, "DELETE", "/api/me/blocks/Ann", &bo, None).await;
    assert_eq!(status, 204);
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(challenge("Bo")),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    // A bot is challenged the same way: its game is made at once.
    let _bot_token = register_bot(&server, "robo").await;
    let (status, sent) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(challenge("robo")),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let bot_game = sent["game"].as_str().unwrap();
    let state = game(&server, bot_game, &ann).await;
    assert!(state["players"].to_string().contains("robo"), "{state}");
    // A cap on open challenges.
    let cy = sign_up(&server, "Cy").await;
    let mut refused = None;
    for n in 0..25 {
        let (status, v) = call(
            &server,
            "POST",
            "/api/challenges",
            &cy,
            Some(challenge("Ann")),
        )
        .await;
        if status != 201 {
            refused = Some((n, code(status, &v).1.to_string()));
            break;
        }
    }
    assert_eq!(refused, Some((10, "too_many".to_string())));
    // A bot's challenge refused so makes no game (before, it made one at
    // each try, past the cap).
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &cy,
        Some(challenge("robo")),
    )
    .await;
    assert_eq!(code(status, &v), (409, "too_many"), "{v}");
    let (_, games) = call(&server, "GET", "/api/me/games", &cy, None).await;
    assert_eq!(games["games"], json!([]), "{games}");
    server.stop().await;
}

async fn declines_withdrawals_and_lapses(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let send_one = |clock: Value| json!({"to": "Bo", "clock": clock});
    let (_, first) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(send_one(json!({"base_s": 180, "inc_s": 2}))),
    )
    .await;
    let first = first["id"].as_str().unwrap().to_string();
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/challenges/{first}/decline"),
        &bo,
        Some(json!({"reason": "sometime"})),
    )
    .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("too_fast"),
        "{v}"
    );
    // Only its challenged player answers it, only its challenger withdraws it.
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/challenges/{first}/decline"),
        &ann,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let (status, v) = call(
        &server,
        "DELETE",
        &format!("/api/challenges/{first}"),
        &bo,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let (status, _) = call(
        &server,
        "POST",
        &format!("/api/challenges/{first}/decline"),
        &bo,
        Some(json!({"reason": "too_fast"})),
    )
    .await;
    assert_eq!(status, 204);
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    assert_eq!(notes["items"][0]["kind"], "challenge_declined", "{notes}");
    assert_eq!(notes["items"][0]["reason"], "too_fast");
    assert_eq!(notes["items"][0]["by"], "Bo");
    // Withdrawn: it cannot be accepted.
    let (_, second) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(send_one(json!({"days_per_turn": 2}))),
    )
    .await;
    let second = second["id"].as_str().unwrap().to_string();
    assert_eq!(
        call(
            &server,
            "DELETE",
            &format!("/api/challenges/{second}"),
            &ann,
            None
        )
        .await
        .0,
        204
    );
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/challenges/{second}/accept"),
        &bo,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("withdrawn"),
        "{v}"
    );
    // A real-time challenge lapses once its challenger is gone two minutes;
    // a correspondence one lasts a day.
    let (_, quick) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(send_one(json!({"base_s": 300}))),
    )
    .await;
    let (_, slow) = call(
        &server,
        "POST",
        "/api/challenges",
        &ann,
        Some(send_one(json!({"days_per_turn": 1}))),
    )
    .await;
    server.advance(3 * 60_000);
    let (_, bos) = call(&server, "GET", "/api/me/challenges", &bo, None).await;
    let open: Vec<&Value> = bos["incoming"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["id"])
        .collect();
    assert_eq!(open, vec![&slow["id"]], "{bos}");
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/challenges/{}/accept", quick["id"].as_str().unwrap()),
        &bo,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("expired"),
        "{v}"
    );
    server.advance(24 * 3_600_000);
    let (_, bos) = call(&server, "GET", "/api/me/challenges", &bo, None).await;
    assert_eq!(bos["incoming"], json!([]), "a day on: {bos}");
    server.stop().await;
}
