//! Chat in games, reports and operators' actions (docs/api.md, Chat,
//! Moderation): on SQLite and PostgreSQL, and across two processes.

use serde_json::{json, Value};
use virus_wars_server::admin::{act, Action};
use virus_wars_server::Clock;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{code, fresh_postgres, fresh_sqlite, next, send, two_servers, Server, Ws};
use crate::notifications::user_socket;

on_both_databases!(chat_rooms_their_readers_and_bounds, reports_mutes_and_bans);

async fn call(
    server: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string());
    let (status, _, v) = with_cookie(server, method, path, cookie, body.as_deref()).await;
    (status, v)
}

/// A correspondence game between two accounts, made by a challenge; its id.
pub async fn game_between(server: &Server, x: &str, o: &str, o_name: &str) -> String {
    let (status, sent) = call(
        server,
        "POST",
        "/api/challenges",
        Some(x),
        Some(json!({"to": o_name, "side": "x", "clock": {"days_per_turn": 2}, "size": "7x7"})),
    )
    .await;
    assert_eq!(status, 201, "{sent}");
    let path = format!("/api/challenges/{}/accept", sent["id"].as_str().unwrap());
    let (status, seat) = call(server, "POST", &path, Some(o), None).await;
    assert_eq!(status, 201, "{seat}");
    seat["id"].as_str().unwrap().to_string()
}

/// The game's socket, as the browser of `cookie` (or nobody's) opens it;
/// its first state read.
pub(crate) async fn game_socket(server: &Server, id: &str, cookie: Option<&str>) -> Ws {
    let mut request =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{}/api/games/{id}/live",
            server.addr
        ))
        .unwrap();
    let headers = request.headers_mut();
    if let Some(c) = cookie {
        headers.insert("cookie", format!("vw_session={c}").parse().unwrap());
        headers.insert("origin", format!("http://{}", server.addr).parse().unwrap());
    }
    let mut ws = tokio_tungstenite::connect_async(request)
        .await
        .expect("the socket opens")
        .0;
    assert_eq!(next(&mut ws).await["type"], "state");
    ws
}

async fn say(ws: &mut Ws, room: &str, text: &str) {
    send(ws, json!({"type": "chat", "room": room, "text": text})).await;
}

/// The next message that is not a state.
async fn heard(ws: &mut Ws) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] != "state" {
            return m;
        }
    }
}

