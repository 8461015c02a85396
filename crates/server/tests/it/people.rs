//! People finding each other (docs/api.md, People): following, the list of
//! those you follow, who is online (a request or an open socket within
//! five minutes), hiding it; on SQLite and PostgreSQL, and across two
//! processes.

use serde_json::{json, Value};
use virus_wars_server::Clock;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{code, fresh_postgres, fresh_sqlite, next, send, two_servers, Server};

on_both_databases!(
    following_and_who_is_online,
    an_open_page_keeps_a_player_online,
    the_games_of_players_you_follow
);

async fn get(server: &Server, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let (status, _, v) = with_cookie(server, "GET", path, cookie, None).await;
    (status, v)
}

async fn put(server: &Server, path: &str, cookie: Option<&str>) -> (u16, Value) {
    let (status, _, v) = with_cookie(server, "PUT", path, cookie, None).await;
    (status, v)
}

async fn following_and_who_is_online(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let cy = sign_up(&server, "Cy").await;
    // Following: by name in any case, again changes nothing.
    assert_eq!(
        put(&server, "/api/me/following/bo", Some(&ann)).await.0,
        204
    );
    assert_eq!(
        put(&server, "/api/me/following/BO", Some(&ann)).await.0,
        204
    );
    assert_eq!(
        put(&server, "/api/me/following/Cy", Some(&ann)).await.0,
        204
    );
    let (status, page) = get(&server, "/api/players/Bo", Some(&ann)).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["followers"], 1);
    assert_eq!(page["you_follow"], true);
    assert_eq!(page["online"], true, "Bo signed up just now");
    let (_, seen_by_cy) = get(&server, "/api/players/Bo", Some(&cy)).await;
    assert_eq!(seen_by_cy["you_follow"], false);
    let (_, anonymous) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(anonymous["you_follow"], Value::Null);
    let (_, himself) = get(&server, "/api/players/Bo", Some(&bo)).await;
    assert_eq!(
        himself["you_follow"],
        Value::Null,
        "nobody follows themself"
    );
    // The list, by name, a page at a time.
    let (status, list) = get(&server, "/api/me/following?limit=1", Some(&ann)).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["players"][0]["name"], "Bo");
    assert_eq!(list["players"][0]["online"], true);
    assert_eq!(list["players"][0]["playing"], Value::Null);
    assert_eq!(list["next"], "Bo");
    let (_, rest) = get(&server, "/api/me/following?limit=1&after=Bo", Some(&ann)).await;
    assert_eq!(rest["players"][0]["name"], "Cy");
    assert_eq!(rest["next"], Value::Null);
    // Who is online: all three, named.
    let (_, online) = get(&server, "/api/online", None).await;
    assert_eq!(online["count"], 3, "{online}");
    for name in ["Ann", "Bo", "Cy"] {
        assert!(online["names"].as_array().unwrap().contains(&json!(name)));
    }
    // Six minutes on, only those who made a request since are online.
    server.advance(6 * 60_000);
    let _ = get(&server, "/api/me", Some(&ann)).await;
    let (_, online) = get(&server, "/api/online", None).await;
    assert_eq!(online, json!({"count": 1, "names": ["Ann"]}));
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["online"], false);
    // Bo hides it: still counted, never shown.
    let (status, _, me) = with_cookie(
        &server,
        "PATCH",
        "/api/me",
        Some(&bo),
        Some(r#"{"hide_online": true}"#),
    )
    .await;
    assert_eq!((status, &me["hide_online"]), (200, &json!(true)), "{me}");
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["online"], false);
    let (_, online) = get(&server, "/api/online", None).await;
    assert_eq!(online, json!({"count": 2, "names": ["Ann"]}));
    let (_, list) = get(&server, "/api/me/following", Some(&ann)).await;
    assert_eq!(list["players"][0]["online"], false, "{list}");
    // Refusals, each with its code.
    let (status, v) = put(&server, "/api/me/following/ann", Some(&ann)).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("yourself"));
    let (status, v) = put(&server, "/api/me/following/Nobody", Some(&ann)).await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let (status, v) = put(&server, "/api/me/following/Bo", None).await;
    assert_eq!(code(status, &v), (401, "login_needed"), "{v}");
    let (status, v) = get(&server, "/api/me/following?limit=0", Some(&ann)).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    let (status, v) = get(&server, "/api/me/following?page=2", Some(&ann)).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    // Unfollowing, twice: nothing left.
    for _ in 0..2 {
        let (status, _, _) =
            with_cookie(&server, "DELETE", "/api/me/following/Bo", Some(&ann), None).await;
        assert_eq!(status, 204);
    }
    let (_, page) = get(&server, "/api/players/Bo", Some(&ann)).await;
    assert_eq!(
        (page["followers"].clone(), page["you_follow"].clone()),
        (json!(0), json!(false))
    );
    // A deleted account's follows go both ways: Cy followed Bo and was
    // followed by Ann.
    assert_eq!(put(&server, "/api/me/following/Bo", Some(&cy)).await.0, 204);
    let (status, _, _) = with_cookie(
        &server,
        "DELETE",
        "/api/me",
        Some(&cy),
        Some(&format!(
            r#"{{"password":"{}"}}"#,
            crate::accounts::PASSWORD
        )),
    )
    .await;
    assert_eq!(status, 204);
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["followers"], 0, "Cy's follow of Bo went with Cy");
    let (_, list) = get(&server, "/api/me/following", Some(&ann)).await;
    assert_eq!(list["players"], json!([]), "{list}");
    // A NUL in a name is no player (PostgreSQL refuses one in any text).
    let (status, v) = get(&server, "/api/players/a%00b", None).await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let (status, v) = put(&server, "/api/me/following/a%00b", Some(&ann)).await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let (status, v) = get(&server, "/api/me/following?after=a%00b", Some(&ann)).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    server.stop().await;
}

