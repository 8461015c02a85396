//! Rated games: between accounts only, with a clock, never against the
//! computer; both ratings move once, in the transaction that ends the
//! game; on SQLite and PostgreSQL.

use serde_json::Value;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{act, code, fresh_postgres, fresh_sqlite, play, state, Server};

on_both_databases!(
    a_rated_game_shows_its_stakes_and_what_its_end_did,
    a_rated_game_moves_both_ratings_once,
    rated_games_need_accounts_a_clock_and_a_person,
    nobody_rates_a_game_against_their_own_bot
);

/// Plays the first legal step for `side` until its turn is over.
pub async fn play_turn(server: &Server, id: &str, token: &str, side: &str) -> Value {
    let mut s = state(server, id).await;
    while s["to_move"] == side {
        let step = s["legal"][0].as_str().unwrap().to_string();
        let (status, v) = play(server, id, token, s["seq"].as_u64().unwrap(), &[&step]).await;
        assert_eq!(status, 200, "{v}");
        s = v;
    }
    s
}

/// A rated blitz game between two new accounts, `x` creating it as X;
/// its id and both seat tokens.
pub async fn rated_game(server: &Server, x: &str, o: &str) -> (String, String, String) {
    let body = r#"{"variant":"classic","side":"x","rated":true,"clock":{"base_s":180,"inc_s":2}}"#;
    rated_game_with(server, x, o, body).await
}