async fn chat_rooms_their_readers_and_bounds(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let cy = sign_up(&server, "Cy").await;
    let dee = sign_up(&server, "Dee").await;
    let id = game_between(&server, &ann, &bo, "Bo").await;
    let mut anns = game_socket(&server, &id, Some(&ann)).await;
    let mut bos = game_socket(&server, &id, Some(&bo)).await;
    let mut cys = game_socket(&server, &id, Some(&cy)).await;
    let mut dees = game_socket(&server, &id, Some(&dee)).await;
    let mut anonymous = game_socket(&server, &id, None).await;
    let mut bos_bell = user_socket(&server, &bo, None).await;
    let _ = next(&mut bos_bell).await;
    // The players' room: the two seats hear it, nobody else.
    say(&mut anns, "players", "good luck").await;
    let line = heard(&mut bos).await;
    assert_eq!(line["type"], "chat", "{line}");
    assert_eq!(
        (
            line["room"].as_str(),
            line["from"].as_str(),
            line["text"].as_str()
        ),
        (Some("players"), Some("Ann"), Some("good luck"))
    );
    assert!(line["at"].is_i64());
    assert_eq!(
        line.as_object().unwrap().len(),
        5,
        "who, what, where and when only: {line}"
    );
    assert_eq!(
        heard(&mut anns).await["text"],
        "good luck",
        "the speaker hears it too"
    );
    // Bo is told in the correspondence game, once until read.
    let note = next(&mut bos_bell).await;
    assert_eq!(
        (
            note["kind"].as_str(),
            note["from"].as_str(),
            note["text"].as_str()
        ),
        (Some("message"), Some("Ann"), Some("good luck")),
        "{note}"
    );
    // The watchers' room: watchers hear it, the players do not.
    say(&mut cys, "watchers", "nice opening").await;
    for ws in [&mut cys, &mut dees, &mut anonymous] {
        let line = heard(ws).await;
        assert_eq!(
            (line["room"].as_str(), line["text"].as_str()),
            (Some("watchers"), Some("nice opening")),
            "{line}"
        );
    }
    // Refusals, each with its code; the socket stays open.
    for (who, room, text, expected) in [
        (0, "watchers", "hi", "not_your_room"),
        (1, "players", "hi", "not_your_room"),
        (2, "watchers", "hi", "login_needed"),
        (1, "lobby", "hi", "malformed"),
        (1, "watchers", "", "malformed"),
        (1, "watchers", "two\nlines", "malformed"),
    ] {
        let ws = match who {
            0 => &mut anns,
            1 => &mut cys,
            _ => &mut anonymous,
        };
        say(ws, room, text).await;
        let refused = heard(ws).await;
        assert_eq!(
            refused["error"]["code"], expected,
            "{room} {text:?}: {refused}"
        );
    }
    say(&mut cys, "watchers", &"x".repeat(141)).await;
    assert_eq!(heard(&mut cys).await["error"]["code"], "malformed");
    say(&mut cys, "watchers", &"é".repeat(140)).await;
    assert_eq!(
        heard(&mut cys).await["text"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        140,
        "140 characters, not bytes"
    );
    // Dee blocks Cy: she no longer hears him, nor reads his lines.
    assert_eq!(
        call(&server, "PUT", "/api/me/blocks/Cy", Some(&dee), None)
            .await
            .0,
        204
    );
    let mut dees = game_socket(&server, &id, Some(&dee)).await;
    say(&mut cys, "watchers", "still here").await;
    let _ = heard(&mut cys).await;
    // Dee hears the next line of someone else, not Cy's.
    let eve = sign_up(&server, "Eve").await;
    let mut eves = game_socket(&server, &id, Some(&eve)).await;
    say(&mut eves, "watchers", "hello from Eve").await;
    assert_eq!(heard(&mut dees).await["text"], "hello from Eve");
    assert_eq!(heard(&mut eves).await["text"], "hello from Eve");
    // The rate: 5 at once, then one every 2 s.
    let mut refused = None;
    for n in 0..8 {
        say(&mut eves, "watchers", &format!("line {n}")).await;
        let m = heard(&mut eves).await;
        if m["type"] == "error" {
            refused = Some((n, m["error"]["code"].as_str().unwrap().to_string()));
            break;
        }
    }
    let (n, why) = refused.expect("a burst of lines is refused");
    assert_eq!(why, "rate_limited");
    assert!(
        (4..=5).contains(&n),
        "the burst is 5 lines: refused after {n} more"
    );
    // Two seconds on, one more line passes.
    server.advance(2_000);
    say(&mut eves, "watchers", "after a pause").await;
    assert_eq!(heard(&mut eves).await["text"], "after a pause");
    // The history: the players' room to the seats, the watchers' to the rest.
    let players = format!("/api/games/{id}/chat?room=players");
    let watchers = format!("/api/games/{id}/chat?room=watchers");
    let (status, lines) = call(&server, "GET", &players, Some(&bo), None).await;
    assert_eq!(
        (status, lines[0]["text"].as_str()),
        (200, Some("good luck")),
        "{lines}"
    );
    let (status, v) = call(&server, "GET", &players, Some(&cy), None).await;
    assert_eq!(code(status, &v), (403, "not_your_room"), "{v}");
    let (status, v) = call(&server, "GET", &players, None, None).await;
    assert_eq!(code(status, &v), (403, "not_your_room"), "{v}");
    let (status, v) = call(&server, "GET", &watchers, Some(&ann), None).await;
    assert_eq!(
        code(status, &v),
        (403, "not_your_room"),
        "a player during the game: {v}"
    );
    let (status, lines) = call(&server, "GET", &watchers, None, None).await;
    assert_eq!(status, 200);
    assert!(
        lines.as_array().unwrap().iter().any(|l| l["from"] == "Cy"),
        "{lines}"
    );
    let (_, lines) = call(&server, "GET", &watchers, Some(&dee), None).await;
    assert!(
        !lines.as_array().unwrap().iter().any(|l| l["from"] == "Cy"),
        "Dee blocks Cy: {lines}"
    );
    let (status, v) = call(
        &server,
        "GET",
        &format!("/api/games/{id}/chat?room=lobby"),
        None,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    // Bo blocks Ann: her lines reach him by no notification either.
    let (_, notes) = call(&server, "GET", "/api/me/notifications", Some(&bo), None).await;
    let newest = notes["items"][0]["id"].clone();
    call(
        &server,
        "POST",
        "/api/me/notifications/read",
        Some(&bo),
        Some(json!({"up_to": newest})),
    )
    .await;
    assert_eq!(
        call(&server, "PUT", "/api/me/blocks/Ann", Some(&bo), None)
            .await
            .0,
        204
    );
    say(&mut anns, "players", "can you read me?").await;
    assert_eq!(heard(&mut anns).await["text"], "can you read me?");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, notes) = call(&server, "GET", "/api/me/notifications", Some(&bo), None).await;
    assert_eq!(notes["unread"], 0, "{notes}");
    // After the game, the players read the watchers' room too.
    assert_eq!(
        call(
            &server,
            "POST",
            &format!("/api/games/{id}/resign"),
            Some(&ann),
            Some(json!({}))
        )
        .await
        .0,
        200
    );
    let (status, _) = call(&server, "GET", &watchers, Some(&ann), None).await;
    assert_eq!(status, 200);
    server.stop().await;
}

async fn reports_mutes_and_bans(db: String) {
    let url = db.clone();
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let id = game_between(&server, &ann, &bo, "Bo").await;
    let mut anns = game_socket(&server, &id, Some(&ann)).await;
    say(&mut anns, "players", "you will lose, noob").await;
    let _ = heard(&mut anns).await;
    // Bo reports Ann; bad reports say what is wrong.
    for (body, expected) in [
        (
            json!({"player": "Ann", "reason": "rude"}),
            (400, "malformed"),
        ),
        (
            json!({"player": "Bo", "reason": "abuse"}),
            (400, "malformed"),
        ),
        (
            json!({"player": "Nobody", "reason": "abuse"}),
            (404, "not_found"),
        ),
        (
            json!({"player": "Ann", "reason": "abuse", "game": "nosuchgame"}),
            (404, "not_found"),
        ),
        (
            json!({"player": "Ann", "reason": "abuse", "extra": 1}),
            (400, "malformed"),
        ),
    ] {
        let (status, v) = call(
            &server,
            "POST",
            "/api/reports",
            Some(&bo),
            Some(body.clone()),
        )
        .await;
        assert_eq!(code(status, &v), expected, "{body}: {v}");
    }
    let (status, _) = call(
        &server,
        "POST",
        "/api/reports",
        None,
        Some(json!({"player": "Ann", "reason": "abuse"})),
    )
    .await;
    assert_eq!(status, 401);
    let (status, v) = call(
        &server,
        "POST",
        "/api/reports",
        Some(&bo),
        Some(
            json!({"player": "ann", "reason": "abuse", "game": id, "text": "insults in the chat"}),
        ),
    )
    .await;
    assert_eq!(status, 204, "{v}");
    // The operator reads it with the line it points at, while the server runs.
    let reports = act(&url, "op1", Action::Reports { older_than: None }, 0)
        .await
        .unwrap();
    assert!(reports.contains("Bo reports Ann for abuse"), "{reports}");
    assert!(reports.contains("you will lose, noob"), "{reports}");
    assert!(reports.contains("insults in the chat"), "{reports}");
    // Muted: Ann's next line is refused at once, on the open socket.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let done = act(
        &url,
        "op1",
        Action::Mute {
            name: "ANN".into(),
            days: 2.0,
        },
        now,
    )
    .await
    .unwrap();
    assert!(done.contains("Ann is muted"), "{done}");
    say(&mut anns, "players", "hello?").await;
    let refused = heard(&mut anns).await;
    assert_eq!(refused["error"]["code"], "muted", "{refused}");
    let days = Action::Mute {
        name: "Ann".into(),
        days: 0.0,
    };
    let why = act(&url, "op1", days, now).await.unwrap_err().to_string();
    assert!(why.contains("--days"), "{why}");
    let nobody = Action::Ban {
        name: "Nobody".into(),
    };
    let why = act(&url, "op1", nobody, now).await.unwrap_err().to_string();
    assert!(why.contains("no player named 'Nobody'"), "{why}");
    // Before the ban: Ann sits in a game by its seat token, and has a
    // challenge open to Cy.
    let cy = sign_up(&server, "Cy").await;
    let (_, sent) = call(
        &server,
        "POST",
        "/api/challenges",
        Some(&bo),
        Some(json!({"to": "Ann", "side": "x"})),
    )
    .await;
    let (_, anns_seat) = call(
        &server,
        "POST",
        &format!("/api/challenges/{}/accept", sent["id"].as_str().unwrap()),
        Some(&ann),
        None,
    )
    .await;
    let (second, anns_token) = (
        anns_seat["id"].as_str().unwrap().to_string(),
        anns_seat["token"].as_str().unwrap().to_string(),
    );
    // Bo (X) plays his turn: it is Ann's.
    let mut state = call(
        &server,
        "GET",
        &format!("/api/games/{second}"),
        Some(&bo),
        None,
    )
    .await
    .1;
    while state["to_move"] == "x" {
        let body = json!({"seq": state["seq"], "steps": [state["legal"][0]]});
        state = call(
            &server,
            "POST",
            &format!("/api/games/{second}/steps"),
            Some(&bo),
            Some(body),
        )
        .await
        .1;
    }
    let her_step = json!({"seq": state["seq"], "steps": [state["legal"][0]]}).to_string();
    let step = |token: String| {
        let (server, second, body) = (&server, second.clone(), her_step.clone());
        async move {
            server
                .call(
                    "POST",
                    &format!("/api/games/{second}/steps"),
                    Some(&token),
                    Some(&body),
                )
                .await
        }
    };
    assert_eq!(
        call(
            &server,
            "POST",
            "/api/challenges",
            Some(&ann),
            Some(json!({"to": "Cy"}))
        )
        .await
        .0,
        201
    );
    // Banned: every session ends at once, logging in is refused.
    let mut bell = user_socket(&server, &ann, None).await;
    let _ = next(&mut bell).await;
    act(&url, "op2", Action::Ban { name: "Ann".into() }, now + 1)
        .await
        .unwrap();
    let (status, v) = call(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(code(status, &v), (401, "login_needed"), "{v}");
    // On PostgreSQL her page's user socket closes at once, saying why
    // (4401): the ban is announced to every process.
    if url.starts_with("postgres") {
        let closed = tokio::time::timeout(std::time::Duration::from_secs(5), async {
            use futures_util::StreamExt;
            while let Some(Ok(m)) = bell.next().await {
                if let tokio_tungstenite::tungstenite::Message::Close(Some(f)) = m {
                    return u16::from(f.code);
                }
            }
            0
        })
        .await;
        assert_eq!(closed.ok(), Some(4401));
    }
    // Her seat token plays no more (on SQLite a copy in memory may take
    // the token once: its write then finds the game changed, and stores
    // nothing); her challenges ended; none reaches her.
    let (status, v) = step(anns_token.clone()).await;
    assert_ne!(status, 200, "{v}");
    let (status, v) = step(anns_token.clone()).await;
    assert_eq!(code(status, &v), (403, "wrong_token"), "{v}");
    let after = call(
        &server,
        "GET",
        &format!("/api/games/{second}"),
        Some(&bo),
        None,
    )
    .await
    .1;
    assert_eq!(after["seq"], state["seq"], "no step of hers was stored");
    let (_, cys) = call(&server, "GET", "/api/me/challenges", Some(&cy), None).await;
    assert_eq!(cys["incoming"], json!([]), "{cys}");
    let (status, v) = call(
        &server,
        "POST",
        "/api/challenges",
        Some(&bo),
        Some(json!({"to": "Ann"})),
    )
    .await;
    assert_eq!(code(status, &v), (404, "not_found"), "{v}");
    let login = json!({"name": "Ann", "password": crate::accounts::PASSWORD});
    let (status, v) = call(&server, "POST", "/api/session", None, Some(login.clone())).await;
    assert_eq!(code(status, &v), (403, "banned"), "{v}");
    let (status, v) = call(
        &server,
        "POST",
        "/api/session",
        None,
        Some(json!({"name": "Ann", "password": "wrong wrong wrong"})),
    )
    .await;
    assert_eq!(
        code(status, &v),
        (401, "wrong_login"),
        "a wrong password says nothing of the ban: {v}"
    );
    // Her games stay in the archive.
    let (status, page) = call(&server, "GET", "/api/players/Ann/games", None, None).await;
    assert_eq!(status, 200, "{page}");
    act(&url, "op2", Action::Unban { name: "Ann".into() }, now + 2)
        .await
        .unwrap();
    let (status, _) = call(&server, "POST", "/api/session", None, Some(login)).await;
    assert_eq!(status, 200);
    let log = act(&url, "op3", Action::Log, now).await.unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(lines[0].contains("op2 unban Ann"), "{log}");
    assert!(lines[2].contains("op1 mute Ann"), "{log}");
    let open = act(&url, "op3", Action::Reports { older_than: None }, now)
        .await
        .unwrap();
    let report = open.split_whitespace().nth(1).unwrap().to_string();
    act(
        &url,
        "op3",
        Action::Close {
            report: report.clone(),
        },
        now,
    )
    .await
    .unwrap();
    assert!(act(&url, "op3", Action::Reports { older_than: None }, now)
        .await
        .unwrap()
        .contains("no open report"));
    assert!(act(&url, "op3", Action::Close { report }, now)
        .await
        .is_err());
    server.stop().await;
}

/// Two processes: a line said through one reaches a socket on the other,
/// and each line once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_crosses_processes() {
    let Some((a, b)) = two_servers("chat_crosses_processes").await else {
        return;
    };
    let ann = sign_up(&a, "Ann").await;
    let bo = sign_up(&b, "Bo").await;
    let id = game_between(&a, &ann, &bo, "Bo").await;
    let mut anns = game_socket(&a, &id, Some(&ann)).await;
    let mut bos = game_socket(&b, &id, Some(&bo)).await;
    say(&mut anns, "players", "from process a").await;
    assert_eq!(heard(&mut bos).await["text"], "from process a");
    say(&mut bos, "players", "from process b").await;
    // Ann hears her own line, then Bo's: each once.
    assert_eq!(heard(&mut anns).await["text"], "from process a");
    assert_eq!(heard(&mut anns).await["text"], "from process b");
    assert_eq!(heard(&mut bos).await["text"], "from process b");
    say(&mut bos, "players", "third").await;
    assert_eq!(heard(&mut anns).await["text"], "third", "no line twice");
    a.stop().await;
    b.stop().await;
}
