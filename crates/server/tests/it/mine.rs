//! A logged-in player's games on any device: listed (your move first),
//! played by the account without the seat token, seats this browser held
//! kept on logging in; rated quick play; on SQLite and PostgreSQL.

use serde_json::json;

use crate::accounts::{sign_up, with_cookie, PASSWORD};
use crate::common::{
    code, connect, create, fresh_postgres, fresh_sqlite, next, register_bot, send, state, Server,
};
use crate::rated::rated_game;

on_both_databases!(
    my_games_follow_the_account_to_any_device,
    seats_held_before_logging_in_are_kept,
    rated_quick_play_pairs_accounts_and_bots_only_if_welcome
);

async fn my_games_follow_the_account_to_any_device(db: String) {
    let server = Server::start(db).await;
    let (ann, bo) = (sign_up(&server, "ann").await, sign_up(&server, "bo").await);
    let (id, _, _) = rated_game(&server, &ann, &bo).await;
    // Ann logs in on another device: the game is there, waiting for her.
    let login = format!(r#"{{"name":"ann","password":"{PASSWORD}"}}"#);
    let (_, phone, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    let phone = phone.unwrap();
    let (status, _, mine) = with_cookie(&server, "GET", "/api/me/games", Some(&phone), None).await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["your_turn"], 1);
    assert_eq!(
        (
            mine["games"][0]["id"].as_str(),
            mine["games"][0]["your_turn"].as_bool()
        ),
        (Some(id.as_str()), Some(true))
    );
    assert_eq!(mine["games"][0]["opponent"]["name"], "bo");
    let (_, _, theirs) = with_cookie(&server, "GET", "/api/me/games", Some(&bo), None).await;
    assert_eq!(theirs["your_turn"], 0);
    // She plays it there without the seat token: her account holds the seat.
    let (status, _, held) = with_cookie(
        &server,
        "GET",
        &format!("/api/games/{id}/seat"),
        Some(&phone),
        None,
    )
    .await;
    assert_eq!((status, held["seat"].as_str()), (200, Some("x")), "{held}");
    let s = state(&server, &id).await;
    let step = s["legal"][0].as_str().unwrap();
    let body = json!({"seq": 0, "steps": [step]}).to_string();
    let (status, _, after) = with_cookie(
        &server,
        "POST",
        &format!("/api/games/{id}/steps"),
        Some(&phone),
        Some(&body),
    )
    .await;
    assert_eq!(status, 200, "{after}");
    // A socket opened logged in plays while the session lasts.
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/games/{id}/live",
            server.addr
        ))
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("cookie", format!("vw_session={bo}").parse().unwrap());
    headers.insert("origin", format!("http://{}", server.addr).parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let mut s = next(&mut socket).await;
    while s["to_move"] == "x" {
        let step = s["legal"][0].as_str().unwrap().to_string();
        let body = json!({"seq": s["seq"], "steps": [step]}).to_string();
        let path = format!("/api/games/{id}/steps");
        s = with_cookie(&server, "POST", &path, Some(&phone), Some(&body))
            .await
            .2;
    }
    send(
        &mut socket,
        json!({"type": "steps", "seq": s["seq"], "steps": [s["legal"][0]]}),
    )
    .await;
    let played = loop {
        let m = next(&mut socket).await;
        if m["type"] != "state" || m["seq"] != s["seq"] {
            break m;
        }
    };
    assert_eq!(played["type"], "state", "{played}");
    // Logged out everywhere: the open socket plays no more.
    let (status, _, _) = with_cookie(&server, "DELETE", "/api/sessions", Some(&bo), None).await;
    assert_eq!(status, 204);
    let s = state(&server, &id).await;
    assert_eq!(s["to_move"], "o", "O's turn goes on: {s}");
    send(
        &mut socket,
        json!({"type": "steps", "seq": s["seq"], "steps": [s["legal"][0]]}),
    )
    .await;
    let refused = loop {
        let m = next(&mut socket).await;
        if m["type"] == "error" {
            break m;
        }
    };
    assert_eq!(refused["error"]["code"], "login_needed", "{refused}");
    let bo = sign_up(&server, "bo2").await;
    // Another account's session holds no seat here.
    let (status, _, v) = with_cookie(
        &server,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&bo),
        None,
    )
    .await;
    assert_eq!(code(status, &v), (403, "wrong_token"), "{v}");
    let (status, _, v) = with_cookie(&server, "GET", "/api/me/games", None, None).await;
    assert_eq!(code(status, &v), (401, "login_needed"));
    // Ann resigns and asks for a rematch on her phone, with no token: her
    // account holds the new seat, and the answer's link is the game's own
    // (before: a seat link ending in an empty token).
    let (status, _, v) = with_cookie(
        &server,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&phone),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, _, again) = with_cookie(
        &server,
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&phone),
        None,
    )
    .await;
    assert_eq!(status, 200, "{again}");
    let new = again["id"].as_str().unwrap();
    assert_eq!(
        (again["seat"].as_str(), again["token"].as_str()),
        (Some("o"), Some("")),
        "{again}"
    );
    assert!(
        again["url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/#/game/{new}")),
        "{again}"
    );
    let (status, _, held) = with_cookie(
        &server,
        "GET",
        &format!("/api/games/{new}/seat"),
        Some(&phone),
        None,
    )
    .await;
    assert_eq!((status, held["seat"].as_str()), (200, Some("o")), "{held}");
    server.stop().await;
}

