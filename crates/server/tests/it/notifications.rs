//! Notifications and the user socket (docs/api.md, Notifications): what
//! raises none, the socket's bounds, and a notification heard on another
//! process.

use serde_json::json;

use crate::accounts::{sign_up, with_cookie, PASSWORD};
use crate::challenges::{call, play_turn};
use crate::common::{fresh_postgres, fresh_sqlite, next, two_servers, Server, Ws};

on_both_databases!(no_notification_from_a_game_at_the_board);
on_both_databases!(an_anonymous_opponent_is_null);
on_both_databases!(a_real_time_turn_is_told_only_to_a_player_away_from_its_board);

/// The user socket of the account whose session cookie is `cookie`.
pub async fn user_socket(server: &Server, cookie: &str, after: Option<i64>) -> Ws {
    let query = after.map_or(String::new(), |a| format!("?after={a}"));
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/me/live{query}",
            server.addr
        ))
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("cookie", format!("vw_session={cookie}").parse().unwrap());
    headers.insert("origin", format!("http://{}", server.addr).parse().unwrap());
    tokio_tungstenite::connect_async(request)
        .await
        .expect("the user socket opens")
        .0
}

/// A game against the computer, untimed, raises no `your_turn`: the player
/// is at the board, and the computer answers at once (before, every
/// computer turn of such a game lit the bell).
async fn no_notification_from_a_game_at_the_board(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    let (status, seat) = call(
        &server,
        "POST",
        "/api/games",
        &ann,
        Some(json!({"opponent": "level:1", "side": "o", "size": "5x5"})),
    )
    .await;
    assert_eq!(status, 201, "{seat}");
    let id = seat["id"].as_str().unwrap().to_string();
    crate::common::state_until(&server, &id, (20, 50), "the computer's first turn", |s| {
        s["to_move"] == "o"
    })
    .await;
    // A notification is stored with the turn that raises it: none is.
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    assert_eq!(notes["items"], json!([]), "{notes}");
}

/// An anonymous opponent who chose no name is `null` in a notification
/// (the bell says "a person"), never `""`; nothing else tells who it is.
async fn an_anonymous_opponent_is_null(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    let body = json!({"size": "5x5", "side": "x", "clock": {"days_per_turn": 3}}).to_string();
    let (status, made) = server.call("POST", "/api/games", None, Some(&body)).await;
    assert_eq!(status, 201, "{made}");
    let (id, token) = (
        made["id"].as_str().unwrap(),
        made["token"].as_str().unwrap(),
    );
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/games/{id}/join"),
        &ann,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let path = format!("/api/games/{id}");
    loop {
        let (_, s) = server.call("GET", &path, Some(token), None).await;
        if s["to_move"] != "x" {
            break;
        }
        let step = json!({"seq": s["seq"], "steps": [s["legal"][0]]}).to_string();
        let (status, v) = server
            .call("POST", &format!("{path}/steps"), Some(token), Some(&step))
            .await;
        assert_eq!(status, 200, "{v}");
    }
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    let turn = &notes["items"][0];
    assert_eq!(turn["kind"], "your_turn", "{notes}");
    assert_eq!(turn["opponent"], serde_json::Value::Null, "{turn}");
    let fields: Vec<&String> = turn.as_object().unwrap().keys().collect();
    assert_eq!(
        fields,
        ["at", "game", "id", "kind", "opponent", "read"],
        "{turn}"
    );
}

