//! Swiss tournaments and round robins (docs/tournaments.md), on SQLite
//! and PostgreSQL: a Swiss with a late joiner, a bye, a withdrawal, the
//! tiebreaks and its TRF16 export; a round robin's games all at once, a
//! forfeit, the end; their refusals.

use serde_json::{json, Value};
use virus_wars_server::Clock;

use crate::accounts::sign_up;
use crate::challenges::{call, play_turn};
use crate::common::{code, fresh_postgres, fresh_sqlite, Server};
use crate::tournaments::{line, tournament, tournament_until};

on_both_databases!(
    a_swiss_is_paired_round_by_round,
    a_round_robin_plays_all_at_once,
    rated_rounds_keep_a_player_from_its_own_bot
);

async fn post(server: &Server, path: &str, cookie: &str, body: Option<Value>) -> (u16, Value) {
    call(server, "POST", path, cookie, body).await
}

/// Plays every open game of `t` to its end: X plays a turn, then O
/// resigns (X wins).
async fn finish_games(server: &Server, t: &Value, cookie_of: &dyn Fn(&str) -> String) {
    for g in t["games"].as_array().unwrap() {
        let gid = g["game"].as_str().unwrap();
        let (x, o) = (
            cookie_of(g["x"].as_str().unwrap()),
            cookie_of(g["o"].as_str().unwrap()),
        );
        play_turn(server, gid, &x).await;
        let (status, v) = post(server, &format!("/api/games/{gid}/resign"), &o, None).await;
        assert_eq!(status, 200, "{v}");
    }
}

