//! Notifications and the user socket (docs/api.md, Notifications): what
//! raises none, the socket's bounds, and a notification heard on another
//! process.

use serde_json::json;

use crate::accounts::{sign_up, with_cookie};
use crate::challenges::{call, play_turn};
use crate::common::{fresh_postgres, fresh_sqlite, next, two_servers, Server, Ws};

on_both_databases!(no_notification_from_a_game_at_the_board);

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
    // A notification is raised on its own task after the turn is stored:
    // given the time it takes.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, notes) = call(&server, "GET", "/api/me/notifications", &ann, None).await;
    assert_eq!(notes["items"], json!([]), "{notes}");
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
    let ws = &mut held[0];
    let code = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        use futures_util::StreamExt;
        while let Some(Ok(m)) = ws.next().await {
            if let tokio_tungstenite::tungstenite::Message::Close(Some(f)) = m {
                return u16::from(f.code);
            }
        }
        0
    })
    .await;
    assert_eq!(code.ok(), Some(4401));
    server.stop().await;
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