/// A socket the page holds open keeps its player online past five
/// minutes without a request: each message heard marks the account seen
/// (at most once a minute; a browser answers the server's pings).
async fn an_open_page_keeps_a_player_online(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let bo = sign_up(&server, "Bo").await;
    let (_, _, created) = with_cookie(&server, "POST", "/api/games", Some(&bo), Some("{}")).await;
    let id = created["id"].as_str().unwrap().to_string();
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
    let _ = next(&mut socket).await;
    server.advance(6 * 60_000);
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["online"], false, "no request for six minutes");
    send(&mut socket, json!({"type": "ping"})).await;
    let pong = next(&mut socket).await;
    assert_eq!(pong["type"], "pong", "{pong}");
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["online"], true, "its page is open");
    // Logged out, the page still open shows it online no more.
    let (status, _, _) = with_cookie(&server, "DELETE", "/api/session", Some(&bo), None).await;
    assert_eq!(status, 204);
    server.advance(6 * 60_000);
    send(&mut socket, json!({"type": "ping"})).await;
    let pong = next(&mut socket).await;
    assert_eq!(pong["type"], "pong", "{pong}");
    let (_, page) = get(&server, "/api/players/Bo", None).await;
    assert_eq!(page["online"], false, "logged out");
    server.stop().await;
}

/// Two processes on one database agree: a follow made through one shows on
/// the other, and so does who is online.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_agree_on_follows_and_who_is_online() {
    let Some((a, b)) = two_servers("two_processes_agree_on_follows").await else {
        return;
    };
    let ann = sign_up(&a, "Ann").await;
    let _bo = sign_up(&b, "Bo").await;
    assert_eq!(put(&a, "/api/me/following/Bo", Some(&ann)).await.0, 204);
    let (_, page) = get(&b, "/api/players/Bo", Some(&ann)).await;
    assert_eq!(
        (page["followers"].clone(), page["you_follow"].clone()),
        (json!(1), json!(true))
    );
    let (_, online) = get(&b, "/api/online", None).await;
    assert_eq!(online["count"], 2, "{online}");
    a.stop().await;
    b.stop().await;
}

