//! Tournaments (docs/tournaments.md): an arena made, joined, paired,
//! played with berserk, scored and ended, on SQLite and PostgreSQL; its
//! refusals; bots; and two processes on one database, one of them
//! stopped while it pairs.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use virus_wars_server::Clock;

use crate::accounts::sign_up;
use crate::challenges::{call, game, play_turn};
use crate::common::{code, fresh_postgres, fresh_sqlite, next, register_bot, Server};
use crate::notifications::user_socket;

on_both_databases!(
    an_arena_pairs_berserks_scores_and_ends,
    arena_refusals_and_bots
);

/// `GET /api/tournaments/{id}` as `cookie` sees it.
pub(crate) async fn tournament(server: &Server, id: &str, cookie: &str) -> Value {
    let (status, v) = call(
        server,
        "GET",
        &format!("/api/tournaments/{id}"),
        cookie,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    v
}

/// Asks for the tournament until `ok` holds (within 15 s of real time:
/// the pairing task runs every second).
pub(crate) async fn tournament_until(
    server: &Server,
    id: &str,
    cookie: &str,
    what: &str,
    ok: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let t = tournament(server, id, cookie).await;
        if ok(&t) {
            return t;
        }
        assert!(Instant::now() < deadline, "{what}: {t:#}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

pub(crate) async fn make_arena(server: &Server, cookie: &str, extra: Value) -> String {
    let mut body = json!({"kind": "arena", "name": "Friday arena", "minutes": 10,
                          "starts_in_s": 0, "clock": {"base_s": 60, "inc_s": 0},
                          "size": "9x9", "rated": true});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let (status, v) = call(server, "POST", "/api/tournaments", cookie, Some(body)).await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

pub(crate) fn line<'a>(t: &'a Value, name: &str) -> &'a Value {
    t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {t:#}"))
}

async fn an_arena_pairs_berserks_scores_and_ends(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let cy = sign_up(&server, "Cy").await;
    let id = make_arena(&server, &ann, json!({"starts_in_s": 60})).await;
    let t = tournament(&server, &id, &ann).await;
    assert_eq!(t["state"], "soon", "{t}");
    assert_eq!(t["name"], "Friday arena");
    assert_eq!(t["time_control"], "1+0");
    assert_eq!(t["you"], Value::Null);
    let (_, list) = call(&server, "GET", "/api/tournaments", &ann, None).await;
    assert_eq!(list["soon"][0]["id"], id.as_str(), "{list}");
    let mut bells = Vec::new();
    for cookie in [&ann, &bo, &cy] {
        let (status, v) = call(
            &server,
            "POST",
            &format!("/api/tournaments/{id}/join"),
            cookie,
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["state"], "in");
        let mut bell = user_socket(&server, cookie, None).await;
        next(&mut bell).await;
        bells.push(bell);
    }
    // Nobody is paired before the start.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(tournament(&server, &id, &ann).await["games"], json!([]));
    server.advance(60_000);
    let t = tournament_until(&server, &id, &ann, "a pairing", |t| {
        t["games"].as_array().unwrap().len() == 1
    })
    .await;
    assert_eq!(t["state"], "running");
    let pairing = t["games"][0].clone();
    let gid = pairing["game"].as_str().unwrap().to_string();
    let names = [
        pairing["x"].as_str().unwrap(),
        pairing["o"].as_str().unwrap(),
    ];
    let cookie_of = |n: &str| match n {
        "Ann" => ann.clone(),
        "Bo" => bo.clone(),
        _ => cy.clone(),
    };
    let (x, o) = (cookie_of(names[0]), cookie_of(names[1]));
    let waiting = ["Ann", "Bo", "Cy"]
        .into_iter()
        .find(|n| !names.contains(n))
        .unwrap();
    // Each player of the pairing is told, on its page's socket.
    for (k, name) in ["Ann", "Bo", "Cy"].into_iter().enumerate() {
        if name == waiting {
            continue;
        }
        let note = next(&mut bells[k]).await;
        assert_eq!(note["kind"], "tournament_game", "{note}");
        assert_eq!(note["game"], gid.as_str());
        assert_eq!(note["tournament"], id.as_str());
        let seat = if name == names[0] { "x" } else { "o" };
        assert_eq!(note["side"], seat);
    }
    // Their page shows their game, and that they may berserk.
    let mine = tournament(&server, &id, &x).await;
    assert_eq!(mine["you"]["game"], gid.as_str(), "{mine}");
    assert_eq!(mine["you"]["seat"], "x");
    let (status, gt) = call(
        &server,
        "GET",
        &format!("/api/games/{gid}/tournament"),
        &x,
        None,
    )
    .await;
    assert_eq!(status, 200, "{gt}");
    assert_eq!(gt["may_berserk"], true);
    assert_eq!(gt["id"], id.as_str());
    let (_, watcher) = call(
        &server,
        "GET",
        &format!("/api/games/{gid}/tournament"),
        &cookie_of(waiting),
        None,
    )
    .await;
    assert_eq!(watcher["may_berserk"], false, "not a seat of it");
    // X berserks after waiting 12 s in its first turn (uncharged): half
    // its minute, the wait neither charged nor given back; not twice.
    server.advance(12_000);
    let (status, b) = call(
        &server,
        "POST",
        &format!("/api/games/{gid}/berserk"),
        &x,
        None,
    )
    .await;
    assert_eq!(status, 200, "{b}");
    assert_eq!(b["left_ms"], 30_000, "{b}");
    let (status, again) = call(
        &server,
        "POST",
        &format!("/api/games/{gid}/berserk"),
        &x,
        None,
    )
    .await;
    assert_eq!(code(status, &again), (409, "no_berserk"), "{again}");
    let state = game(&server, &gid, &x).await;
    assert_eq!(state["rated"], true, "{state}");
    // Seven turns each, then O resigns: X's berserk win scores 2 + 1.
    for _ in 0..7 {
        play_turn(&server, &gid, &x).await;
        play_turn(&server, &gid, &o).await;
    }
    let (status, _) = call(
        &server,
        "POST",
        &format!("/api/games/{gid}/berserk"),
        &o,
        None,
    )
    .await;
    assert_eq!(status, 409, "O has stepped: too late");
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/games/{gid}/resign"),
        &o,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    // Scored; the three free players are paired again: the one who waited
    // meets one of them (never the game just played again).
    let t = tournament_until(&server, &id, &ann, "scored and paired again", |t| {
        line(t, names[0])["points"] == 3 && t["games"].as_array().unwrap().len() == 1
    })
    .await;
    assert_eq!(line(&t, names[1])["points"], 0);
    let sheet = &line(&t, names[0])["sheet"][0];
    assert_eq!(sheet["result"], "won", "{t:#}");
    assert_eq!(sheet["berserk"], true);
    assert_eq!(line(&t, names[0])["rank"], 1);
    let next_game = &t["games"][0];
    let playing = [
        next_game["x"].as_str().unwrap(),
        next_game["o"].as_str().unwrap(),
    ];
    assert!(playing.contains(&waiting), "{t:#}");
    // The one left over pauses, and comes back.
    let idle = ["Ann", "Bo", "Cy"]
        .into_iter()
        .find(|n| !playing.contains(n))
        .unwrap();
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{id}/withdraw"),
        &cookie_of(idle),
        None,
    )
    .await;
    assert_eq!((status, v["state"].as_str()), (200, Some("paused")), "{v}");
    assert_eq!(
        line(&tournament(&server, &id, &ann).await, idle)["state"],
        "paused"
    );
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        &cookie_of(idle),
        None,
    )
    .await;
    assert_eq!((status, v["state"].as_str()), (200, Some("in")), "{v}");
    // The time is up: nobody is paired any more; the game in play
    // finishes and counts, and then the podium.
    server.advance(10 * 60_000);
    let second = next_game["game"].as_str().unwrap();
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/games/{second}/resign"),
        &cookie_of(playing[1]),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let t = tournament_until(&server, &id, &ann, "the end", |t| t["state"] == "finished").await;
    assert_eq!(t["games"], json!([]), "{t:#}");
    assert_eq!(t["podium"].as_array().unwrap().len(), 3, "{t:#}");
    assert_eq!(t["podium"][0], names[0], "3 points lead: {t:#}");
    assert_eq!(line(&t, playing[0])["points"], 2, "{t:#}");
    // Points recomputed from the sheets equal the standings.
    for l in t["standings"].as_array().unwrap() {
        let sum: i64 = l["sheet"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["points"].as_i64().unwrap())
            .sum();
        assert_eq!(l["points"], sum, "{l}");
    }
    // The player page lists it with the place.
    let (_, page) = call(
        &server,
        "GET",
        &format!("/api/players/{}", names[0]),
        &ann,
        None,
    )
    .await;
    assert_eq!(page["tournaments"][0]["id"], id.as_str(), "{page}");
    assert_eq!(page["tournaments"][0]["place"], 1);
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        &ann,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    server.stop().await;
}

async fn arena_refusals_and_bots(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let refused = |body: Value, what: &'static str| {
        let (server, ann) = (&server, &ann);
        async move {
            let (status, v) = call(server, "POST", "/api/tournaments", ann, Some(body)).await;
            assert_eq!(code(status, &v), (400, "malformed"), "{what}: {v}");
            v["error"]["message"].as_str().unwrap().to_string()
        }
    };
    let base = json!({"clock": {"base_s": 60}});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    assert!(refused(with("kind", json!("knockout")), "knockout")
        .await
        .contains("\"round-robin\""));
    assert!(refused(with("minutes", json!(0)), "minutes")
        .await
        .contains("minutes"));
    assert!(refused(with("name", json!("<b>")), "name")
        .await
        .contains("name"));
    assert!(refused(with("side", json!("x")), "side")
        .await
        .contains("side"));
    assert!(
        refused(json!({"clock": {"days_per_turn": 3}}), "correspondence")
            .await
            .contains("Fischer")
    );
    assert!(refused(with("starts_in_s", json!(-1)), "past")
        .await
        .contains("starts_in_s"));
    let (status, v) = call(
        &server,
        "POST",
        "/api/tournaments",
        "nobody",
        Some(base.clone()),
    )
    .await;
    assert_eq!(code(status, &v), (401, "login_needed"), "{v}");
    // Three open at most.
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(
            make_arena(
                &server,
                &ann,
                json!({"starts_in_s": 3600, "max_players": 2}),
            )
            .await,
        );
    }
    let (status, v) = call(
        &server,
        "POST",
        "/api/tournaments",
        &ann,
        Some(base.clone()),
    )
    .await;
    assert_eq!(code(status, &v), (409, "too_many"), "{v}");
    let id = &made[0];
    // A bot joins with its token; a full tournament refuses the next.
    let bot = register_bot(&server, "robo").await;
    let (status, v) = server
        .call(
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Some(&bot),
            None,
        )
        .await;
    assert_eq!(
        code(status, &v),
        (403, "account_needed"),
        "rated: an unowned bot: {v}"
    );
    let casual = make_arena(
        &server,
        &sign_up(&server, "Bo").await,
        json!({"rated": false, "max_players": 2, "starts_in_s": 3600}),
    )
    .await;
    let (status, v) = server
        .call(
            "POST",
            &format!("/api/tournaments/{casual}/join"),
            Some(&bot),
            None,
        )
        .await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{casual}/join"),
        &ann,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let cy = sign_up(&server, "Cy").await;
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{casual}/join"),
        &cy,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "full"), "{v}");
    // Before the start, a withdrawal frees the place.
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{casual}/withdraw"),
        &ann,
        None,
    )
    .await;
    assert_eq!((status, v["state"].as_str()), (200, Some("out")), "{v}");
    let (status, v) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{casual}/withdraw"),
        &ann,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    let (status, _) = call(
        &server,
        "POST",
        &format!("/api/tournaments/{casual}/join"),
        &cy,
        None,
    )
    .await;
    assert_eq!(status, 200);
    // A tournament for people only.
    let people = make_arena(&server, &cy, json!({"bots": false, "rated": false})).await;
    let (status, v) = server
        .call(
            "POST",
            &format!("/api/tournaments/{people}/join"),
            Some(&bot),
            None,
        )
        .await;
    assert_eq!(code(status, &v), (403, "not_taking"), "{v}");
    for path in ["/api/tournaments/nope", "/api/games/nope/tournament"] {
        let (status, v) = call(&server, "GET", path, &ann, None).await;
        assert_eq!(code(status, &v), (404, "not_found"), "{path}: {v}");
    }
    // The bot's game: seated by its token, found among its games, played.
    server.advance(3_600_000);
    let t = tournament_until(&server, &casual, &cy, "the bot paired", |t| {
        t["games"].as_array().unwrap().len() == 1
    })
    .await;
    let gid = t["games"][0]["game"].as_str().unwrap();
    let (_, mine) = server
        .call("GET", "/api/bots/games", Some(&bot), None)
        .await;
    assert_eq!(mine[0]["id"], gid, "{mine}");
    assert_eq!(mine[0]["seated"], true);
    server.stop().await;
}