async fn seats_held_before_logging_in_are_kept(db: String) {
    let server = Server::start(db).await;
    // Anonymous games in this browser: one as X, one on both seats.
    let (first, _, token) = create(&server, r#"{"size":"5x5","side":"x","name":"anon"}"#).await;
    let (both, _, x) = create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let (_, o) = crate::common::join(&server, &both, None).await;
    let o = o["token"].as_str().unwrap().to_string();
    let mut watcher = connect(&server, &first, None).await;
    next(&mut watcher).await;
    let cy = sign_up(&server, "cy").await;
    let body = json!({"tokens": [token, x, o, "not a token"]}).to_string();
    let (status, _, claimed) =
        with_cookie(&server, "POST", "/api/me/seats", Some(&cy), Some(&body)).await;
    assert_eq!(status, 200, "{claimed}");
    let mut games: Vec<String> = serde_json::from_value(claimed["games"].clone()).unwrap();
    games.sort();
    let mut expected = vec![first.clone(), both.clone()];
    expected.sort();
    assert_eq!(
        games, expected,
        "one seat a game: pass-and-play keeps one for the account"
    );
    assert_eq!(
        state(&server, &first).await["players"]["x"],
        json!({"kind": "human", "level": null, "name": "cy", "account": true})
    );
    assert_eq!(
        next(&mut watcher).await["players"]["x"]["name"],
        "cy",
        "watchers hear of it"
    );
    let s = state(&server, &both).await;
    assert_eq!(
        (
            s["players"]["x"]["account"].as_bool(),
            s["players"]["o"]["account"].as_bool()
        ),
        (Some(true), Some(false))
    );
    // Claimed again, or by another account: nothing changes.
    let (_, _, again) = with_cookie(&server, "POST", "/api/me/seats", Some(&cy), Some(&body)).await;
    assert_eq!(again["games"], json!([]));
    let too_many = json!({"tokens": vec!["t"; 501]}).to_string();
    let (status, _, v) =
        with_cookie(&server, "POST", "/api/me/seats", Some(&cy), Some(&too_many)).await;
    assert_eq!(code(status, &v), (400, "malformed"));
    let too_many = json!({"tokens": vec!["t"; 101]}).to_string();
    let (status, _, v) =
        with_cookie(&server, "POST", "/api/me/seats", Some(&cy), Some(&too_many)).await;
    assert_eq!(code(status, &v), (400, "malformed"));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 100"),
        "{v}"
    );
    // The player's page lists the game in play; the unlisted game still
    // waiting for its invited player is named to nobody but its creator.
    let (_, page) = server.call("GET", "/api/players/cy", None, None).await;
    let playing: Vec<&str> = page["playing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(playing, [both.as_str()]);
    let (_, _, mine) = with_cookie(&server, "GET", "/api/me/games", Some(&cy), None).await;
    assert_eq!(mine["games"].as_array().unwrap().len(), 2, "{mine}");
    server.stop().await;
}

async fn rated_quick_play_pairs_accounts_and_bots_only_if_welcome(db: String) {
    let server = Server::start(db).await;
    let (ann, bo) = (sign_up(&server, "ann").await, sign_up(&server, "bo").await);
    let rated = r#"{"variant":"classic","rated":true,"clock":{"base_s":180,"inc_s":2}}"#;
    let casual = r#"{"variant":"classic","clock":{"base_s":180,"inc_s":2}}"#;
    let (status, _, v) = with_cookie(&server, "POST", "/api/quick", None, Some(rated)).await;
    assert_eq!(code(status, &v), (401, "account_needed"));
    let (status, _, waiting) =
        with_cookie(&server, "POST", "/api/quick", Some(&ann), Some(rated)).await;
    assert_eq!(status, 201, "{waiting}");
    // A casual seeker is not paired with a rated game.
    let (status, _, other) = with_cookie(&server, "POST", "/api/quick", None, Some(casual)).await;
    assert_eq!(status, 201, "{other}");
    let (status, _, paired) =
        with_cookie(&server, "POST", "/api/quick", Some(&bo), Some(rated)).await;
    assert_eq!(status, 200, "{paired}");
    assert_eq!(paired["id"], waiting["id"]);
    let s = state(&server, paired["id"].as_str().unwrap()).await;
    assert_eq!(s["rated"], true);
    // Bots are rated like people, unless a person asks not to meet them.
    let (status, _, me) = with_cookie(
        &server,
        "PATCH",
        "/api/me",
        Some(&ann),
        Some(r#"{"no_bots":true}"#),
    )
    .await;
    assert_eq!((status, me["no_bots"].as_bool()), (200, Some(true)));
    let (_, _, waits) = with_cookie(&server, "POST", "/api/quick", Some(&ann), Some(rated)).await;
    let bot = register_bot(&server, "rater").await;
    let (status, bot_seat) = server
        .call("POST", "/api/quick", Some(&bot), Some(rated))
        .await;
    assert_eq!(status, 201, "not paired with ann: {bot_seat}");
    assert_ne!(bot_seat["id"], waits["id"]);
    let (status, _, v) = with_cookie(&server, "POST", "/api/quick", Some(&bo), Some(rated)).await;
    assert_eq!(status, 200, "{v}");
    server.stop().await;
}
