//! The Swiss pairing (FIDE Dutch) checked from outside, through the API:
//! a tournament played by accounts exports a TRF that an independent
//! Dutch engine pairs again to the same rounds (`crates/pairing` checks
//! random tournaments against it the same way).

use serde_json::json;
use virus_wars_server::Clock;

use crate::accounts::sign_up;
use crate::challenges::{call, play_turn};
use crate::common::{fresh_sqlite, Server};
use crate::tournaments::tournament_until;

#[path = "../../../pairing/tests/it/other_engine.rs"]
mod other_engine;
use other_engine::{check, other_engine};

/// The issue's own check: nine accounts play a Swiss of five rounds
/// through the API (one joins late, in from round 2), and the TRF the
/// server exports pairs again to the same pairs and byes every round.
#[tokio::test]
async fn a_swiss_of_nine_played_by_the_api_re_pairs_identically() {
    let Some(python) = other_engine() else {
        return;
    };
    let server = Server::start_with(fresh_sqlite("swiss_of_nine"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    let names = [
        "Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy",
    ];
    // Who wins a game: the stronger by this order (not the pairing
    // numbers' order, which is by name: the standings mix).
    let strength = [
        "Fay", "Ben", "Ivy", "Dan", "Ada", "Hal", "Cat", "Gus", "Eve",
    ];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let body = json!({"kind": "swiss", "name": "Nine", "starts_in_s": 60, "rounds": 5,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "9x9", "rated": false});
    let (status, made) = call(&server, "POST", "/api/tournaments", &cookies[0], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in &names[..8] {
        let path = format!("/api/tournaments/{id}/join");
        let (status, v) = call(&server, "POST", &path, &cookie_of(n), None).await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    for round in 1..=5 {
        let t = tournament_until(&server, &id, &cookies[0], "the round", |t| {
            t["round"] == round
        })
        .await;
        if round == 1 {
            let path = format!("/api/tournaments/{id}/join");
            let (status, v) = call(&server, "POST", &path, &cookie_of("Ivy"), None).await;
            assert_eq!(status, 200, "{v}");
        }
        for g in t["games"].as_array().unwrap() {
            let gid = g["game"].as_str().unwrap();
            let (x, o) = (g["x"].as_str().unwrap(), g["o"].as_str().unwrap());
            let rank = |n: &str| strength.iter().position(|m| *m == n).unwrap();
            // X's turn, then O's where X is to lose; the loser resigns.
            play_turn(&server, gid, &cookie_of(x)).await;
            let loser = if rank(x) < rank(o) { o } else { x };
            if loser == x {
                play_turn(&server, gid, &cookie_of(o)).await;
            }
            let path = format!("/api/games/{gid}/resign");
            let (status, v) = call(&server, "POST", &path, &cookie_of(loser), None).await;
            assert_eq!(status, 200, "{v}");
        }
    }
    tournament_until(&server, &id, &cookies[0], "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    let (status, bytes) = server
        .bytes("GET", &format!("/api/tournaments/{id}/trf"))
        .await;
    assert_eq!(status, 200);
    let dir = std::env::temp_dir().join(format!("vw_swiss_nine_{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    std::fs::write(dir.join("nine.trf"), &bytes).expect("write");
    let (summary, report) = check(&python, &dir, true);
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(keep) = std::env::var_os("VW_SWISS_DIR") {
        std::fs::write(std::path::Path::new(&keep).join("nine.trf"), &bytes).expect("write");
    }
    eprintln!("{report}");
    assert_eq!(summary["rounds"], 5, "{report}");
    assert_eq!(summary["same_pairs"], 5, "{report}");
}

/// Each `001` line of a TRF by its pairing number: the name, and the
/// result columns of its first `rounds` rounds.
fn numbered(trf: &str, rounds: usize) -> std::collections::BTreeMap<String, (String, String)> {
    trf.lines()
        .filter(|l| l.starts_with("001 "))
        .map(|l| {
            let tpn = l.get(4..8).unwrap_or("").trim().to_string();
            let name = l.get(14..47).unwrap_or("").trim().to_string();
            let games = l.get(91..(91 + 10 * rounds).min(l.len())).unwrap_or("");
            (tpn, (name, games.trim_end().to_string()))
        })
        .collect()
}

/// Two players delete their accounts after round 2 (their names become
/// `deleted-…`, which sort elsewhere): nobody is renumbered, the rounds
/// played stay as they were in the TRF, and the TRF pairs again to what
/// was played (it renumbered 25–27 of 34 players, and the next rounds
/// were paired on the new numbers).
#[tokio::test]
async fn a_swiss_keeps_its_numbers_when_players_delete_their_accounts() {
    let server = Server::start_with(fresh_sqlite("swiss_deletions"), |c| {
        c.clock = Clock::stopped()
    })
    .await;
    // All rated alike: the pairing numbers go by name.
    let names = ["Ada", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];
    let mut cookies = Vec::new();
    for n in names {
        cookies.push(sign_up(&server, n).await);
    }
    let cookie_of = |n: &str| cookies[names.iter().position(|m| *m == n).unwrap()].clone();
    let body = json!({"kind": "swiss", "name": "Deletions", "starts_in_s": 60, "rounds": 4,
                      "clock": {"base_s": 60, "inc_s": 0}, "size": "7x7", "rated": false});
    let (status, made) = call(&server, "POST", "/api/tournaments", &cookies[7], Some(body)).await;
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    for n in names {
        let path = format!("/api/tournaments/{id}/join");
        let (status, v) = call(&server, "POST", &path, &cookie_of(n), None).await;
        assert_eq!(status, 200, "{v}");
    }
    server.advance(60_000);
    let trf = || {
        let server = &server;
        let path = format!("/api/tournaments/{id}/trf");
        async move {
            let (status, bytes) = server.bytes("GET", &path).await;
            assert_eq!(status, 200);
            String::from_utf8(bytes).expect("TRF is text")
        }
    };
    // Two players whose round-2 games are over, the first by name (a
    // deleted name, `deleted-…`, sorts after every other).
    let mut deleted: Vec<String> = Vec::new();
    let mut after_two = None;
    for round in 1..=4 {
        let t = tournament_until(&server, &id, &cookies[7], "the round", |t| {
            t["round"] == round || t["state"] == "finished"
        })
        .await;
        if t["state"] == "finished" {
            break;
        }
        let games = t["games"].as_array().unwrap().clone();
        for (k, g) in games.iter().enumerate() {
            let gid = g["game"].as_str().unwrap();
            let (x, o) = (g["x"].as_str().unwrap(), g["o"].as_str().unwrap());
            play_turn(&server, gid, &cookie_of(x)).await;
            let path = format!("/api/games/{gid}/resign");
            let (status, v) = call(&server, "POST", &path, &cookie_of(o), None).await;
            assert_eq!(status, 200, "{v}");
            // Round 2: once every game but the last is over, the TRF is
            // read, and two players whose games are over delete their
            // accounts before the last game ends.
            if round == 2 && k + 2 == games.len() {
                after_two = Some(trf().await);
                let last = &games[games.len() - 1];
                let mut done: Vec<String> = names
                    .iter()
                    .filter(|n| last["x"] != **n && last["o"] != **n)
                    .map(|n| n.to_string())
                    .collect();
                done.sort();
                deleted = done.into_iter().take(2).collect();
                for n in &deleted {
                    let body = json!({ "password": crate::accounts::PASSWORD }).to_string();
                    let (status, _, v) = crate::accounts::with_cookie(
                        &server,
                        "DELETE",
                        "/api/me",
                        Some(&cookie_of(n.as_str())),
                        Some(&body),
                    )
                    .await;
                    assert_eq!(status, 204, "{v}");
                }
            }
        }
    }
    tournament_until(&server, &id, &cookies[7], "the end", |t| {
        t["state"] == "finished"
    })
    .await;
    let before = numbered(&after_two.expect("read after round 2"), 2);
    let end = trf().await;
    let after = numbered(&end, 2);
    assert_eq!(before.len(), 8);
    for (tpn, (name, games)) in &before {
        let (now_named, now_games) = &after[tpn];
        // The first round's columns were complete then.
        assert_eq!(
            now_games.get(..10),
            games.get(..10),
            "number {tpn} ({name}, now {now_named}) kept its first round"
        );
        if deleted.contains(name) {
            assert!(now_named.starts_with("deleted-"), "{now_named}");
        } else {
            assert_eq!(now_named, name, "number {tpn} is still {name}");
        }
    }
    if let Some(python) = other_engine() {
        let dir = std::env::temp_dir().join(format!("vw_swiss_deletions_{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        std::fs::write(dir.join("deletions.trf"), &end).expect("write");
        let (summary, report) = check(&python, &dir, true);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(summary["same_pairs"], summary["rounds"], "{report}");
    }
    server.stop().await;
}