/// The game `body` asks for, created by `x` (as X) and joined by `o`; its
/// id and both seat tokens.
pub async fn rated_game_with(
    server: &Server,
    x: &str,
    o: &str,
    body: &str,
) -> (String, String, String) {
    let (status, _, created) = with_cookie(server, "POST", "/api/games", Some(x), Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let join = format!("/api/games/{id}/join");
    let (status, _, joined) = with_cookie(server, "POST", &join, Some(o), None).await;
    assert_eq!(status, 200, "{joined}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    (id, token(&created), token(&joined))
}

async fn a_rated_game_moves_both_ratings_once(db: String) {
    let server = Server::start(db).await;
    let (ann, bo) = (sign_up(&server, "ann").await, sign_up(&server, "bo").await);
    let (id, x, o) = rated_game(&server, &ann, &bo).await;
    let s = state(&server, &id).await;
    assert_eq!(s["rated"], true);
    assert_eq!(
        s["players"]["x"]["name"], "ann",
        "an account's seat goes by its name"
    );
    assert_eq!(s["players"]["x"]["account"], true);
    play_turn(&server, &id, &x, "x").await;
    play_turn(&server, &id, &o, "o").await;
    let (status, v) = act(&server, &id, &x, "resign").await;
    assert_eq!(status, 200, "{v}");
    let rating = |me: &Value| me["ratings"]["classic-blitz"].clone();
    let (_, _, ann_me) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    let (_, _, bo_me) = with_cookie(&server, "GET", "/api/me", Some(&bo), None).await;
    let (a, b) = (rating(&ann_me), rating(&bo_me));
    assert_eq!(
        (a["games"].as_i64(), b["games"].as_i64()),
        (Some(1), Some(1)),
        "{a} {b}"
    );
    let (ra, rb) = (a["rating"].as_f64().unwrap(), b["rating"].as_f64().unwrap());
    assert!(ra < 1500.0 && rb > 1500.0, "the winner gains: {ra} {rb}");
    assert!(
        ((1500.0 - ra) - (rb - 1500.0)).abs() < 0.2,
        "two new players move alike: {ra} {rb}"
    );
    assert!(a["rd"].as_f64().unwrap() < 500.0 && a["provisional"] == true);
    // Once only: a second resignation or a restart changes nothing.
    let (status, _) = act(&server, &id, &o, "resign").await;
    assert_eq!(status, 409);
    let server = server.restart().await;
    let (_, _, again) = with_cookie(&server, "GET", "/api/me", Some(&bo), None).await;
    assert_eq!(rating(&again), b);
    // A rated game called off moves nothing.
    let (id, x, _) = rated_game(&server, &ann, &bo).await;
    let (status, _) = act(&server, &id, &x, "abort").await;
    assert_eq!(status, 200);
    let (_, _, after) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(rating(&after), a);
    server.stop().await;
}

async fn a_rated_game_shows_its_stakes_and_what_its_end_did(db: String) {
    let server = Server::start(db).await;
    let (ann, bo) = (sign_up(&server, "ann").await, sign_up(&server, "bo").await);
    let (id, x, o) = rated_game(&server, &ann, &bo).await;
    let stakes = |id: String| {
        let server = &server;
        async move {
            let (status, v) = server
                .call("GET", &format!("/api/games/{id}/stakes"), None, None)
                .await;
            assert_eq!(status, 200, "{v}");
            v
        }
    };
    // Before: both new accounts at 1500, provisional, nothing moved yet.
    let before = stakes(id.clone()).await;
    assert_eq!(before["category"], "classic-blitz", "{before}");
    for side in ["x", "o"] {
        assert_eq!(before[side]["before"], 1500.0, "{before}");
        assert_eq!(before[side]["after"], Value::Null, "{before}");
        assert_eq!(before[side]["provisional"], true, "{before}");
    }
    play_turn(&server, &id, &x, "x").await;
    play_turn(&server, &id, &o, "o").await;
    let (status, v) = act(&server, &id, &x, "resign").await;
    assert_eq!(status, 200, "{v}");
    // After: what the end did, X down and O up, the same as the player pages.
    let after = stakes(id.clone()).await;
    let moved = |side: &str| after[side]["after"].as_f64().unwrap();
    assert!(moved("x") < 1500.0 && moved("o") > 1500.0, "{after}");
    assert_eq!(after["x"]["before"], 1500.0, "{after}");
    let (_, _, page) = with_cookie(&server, "GET", "/api/players/bo", None, None).await;
    let rating = page["ratings"]["classic-blitz"]["rating"].as_f64().unwrap();
    assert!((rating - moved("o")).abs() < 0.1, "{rating} {after}");
    // A game that is not rated stakes nothing.
    let (casual, _, _) = crate::common::create(&server, r#"{"size":"5x5","side":"x"}"#).await;
    let none = stakes(casual).await;
    assert_eq!(
        none,
        serde_json::json!({"category": null, "x": null, "o": null})
    );
    server.stop().await;
}

async fn nobody_rates_a_game_against_their_own_bot(db: String) {
    let server = Server::start(db).await;
    let (mia, zed) = (sign_up(&server, "mia").await, sign_up(&server, "zed").await);
    let blitz = r#"{"rated":true,"side":"x","clock":{"base_s":300,"inc_s":5}}"#;
    let bot = |cookie: Option<String>, name: &'static str| {
        let server = &server;
        async move {
            let body = format!(r#"{{"name":"{name}"}}"#);
            let (status, _, v) =
                with_cookie(server, "POST", "/api/bots", cookie.as_deref(), Some(&body)).await;
            assert_eq!(status, 201, "{v}");
            v["token"].as_str().unwrap().to_string()
        }
    };
    let (anonymous, own, zeds) = (
        bot(None, "anon-bot").await,
        bot(Some(mia.clone()), "mia-bot").await,
        bot(Some(zed.clone()), "zed-bot").await,
    );
    let (_, _, game) = with_cookie(&server, "POST", "/api/games", Some(&mia), Some(blitz)).await;
    let join = format!("/api/games/{}/join", game["id"].as_str().unwrap());
    for (token, expected) in [
        (&anonymous, (403, "account_needed")),
        (&own, (409, "already_seated")),
    ] {
        let (status, v) = server.call("POST", &join, Some(token), None).await;
        assert_eq!(code(status, &v), expected, "{v}");
    }
    let (status, v) = server
        .call("POST", "/api/games", Some(&anonymous), Some(blitz))
        .await;
    assert_eq!(
        code(status, &v),
        (403, "account_needed"),
        "an anonymous bot creates no rated game"
    );
    let (status, v) = server.call("POST", &join, Some(&zeds), None).await;
    assert_eq!(status, 200, "another player's bot plays rated: {v}");
    server.stop().await;
}

async fn rated_games_need_accounts_a_clock_and_a_person(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "ann").await;
    let blitz = r#""clock":{"base_s":180,"inc_s":2}"#;
    for (cookie, body, expected) in [
        (
            None,
            format!(r#"{{"rated":true,{blitz}}}"#),
            (401, "account_needed"),
        ),
        (
            Some(&ann),
            format!(r#"{{"rated":true,"opponent":"level:3",{blitz}}}"#),
            (400, "account_needed"),
        ),
        (
            Some(&ann),
            r#"{"rated":true}"#.to_string(),
            (400, "malformed"),
        ),
    ] {
        let (status, _, v) = with_cookie(
            &server,
            "POST",
            "/api/games",
            cookie.map(String::as_str),
            Some(&body),
        )
        .await;
        assert_eq!(code(status, &v), expected, "{body}: {v}");
    }
    let body = format!(r#"{{"rated":true,{blitz}}}"#);
    let (status, _, created) =
        with_cookie(&server, "POST", "/api/games", Some(&ann), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let join = format!("/api/games/{}/join", created["id"].as_str().unwrap());
    let (status, _, v) = with_cookie(&server, "POST", &join, None, None).await;
    assert_eq!(code(status, &v), (401, "account_needed"), "anonymous: {v}");
    let (status, _, v) = with_cookie(&server, "POST", &join, Some(&ann), None).await;
    assert_eq!(
        code(status, &v),
        (409, "already_seated"),
        "both seats, one account: {v}"
    );
    server.stop().await;
}
