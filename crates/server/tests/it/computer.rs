//! The computer as a hostile client meets it: turns that think within
//! their clock while many queue (and new games refused past a bound), a
//! bot that challenges itself, and offers made again and again during the
//! computer's turn.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{
    act, create, fresh_sqlite, metric, play, register_bot, state, state_until, Server,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_thinks_within_its_clock_and_its_queue_is_bounded() {
    let server = Server::start_with(fresh_sqlite("computer_bounds"), |c| {
        c.computer_workers = 1;
    })
    .await;
    // The reported case: level 9 with a 1 s clock lost on time before its
    // first step (it thought its own 2-3 s).
    let (id, _, _) = create(
        &server,
        r#"{"size":"7x7","side":"o","opponent":"level:9","clock":{"base_s":1,"inc_s":0}}"#,
    )
    .await;
    let s = state_until(&server, &id, (10, 50), "the computer plays", |s| {
        s["seq"].as_u64() > Some(0) || !s["to_move"].is_string()
    })
    .await;
    assert!(
        s["seq"].as_u64() > Some(0),
        "the computer stepped in time: {s}"
    );
    // The reported case: anonymous clients queue long computer turns
    // without bound, and the computer loses on time in other games while
    // its turns wait. Now new games against the computer are refused once
    // 4 turns a worker wait.
    let mut refused = 0;
    let mut accepted = 0;
    for _ in 0..12 {
        let (status, v) = server
            .call(
                "POST",
                "/api/games",
                None,
                Some(r#"{"size":"19x19","steps":99,"first":99,"side":"o","opponent":"level:8"}"#),
            )
            .await;
        match status {
            201 => {
                // Its turn counted in the queue before the next game is
                // asked for (on a loaded machine the turn may start late).
                accepted += 1;
                let queued = f64::from((accepted - 1).min(4));
                let until = Instant::now() + Duration::from_secs(2);
                while metric(&server, "vw_ai_queue").await < queued && Instant::now() < until {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            }
            503 => {
                assert_eq!(v["error"]["code"], "busy", "{v}");
                refused += 1;
            }
            _ => panic!("{status} {v}"),
        }
    }
    assert!(refused >= 6, "{refused} refused of 12");
    assert!(metric(&server, "vw_ai_queue").await <= 4.0);
    // The second reported case: a short clock against the computer while
    // its turns queue. Its clock does not run while its turn waits for a
    // worker (here behind several 2 s searches), so it steps in time.
    let (id, _, _) = loop {
        let (status, v) = server
            .call(
                "POST",
                "/api/games",
                None,
                Some(r#"{"size":"7x7","side":"o","opponent":"level:1","clock":{"base_s":2,"inc_s":0}}"#),
            )
            .await;
        if status == 201 {
            break (
                v["id"].as_str().unwrap().to_string(),
                String::new(),
                String::new(),
            );
        }
        assert_eq!(status, 503, "{v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let s = state_until(&server, &id, (60, 100), "the computer plays", |s| {
        s["seq"].as_u64() > Some(0) || !s["to_move"].is_string()
    })
    .await;
    assert!(
        s["seq"].as_u64() > Some(0),
        "the computer stepped, not lost on time: {s}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_cannot_challenge_itself() {
    let server = Server::start(fresh_sqlite("self_challenge")).await;
    let token = register_bot(&server, "narcissus").await;
    let itself = r#"{"size":"5x5","opponent":"bot:narcissus"}"#;
    let (status, v) = server
        .call("POST", "/api/games", Some(&token), Some(itself))
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("cannot challenge itself"));
}

/// A 7×7 game of the pass rule with 5 minutes each, against the computer
/// at `level` playing X: its id and O's token.
async fn against_the_computer(server: &Server, level: u8) -> (String, String) {
    let body = json!({
        "variant": "classic-pass", "size": "7x7", "opponent": format!("level:{level}"),
        "side": "o", "clock": {"base_s": 300, "inc_s": 0},
    });
    let (id, _, o) = create(server, &body.to_string()).await;
    (id, o)
}

/// Plays O's first legal step (seat token `o`) while O is to move from
/// state `s`; the state after.
async fn plays_first_steps(server: &Server, id: &str, o: &str, mut s: Value) -> Value {
    while s["to_move"] == "o" {
        let step = s["legal"][0].as_str().unwrap().to_string();
        let (status, v) = play(server, id, o, s["seq"].as_u64().unwrap(), &[&step]).await;
        assert_eq!(status, 200, "{v}");
        s = v;
    }
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offering_a_draw_again_and_again_does_not_stall_the_computer() {
    let server = Server::start(fresh_sqlite("draw_stall")).await;
    // The reported case: O offers a draw every 0.5 s while the computer
    // (X) thinks; each offer was stored as a change, which cancelled the
    // computer's search, and it never moved (40 s).
    let (id, o) = against_the_computer(&server, 7).await;
    let wait_for = |want: &'static str| {
        let server = &server;
        let id = id.clone();
        async move {
            state_until(server, &id, (20, 50), &format!("{want} to move"), |s| {
                s["to_move"] == want
            })
            .await
        }
    };
    let s = plays_first_steps(&server, &id, &o, wait_for("o").await).await;
    // The computer's clock is shown stopped during its turn.
    assert!(s["clocks"]["running"].is_null(), "{s}");
    let seq = s["seq"].as_u64().unwrap();
    let path = format!("/api/games/{id}/draw");
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let (status, v) = server.call("POST", &path, Some(&o), None).await;
        assert!(status == 200 || status == 409, "{status} {v}");
        if state(&server, &id).await["seq"].as_u64() > Some(seq) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer moves despite the offers"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_offer_during_the_computers_turn_does_not_restart_its_search() {
    let server = Server::start(fresh_sqlite("offer_search")).await;
    // Level 8 thinks 2 s, past the lease's first renewal (1.7 s): an offer
    // made meanwhile changed the game's version, the renewal failed, the
    // search was thrown away and started again with a fresh clock.
    let (id, o) = against_the_computer(&server, 8).await;
    let s = state_until(&server, &id, (30, 50), "O to move", |s| s["to_move"] == "o").await;
    // Counted before O's turn hands the move over (a search is counted as
    // it starts).
    let searched = metric(&server, "vw_ai_searches_total").await;
    let s = plays_first_steps(&server, &id, &o, s).await;
    let seq = s["seq"].as_u64().unwrap();
    // The offer comes once the computer's search has started.
    let deadline = Instant::now() + Duration::from_secs(10);
    while metric(&server, "vw_ai_searches_total").await <= searched {
        assert!(Instant::now() < deadline, "the computer's search starts");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (status, v) = act(&server, &id, &o, "draw").await;
    assert_eq!(status, 200, "{v}");
    state_until(&server, &id, (30, 50), "the computer moves", |s| {
        s["seq"].as_u64() > Some(seq)
    })
    .await;
    assert_eq!(
        metric(&server, "vw_ai_searches_total").await - searched,
        1.0,
        "one search for the computer's turn, the offer notwithstanding"
    );
}
