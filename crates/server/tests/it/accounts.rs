//! Accounts: signing up, logging in and out, sessions, passwords, deleting,
//! the limits on guessing, and requests from other sites; on SQLite and
//! PostgreSQL.

use serde_json::Value;

use crate::common::{code, fresh_postgres, fresh_sqlite, Server};

on_both_databases!(
    sign_up_log_in_log_out_and_sessions,
    passwords_change_and_accounts_delete,
    guessing_passwords_is_limited_per_name_and_address,
    guesses_sent_at_once_are_counted_one_by_one,
    sign_ups_are_limited_per_address,
    requests_from_other_sites_are_refused
);

pub const PASSWORD: &str = "violet tram under paper";

/// A request with a session cookie (or none); the status, the
/// `Set-Cookie` header's session token if any, and the JSON answer.
pub async fn with_cookie(
    server: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> (u16, Option<String>, Value) {
    let header = cookie.map(|c| format!("vw_session={c}"));
    let mut headers: Vec<(&str, &str)> = Vec::new();
    if let Some(h) = &header {
        headers.push(("cookie", h));
        headers.push(("origin", "http://test"));
    }
    let (status, answer, text) = server
        .exchange(method, path, &headers, body.map(str::as_bytes))
        .await;
    let set = answer
        .iter()
        .find(|(k, _)| k == "set-cookie")
        .map(|(_, v)| v.clone());
    if let Some(v) = &set {
        assert!(
            v.contains("HttpOnly") && v.contains("SameSite=Lax") && v.contains("Path=/"),
            "{v}"
        );
    }
    let token = set.and_then(|v| {
        let value = v
            .split(';')
            .next()?
            .strip_prefix("vw_session=")?
            .to_string();
        Some(value)
    });
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, token, value)
}

/// Signs `name` up; its session token.
pub async fn sign_up(server: &Server, name: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
    let (status, cookie, me) =
        with_cookie(server, "POST", "/api/accounts", None, Some(&body)).await;
    assert_eq!(status, 201, "{me}");
    assert_eq!(me["name"], name);
    cookie.expect("a session cookie")
}

async fn sign_up_log_in_log_out_and_sessions(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann_Lee").await;
    let (status, _, me) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(
        (status, me["name"].as_str()),
        (200, Some("Ann_Lee")),
        "{me}"
    );
    assert_eq!(me["ratings"], serde_json::json!({}));
    let (status, _, v) = with_cookie(&server, "GET", "/api/me", None, None).await;
    assert_eq!(code(status, &v), (401, "login_needed"));
    let (status, _, v) = with_cookie(&server, "GET", "/api/me", Some("forged"), None).await;
    assert_eq!(code(status, &v), (401, "login_needed"));
    // Names are unique whatever their case; bad ones and weak passwords
    // say what is wrong.
    for (body, expected, says) in [
        (
            r#"{"name":"ann_lee","password":"violet tram under paper"}"#,
            (409, "name_taken"),
            "taken",
        ),
        (
            r#"{"name":"Bo","password":"password1"}"#,
            (400, "weak_password"),
            "easy to guess",
        ),
        (
            r#"{"name":"Bo","password":"short"}"#,
            (400, "weak_password"),
            "at least 8",
        ),
        (
            r#"{"name":"B","password":"violet tram under paper"}"#,
            (400, "malformed"),
            "2 to 20",
        ),
        (
            r#"{"name":"Bo Li","password":"violet tram under paper"}"#,
            (400, "malformed"),
            "character 3",
        ),
        (r#"{"name":"Bo"}"#, (400, "malformed"), "password"),
    ] {
        let (status, _, v) = with_cookie(&server, "POST", "/api/accounts", None, Some(body)).await;
        assert_eq!(code(status, &v), expected, "{body}: {v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{body}: {v}"
        );
    }
    // Log in on a second device: its own session.
    let login = format!(r#"{{"name":"ANN_LEE","password":"{PASSWORD}"}}"#);
    let (status, phone, me) =
        with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    assert_eq!(
        (status, me["name"].as_str()),
        (200, Some("Ann_Lee")),
        "shown as typed at sign-up"
    );
    let phone = phone.unwrap();
    assert_ne!(phone, ann);
    let wrong = r#"{"name":"Ann_Lee","password":"violet tram under papers"}"#;
    let (status, _, v) = with_cookie(&server, "POST", "/api/session", None, Some(wrong)).await;
    assert_eq!(code(status, &v), (401, "wrong_login"));
    let nobody = r#"{"name":"nobody","password":"violet tram under paper"}"#;
    let (status, _, v2) = with_cookie(&server, "POST", "/api/session", None, Some(nobody)).await;
    assert_eq!(code(status, &v2), (401, "wrong_login"));
    assert_eq!(
        v, v2,
        "an unknown name and a wrong password get the same answer"
    );
    // Log out here: that session ends, the other goes on.
    let (status, cleared, _) =
        with_cookie(&server, "DELETE", "/api/session", Some(&phone), None).await;
    assert_eq!((status, cleared.as_deref()), (204, Some("")));
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&phone), None).await;
    assert_eq!(status, 401);
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(status, 200);
    // Sessions survive a restart of the server.
    let server = server.restart().await;
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(status, 200, "the session outlives the process");
    // Log out everywhere.
    let (_, second, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    let (status, _, _) = with_cookie(&server, "DELETE", "/api/sessions", Some(&ann), None).await;
    assert_eq!(status, 204);
    for s in [&ann, second.as_ref().unwrap()] {
        let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(s), None).await;
        assert_eq!(status, 401);
    }
    server.stop().await;
}

