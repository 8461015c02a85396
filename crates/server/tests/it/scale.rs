//! Scale-out: two server processes on one PostgreSQL. A step sent to one
//! reaches the sockets on the other (LISTEN/NOTIFY), and a step the other
//! has not heard of yet is still refused as stale, never stored twice.

use crate::common::{
    code, connect, create, fresh_postgres, metric, next, state_until, two_servers, Server,
};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_on_one_postgres_share_every_change() {
    let Some((a, b)) = two_servers("scale").await else {
        return;
    };
    let (id, _, x) = create(&a, r#"{"size":"6x6","side":"x"}"#).await;
    // O joins through B; B's socket watches.
    let (status, joined) = b
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let mut on_b = connect(&b, &id, None).await;
    assert_eq!(next(&mut on_b).await["seats_free"]["o"], false);
    // A learned of the join from B: its state has no free seat either.
    let mut on_a = connect(&a, &id, None).await;
    let mut seen = next(&mut on_a).await;
    if seen["seats_free"]["o"] == true {
        seen = next(&mut on_a).await;
    }
    assert_eq!(seen["seats_free"]["o"], false, "{seen}");
    // X plays on A: B's socket hears it.
    let body = json!({"seq": 0, "steps": ["a1", "b2", "c3"]}).to_string();
    let (status, _) = a
        .call(
            "POST",
            &format!("/api/games/{id}/steps"),
            Some(&x),
            Some(&body),
        )
        .await;
    assert_eq!(status, 200);
    let heard = next(&mut on_b).await;
    assert_eq!(
        (heard["seq"].as_u64(), heard["status"].as_str()),
        (Some(3), Some("O to move")),
        "{heard}"
    );
    // O plays on B; then the same steps again on A (where the news may not
    // have arrived yet): refused as stale, stored once.
    let body = json!({"seq": 3, "steps": ["f6"]}).to_string();
    let path = format!("/api/games/{id}/steps");
    let (status, v) = b.call("POST", &path, Some(&o), Some(&body)).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = a.call("POST", &path, Some(&o), Some(&body)).await;
    assert_eq!(code(status, &v), (409, "stale_seq"), "{v}");
    for server in [&a, &b] {
        let (_, s) = server
            .call("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(s["steps"], json!(["a1", "b2", "c3", "f6"]), "{s}");
    }
    let (_, record) = a
        .raw("GET", &format!("/api/games/{id}/record"), None, None)
        .await;
    assert!(record.contains("a1-b2-c3 f6"), "{record}");
    a.stop().await;
    b.stop().await;
}

/// A game on 5×5 with X and O seated (X through `a`, O through `b`) and
/// `steps` played: (id, X's token, O's token).
async fn seated(
    a: &Server,
    b: &Server,
    body: &str,
    steps: &[(&str, &[&str])],
) -> (String, String, String) {
    let (id, _, x) = create(a, body).await;
    let (status, joined) = crate::common::join(b, &id, None).await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let mut seq = 0;
    for (who, turn) in steps {
        let token = if *who == "x" { &x } else { &o };
        let (status, v) = crate::common::play(a, &id, token, seq, turn).await;
        assert_eq!(status, 200, "{v}");
        seq += turn.len() as u64;
    }
    (id, x, o)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_step_and_a_resignation_at_once_on_two_servers_agree() {
    let Some((a, b)) = two_servers("resign_race").await else {
        return;
    };
    // The reported case: at seq 6, X's step sent to B and O's resignation to
    // A at the same moment. Before: both answered 200 in 51 of 60 rounds and
    // the game went on after "X wins, O resigned".
    let mut both_won = 0;
    for _ in 0..20 {
        let (id, x, o) = seated(
            &a,
            &b,
            r#"{"size":"5x5","side":"x","steps":3,"first":3}"#,
            &[("x", &["a1", "b2", "c3"]), ("o", &["e5", "d4", "e4"])],
        )
        .await;
        let step = crate::common::play(&b, &id, &x, 6, &["a2"]);
        let path = format!("/api/games/{id}/resign");
        let resign = a.call("POST", &path, Some(&o), None);
        let ((s1, v1), (s2, v2)) = tokio::join!(step, resign);
        if s1 == 200 && s2 == 200 {
            both_won += 1;
            // Both may stand only in that order: the step, then the resignation.
            assert_eq!(v2["status"], "X wins", "{v2}");
        }
        assert!(s1 == 200 || s2 == 200, "one of them wins: {v1} {v2}");
        for (s, v) in [(s1, &v1), (s2, &v2)] {
            assert!(
                s == 200
                    || (s == 409
                        && ["stale_seq", "changed", "game_over"]
                            .contains(&v["error"]["code"].as_str().unwrap())),
                "{s} {v}"
            );
        }
        // Both servers, and the row, say the same; a resignation answered
        // 200 stands.
        let (on_a, on_b) = (
            crate::common::state(&a, &id).await,
            crate::common::state(&b, &id).await,
        );
        let after_b = loop {
            let v = crate::common::state(&b, &id).await;
            if v["seq"] == on_a["seq"] && v["status"] == on_a["status"] {
                break v;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        };
        let _ = on_b;
        assert_eq!(on_a["steps"], after_b["steps"]);
        if s2 == 200 {
            assert_eq!(on_a["status"], "X wins", "{on_a}");
            assert_eq!(on_a["ending"]["reason"], "resignation", "{on_a}");
            assert_eq!(on_a["ending"]["winner"], "x", "{on_a}");
        }
    }
    // Both at 200 happens only when the step came first; never the reverse.
    eprintln!("rounds where both were accepted (step, then resignation): {both_won}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_asked_on_both_servers_makes_one_game() {
    let Some((a, b)) = two_servers("rematch_race").await else {
        return;
    };
    for _ in 0..10 {
        let (id, x, o) = seated(&a, &b, r#"{"size":"5x5","side":"x"}"#, &[]).await;
        let (status, v) = a
            .call("POST", &format!("/api/games/{id}/resign"), Some(&x), None)
            .await;
        assert_eq!(status, 200, "{v}");
        let path = format!("/api/games/{id}/rematch");
        let (r1, r2) = tokio::join!(
            a.call("POST", &path, Some(&x), None),
            b.call("POST", &path, Some(&o), None)
        );
        assert_eq!((r1.0, r2.0), (200, 200), "{} {}", r1.1, r2.1);
        assert_eq!(
            r1.1["id"], r2.1["id"],
            "one rematch for both: {} {}",
            r1.1, r2.1
        );
        assert_ne!(r1.1["seat"], r2.1["seat"]);
        // Each token holds its seat in that one game.
        let new = r1.1["id"].as_str().unwrap();
        for (server, token) in [(&a, &x), (&b, &o)] {
            let (status, v) = server
                .call("GET", &format!("/api/games/{new}/seat"), Some(token), None)
                .await;
            assert_eq!(status, 200, "{v}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn both_servers_show_the_same_clocks() {
    let Some((a, b)) = crate::common::two_servers_on_a_stopped_clock("clocks_agree").await else {
        return;
    };
    // The reported case: a 30 s game joined on A; the two servers showed X
    // 7,989 and 17,997 ms, and after X's turn through B X had 17,997 ms
    // although 22 s had been used.
    // The clocks start once each side has played its first turn.
    let first: &[(&str, &[&str])] = &[("x", &["a1", "b2", "c3"]), ("o", &["e5", "d4", "e4"])];
    let (id, x, _) = seated(
        &a,
        &b,
        r#"{"size":"5x5","side":"x","clock":{"base_s":30,"inc_s":0}}"#,
        first,
    )
    .await;
    // B knows the game, with both first turns, before the clock runs a while
    // (the steps were played on A: B hears of them through the database).
    let _ = state_until(&b, &id, (5, 20), "B hears of O's first turn", |s| {
        s["seq"] == 6
    })
    .await;
    a.advance(1500);
    let (on_a, on_b) = tokio::join!(crate::common::state(&a, &id), crate::common::state(&b, &id));
    let (xa, xb) = (
        on_a["clocks"]["x_ms"].as_i64().unwrap(),
        on_b["clocks"]["x_ms"].as_i64().unwrap(),
    );
    assert!((xa - xb).abs() < 300, "A shows {xa} ms, B {xb} ms");
    assert!(xa < 29_000, "X's clock ran for 1.5 s: {xa} ms");
    // X's whole second turn through B: X's clock stops, and both show what it kept.
    let (status, v) = crate::common::play(&b, &id, &x, 6, &["b3", "b4", "c4"]).await;
    assert_eq!(status, 200, "{v}");
    let x_left = v["clocks"]["x_ms"].as_i64().unwrap();
    assert!(x_left < 29_000, "X's turn used 1.5 s: {x_left} ms left");
    let on_a = state_until(&a, &id, (5, 20), "A hears of X's turn", |s| s["seq"] == 9).await;
    assert_eq!(on_a["clocks"]["x_ms"].as_i64(), Some(x_left), "{on_a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_computer_turn_is_searched_once() {
    let Some((a, b)) = two_servers("computer_once").await else {
        return;
    };
    let (id, _, x) = create(&a, r#"{"size":"5x5","side":"x","opponent":"level:3"}"#).await;
    // B holds the game too, so that it hears of every change.
    let _ = crate::common::state(&b, &id).await;
    let mut turns = 0;
    for _ in 0..4 {
        let v = crate::common::state(&a, &id).await;
        if v["status"] != "X to move" {
            break;
        }
        // X's whole turn: the first legal cell each step.
        let mut v = v;
        while v["status"] == "X to move" {
            let seq = v["seq"].as_u64().unwrap();
            let step = v["legal"][0].as_str().unwrap().to_string();
            let (status, w) = crate::common::play(&a, &id, &x, seq, &[&step]).await;
            assert_eq!(status, 200, "{w}");
            v = w;
        }
        if v["status"] != "O to move" {
            break;
        }
        // The computer answers, once.
        turns += 1;
        state_until(&a, &id, (10, 50), "the computer answers", |s| {
            s["status"] != "O to move"
        })
        .await;
    }
    assert!(turns > 0);
    // Searches done by both servers together: one a computer turn.
    let searched =
        metric(&a, "vw_ai_searches_total").await + metric(&b, "vw_ai_searches_total").await;
    assert_eq!(searched as usize, turns, "each turn searched once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_play_asked_on_both_servers_at_once_pairs_the_two() {
    let Some((a, b)) = two_servers("quick_race").await else {
        return;
    };
    for round in 0..10 {
        // A clock of its own each round: no game of an earlier round fits.
        let body = format!(
            r#"{{"size":"5x5","clock":{{"base_s":{},"inc_s":0}}}}"#,
            60 + round
        );
        let (r1, r2) = tokio::join!(
            a.call("POST", "/api/quick", None, Some(&body)),
            b.call("POST", "/api/quick", None, Some(&body))
        );
        let mut statuses = [r1.0, r2.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [200, 201],
            "one waits, the other joins: {} {}",
            r1.1,
            r2.1
        );
        assert_eq!(r1.1["id"], r2.1["id"], "the same game: {} {}", r1.1, r2.1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_loaded_while_another_server_changes_it_catches_up() {
    let Some((a, b)) = two_servers("load_race").await else {
        return;
    };
    // The reported case: B loads a game (a first GET, or a socket) while A
    // commits a step; A's announcement came before B held the game, and B
    // showed the old state until the game left its memory.
    for _ in 0..40 {
        let (id, x, _) = seated(
            &a,
            &a,
            r#"{"size":"10x10","steps":1,"first":1,"side":"x"}"#,
            &[],
        )
        .await;
        let step = crate::common::play(&a, &id, &x, 0, &["a1"]);
        let look = crate::common::state(&b, &id);
        let ((status, v), _) = tokio::join!(step, look);
        assert_eq!(status, 200, "{v}");
        state_until(&b, &id, (2, 20), "B stays behind", |s| s["seq"] == 1).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_that_loses_to_an_abort_says_the_game_is_over() {
    let Some((a, b)) = two_servers("join_abort").await else {
        return;
    };
    for _ in 0..15 {
        let (id, _, x) = create(&a, r#"{"size":"5x5","side":"x"}"#).await;
        let _ = crate::common::state(&b, &id).await;
        let path = format!("/api/games/{id}/abort");
        let (aborted, joined) = tokio::join!(
            a.call("POST", &path, Some(&x), None),
            crate::common::join(&b, &id, None)
        );
        match (aborted.0, joined.0) {
            // The join came first: the abort is still allowed (nobody moved).
            (200, 200) | (409, 200) => {}
            (200, 409) => assert_eq!(joined.1["error"]["code"], "game_over", "{}", joined.1),
            other => panic!("{other:?}: {} {}", aborted.1, joined.1),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_without_the_lease_leaves_the_computers_turn_alone() {
    let Some(db) = fresh_postgres("lease_steal").await else {
        return;
    };
    let a = Server::start_with(db.clone(), |c| c.computer_workers = 1).await;
    let b = Server::start_with(db, |c| c.computer_workers = 1).await;
    // The reported case: the process without the lease restarted the
    // computer's clock (a change of the game) and so took over a turn the
    // other was thinking: one search thrown away in 17 of 50 turns.
    let mut games = Vec::new();
    for k in 0..3 {
        let (id, _, x) = create(
            if k % 2 == 0 { &a } else { &b },
            r#"{"size":"7x7","side":"x","opponent":"level:7","clock":{"base_s":300,"inc_s":0}}"#,
        )
        .await;
        // Both processes hold every game, so both hear of every change.
        let _ = crate::common::state(&a, &id).await;
        let _ = crate::common::state(&b, &id).await;
        games.push((id, x));
    }
    let mut turns = 0;
    for round in 0..3 {
        for (k, (id, x)) in games.iter().enumerate() {
            let server = if (k + round) % 2 == 0 { &a } else { &b };
            let mut v = crate::common::state(server, id).await;
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while v["to_move"] == "o" {
                assert!(
                    std::time::Instant::now() < deadline,
                    "the computer answers: {v}"
                );
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                v = crate::common::state(server, id).await;
            }
            if v["to_move"] != "x" {
                continue;
            }
            while v["to_move"] == "x" {
                let step = v["legal"][0].as_str().unwrap().to_string();
                let (status, w) =
                    crate::common::play(server, id, x, v["seq"].as_u64().unwrap(), &[&step]).await;
                if status != 200 {
                    // The other process's news had not arrived: read again.
                    v = crate::common::state(server, id).await;
                    continue;
                }
                v = w;
            }
            if v["to_move"] == "o" {
                turns += 1;
            }
        }
    }
    // Every computer turn answered, then: one search each.
    for (id, _) in &games {
        state_until(&a, id, (30, 50), "the computer answers", |s| {
            s["to_move"] != "o"
        })
        .await;
    }
    let searched =
        metric(&a, "vw_ai_searches_total").await + metric(&b, "vw_ai_searches_total").await;
    // The computer's first turns (it is O: none before X's) and every turn since.
    assert_eq!(searched as usize, turns, "one search a computer turn");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_hears_every_change_from_its_first_request_and_after_a_lost_connection() {
    let Some(db) = fresh_postgres("lost_listener").await else {
        return;
    };
    let a = Server::start(db.clone()).await;
    let body = r#"{"size":"7x7","side":"x","steps":1,"first":1}"#;
    let (id, x, o) = seated(&a, &a, body, &[]).await;
    // A process just started (a rolling restart) loads the game with its
    // first request while A plays. Before: the process served before it
    // listened, and showed seq 0 until the game left its memory.
    let b = Server::start(db.clone()).await;
    let look = crate::common::state(&b, &id);
    let step = crate::common::play(&a, &id, &x, 0, &["a1"]);
    let (_, (status, v)) = tokio::join!(look, step);
    assert_eq!(status, 200, "{v}");
    state_until(
        &b,
        &id,
        (10, 50),
        "B, just started, hears of the step",
        |s| s["seq"] == 1,
    )
    .await;
    // The connections that listen for changes are cut (a restart of the
    // database, a proxy dropping idle connections), and a step is played
    // meanwhile: once listening again, B reloads what it holds.
    let cut = cut_listeners(&db).await;
    assert_eq!(cut, 2, "each server listens on its own connection");
    let (status, v) = crate::common::play(&a, &id, &o, 1, &["g7"]).await;
    assert_eq!(status, 200, "{v}");
    state_until(
        &b,
        &id,
        (10, 50),
        "B catches up after listening again",
        |s| s["seq"] == 2,
    )
    .await;
}

/// A player whose process stopped just after storing their step (the
/// answer cut off by the restart) connects again to the other process at
/// once: its first state has the step, though that process has not heard
/// of it yet (here it cannot: its listening connection was cut). Before,
/// the first state was the one held in memory, a step behind, and the
/// player played the turn again (refused, or worse).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_opened_on_another_process_starts_from_the_stored_game() {
    let Some((a, b)) = crate::common::two_servers("socket_stored").await else {
        return;
    };
    let body = r#"{"size":"7x7","side":"x","steps":1,"first":1}"#;
    let (id, x, _o) = seated(&a, &a, body, &[]).await;
    // B holds the game (someone watches it there) and hears of no change.
    let mut watcher = crate::common::connect(&b, &id, None).await;
    assert_eq!(crate::common::next(&mut watcher).await["seq"], 0);
    cut_listeners(&b.db).await;
    let (status, v) = crate::common::play(&a, &id, &x, 0, &["a1"]).await;
    assert_eq!(status, 200, "{v}");
    let mut player = crate::common::connect(&b, &id, Some(&x)).await;
    let first = crate::common::next(&mut player).await;
    assert_eq!(first["seq"], 1, "{first}");
    assert_eq!(first["steps"][0], "a1", "{first}");
}

/// Cuts every connection that listens for changes on the database `db`
/// (as a restart of the database or a proxy dropping idle connections
/// would); how many were cut.
async fn cut_listeners(db: &str) -> usize {
    let admin = sqlx::AnyPool::connect(db).await.unwrap();
    let name = db.rsplit('/').next().unwrap().to_string();
    sqlx::query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = $1 AND query ILIKE 'LISTEN%'",
    )
    .bind(&name)
    .fetch_all(&admin)
    .await
    .unwrap()
    .len()
}