/// Two processes: both run the pairing task, one pairs; stopped, the
/// other takes over within the lease, and nobody is paired twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pairing_moves_to_another_process_when_its_owner_stops() {
    let Some(db) = fresh_postgres("tournament_owner").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db).await;
    let names = ["Ann", "Bo", "Cy", "Di"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&a, n).await);
    }
    let id = make_arena(&a, &cookies[0], json!({"rated": false})).await;
    for c in &cookies {
        let (status, v) = call(&b, "POST", &format!("/api/tournaments/{id}/join"), c, None).await;
        assert_eq!(status, 200, "{v}");
    }
    let t = tournament_until(&b, &id, &cookies[0], "two games", |t| {
        t["games"].as_array().unwrap().len() == 2
    })
    .await;
    let first: Vec<String> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_string())
        .collect();
    a.stop().await;
    // Both games end: the four are paired again by the process left,
    // within the lease (5 s) and a round (1 s).
    for g in t["games"].as_array().unwrap() {
        let x = names.iter().position(|n| *n == g["x"]).unwrap();
        let gid = g["game"].as_str().unwrap();
        let (status, v) = call(
            &b,
            "POST",
            &format!("/api/games/{gid}/resign"),
            &cookies[x],
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let t = tournament_until(&b, &id, &cookies[0], "paired by the other process", |t| {
        let games = t["games"].as_array().unwrap();
        games.len() == 2
            && games
                .iter()
                .all(|g| !first.contains(&g["game"].as_str().unwrap().to_string()))
    })
    .await;
    // Nobody plays two games at once.
    let mut seen = std::collections::HashSet::new();
    for g in t["games"].as_array().unwrap() {
        for side in ["x", "o"] {
            assert!(seen.insert(g[side].as_str().unwrap().to_string()), "{t:#}");
        }
    }
    b.stop().await;
}
