//! What the hardening of issue 59 holds: a ban (and a deletion) reaches
//! the account's bots, its seeks and its tournament places; a Swiss keeps
//! its pairing numbers whatever a player becomes; a block keeps two
//! players apart in tournaments; the bell counts what still needs the
//! player; caps on bots; an outage of the database is said, refused fast
//! and recovered from; the page's security headers.

use serde_json::{json, Value};
use virus_wars_server::admin::{act, Action};
use virus_wars_server::Clock;

use crate::accounts::{sign_up, with_cookie, PASSWORD};
use crate::challenges::{call, play_turn};
use crate::common::{code, fresh_postgres, fresh_sqlite, register_bot, Server};
use crate::tournaments::{make_arena, tournament, tournament_until};

on_both_databases!(
    a_ban_reaches_the_accounts_bots_seeks_and_places,
    a_block_keeps_two_players_apart_in_tournaments,
    the_bell_counts_what_still_needs_the_player,
    bots_are_capped_per_account_and_per_tournament
);

/// Registers a bot for the signed-in `cookie`; its token.
async fn own_bot(server: &Server, cookie: &str, name: &str) -> (u16, Value) {
    let body = json!({ "name": name }).to_string();
    let (status, _, v) = with_cookie(server, "POST", "/api/bots", Some(cookie), Some(&body)).await;
    (status, v)
}

