//! The engine's analysis of finished games (docs/api.md, Analysis of a
//! game): asked for once the game is over, run in the background, stored,
//! surviving a restart, and shared by two processes on one database.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{code, create, fresh_postgres, fresh_sqlite, two_servers, Server};

/// Two people play a 5×5 game to its end on the board, each step the
/// `pick`-th legal cell (mod their number); the game's id and final state.
/// Mid-game, asking for its analysis is refused.
async fn played_to_the_end(server: &Server, pick: usize) -> (String, Value) {
    let (id, _, x) = create(server, r#"{"size":"5x5","side":"x","clock":null}"#).await;
    let (status, joined) = server
        .call("POST", &format!("/api/games/{id}/join"), None, None)
        .await;
    assert_eq!(status, 200, "{joined}");
    let o = joined["token"].as_str().unwrap().to_string();
    let mut state = crate::common::state(server, &id).await;
    for n in 0.. {
        let token = match state["to_move"].as_str() {
            Some("x") => &x,
            Some("o") => &o,
            _ => return (id, state),
        };
        if n == 4 {
            let (status, refused) = ask(server, &id).await;
            assert_eq!(code(status, &refused), (409, "not_over"), "{refused}");
        }
        let legal = state["legal"].as_array().unwrap();
        let step = legal[(pick + n) % legal.len()].clone();
        let seq = state["seq"].as_u64().unwrap();
        let step = step.as_str().unwrap();
        let (status, next) = crate::common::play(server, &id, token, seq, &[step]).await;
        assert_eq!(status, 200, "{next}");
        state = next;
        assert!(n < 200, "a 5x5 game ends");
    }
    unreachable!()
}

async fn ask(server: &Server, id: &str) -> (u16, Value) {
    server
        .call("POST", &format!("/api/games/{id}/analysis"), None, None)
        .await
}

async fn analysis(server: &Server, id: &str) -> (u16, Value) {
    server
        .call("GET", &format!("/api/games/{id}/analysis"), None, None)
        .await
}

/// Polls the analysis until it is done (at most `secs`); each answer seen
/// is checked to hold what the turns judged so far must.
async fn until_done(server: &Server, id: &str, secs: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut judged = 0;
    loop {
        let (status, a) = analysis(server, id).await;
        assert_eq!(status, 200, "{a}");
        let now = a["judged"].as_u64().unwrap();
        assert!(
            now >= judged,
            "judged turns never go back: {judged} then {now}"
        );
        assert_eq!(a["turns"].as_array().unwrap().len() as u64, now);
        judged = now;
        if a["status"] == "done" {
            return a;
        }
        assert!(Instant::now() < deadline, "not done in {secs} s: {a}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// What every whole analysis of a game that ended on the board holds.
fn check_whole(a: &Value, end: &Value, turns: usize) {
    assert_eq!(a["judged"].as_u64(), Some(turns as u64));
    assert_eq!(a["of"].as_u64(), Some(turns as u64));
    let list = a["turns"].as_array().unwrap();
    assert_eq!(list.len(), turns, "every turn judged: {a}");
    for (k, t) in list.iter().enumerate() {
        assert_eq!(t["turn"].as_u64(), Some(k as u64 + 1));
        assert_eq!(t["side"], if k % 2 == 0 { "x" } else { "o" });
        let (before, after) = (
            t["x_win_before"].as_f64().unwrap(),
            t["x_win_after"].as_f64().unwrap(),
        );
        assert!(
            (0.0..=1.0).contains(&before) && (0.0..=1.0).contains(&after),
            "{t}"
        );
        assert!(
            !t["best"].as_array().unwrap().is_empty(),
            "a best turn before each: {t}"
        );
        let loss = if t["side"] == "x" {
            before - after
        } else {
            after - before
        };
        let expected = match loss {
            l if l >= 0.15 => json!("blunder"),
            l if l >= 0.10 => json!("mistake"),
            l if l >= 0.05 => json!("inaccuracy"),
            _ => Value::Null,
        };
        // Rounded to 0.001 on the way out: a loss within that of a
        // threshold may fall either side.
        if [0.05, 0.10, 0.15]
            .iter()
            .all(|th| (loss - th).abs() > 0.002)
        {
            assert_eq!(t["judgement"], expected, "{t}");
        }
        if let Some(next) = list.get(k + 1) {
            assert_eq!(
                t["x_win_after"], next["x_win_before"],
                "one search a position"
            );
        }
    }
    let result = match end["status"].as_str().unwrap() {
        "X wins" => 1.0,
        "O wins" => 0.0,
        _ => 0.5,
    };
    assert_eq!(
        list.last().unwrap()["x_win_after"].as_f64(),
        Some(result),
        "ends in the result"
    );
    for side in ["x", "o"] {
        let accuracy = a["accuracy"][side].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&accuracy), "{a}");
    }
}

async fn a_finished_game_is_analysed_turn_by_turn(db: String) {
    let server = Server::start(db).await;
    let (id, end) = played_to_the_end(&server, 0).await;
    let (status, none) = analysis(&server, &id).await;
    assert_eq!(code(status, &none), (404, "no_analysis"), "{none}");
    let (status, queued) = ask(&server, &id).await;
    assert_eq!(status, 202, "{queued}");
    assert!(
        ["queued", "running"].contains(&queued["status"].as_str().unwrap()),
        "{queued}"
    );
    let (status, again) = ask(&server, &id).await;
    assert!(
        status == 202 || status == 200,
        "asking again is no error: {again}"
    );
    let a = until_done(&server, &id, 60).await;
    let record = crate::common::stored_record(&server, &id).await;
    check_whole(&a, &end, record.game.turns().len());
    let (status, done) = ask(&server, &id).await;
    assert_eq!(
        (status, &done),
        (200, &a),
        "asked again once done: the same analysis"
    );
    let (status, missing) = analysis(&server, "nosuchgame").await;
    assert_eq!(code(status, &missing), (404, "not_found"));
    let (aborted, _) = crate::common::aborted_game(&server).await;
    let (status, refused) = ask(&server, &aborted).await;
    assert_eq!(code(status, &refused), (409, "no_turns"), "{refused}");
    server.stop().await;
}

on_both_databases!(a_finished_game_is_analysed_turn_by_turn);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_goes_on_after_a_restart() {
    let db = fresh_sqlite("an_analysis_goes_on_after_a_restart");
    let server = Server::start(db).await;
    let (id, end) = played_to_the_end(&server, 3).await;
    assert_eq!(ask(&server, &id).await.0, 202);
    let deadline = Instant::now() + Duration::from_secs(30);
    let before = loop {
        let (_, a) = analysis(&server, &id).await;
        if a["judged"].as_u64() >= Some(1) && a["status"] == "running" {
            break a["judged"].as_u64().unwrap();
        }
        assert!(Instant::now() < deadline, "no turn judged in 30 s: {a}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let server = server.restart().await;
    let (_, after) = analysis(&server, &id).await;
    assert!(
        after["judged"].as_u64().unwrap() >= before,
        "kept: {before} then {after}"
    );
    let a = until_done(&server, &id, 60).await;
    check_whole(
        &a,
        &end,
        crate::common::stored_record(&server, &id)
            .await
            .game
            .turns()
            .len(),
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_the_analyses_and_agree() {
    let Some((a, b)) = two_servers("two_processes_share_the_analyses_and_agree").await else {
        return;
    };
    let mut games = Vec::new();
    for pick in 0..3 {
        let (id, end) = played_to_the_end(&a, pick).await;
        assert_eq!(ask(&b, &id).await.0, 202);
        games.push((id, end));
    }
    for (id, end) in &games {
        let whole = until_done(&a, id, 90).await;
        check_whole(
            &whole,
            end,
            crate::common::stored_record(&a, id)
                .await
                .game
                .turns()
                .len(),
        );
        assert_eq!(
            analysis(&b, id).await.1,
            whole,
            "both processes answer the same"
        );
    }
    a.stop().await;
    b.stop().await;
}
