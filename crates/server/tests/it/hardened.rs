//! The holes a hostile try of accounts, ratings and quick play found
//! (issue 42), each replayed: sessions of an old password, ratings of
//! games ending at once on two processes, quick play's seeks, look-alike
//! names, session cookies, changes reaching the other process.

use std::time::Duration;

use serde_json::{json, Value};

use crate::common::*;

const PASSWORD: &str = "violet tram under paper";

/// Signs up `name`: its session cookie's value.
pub async fn sign_up(server: &Server, name: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
    let (status, headers, text) = server
        .exchange("POST", "/api/accounts", &[], Some(body.as_bytes()))
        .await;
    assert_eq!(status, 201, "{text}");
    cookie_of(&headers).expect("a session cookie")
}

pub fn cookie_of(headers: &[(String, String)]) -> Option<String> {
    headers
        .iter()
        .filter(|(k, _)| k == "set-cookie")
        .find_map(|(_, v)| {
            let value = v.split(';').next()?.split_once('=')?.1;
            (!value.is_empty()).then(|| value.to_string())
        })
}

/// A request with the session cookie `cookie` (named `name`).
async fn as_named(
    server: &Server,
    name: &str,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<&str>,
) -> (u16, Vec<(String, String)>, Value) {
    let header = format!("{name}={cookie}");
    let origin = "http://test".to_string();
    let (status, headers, text) = server
        .exchange(
            method,
            path,
            &[("cookie", header.as_str()), ("origin", origin.as_str())],
            body.map(str::as_bytes),
        )
        .await;
    (
        status,
        headers,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

async fn as_user(
    server: &Server,
    method: &str,
    path: &str,
    cookie: &str,
    body: Option<&str>,
) -> (u16, Value) {
    let (status, _, v) = as_named(server, "vw_session", method, path, cookie, body).await;
    (status, v)
}

on_both_databases!(
    sessions_of_an_old_password_log_nobody_in,
    look_alike_names_are_taken,
    a_player_holds_one_seek_and_casual_play_is_not_starved,
    a_rated_game_moves_ratings_once_each_side_played_a_whole_turn,
    every_game_waiting_for_my_move_is_listed
);

async fn every_game_waiting_for_my_move_is_listed(db: String) {
    let server = Server::start(db).await;
    let me = sign_up(&server, "busy").await;
    // 60 games where X (the account) is to move, 10 where O (the account)
    // waits for X: more than the 50 newest.
    let mut mine = Vec::new();
    for k in 0..70 {
        let side = if k < 60 { "x" } else { "o" };
        let body = format!(r#"{{"size":"5x5","side":"{side}"}}"#);
        let (status, made) = as_user(&server, "POST", "/api/games", &me, Some(&body)).await;
        assert_eq!(status, 201, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        join(&server, &id, None).await;
        mine.push(id);
    }
    let (status, games) = as_user(&server, "GET", "/api/me/games", &me, None).await;
    assert_eq!(status, 200, "{games}");
    assert_eq!(games["your_turn"], 60, "{games}");
    let listed: Vec<&Value> = games["games"].as_array().unwrap().iter().collect();
    for id in &mine[..60] {
        let g = listed.iter().find(|g| g["id"] == id.as_str());
        assert!(
            g.is_some_and(|g| g["your_turn"] == true),
            "{id} is listed as my move"
        );
    }
    // Your move first.
    let turns: Vec<bool> = listed.iter().map(|g| g["your_turn"] == true).collect();
    assert!(turns.windows(2).all(|w| w[0] || !w[1]), "{turns:?}");
    // Quick play never pairs the account with its own listed game.
    let casual = r#"{"size":"6x6","clock":{"base_s":333,"inc_s":1},"listed":true}"#;
    let (status, own) = as_user(&server, "POST", "/api/games", &me, Some(casual)).await;
    assert_eq!(status, 201, "{own}");
    let quick = r#"{"size":"6x6","clock":{"base_s":333,"inc_s":1}}"#;
    let (status, seek) = as_user(&server, "POST", "/api/quick", &me, Some(quick)).await;
    assert_eq!(status, 201, "a seek of its own, not its game: {seek}");
    assert_ne!(seek["id"], own["id"]);
    server.stop().await;
}

async fn sessions_of_an_old_password_log_nobody_in(db: String) {
    let server = Server::start(db).await;
    let me = sign_up(&server, "racer").await;
    // Logins with the old password race the change: whatever their timing,
    // none of the sessions they got works once the change is answered.
    let login = format!(r#"{{"name":"racer","password":"{PASSWORD}"}}"#);
    let logins = (0..6).map(|_| {
        let (server, login) = (&server, login.clone());
        async move {
            server
                .exchange("POST", "/api/session", &[], Some(login.as_bytes()))
                .await
        }
    });
    let change = json!({"password": PASSWORD, "new_password": "amber kite over river"}).to_string();
    let (answers, (status, changed)) = tokio::join!(
        futures_util::future::join_all(logins),
        as_user(&server, "PUT", "/api/me/password", &me, Some(&change))
    );
    assert_eq!(status, 204, "{changed}");
    for (status, headers, text) in answers {
        assert!([200, 401].contains(&status), "{status} {text}");
        if let Some(cookie) = cookie_of(&headers) {
            let (status, v) = as_user(&server, "GET", "/api/me", &cookie, None).await;
            assert_eq!(
                code(status, &v),
                (401, "login_needed"),
                "an old password's session"
            );
        }
    }
    let (status, _) = as_user(&server, "GET", "/api/me", &me, None).await;
    assert_eq!(status, 200, "the session that changed it goes on");
    server.stop().await;
}

async fn look_alike_names_are_taken(db: String) {
    let server = Server::start(db).await;
    sign_up(&server, "alice1").await;
    for name in ["aIice1", "alicel", "ALICE1"] {
        let body = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
        let (status, v) = server
            .call("POST", "/api/accounts", None, Some(&body))
            .await;
        assert_eq!(code(status, &v), (409, "name_taken"), "{name}: {v}");
    }
    sign_up(&server, "alice-1").await;
    let body = format!(r#"{{"name":"alice_1","password":"{PASSWORD}"}}"#);
    let (status, v) = server
        .call("POST", "/api/accounts", None, Some(&body))
        .await;
    assert_eq!(code(status, &v), (409, "name_taken"), "{v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("looks like 'alice-1'"),
        "{v}"
    );
    // Look-alikes signed up at the same moment: one of them is made.
    let names = ["twinl1", "twinI1", "twin1l", "twinll", "twinIl", "twinlI"];
    let tries = names.iter().map(|name| {
        let body = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
        let server = &server;
        async move {
            server
                .call("POST", "/api/accounts", None, Some(&body))
                .await
        }
    });
    let answers = futures_util::future::join_all(tries).await;
    let made = answers.iter().filter(|(status, _)| *status == 201).count();
    assert_eq!(made, 1, "{answers:?}");
    for (status, v) in &answers {
        assert!(
            *status == 201 || code(*status, v) == (409, "name_taken"),
            "{v}"
        );
    }
    // Bots are names too.
    register_bot(&server, "victim-bot").await;
    let (status, v) = server
        .call("POST", "/api/bots", None, Some(r#"{"name":"victim_bot"}"#))
        .await;
    assert_eq!(code(status, &v), (409, "name_taken"), "{v}");
    // A chosen name that draws nothing is refused.
    let (status, v) = server
        .call(
            "POST",
            "/api/games",
            None,
            Some("{\"name\":\"\u{115f}\u{115f}\"}"),
        )
        .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    server.stop().await;
}

async fn a_player_holds_one_seek_and_casual_play_is_not_starved(db: String) {
    let server = Server::start(db).await;
    let rated = r#"{"variant":"classic","clock":{"base_s":180,"inc_s":2},"rated":true}"#;
    let casual = r#"{"variant":"classic","clock":{"base_s":180,"inc_s":2}}"#;
    // One account seeking again and again holds one seek.
    let blocker = sign_up(&server, "blocker").await;
    let mut seeks = Vec::new();
    for _ in 0..5 {
        let (status, v) = as_user(&server, "POST", "/api/quick", &blocker, Some(rated)).await;
        assert_eq!(status, 201, "{v}");
        seeks.push(v["id"].as_str().unwrap().to_string());
    }
    let (_, open) = server.call("GET", "/api/games", None, None).await;
    let listed: Vec<&str> = open
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [seeks[4].as_str()], "the newest seek alone waits");
    for called_off in &seeks[..4] {
        let s = state(&server, called_off).await;
        assert_eq!(s["ending"]["reason"], "aborted", "{s}");
    }
    // Rated seeks of many players in front: casual seekers still meet.
    for k in 0..6 {
        let p = sign_up(&server, &format!("rated{k}")).await;
        let (status, _) = as_user(&server, "POST", "/api/quick", &p, Some(rated)).await;
        assert!([200, 201].contains(&status));
    }
    let (status, first) = server.call("POST", "/api/quick", None, Some(casual)).await;
    assert_eq!(status, 201, "{first}");
    let (status, second) = server.call("POST", "/api/quick", None, Some(casual)).await;
    assert_eq!(status, 200, "paired past every rated seek: {second}");
    assert_eq!(first["id"], second["id"]);
    server.stop().await;
}

async fn a_rated_game_moves_ratings_once_each_side_played_a_whole_turn(db: String) {
    let server = Server::start(db).await;
    let (x, o) = (
        sign_up(&server, "whole1").await,
        sign_up(&server, "whole2").await,
    );
    let body = r#"{"variant":"classic","clock":{"base_s":300,"inc_s":2},"rated":true,"side":"x"}"#;
    let (id, x_token, o_token) = crate::rated::rated_game_with(&server, &x, &o, body).await;
    play(&server, &id, &x_token, 0, &["a1", "b2", "c3"]).await;
    play(&server, &id, &o_token, 3, &["j10"]).await;
    // O resigns after one step of three: no whole turn of O's.
    let (status, _) = act(&server, &id, &o_token, "resign").await;
    assert_eq!(status, 200);
    for name in ["whole1", "whole2"] {
        let (_, page) = server
            .call("GET", &format!("/api/players/{name}"), None, None)
            .await;
        assert_eq!(page["ratings"], json!({}), "{name}: {page}");
    }
    server.stop().await;
}

/// Two rated games ending at the same moment through two processes: each
/// player's first two games in a category (the rating rows made by the
/// first), and two games of the same players with their colours crossed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rated_games_ending_at_once_on_two_processes_are_both_rated() {
    let Some((a, b)) = two_servers("rated_at_once").await else {
        return;
    };
    for trial in 0..3 {
        let p = sign_up(&a, &format!("p{trial}")).await;
        let q = sign_up(&a, &format!("q{trial}")).await;
        let r = sign_up(&a, &format!("r{trial}")).await;
        // P against Q and P against R (P's first two), then Q against R
        // twice with crossed colours.
        let pq = rated_game(&a, &p, &q).await;
        let pr = rated_game(&a, &p, &r).await;
        resign_together(&a, &b, &pq, &pr).await;
        let qr = rated_game(&a, &q, &r).await;
        let rq = rated_game(&a, &r, &q).await;
        resign_together(&a, &b, &qr, &rq).await;
        for (name, games) in [
            (format!("p{trial}"), 2),
            (format!("q{trial}"), 3),
            (format!("r{trial}"), 3),
        ] {
            let (_, page) = a
                .call("GET", &format!("/api/players/{name}"), None, None)
                .await;
            assert_eq!(
                page["ratings"]["classic-blitz"]["games"], games,
                "trial {trial}, {name}: {page}"
            );
            let (_, chart) = a
                .call(
                    "GET",
                    &format!("/api/players/{name}/ratings/classic-blitz"),
                    None,
                    None,
                )
                .await;
            let points = chart.as_array().unwrap();
            assert_eq!(points.len(), games as usize, "{chart}");
            for pair in points.windows(2) {
                assert_eq!(
                    pair[1]["before"], pair[0]["rating"],
                    "each game after the other: {chart}"
                );
            }
        }
    }
    a.stop().await;
    b.stop().await;
}

/// A rated blitz game of `x` (X) against `o`, both sides' first turns
/// played: its id and the two seat tokens.
async fn rated_game(server: &Server, x: &str, o: &str) -> (String, String, String) {
    let body = r#"{"variant":"classic","clock":{"base_s":300,"inc_s":2},"rated":true,"side":"x"}"#;
    let (id, xt, ot) = crate::rated::rated_game_with(server, x, o, body).await;
    play(server, &id, &xt, 0, &["a1", "b2", "c3"]).await;
    play(server, &id, &ot, 3, &["j10", "i9", "h8"]).await;
    (id, xt, ot)
}

/// X resigns game `one` on process `a` while X resigns `two` on `b`.
async fn resign_together(
    a: &Server,
    b: &Server,
    one: &(String, String, String),
    two: &(String, String, String),
) {
    let (first, second) = tokio::join!(
        act(a, &one.0, &one.1, "resign"),
        act(b, &two.0, &two.1, "resign")
    );
    assert_eq!(first.0, 200, "{}", first.1);
    assert_eq!(second.0, 200, "{}", second.1);
}

/// Claiming seats and deleting an account change games: another process
/// that holds such a game hears of it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seat_claims_and_deletions_reach_the_other_process() {
    let Some((a, b)) = two_servers("claims_reach").await else {
        return;
    };
    let (id, _, token) = create(&a, r#"{"size":"5x5","side":"x"}"#).await;
    join(&a, &id, None).await;
    // B holds the game: a watcher there.
    let mut watcher = connect(&b, &id, None).await;
    next(&mut watcher).await;
    let cy = sign_up(&a, "cyclaim").await;
    let body = json!({ "tokens": [token] }).to_string();
    let (status, v) = as_user(&a, "POST", "/api/me/seats", &cy, Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let m = next(&mut watcher).await;
            if m["players"]["x"]["name"] == "cyclaim" {
                return m;
            }
        }
    })
    .await;
    assert!(heard.is_ok(), "process B's watchers hear of the claim");
    let delete = json!({ "password": PASSWORD }).to_string();
    let (status, v) = as_user(&a, "DELETE", "/api/me", &cy, Some(&delete)).await;
    assert_eq!(status, 204, "{v}");
    let renamed = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let m = next(&mut watcher).await;
            if m["players"]["x"]["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("deleted-"))
            {
                return m;
            }
        }
    })
    .await;
    assert!(renamed.is_ok(), "process B's watchers hear of the deletion");
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_cookies_are_host_only_over_https_and_two_are_none() {
    let server = Server::start_with(fresh_sqlite("host_cookie"), |c| {
        c.public_url = Some("https://vw.example".into());
    })
    .await;
    let body = format!(r#"{{"name":"hosted","password":"{PASSWORD}"}}"#);
    let (status, headers, text) = server
        .exchange("POST", "/api/accounts", &[], Some(body.as_bytes()))
        .await;
    assert_eq!(status, 201, "{text}");
    let set = headers
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone())
        .unwrap();
    assert!(set.starts_with("__Host-vw_session="), "{set}");
    assert!(
        set.contains("Secure") && set.contains("Path=/") && !set.contains("Domain"),
        "{set}"
    );
    let token = cookie_of(&headers).unwrap();
    let (status, _, me) = server
        .exchange(
            "GET",
            "/api/me",
            &[("cookie", &format!("__Host-vw_session={token}"))],
            None,
        )
        .await;
    assert_eq!(status, 200, "{me}");
    // The plain name is not this server's cookie under https.
    let (status, _, _) = server
        .exchange(
            "GET",
            "/api/me",
            &[("cookie", &format!("vw_session={token}"))],
            None,
        )
        .await;
    assert_eq!(status, 401);
    // Two session cookies (one planted beside it): nobody.
    let two = format!("__Host-vw_session=planted; __Host-vw_session={token}");
    let (status, _, _) = server
        .exchange("GET", "/api/me", &[("cookie", &two)], None)
        .await;
    assert_eq!(status, 401);
    server.stop().await;
}