async fn a_ban_reaches_the_accounts_bots_seeks_and_places(db: String) {
    let server = Server::start_with(db.clone(), |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let (status, v) = own_bot(&server, &ann, "annbot").await;
    assert_eq!(status, 201, "{v}");
    let bot = v["token"].as_str().unwrap().to_string();
    let lone = register_bot(&server, "lonebot").await;
    // Ann's bot lists a game; it and Ann are in a tournament to come.
    let (status, open) = server
        .call(
            "POST",
            "/api/games",
            Some(&bot),
            Some(r#"{"listed": true, "size": "7x7"}"#),
        )
        .await;
    assert_eq!(status, 201, "{open}");
    let listed = || {
        let server = &server;
        async move {
            let (_, list) = server.call("GET", "/api/games", None, None).await;
            list.as_array().map_or(0, |l| l.len())
        }
    };
    assert_eq!(listed().await, 1);
    let t = make_arena(&server, &bo, json!({"rated": false, "starts_in_s": 3600})).await;
    let join = format!("/api/tournaments/{t}/join");
    let (status, v) = server.call("POST", &join, Some(&bot), None).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(&server, "POST", &join, &ann, None).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(tournament(&server, &t, &bo).await["players"], 2);
    // Banned: the ban reaches her bot at once.
    let now = server.clock.now_ms() as i64;
    let said = act(&db, "op", Action::Ban { name: "Ann".into() }, now)
        .await
        .unwrap();
    assert!(said.contains("their bot is refused too"), "{said}");
    for (method, path, body) in [
        ("GET", "/api/bots/games".to_string(), None),
        ("POST", "/api/games".to_string(), Some(r#"{"size": "7x7"}"#)),
        ("POST", join.clone(), None),
        ("GET", format!("/api/tournaments/{t}"), None),
    ] {
        let (status, v) = server.call(method, &path, Some(&bot), body).await;
        assert_eq!(code(status, &v), (403, "banned"), "{method} {path}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains("annbot"),
            "{v}"
        );
    }
    // Her bot's seek is off the list; both left the tournament to come.
    assert_eq!(listed().await, 0);
    tournament_until(&server, &t, &bo, "both out of the tournament", |t| {
        t["players"] == 0
    })
    .await;
    // The seat of the listed game takes no step from the bot's token.
    let open_id = open["id"].as_str().unwrap();
    let (status, v) = server
        .call(
            "POST",
            &format!("/api/games/{open_id}/steps"),
            Some(&bot),
            Some(r#"{"steps": ["a1"]}"#),
        )
        .await;
    assert_ne!(status, 200, "{v}");
    // A bot banned itself is refused too; an unbanned owner's bot plays.
    act(
        &db,
        "op",
        Action::Ban {
            name: "lonebot".into(),
        },
        now,
    )
    .await
    .unwrap();
    let (status, v) = server
        .call("GET", "/api/bots/games", Some(&lone), None)
        .await;
    assert_eq!(code(status, &v), (403, "banned"), "{v}");
    act(&db, "op", Action::Unban { name: "Ann".into() }, now)
        .await
        .unwrap();
    let (status, v) = server
        .call("GET", "/api/bots/games", Some(&bot), None)
        .await;
    assert_eq!(status, 200, "{v}");
    // Deleted: her bots are refused for good.
    let body = json!({ "password": PASSWORD }).to_string();
    let anns = sign_in(&server, "Ann").await;
    let (status, _, v) = with_cookie(&server, "DELETE", "/api/me", Some(&anns), Some(&body)).await;
    assert_eq!(status, 204, "{v}");
    let (status, v) = server
        .call("GET", "/api/bots/games", Some(&bot), None)
        .await;
    assert_eq!(code(status, &v), (403, "banned"), "{v}");
    server.stop().await;
}

/// A fresh session of `name`.
async fn sign_in(server: &Server, name: &str) -> String {
    let body = json!({ "name": name, "password": PASSWORD }).to_string();
    let (status, cookie, v) = with_cookie(server, "POST", "/api/session", None, Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    cookie.expect("a session")
}

/// Plays game `gid` of a tournament out: X plays a turn, then `loser`
/// resigns.
async fn resign_game(server: &Server, g: &Value, loser: &str, cookie_of: impl Fn(&str) -> String) {
    let gid = g["game"].as_str().unwrap();
    let x = g["x"].as_str().unwrap();
    play_turn(server, gid, &cookie_of(x)).await;
    let path = format!("/api/games/{gid}/resign");
    let (status, v) = call(server, "POST", &path, &cookie_of(loser), None).await;
    assert_eq!(status, 200, "{v}");
}

async fn a_block_keeps_two_players_apart_in_tournaments(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let names = ["Ann", "Bo", "Cy", "Di"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let (status, v) = call(&server, "PUT", "/api/me/blocks/Bo", &cookie_of("Ann"), None).await;
    assert!(status == 200 || status == 204, "{v}");
    let met = |g: &Value| {
        let pair = [g["x"].as_str().unwrap(), g["o"].as_str().unwrap()];
        pair.contains(&"Ann") && pair.contains(&"Bo")
    };
    // A Swiss of four, three rounds: without the block everyone would meet
    // everyone; with it, Ann and Bo never do.
    let body = json!({"kind": "swiss", "name": "Four", "starts_in_s": 60, "rounds": 3,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "7x7", "rated": false});
    let (status, made) = call(&server, "POST", "/api/tournaments", &cookies[0], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in names {
        let (status, v) = call(
            &server,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            &cookie_of(n),
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    let mut games = 0;
    for round in 1..=3 {
        let t = tournament_until(&server, &id, &cookies[0], "the round", |t| {
            t["round"] == round || t["state"] == "finished"
        })
        .await;
        if t["state"] == "finished" {
            break;
        }
        for g in t["games"].as_array().unwrap() {
            assert!(!met(g), "round {round} paired Ann and Bo: {g}");
            games += 1;
            let loser = g["o"].as_str().unwrap().to_string();
            resign_game(&server, g, &loser, &cookie_of).await;
        }
    }
    assert!(games >= 2, "the Swiss paired the others");
    // An arena of three: Ann, Bo, Cy. Game after game, never Ann and Bo.
    let arena = make_arena(
        &server,
        &cookie_of("Cy"),
        json!({"rated": false, "starts_in_s": 0, "size": "7x7"}),
    )
    .await;
    for n in ["Ann", "Bo", "Cy"] {
        let (status, v) = call(
            &server,
            "POST",
            &format!("/api/tournaments/{arena}/join"),
            &cookie_of(n),
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let mut seen = std::collections::HashSet::new();
    for k in 0..4 {
        let t = tournament_until(&server, &arena, &cookie_of("Cy"), "a pairing", |t| {
            t["games"].as_array().is_some_and(|g| !g.is_empty())
        })
        .await;
        let g = t["games"][0].clone();
        assert!(!met(&g), "game {k} paired Ann and Bo: {g}");
        seen.insert(g["game"].as_str().unwrap().to_string());
        let loser = g["x"].as_str().unwrap().to_string();
        resign_game(&server, &g, &loser, &cookie_of).await;
        tournament_until(&server, &arena, &cookie_of("Cy"), "the game scored", |t| {
            t["games"]
                .as_array()
                .is_some_and(|gs| gs.iter().all(|x| x["game"] != g["game"]))
        })
        .await;
        // The rematch wait (10 s) passes.
        server.advance(11_000);
    }
    assert_eq!(seen.len(), 4);
    server.stop().await;
}

async fn the_bell_counts_what_still_needs_the_player(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let unread = |cookie: String| {
        let server = &server;
        async move {
            let (status, v) = call(server, "GET", "/api/me/notifications", &cookie, None).await;
            assert_eq!(status, 200, "{v}");
            v["unread"].as_i64().unwrap()
        }
    };
    // Two correspondence games, Ann X in both: after her turn, Bo's turn
    // in each is a notification for him.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let id = crate::chat::game_between(&server, &ann, &bo, "Bo").await;
        play_turn(&server, &id, &ann).await;
        ids.push(id);
    }
    let before = unread(bo.clone()).await;
    assert!(before >= 2, "Bo's turns wait: {before}");
    // Ann resigns the first: its turn needs Bo no more.
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/games/{}/resign", ids[0]),
        &ann,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let after = unread(bo.clone()).await;
    assert!(
        after < before,
        "a game that is over no longer counts: {before} then {after}"
    );
    let (_, list) = call(&server, "GET", "/api/me/notifications", &bo, None).await;
    // What counts: the notes about the game still played (its turn, its
    // acceptance), not the challenges answered nor the game that is over.
    let about_second = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["game"] == ids[1].as_str() && n["read"] == false && n["kind"] != "challenge")
        .count() as i64;
    assert_eq!(
        after, about_second,
        "what counts is the game still played: {list}"
    );
    server.stop().await;
}

async fn bots_are_capped_per_account_and_per_tournament(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let mut tokens = Vec::new();
    for k in 0..5 {
        let (status, v) = own_bot(&server, &ann, &format!("annbot{k}")).await;
        assert_eq!(status, 201, "{v}");
        tokens.push(v["token"].as_str().unwrap().to_string());
    }
    let (status, v) = own_bot(&server, &ann, "annbot5").await;
    assert_eq!(code(status, &v), (409, "too_many"), "{v}");
    // A tournament of four places: bots take two at most, one of an owner.
    let t = make_arena(
        &server,
        &bo,
        json!({"rated": false, "starts_in_s": 3600, "max_players": 4}),
    )
    .await;
    let join = format!("/api/tournaments/{t}/join");
    let (status, v) = server.call("POST", &join, Some(&tokens[0]), None).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.call("POST", &join, Some(&tokens[1]), None).await;
    assert_eq!(code(status, &v), (409, "full"), "one bot an account: {v}");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("same account"),
        "{v}"
    );
    let others = [
        register_bot(&server, "freebot1").await,
        register_bot(&server, "freebot2").await,
    ];
    let (status, v) = server.call("POST", &join, Some(&others[0]), None).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = server.call("POST", &join, Some(&others[1]), None).await;
    assert_eq!(code(status, &v), (409, "full"), "two bots at most: {v}");
    assert!(
        v["error"]["message"].as_str().unwrap().contains("2 bots"),
        "{v}"
    );
    // People still have their places.
    for cookie in [&ann, &bo] {
        let (status, v) = call(&server, "POST", &join, cookie, None).await;
        assert_eq!(status, 200, "{v}");
    }
    // The maker may take no bot, or name how many.
    let body = json!({"kind": "arena", "name": "No bots", "clock": {"base_s": 60}, "bots": true, "max_bots": 0});
    let (status, v) = call(&server, "POST", "/api/tournaments", &bo, Some(body)).await;
    assert_eq!(status, 201, "{v}");
    let none = v["id"].as_str().unwrap();
    assert_eq!(tournament(&server, none, &bo).await["bots"], false);
    let body = json!({"kind": "arena", "clock": {"base_s": 60}, "bots": false, "max_bots": 3});
    let (status, v) = call(&server, "POST", "/api/tournaments", &bo, Some(body)).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    server.stop().await;
}

/// Bot names count with the sign-ups of their address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bot_names_count_with_sign_ups() {
    let server = Server::start_with(fresh_sqlite("bot_names_signups"), |c| {
        c.rate_limits.signups_per_hour = 2
    })
    .await;
    let body = json!({ "name": "first-bot" }).to_string();
    assert_eq!(
        server.call("POST", "/api/bots", None, Some(&body)).await.0,
        201
    );
    let _ann = sign_up(&server, "Ann").await;
    let body = json!({ "name": "third-bot" }).to_string();
    let (status, v) = server.call("POST", "/api/bots", None, Some(&body)).await;
    assert_eq!(code(status, &v), (429, "rate_limited"), "{v}");
    server.stop().await;
}

/// The tournaments' lists are pages with cursors: to come, the soonest
/// first; running, the latest started first; a new one is never out of
/// sight behind older ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tournament_lists_are_paged_newest_first_where_it_matters() {
    let server = Server::start_with(fresh_sqlite("tournament_pages"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    let mut made = Vec::new();
    for k in 0..4 {
        let cookie = sign_up(&server, &format!("Maker{k}")).await;
        for j in 0..3 {
            let starts = 600 + 60 * (3 * k + j);
            let id = make_arena(
                &server,
                &cookie,
                json!({"rated": false, "starts_in_s": starts, "minutes": 600}),
            )
            .await;
            made.push(id);
        }
    }
    let list = |query: String| {
        let server = &server;
        async move {
            let (status, v) = server
                .call("GET", &format!("/api/tournaments{query}"), None, None)
                .await;
            assert_eq!(status, 200, "{v}");
            v
        }
    };
    let ids = |v: &Value, key: &str| -> Vec<String> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    let first = list(String::new()).await;
    assert_eq!(ids(&first, "soon"), made, "the soonest first");
    assert_eq!(first["soon_more"], false);
    // The page after the fifth: the sixth on.
    let fifth = &first["soon"][4];
    let next = list(format!(
        "?soon_after={}&soon_after_id={}",
        fifth["starts_ms"],
        fifth["id"].as_str().unwrap()
    ))
    .await;
    assert_eq!(ids(&next, "soon"), made[5..].to_vec());
    // Once they run, the latest started comes first.
    server.advance(3_600_000);
    let mut all_running = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while all_running.len() < 12 {
        all_running = ids(&list(String::new()).await, "running");
        assert!(std::time::Instant::now() < deadline, "{all_running:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let mut newest_first = made.clone();
    newest_first.reverse();
    assert_eq!(all_running, newest_first);
    let (status, v) = server
        .call("GET", "/api/tournaments?page=2", None, None)
        .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    server.stop().await;
}

/// `admin reports` lists the newest first, a page at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn admin_reports_are_newest_first() {
    let db = fresh_sqlite("reports_newest");
    let server = Server::start_with(db.clone(), |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    for name in ["Bo", "Cy", "Di"] {
        sign_up(&server, name).await;
        let body = json!({"player": name, "reason": "spam", "text": format!("about {name}")});
        let (status, v) = call(&server, "POST", "/api/reports", &ann, Some(body)).await;
        assert_eq!(status, 204, "{v}");
        server.advance(1_000);
    }
    let said = act(&db, "op", Action::Reports { older_than: None }, 0)
        .await
        .unwrap();
    let at = |name: &str| {
        said.find(&format!("about {name}"))
            .unwrap_or_else(|| panic!("{said}"))
    };
    assert!(at("Di") < at("Cy") && at("Cy") < at("Bo"), "{said}");
    // The page after the newest: the two older ones.
    let newest = said.split_whitespace().nth(1).unwrap().to_string();
    let older = act(
        &db,
        "op",
        Action::Reports {
            older_than: Some(newest),
        },
        0,
    )
    .await
    .unwrap();
    assert!(
        !older.contains("about Di") && older.contains("about Cy") && older.contains("about Bo"),
        "{older}"
    );
    server.stop().await;
}

/// A chat room's cap is each speaker's: a speaker who said 300 lines in
/// the watchers' room is refused there, and the others still speak.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_crowd_silences_a_room() {
    use crate::common::{next, send};
    let server = Server::start_with(fresh_sqlite("chat_per_speaker"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let cy = sign_up(&server, "Cy").await;
    let di = sign_up(&server, "Di").await;
    let id = crate::chat::game_between(&server, &ann, &bo, "Bo").await;
    let mut cys = crate::chat::game_socket(&server, &id, Some(&cy)).await;
    let mut dis = crate::chat::game_socket(&server, &id, Some(&di)).await;
    // What Cy's socket hears next that is no state.
    async fn heard(ws: &mut crate::common::Ws) -> Value {
        loop {
            let m = next(ws).await;
            if m["type"] != "state" {
                return m;
            }
        }
    }
    for k in 0..300 {
        send(
            &mut cys,
            json!({"type": "chat", "room": "watchers", "text": format!("line {k}")}),
        )
        .await;
        let m = heard(&mut cys).await;
        assert_eq!(m["type"], "chat", "line {k}: {m}");
        // The speaking rate: one line every 2 s.
        server.advance(2_000);
    }
    send(
        &mut cys,
        json!({"type": "chat", "room": "watchers", "text": "one more"}),
    )
    .await;
    let m = heard(&mut cys).await;
    assert_eq!(m["error"]["code"], "too_many", "{m}");
    send(
        &mut dis,
        json!({"type": "chat", "room": "watchers", "text": "still here"}),
    )
    .await;
    // Di heard Cy's 300 lines first, then hers.
    for _ in 0..300 {
        let m = heard(&mut dis).await;
        assert_eq!(m["from"], "Cy", "{m}");
    }
    let m = heard(&mut dis).await;
    assert_eq!(
        (m["type"].as_str(), m["text"].as_str()),
        (Some("chat"), Some("still here")),
        "{m}"
    );
    server.stop().await;
}

/// A ban written while the banned account's bot is creating games through
/// two processes leaves none of them listed or playable, and while its
/// owner registers bots at once through both, never more than 5 are made
/// (each is checked in the write's own transaction, under a lock of the
/// account's row: before, 100 games slipped past the ban, and 8 bots past
/// the cap).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn writes_racing_a_ban_or_a_cap_never_slip_past_it() {
    let Some(db) = fresh_postgres("ban_races").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db.clone()).await;
    let ann = sign_up(&a, "Ann").await;
    // Twelve registrations at once, through both processes: five made.
    let tries = (0..12).map(|k| {
        let (server, ann) = (if k % 2 == 0 { &a } else { &b }, ann.clone());
        async move { own_bot(server, &ann, &format!("racebot{k}")).await }
    });
    let made: Vec<(u16, Value)> = futures_util::future::join_all(tries).await;
    let tokens: Vec<String> = made
        .iter()
        .filter(|(status, _)| *status == 201)
        .map(|(_, v)| v["token"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 5, "{made:?}");
    assert!(made
        .iter()
        .all(|(s, v)| *s == 201 || code(*s, v) == (409, "too_many")));
    // The bot makes listed games through both processes while Ann is banned.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let makers: Vec<_> = (0..4)
        .map(|k| {
            let (addr, token, stop) = (
                if k % 2 == 0 { a.addr } else { b.addr },
                tokens[0].clone(),
                stop.clone(),
            );
            tokio::spawn(async move {
                let mut ids = Vec::new();
                for _ in 0..2000 {
                    if stop.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    let (status, v) = crate::common::post_to(
                        addr,
                        "/api/games",
                        &token,
                        r#"{"listed": true, "size": "7x7"}"#,
                    )
                    .await;
                    if status == 201 {
                        ids.push(v["id"].as_str().unwrap().to_string());
                    }
                }
                ids
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    act(
        &db,
        "op",
        Action::Ban { name: "Ann".into() },
        a.clock.now_ms() as i64,
    )
    .await
    .unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let mut ids = Vec::new();
    for m in makers {
        ids.extend(m.await.unwrap());
    }
    assert!(!ids.is_empty(), "the bot made games before the ban");
    for s in [&a, &b] {
        let (_, list) = s.call("GET", "/api/games?limit=100", None, None).await;
        assert_eq!(list, json!([]), "no game of the banned bot stays listed");
    }
    // Nobody joins one of its games (its seat can never step), and none
    // takes a step from its token.
    let last = ids.last().unwrap();
    let (status, v) = b
        .call("POST", &format!("/api/games/{last}/join"), None, None)
        .await;
    assert_eq!(status, 409, "{v}");
    let (status, v) = a
        .call(
            "POST",
            &format!("/api/games/{last}/steps"),
            Some(&tokens[0]),
            Some(r#"{"steps": ["a1"]}"#),
        )
        .await;
    assert_eq!(code(status, &v), (403, "banned"), "{v}");
    a.stop().await;
    b.stop().await;
}

/// Ann challenges Bo while Bo challenges Ann, through two processes, and
/// both accept at once: every answer is a challenge made, a game made or a
/// clean refusal, never a deadlock's `503 storage` (each write locks both
/// players' rows in one order).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_challenging_each_other_at_once_never_deadlock() {
    let Some(db) = fresh_postgres("mutual_challenges").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db).await;
    let ann = sign_up(&a, "Ann").await;
    let bo = sign_up(&b, "Bo").await;
    let body = |to: &str| Some(json!({"to": to, "clock": {"days_per_turn": 3}, "size": "7x7"}));
    let sends = (0..10).map(|k| {
        let (server, cookie, to) = match k % 4 {
            0 => (&a, &ann, "Bo"),
            1 => (&b, &bo, "Ann"),
            2 => (&b, &ann, "Bo"),
            _ => (&a, &bo, "Ann"),
        };
        async move { call(server, "POST", "/api/challenges", cookie, body(to)).await }
    });
    let sent = futures_util::future::join_all(sends).await;
    for (status, v) in &sent {
        assert_eq!(*status, 201, "{v}");
    }
    let accepts = sent.iter().enumerate().flat_map(|(k, (_, v))| {
        let id = v["id"].as_str().unwrap().to_string();
        // Each challenge accepted twice, through both processes.
        let taker = if k % 4 == 0 || k % 4 == 2 { &bo } else { &ann };
        [&a, &b].map(|server| {
            let (id, taker) = (id.clone(), taker.clone());
            async move {
                call(
                    server,
                    "POST",
                    &format!("/api/challenges/{id}/accept"),
                    &taker,
                    None,
                )
                .await
            }
        })
    });
    let answers = futures_util::future::join_all(accepts).await;
    let made = answers.iter().filter(|(s, _)| *s == 201).count();
    for (status, v) in &answers {
        assert!(
            *status == 201 || code(*status, v) == (409, "not_open"),
            "{status} {v}"
        );
    }
    assert_eq!(made, 10, "each challenge made one game");
    a.stop().await;
    b.stop().await;
}
