//! Tournaments' edges: the schedule's arenas made ahead (once a slot,
//! however many processes), and the hostile review's findings — one
//! tournament at a time, every due one paired however many are running,
//! the finished list's pages, a deleted account.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use virus_wars_server::tournament::schedule;
use virus_wars_server::Clock;

use crate::accounts::sign_up;
use crate::challenges::call;
use crate::common::{fresh_postgres, fresh_sqlite, Server};
use crate::tournaments::{line, make_arena, tournament, tournament_until};

on_both_databases!(
    scheduled_tournaments_are_made_ahead,
    one_tournament_at_a_time_and_every_due_one_runs
);

async fn scheduled_tournaments_are_made_ahead(db: String) {
    let schedule = schedule::parse(
        "every 30m arena classic 1+0 20m casual; hourly arena paper-tactics 3+2 45m at :10",
    )
    .unwrap();
    let clock = Clock::stopped();
    let start = |db: String| {
        let (clock, schedule) = (clock.clone(), schedule.clone());
        Server::start_with(db, move |c| {
            c.clock = clock;
            c.tournaments = schedule;
        })
    };
    // Two servers on one PostgreSQL make each slot once (SQLite is one
    // process's: the second has its own).
    let b_db = if db.starts_with("postgres") {
        db.clone()
    } else {
        fresh_sqlite("scheduled_b")
    };
    let a = start(db).await;
    let b = start(b_db).await;
    let ann = sign_up(&b, "Ann").await;
    async fn listed(server: &Server, ann: &str, state: &str) -> Vec<Value> {
        let (_, list) = call(server, "GET", "/api/tournaments", ann, None).await;
        list[state].as_array().unwrap().clone()
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while listed(&b, &ann, "soon").await.len() < 2 {
        assert!(Instant::now() < deadline, "made ahead");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let soon = listed(&b, &ann, "soon").await;
    assert_eq!(soon.len(), 2, "one a slot: {soon:#?}");
    let names: Vec<&str> = soon.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"Regular classic 1+0 arena"), "{names:?}");
    assert!(
        names.contains(&"Hourly paper-tactics 3+2 arena"),
        "{names:?}"
    );
    let first = soon
        .iter()
        .map(|t| t["starts_ms"].as_i64().unwrap())
        .min()
        .unwrap();
    // Once the first starts, the next of its line is made.
    a.advance((first - clock.now_ms() as i64) as u64 + 1);
    let deadline = Instant::now() + Duration::from_secs(10);
    while listed(&b, &ann, "running").await.len() != 1 || listed(&b, &ann, "soon").await.len() != 2
    {
        assert!(
            Instant::now() < deadline,
            "{:#?}",
            listed(&b, &ann, "soon").await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    a.stop().await;
    b.stop().await;
}

async fn exec(db: &str, sql: &str) {
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(db).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// The hostile review's findings: a player in two arenas at once was
/// paired in both; 200 long arenas kept the pairing task from any other;
/// the finished list's pages skipped tournaments that started at the same
/// moment; a deleted account stayed in under its old name.
async fn one_tournament_at_a_time_and_every_due_one_runs(db: String) {
    let server = Server::start_with(db.clone(), |c| c.clock = Clock::stopped()).await;
    let now = server.clock.now_ms() as i64;
    // 250 arenas running (as many players' long ones would be), 22 finished
    // ones that all started at the same moment.
    let settings = r#"{"clock":{"base_s":60}}"#;
    let mut values = Vec::new();
    for k in 0..250 {
        values.push(format!(
            "('squat{k}', 'arena', 'Squat', '{settings}', '', 'x', 0, {}, {}, 1, 500, 'running', '')",
            now - 1000,
            now + 3_600_000
        ));
    }
    for k in 0..22 {
        values.push(format!(
            "('fin{k:02}', 'arena', 'Old', '{settings}', '', 'x', 0, 1700000000000, 1700000060000, 1, 500, 'finished', '')"
        ));
    }
    exec(
        &db,
        &format!(
            "INSERT INTO tournaments (id, kind, name, settings, category, created_by, created_ms, \
             starts_ms, ends_ms, bots, max_players, state, schedule) VALUES {}",
            values.join(", ")
        ),
    )
    .await;
    let ann = sign_up(&server, "Ann").await;
    let bo = sign_up(&server, "Bo").await;
    let ids = |v: &Value| -> Vec<String> {
        v["finished"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].as_str().unwrap().to_string())
            .collect()
    };
    let (_, page) = call(&server, "GET", "/api/tournaments", &ann, None).await;
    let first = ids(&page);
    assert_eq!(first.len(), 20);
    let path = format!(
        "/api/tournaments?finished_before=1700000000000&finished_before_id={}",
        first[19]
    );
    let (_, next) = call(&server, "GET", &path, &ann, None).await;
    assert_eq!(ids(&next), ["fin01", "fin00"], "{next}");
    // Two arenas; Ann and Bo join both: joining the second pauses the first.
    let one = make_arena(&server, &ann, json!({"rated": false, "starts_in_s": 60})).await;
    let two = make_arena(&server, &bo, json!({"rated": false, "starts_in_s": 60})).await;
    for id in [&one, &two] {
        for cookie in [&ann, &bo] {
            let path = format!("/api/tournaments/{id}/join");
            let (status, v) = call(&server, "POST", &path, cookie, None).await;
            assert_eq!(status, 200, "{v}");
        }
    }
    assert_eq!(
        line(&tournament(&server, &one, &ann).await, "Ann")["state"],
        "paused"
    );
    // Due among 250 others, the second starts and pairs them, once.
    server.advance(60_000);
    let t = tournament_until(&server, &two, &ann, "paired among 250 others", |t| {
        t["games"].as_array().unwrap().len() == 1
    })
    .await;
    assert_eq!(t["state"], "running");
    // Back in the first while the second's game goes on: not paired there.
    for cookie in [&ann, &bo] {
        let path = format!("/api/tournaments/{one}/join");
        assert_eq!(call(&server, "POST", &path, cookie, None).await.0, 200);
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let t = tournament(&server, &one, &ann).await;
    assert_eq!(t["games"], json!([]), "one game at a time: {t:#}");
    // Bo deletes his account: he is paused, under his new name.
    let body = json!({"password": crate::accounts::PASSWORD});
    let (status, v) = call(&server, "DELETE", "/api/me", &bo, Some(body)).await;
    assert_eq!(status, 204, "{v}");
    let t = tournament_until(&server, &one, &ann, "Bo renamed", |t| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["name"] != "Bo")
    })
    .await;
    let lines = t["standings"].as_array().unwrap();
    let gone = lines.iter().find(|l| l["name"] != "Ann").unwrap();
    assert_eq!(gone["state"], "paused", "{t:#}");
    server.stop().await;
}