/// A real-time game tells a player of its turn, and of the end, only while
/// its page of the game is closed: at the board it needs no notification.
async fn a_real_time_turn_is_told_only_to_a_player_away_from_its_board(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let body = json!({"size": "5x5", "side": "x", "clock": {"base_s": 300, "inc_s": 5}});
    let (status, made) = call(&server, "POST", "/api/games", &ann, Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let (status, v) = call(&server, "POST", &format!("/api/games/{id}/join"), &bo, None).await;
    assert_eq!(status, 200, "{v}");
    let anns_page = crate::chat::game_socket(&server, &id, Some(&ann)).await;
    let bos_page = crate::chat::game_socket(&server, &id, Some(&bo)).await;
    let notes = |cookie: String| {
        let server = &server;
        async move {
            let (_, notes) = call(server, "GET", "/api/me/notifications", &cookie, None).await;
            let kinds: Vec<String> = notes["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n["kind"].as_str().unwrap().to_string())
                .collect();
            kinds
        }
    };
    // Both at the board: nobody is told.
    play_turn(&server, &id, &ann).await;
    play_turn(&server, &id, &bo).await;
    assert!(notes(bo.clone()).await.is_empty());
    assert!(notes(ann.clone()).await.is_empty());
    // Bo closes his page: Ann's next turn tells him; Ann, at the board,
    // is told nothing of his.
    drop(bos_page);
    let closed = std::time::Instant::now();
    loop {
        play_turn(&server, &id, &ann).await;
        if notes(bo.clone()).await == ["your_turn"] {
            break;
        }
        // His socket's end is seen a moment after it closes.
        assert!(
            closed.elapsed() < std::time::Duration::from_secs(5),
            "never told"
        );
        play_turn(&server, &id, &bo).await;
    }
    play_turn(&server, &id, &bo).await;
    assert!(notes(ann.clone()).await.is_empty());
    // Ann resigns: Bo, away, is told; Ann, at the board, is not.
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/games/{id}/resign"),
        &ann,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(notes(bo.clone()).await, ["game_over", "your_turn"]);
    assert!(notes(ann.clone()).await.is_empty());
    drop(anns_page);
}

/// 100 upgrades of one account at once open at most 20 user sockets: the
/// cap is counted and taken in one step, before the upgrade (it was
/// counted after: 21 or 22 opened, one run in three).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_sockets_at_once_never_pass_the_cap() {
    let server = Server::start(fresh_sqlite("user_sockets_at_once")).await;
    let ann = sign_up(&server, "Ann").await;
    let tries = (0..100).map(|_| {
        let (addr, ann) = (server.addr, ann.clone());
        tokio::spawn(async move {
            let mut request =
                tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(
                    format!("ws://{addr}/api/me/live"),
                )
                .unwrap();
            let headers = request.headers_mut();
            headers.insert("cookie", format!("vw_session={ann}").parse().unwrap());
            headers.insert("origin", format!("http://{addr}").parse().unwrap());
            tokio_tungstenite::connect_async(request)
                .await
                .ok()
                .map(|(ws, _)| ws)
        })
    });
    let mut open = Vec::new();
    for t in tries {
        if let Some(ws) = t.await.expect("the try ran") {
            open.push(ws);
        }
    }
    assert_eq!(open.len(), 20, "user sockets opened at once");
}

/// One account holds at most 20 user sockets on a process; a logout
/// closes its device's sockets at once, saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_sockets_are_bounded_and_close_at_logout() {
    let server = Server::start(fresh_sqlite("user_sockets_bounded")).await;
    let ann = sign_up(&server, "Ann").await;
    let mut held = Vec::new();
    for _ in 0..20 {
        let mut ws = user_socket(&server, &ann, None).await;
        assert_eq!(next(&mut ws).await["type"], "hello");
        held.push(ws);
    }
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/me/live",
            server.addr
        ))
        .unwrap();
    request
        .headers_mut()
        .insert("cookie", format!("vw_session={ann}").parse().unwrap());
    request
        .headers_mut()
        .insert("origin", format!("http://{}", server.addr).parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(answer)) => {
            assert_eq!(answer.status(), 409)
        }
        other => panic!("a 21st user socket: {:?}", other.map(|_| ())),
    }
    // Logged out: every socket of that session closes with 4401.
    let (status, _, _) = with_cookie(&server, "DELETE", "/api/session", Some(&ann), None).await;
    assert_eq!(status, 204);
    assert_eq!(closed_with(&mut held[0]).await, Some(4401));
    // A password changed in one session ends the others: their sockets
    // close at once (they used to wait for the next notification). So does
    // deleting the account, its own socket too.
    let bo = sign_up(&server, "Bo").await;
    let login = format!(r#"{{"name":"Bo","password":"{PASSWORD}"}}"#);
    let (_, phone, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    let mut phones = user_socket(&server, &phone.unwrap(), None).await;
    let mut own = user_socket(&server, &bo, None).await;
    let new = "another violet tram 77";
    let change = json!({"password": PASSWORD, "new_password": new}).to_string();
    let (status, _, v) =
        with_cookie(&server, "PUT", "/api/me/password", Some(&bo), Some(&change)).await;
    assert_eq!(status, 204, "{v}");
    assert_eq!(closed_with(&mut phones).await, Some(4401));
    // Bo challenged Ann before he goes: her notification names him by his
    // new name, not by the one a stranger may take next.
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        &bo,
        Some(json!({"to": "Ann"})),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let login = format!(r#"{{"name":"Ann","password":"{PASSWORD}"}}"#);
    let (_, ann, _) = with_cookie(&server, "POST", "/api/session", None, Some(&login)).await;
    let ann = ann.expect("Ann logs in again");
    let confirm = json!({ "password": new }).to_string();
    let (status, _, v) = with_cookie(&server, "DELETE", "/api/me", Some(&bo), Some(&confirm)).await;
    assert_eq!(status, 204, "{v}");
    assert_eq!(closed_with(&mut own).await, Some(4401));
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    let from = notes["items"][0]["from"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(from.starts_with("deleted-"), "{notes}");
    server.stop().await;
}

/// The code a socket is closed with within 5 s (0: ended without one).
async fn closed_with(ws: &mut Ws) -> Option<u16> {
    tokio::time::timeout(std::time::Duration::from_secs(5), async {
        use futures_util::StreamExt;
        while let Some(Ok(m)) = ws.next().await {
            if let tokio_tungstenite::tungstenite::Message::Close(Some(f)) = m {
                return u16::from(f.code);
            }
        }
        0
    })
    .await
    .ok()
}

/// Two processes on one PostgreSQL: a challenge made on one is heard on the
/// other's user socket at once, accepted there, and its answer heard back;
/// of two acceptances at once through the two, one makes the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_and_notifications_cross_processes() {
    let Some((a, b)) = two_servers("challenges_cross_processes").await else {
        return;
    };
    let ann = sign_up(&a, "Ann").await;
    let bo = sign_up(&b, "Bo").await;
    let mut anns_bell = user_socket(&a, &ann, None).await;
    let mut bos_bell = user_socket(&b, &bo, None).await;
    assert_eq!(next(&mut anns_bell).await["type"], "hello");
    assert_eq!(next(&mut bos_bell).await["type"], "hello");
    let (status, sent) = call(
        &a,
        "POST",
        "/api/challenges",
        &ann,
        Some(json!({"to": "Bo", "clock": {"days_per_turn": 1}})),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let challenge = sent["id"].as_str().unwrap();
    let note = next(&mut bos_bell).await;
    assert_eq!(
        (note["kind"].as_str(), note["challenge"].as_str()),
        (Some("challenge"), Some(challenge)),
        "{note}"
    );
    // Accepted through both processes at once: one game.
    let path = format!("/api/challenges/{challenge}/accept");
    let (one, two) = tokio::join!(
        call(&a, "POST", &path, &bo, None),
        call(&b, "POST", &path, &bo, None)
    );
    let mut statuses = [one.0, two.0];
    statuses.sort();
    assert_eq!(statuses, [201, 409], "{one:?} {two:?}");
    let game = if one.0 == 201 { &one.1 } else { &two.1 };
    let accepted = next(&mut anns_bell).await;
    assert_eq!(accepted["kind"], "challenge_accepted", "{accepted}");
    assert_eq!(accepted["game"], game["id"]);
    // A turn played through one process is Bo's notification on the other.
    let id = game["id"].as_str().unwrap();
    let mover = if game["seat"] == "x" { &bo } else { &ann };
    play_turn(&a, id, mover).await;
    let waiting = if game["seat"] == "x" {
        &mut anns_bell
    } else {
        &mut bos_bell
    };
    let mut turn = next(waiting).await;
    if turn["kind"] == "challenge_accepted" {
        turn = next(waiting).await;
    }
    assert_eq!(
        (turn["kind"].as_str(), turn["game"].as_str()),
        (Some("your_turn"), Some(id)),
        "{turn}"
    );
    a.stop().await;
    b.stop().await;
}