async fn a_swiss_is_paired_round_by_round(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let names = ["Ann", "Bo", "Cy", "Di", "Ed"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let ann = cookie_of("Ann");
    // Refusals: no rounds, an arena's minutes, too many rounds.
    let base = json!({"kind": "swiss", "name": "Friday Swiss", "starts_in_s": 60,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "9x9", "rated": true});
    for (extra, says) in [
        (json!({}), "rounds"),
        (json!({"rounds": 3, "minutes": 30}), "minutes"),
        (json!({"rounds": 21}), "rounds"),
        // The games' options name the field that was wrong.
        (json!({"rounds": 3, "rated": "yes"}), "rated: invalid type"),
        (
            json!({"rounds": 3, "clock": {"days_per_turn": 1.5}}),
            "clock.days_per_turn: invalid type",
        ),
    ] {
        let mut body = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, v) = post(&server, "/api/tournaments", &ann, Some(body)).await;
        assert_eq!(code(status, &v), (400, "malformed"), "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{v}");
        // (A position would be in a text the client never sent.)
        assert!(!message.contains("column"), "{v}");
    }
    let mut body = base.clone();
    body["rounds"] = json!(3);
    let (status, made) = post(&server, "/api/tournaments", &ann, Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in ["Ann", "Bo", "Cy", "Di"] {
        let (status, v) = post(
            &server,
            &format!("/api/tournaments/{id}/join"),
            &cookie_of(n),
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    let t = tournament(&server, &id, &ann).await;
    assert_eq!(
        (
            t["kind"].as_str(),
            t["rounds"].as_i64(),
            t["round"].as_i64()
        ),
        (Some("swiss"), Some(3), Some(0))
    );
    server.advance(60_000);
    // Round 1: four players, two games, by the Dutch system (1-3, 2-4 of
    // the pairing numbers; all rated 1500, so by name).
    let t = tournament_until(&server, &id, &ann, "round 1", |t| t["round"] == 1).await;
    let mut pairs: Vec<(String, String)> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["x"].as_str().unwrap().to_string(),
                g["o"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs,
        [("Ann".into(), "Cy".into()), ("Di".into(), "Bo".into())],
        "{t:#}"
    );
    // A Swiss game is not aborted by hand (a forfeit is who did not step
    // in time), and has no berserk (an arena's).
    let g0 = t["games"][0]["game"].as_str().unwrap();
    let o0 = cookie_of(t["games"][0]["o"].as_str().unwrap());
    let (status, v) = post(&server, &format!("/api/games/{g0}/abort"), &o0, None).await;
    assert_eq!(code(status, &v), (409, "too_late"), "{v}");
    let (status, v) = post(&server, &format!("/api/games/{g0}/berserk"), &o0, None).await;
    assert_eq!(code(status, &v), (409, "no_berserk"), "{v}");
    // Ed joins late: in from round 2.
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/join"),
        &cookie_of("Ed"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    finish_games(&server, &t, &cookie_of).await;
    let t = tournament_until(&server, &id, &ann, "round 2", |t| t["round"] == 2).await;
    assert_eq!(line(&t, "Ann")["points"], 1.0, "{t:#}");
    assert_eq!(line(&t, "Bo")["points"], 0.0);
    // Five players: two games and a bye (a point), never for Ed, who
    // missed a round (C9), and no pair met before.
    assert_eq!(t["games"].as_array().unwrap().len(), 2, "{t:#}");
    let byed: Vec<&str> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l["sheet"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["result"] == "bye")
        })
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(byed.len(), 1, "{t:#}");
    assert_ne!(byed[0], "Ed");
    assert_eq!(line(&t, byed[0])["points"], 1.0);
    for g in t["games"].as_array().unwrap() {
        let pair = [g["x"].as_str().unwrap(), g["o"].as_str().unwrap()];
        assert!(
            !pairs
                .iter()
                .any(|(a, b)| pair.contains(&a.as_str()) && pair.contains(&b.as_str())),
            "{t:#}"
        );
    }
    // Di withdraws: its game of round 2 counts, it is not paired again.
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/withdraw"),
        &cookie_of("Di"),
        None,
    )
    .await;
    assert_eq!((status, v["state"].as_str()), (200, Some("paused")), "{v}");
    finish_games(&server, &t, &cookie_of).await;
    let t = tournament_until(&server, &id, &ann, "round 3", |t| t["round"] == 3).await;
    assert!(
        !t["games"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["x"] == "Di" || g["o"] == "Di"),
        "{t:#}"
    );
    // The last round is paired: nobody joins now.
    let late = sign_up(&server, "Flo").await;
    let (status, v) = post(&server, &format!("/api/tournaments/{id}/join"), &late, None).await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    // Round 3's games are not begun in time: X of the first makes no step,
    // O of the second none after X's turn. Forfeits: lost by who did not
    // step (and out of the tournament), won by the other.
    let games: Vec<(String, String, String)> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["game"].as_str().unwrap().into(),
                g["x"].as_str().unwrap().into(),
                g["o"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert_eq!(games.len(), 2, "{t:#}");
    play_turn(&server, &games[1].0, &cookie_of(&games[1].1)).await;
    server.advance(31_000);
    let t = tournament_until(&server, &id, &ann, "the end", |t| t["state"] == "finished").await;
    let last =
        |name: &str| line(&t, name)["sheet"].as_array().unwrap().last().unwrap()["result"].clone();
    assert_eq!(last(&games[0].1), "forfeit_lost", "{t:#}");
    assert_eq!(last(&games[0].2), "forfeit_won");
    assert_eq!(last(&games[1].2), "forfeit_lost");
    assert_eq!(last(&games[1].1), "forfeit_won");
    assert_eq!(line(&t, &games[0].1)["state"], "paused");
    // Standings: points, then Buchholz, then Sonneborn-Berger.
    let lines = t["standings"].as_array().unwrap();
    for w in lines.windows(2) {
        let key = |l: &Value| {
            (
                l["points"].as_f64().unwrap(),
                l["buchholz"].as_f64().unwrap(),
                l["sonneborn_berger"].as_f64().unwrap(),
            )
        };
        assert!(key(&w[0]) >= key(&w[1]), "{t:#}");
    }
    // The TRF16 export: five players in pairing-number order, three
    // rounds, Ed absent in round 1 and the bye as U.
    let (status, bytes) = server
        .bytes("GET", &format!("/api/tournaments/{id}/trf"))
        .await;
    let trf = String::from_utf8(bytes).unwrap();
    assert_eq!(status, 200, "{trf}");
    assert!(trf.contains("\nXXR 3\n"), "{trf}");
    let players: Vec<&str> = trf.lines().filter(|l| l.starts_with("001")).collect();
    assert_eq!(players.len(), 5, "{trf}");
    let ed = players.iter().find(|l| l.contains("Ed ")).unwrap();
    assert_eq!(ed.get(91..99), Some("0000 - Z"), "{trf}");
    assert_eq!(
        trf.matches("0000 - U").count(),
        1,
        "one bye (round 2; four played round 3): {trf}"
    );
    assert_eq!(t["podium"].as_array().unwrap().len(), 3, "{t:#}");
    // A Swiss that starts with one player ends at once, unplayed: no
    // podium (its one player did not win it).
    let mut body = base.clone();
    body["rounds"] = json!(3);
    let (status, alone) = post(&server, "/api/tournaments", &ann, Some(body)).await;
    assert_eq!(status, 201, "{alone}");
    let alone = alone["id"].as_str().unwrap().to_string();
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{alone}/join"),
        &ann,
        None,
    )
    .await;
    assert_eq!(status, 200, "{v}");
    server.advance(60_000);
    let t = tournament_until(&server, &alone, &ann, "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    assert_eq!(t["podium"], json!([]), "{t:#}");
    // An arena has no TRF.
    let arena = crate::tournaments::make_arena(&server, &ann, json!({})).await;
    let (status, _) = server
        .bytes("GET", &format!("/api/tournaments/{arena}/trf"))
        .await;
    assert_eq!(status, 409);
}

async fn a_round_robin_plays_all_at_once(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let names = ["Ann", "Bo", "Cy"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let ann = cookie_of("Ann");
    let body = json!({"kind": "round-robin", "name": "Winter league", "starts_in_s": 60,
                      "clock": {"days_per_turn": 2}, "size": "9x9", "rated": false, "max_players": 17});
    let (status, v) = post(&server, "/api/tournaments", &ann, Some(body.clone())).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    let mut fischer = body.clone();
    fischer["max_players"] = json!(8);
    fischer["clock"] = json!({"base_s": 60, "inc_s": 0});
    let (status, v) = post(&server, "/api/tournaments", &ann, Some(fischer)).await;
    assert_eq!(
        code(status, &v),
        (400, "malformed"),
        "a round robin is played by correspondence: {v}"
    );
    let mut body = body;
    body["max_players"] = json!(8);
    let (status, made) = post(&server, "/api/tournaments", &ann, Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in names {
        let (status, v) = post(
            &server,
            &format!("/api/tournaments/{id}/join"),
            &cookie_of(n),
            None,
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    // Everyone plays everyone twice, once as X: six games at once.
    let t = tournament_until(&server, &id, &ann, "all paired", |t| t["round"] == 1).await;
    let games = t["games"].as_array().unwrap();
    assert_eq!(games.len(), 6, "{t:#}");
    for a in names {
        for b in names {
            if a != b {
                assert_eq!(
                    games.iter().filter(|g| g["x"] == a && g["o"] == b).count(),
                    1,
                    "{a} X against {b}: {t:#}"
                );
            }
        }
    }
    // Nobody joins or leaves now.
    let late = sign_up(&server, "Di").await;
    let (status, v) = post(&server, &format!("/api/tournaments/{id}/join"), &late, None).await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    let (status, v) = post(
        &server,
        &format!("/api/tournaments/{id}/withdraw"),
        &ann,
        None,
    )
    .await;
    assert_eq!(code(status, &v), (409, "not_open"), "{v}");
    // X wins each game: each player 2 of 4; the sheets say so, then the
    // standings by points and Sonneborn-Berger, and the end.
    finish_games(&server, &t, &cookie_of).await;
    let t = tournament_until(&server, &id, &ann, "the end", |t| t["state"] == "finished").await;
    for n in names {
        let l = line(&t, n);
        assert_eq!(l["points"], 2.0, "{t:#}");
        assert_eq!(l["sheet"].as_array().unwrap().len(), 4);
        assert_eq!(
            l["sonneborn_berger"], 4.0,
            "beat two who have 2 each: {t:#}"
        );
        assert_eq!(l["buchholz"], Value::Null);
    }
}

/// A rated Swiss or round robin never pairs a player with its own bot.
async fn rated_rounds_keep_a_player_from_its_own_bot(db: String) {
    let server = Server::start_with(db, |c| c.clock = Clock::stopped()).await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "zoe").await;
    let (status, bot) = post(&server, "/api/bots", &ann, Some(json!({"name": "annbot"}))).await;
    assert_eq!(status, 201, "{bot}");
    let token = bot["token"].as_str().unwrap().to_string();
    let mut made = Vec::new();
    for (kind, clock) in [
        ("swiss", json!({"base_s": 60, "inc_s": 0})),
        ("round-robin", json!({"days_per_turn": 2})),
    ] {
        let mut body =
            json!({"kind": kind, "starts_in_s": 60, "clock": clock, "size": "9x9", "rated": true});
        if kind == "swiss" {
            body["rounds"] = json!(1);
        }
        let (status, v) = post(&server, "/api/tournaments", &bo, Some(body)).await;
        assert_eq!(status, 201, "{v}");
        let id = v["id"].as_str().unwrap().to_string();
        for cookie in [&ann, &bo] {
            let (status, v) = post(
                &server,
                &format!("/api/tournaments/{id}/join"),
                cookie,
                None,
            )
            .await;
            assert_eq!(status, 200, "{v}");
        }
        let (status, v) = server
            .call(
                "POST",
                &format!("/api/tournaments/{id}/join"),
                Some(&token),
                None,
            )
            .await;
        assert_eq!(status, 200, "{v}");
        made.push(id);
    }
    server.advance(60_000);
    // The Swiss: by numbers (names: Ann, annbot, zoe) Ann would meet her
    // bot; she meets zoe,
    // the bot has the bye.
    let t = tournament_until(&server, &made[0], &ann, "round 1", |t| t["round"] == 1).await;
    let pairs: Vec<(&str, &str)> = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["x"].as_str().unwrap(), g["o"].as_str().unwrap()))
        .collect();
    assert_eq!(pairs.len(), 1, "{t:#}");
    assert!(
        !(pairs[0] == ("Ann", "annbot") || pairs[0] == ("annbot", "Ann")),
        "{t:#}"
    );
    // The round robin: Ann–zoe and the bot–zoe, twice each; never Ann–bot.
    let t = tournament_until(&server, &made[1], &ann, "all paired", |t| t["round"] == 1).await;
    let games = t["games"].as_array().unwrap();
    assert_eq!(games.len(), 4, "{t:#}");
    assert!(
        games.iter().all(|g| g["x"] == "zoe" || g["o"] == "zoe"),
        "{t:#}"
    );
}

/// Two processes on one PostgreSQL pair a Swiss: each round is paired
/// once, and when the pairing process stops the other pairs the next.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_round_is_paired_once_across_processes() {
    let Some(db) = crate::common::fresh_postgres("swiss_two").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let b = Server::start(db).await;
    let names = ["Ann", "Bo", "Cy", "Di", "Ed"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&a, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let body = json!({"kind": "swiss", "rounds": 3, "starts_in_s": 2, "rated": false,
                      "clock": {"base_s": 120, "inc_s": 0}, "size": "9x9"});
    let (status, made) = post(&a, "/api/tournaments", &cookies[0], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for c in &cookies {
        let (status, v) = post(&b, &format!("/api/tournaments/{id}/join"), c, None).await;
        assert_eq!(status, 200, "{v}");
    }
    let t = tournament_until(&b, &id, &cookies[0], "round 1", |t| t["round"] == 1).await;
    assert_eq!(t["games"].as_array().unwrap().len(), 2, "{t:#}");
    finish_games(&b, &t, &cookie_of).await;
    let t = tournament_until(&a, &id, &cookies[0], "round 2", |t| t["round"] == 2).await;
    a.stop().await;
    finish_games(&b, &t, &cookie_of).await;
    let t = tournament_until(&b, &id, &cookies[0], "round 3 by the process left", |t| {
        t["round"] == 3
    })
    .await;
    finish_games(&b, &t, &cookie_of).await;
    let t = tournament_until(&b, &id, &cookies[0], "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    // Each player: one game or the bye a round, never two; five players,
    // three rounds: 2 games and a bye each round.
    let mut games = std::collections::HashSet::new();
    for l in t["standings"].as_array().unwrap() {
        let rounds: Vec<i64> = l["sheet"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["round"].as_i64().unwrap())
            .collect();
        assert_eq!(rounds, [1, 2, 3], "{t:#}");
        for g in l["sheet"].as_array().unwrap() {
            if g["game"] != "" {
                games.insert(g["game"].as_str().unwrap().to_string());
            }
        }
    }
    assert_eq!(games.len(), 6, "{t:#}");
    b.stop().await;
}