async fn passwords_change_and_accounts_delete(db: String) {
    let server = Server::start(db).await;
    let here = sign_up(&server, "cy").await;
    let login = format!(r#"{{"name":"cy","password":"{PASSWORD}"}}"#);
    let (_, there, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    let change = r#"{"password":"violet tram under paper","new_password":"amber kite over river"}"#;
    let (status, _, v) = with_cookie(
        &server,
        "PUT",
        "/api/me/password",
        Some(&here),
        Some(change),
    )
    .await;
    assert_eq!(status, 204, "{v}");
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&there.unwrap()), None).await;
    assert_eq!(status, 401, "other sessions end with a new password");
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&here), None).await;
    assert_eq!(status, 200, "this one stays");
    let (status, _, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    assert_eq!(status, 401, "the old password no longer logs in");
    let weak = r#"{"password":"amber kite over river","new_password":"12345678"}"#;
    let (status, _, v) =
        with_cookie(&server, "PUT", "/api/me/password", Some(&here), Some(weak)).await;
    assert_eq!(code(status, &v), (400, "weak_password"));
    // A game in play, held in memory, to see the name change.
    let (_, _, game) = with_cookie(
        &server,
        "POST",
        "/api/games",
        Some(&here),
        Some(r#"{"size":"5x5","side":"x"}"#),
    )
    .await;
    let game = game["id"].as_str().unwrap().to_string();
    // Deleting needs the password; then the name is free again.
    let (status, _, v) = with_cookie(
        &server,
        "DELETE",
        "/api/me",
        Some(&here),
        Some(r#"{"password":"nope nope nope"}"#),
    )
    .await;
    assert_eq!(code(status, &v), (401, "wrong_login"));
    let (status, _, _) = with_cookie(
        &server,
        "DELETE",
        "/api/me",
        Some(&here),
        Some(r#"{"password":"amber kite over river"}"#),
    )
    .await;
    assert_eq!(status, 204);
    let (status, _, _) = with_cookie(&server, "GET", "/api/me", Some(&here), None).await;
    assert_eq!(status, 401);
    let (_, s) = server
        .call("GET", &format!("/api/games/{game}"), None, None)
        .await;
    let shown = s["players"]["x"]["name"].as_str().unwrap().to_string();
    assert!(
        shown.starts_with("deleted-"),
        "the game goes by the new name at once: {s}"
    );
    let again = sign_up(&server, "cy").await;
    assert!(!again.is_empty());
    let (_, page) = server
        .call("GET", &format!("/api/players/{shown}"), None, None)
        .await;
    assert_eq!(page["deleted"], true, "{page}");
    server.stop().await;
}

async fn guessing_passwords_is_limited_per_name_and_address(db: String) {
    // The limits on guessing stay on with every rate limit off.
    let server = Server::start_with(db, |c| {
        c.rate_limits = virus_wars_server::RateLimits::UNLIMITED;
    })
    .await;
    sign_up(&server, "dee").await;
    let wrong = r#"{"name":"dee","password":"wrong wrong wrong"}"#;
    for k in 0..10 {
        let (status, _, v) = with_cookie(&server, "POST", "/api/session", None, Some(wrong)).await;
        assert_eq!(code(status, &v), (401, "wrong_login"), "failure {}", k + 1);
    }
    // The eleventh try waits, right password or wrong, with Retry-After.
    let right = format!(r#"{{"name":"dee","password":"{PASSWORD}"}}"#);
    let (status, headers, text) = server
        .exchange("POST", "/api/session", &[], Some(right.as_bytes()))
        .await;
    assert_eq!(status, 429, "{text}");
    let wait: u64 = headers
        .iter()
        .find(|(k, _)| k == "retry-after")
        .map(|(_, v)| v.parse().unwrap())
        .expect("Retry-After");
    assert!((1..=30).contains(&wait), "{wait}");
    // Other names from this address go on, until the address has failed
    // 30 times over all names.
    for k in 0..20 {
        let body = format!(r#"{{"name":"nobody{k}","password":"wrong wrong wrong"}}"#);
        let (status, _, v) = with_cookie(&server, "POST", "/api/session", None, Some(&body)).await;
        assert_eq!(code(status, &v), (401, "wrong_login"), "name {k}");
    }
    let body = r#"{"name":"someone-else","password":"wrong wrong wrong"}"#;
    let (status, _, v) = with_cookie(&server, "POST", "/api/session", None, Some(body)).await;
    assert_eq!(code(status, &v), (429, "rate_limited"), "{v}");
    server.stop().await;
}

async fn guesses_sent_at_once_are_counted_one_by_one(db: String) {
    let server = Server::start(db).await;
    sign_up(&server, "ivan").await;
    // 40 guesses at once, the right password among them: at most the 10
    // free tries and one more are checked; the rest wait, unchecked.
    let tries = (0..40).map(|k| {
        let password = if k == 39 {
            PASSWORD.to_string()
        } else {
            format!("wrong guess {k}")
        };
        let body = format!(r#"{{"name":"ivan","password":"{password}"}}"#);
        let server = &server;
        async move {
            with_cookie(server, "POST", "/api/session", None, Some(&body))
                .await
                .0
        }
    });
    let statuses = futures_util::future::join_all(tries).await;
    let checked = statuses.iter().filter(|s| **s != 429).count();
    assert!(checked <= 11, "{checked} tries checked: {statuses:?}");
    assert!(
        statuses.iter().all(|s| [200, 401, 429].contains(s)),
        "{statuses:?}"
    );
    server.stop().await;
}

async fn sign_ups_are_limited_per_address(db: String) {
    let server = Server::start_with(db, |c| c.rate_limits.signups_per_hour = 3).await;
    for name in ["fam1", "fam2", "fam3"] {
        sign_up(&server, name).await;
    }
    let body = format!(r#"{{"name":"fam4","password":"{PASSWORD}"}}"#);
    let (status, headers, text) = server
        .exchange("POST", "/api/accounts", &[], Some(body.as_bytes()))
        .await;
    assert_eq!(status, 429, "{text}");
    assert!(
        text.contains("3 accounts and bots were registered from your address this hour"),
        "{text}"
    );
    let wait: u64 = headers
        .iter()
        .find(|(k, _)| k == "retry-after")
        .unwrap()
        .1
        .parse()
        .unwrap();
    assert!((3000..=3600).contains(&wait), "{wait}");
    server.stop().await;
}

async fn requests_from_other_sites_are_refused(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "eve_is_not_here").await;
    let cookie = format!("vw_session={ann}");
    let game = r#"{"size":"5x5"}"#;
    // Another site's page: refused, by Origin or, lacking it, by Referer.
    for from in [
        ("origin", "https://evil.example"),
        ("referer", "https://evil.example/page"),
    ] {
        let (status, _, text) = server
            .exchange(
                "POST",
                "/api/games",
                &[("cookie", &cookie), from],
                Some(game.as_bytes()),
            )
            .await;
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(code(status, &v), (403, "cross_origin"), "{from:?}");
        let (status, _, _) = server
            .exchange(
                "DELETE",
                "/api/sessions",
                &[("cookie", &cookie), from],
                None,
            )
            .await;
        assert_eq!(status, 403);
    }
    // The server's own pages, and reading, go on.
    let (status, _, _) = server
        .exchange(
            "POST",
            "/api/games",
            &[("cookie", &cookie), ("origin", "http://test")],
            Some(game.as_bytes()),
        )
        .await;
    assert_eq!(status, 201);
    let (status, _, _) = server
        .exchange(
            "GET",
            "/api/me",
            &[("cookie", &cookie), ("origin", "https://evil.example")],
            None,
        )
        .await;
    assert_eq!(status, 200);
    // A seat token as Bearer goes on, from anywhere (without the cookie).
    let (status, _, text) = server
        .exchange("POST", "/api/games", &[], Some(game.as_bytes()))
        .await;
    assert_eq!(status, 201);
    let seat: Value = serde_json::from_str(&text).unwrap();
    let bearer = format!("Bearer {}", seat["token"].as_str().unwrap());
    let id = seat["id"].as_str().unwrap();
    let (status, _, text) = server
        .exchange(
            "POST",
            &format!("/api/games/{id}/abort"),
            &[
                ("cookie", &cookie),
                ("origin", "https://evil.example"),
                ("authorization", &bearer),
            ],
            None,
        )
        .await;
    assert_eq!(status, 200, "{text}");
    server.stop().await;
}