/// The cap on follows holds when many follows come at once through two
/// processes on PostgreSQL: before, each insert counted the rows before
/// the others were committed, and 16 at once from 999 left 1,001 or more.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_cap_on_follows_holds_across_two_processes() {
    let Some(db) = fresh_postgres("the_cap_on_follows_holds").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db.clone()).await;
    let ann = sign_up(&a, "Ann").await;
    // 999 followed already and 16 more to follow, written straight in.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db).await.unwrap();
    let (me,): (String,) = sqlx::query_as("SELECT id FROM accounts WHERE name_key = 'ann'")
        .fetch_one(&pool)
        .await
        .unwrap();
    for k in 0..(999 + 16) {
        let id = format!("p{k}");
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, kind, created_ms, skeleton) \
             VALUES ($1, $2, $3, '', 'person', 0, $4)",
        )
        .bind(&id)
        .bind(format!("P{k}"))
        .bind(format!("p{k}"))
        .bind(format!("skeleton-{k}"))
        .execute(&pool)
        .await
        .unwrap();
        if k < 999 {
            sqlx::query("INSERT INTO follows (follower, followed, created_ms) VALUES ($1, $2, 0)")
                .bind(&me)
                .bind(&id)
                .execute(&pool)
                .await
                .unwrap();
        }
    }
    sqlx::query("UPDATE accounts SET following = 999 WHERE id = $1")
        .bind(&me)
        .execute(&pool)
        .await
        .unwrap();
    let puts = (999..999 + 16).map(|k| {
        let (server, ann) = (if k % 2 == 0 { &a } else { &b }, ann.clone());
        async move { put(server, &format!("/api/me/following/P{k}"), Some(&ann)).await }
    });
    let answers = futures_util::future::join_all(puts).await;
    let taken = answers.iter().filter(|(s, _)| *s == 204).count();
    let refused = answers
        .iter()
        .filter(|(s, v)| code(*s, v) == (409, "too_many"))
        .count();
    assert_eq!((taken, refused), (1, 15), "{answers:?}");
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM follows WHERE follower = $1")
        .bind(&me)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 1000);
    pool.close().await;
    a.stop().await;
    b.stop().await;
}

/// Games in progress of those you follow that anyone may watch: a game
/// between two of them once; an unlisted game still waiting for its
/// invited player never.
async fn the_games_of_players_you_follow(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let cy = sign_up(&server, "Cy").await;
    for name in ["Bo", "Cy"] {
        let path = format!("/api/me/following/{name}");
        assert_eq!(put(&server, &path, Some(&ann)).await.0, 204);
    }
    let create = |body: &'static str| {
        let (server, bo) = (&server, bo.clone());
        async move {
            let (status, _, v) =
                with_cookie(server, "POST", "/api/games", Some(&bo), Some(body)).await;
            assert_eq!(status, 201, "{v}");
            v["id"].as_str().unwrap().to_string()
        }
    };
    let together = create(r#"{"size": "5x5", "side": "x"}"#).await;
    let path = format!("/api/games/{together}/join");
    let (status, _, v) = with_cookie(&server, "POST", &path, Some(&cy), None).await;
    assert_eq!(status, 200, "{v}");
    let _invited = create(r#"{"size": "5x5", "side": "x"}"#).await;
    let (status, games) = get(&server, "/api/me/followed-games", Some(&ann)).await;
    assert_eq!(status, 200, "{games}");
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [together.as_str()], "once, and not the invitation");
    assert_eq!(games[0]["players"]["x"]["name"], "Bo", "{games}");
    let listed = create(r#"{"size": "5x5", "side": "x", "listed": true}"#).await;
    let (_, games) = get(&server, "/api/me/followed-games", Some(&ann)).await;
    assert_eq!(games.as_array().unwrap().len(), 2, "{games}");
    assert_eq!(
        games[0]["id"],
        listed.as_str(),
        "the most recently active first"
    );
    let (status, v) = get(&server, "/api/me/followed-games", None).await;
    assert_eq!(code(status, &v), (401, "login_needed"));
    server.stop().await;
}
