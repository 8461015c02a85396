//! The puzzle trainer (docs/api.md, Puzzles): the shipped set in the
//! database, the next puzzle at the player's rating, each turn judged,
//! ratings moved once per account and puzzle, even by two processes at
//! once; on SQLite and PostgreSQL.

use serde_json::{json, Value};
use virus_wars_ai::puzzles::{self, Puzzle};
use virus_wars_rules::AnyPosition;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{code, fresh_postgres, fresh_sqlite, two_servers, Server};

on_both_databases!(
    a_player_solves_and_fails_and_its_rating_moves_once,
    bad_tries_say_what_is_wrong,
    puzzles_come_varied_and_a_try_counts_at_once
);

/// A start puts the shipped set back over what the database holds (a
/// mended solution or themes reach it), keeping what play did.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_brings_the_shipped_set_back_and_keeps_ratings() {
    let db = fresh_sqlite("a_start_brings_the_shipped_set_back_and_keeps_ratings");
    let server = Server::start(db.clone()).await;
    let (_, p) = next(&server, None, "?theme=bunker").await;
    let id = p["id"].as_str().unwrap().to_string();
    let ann = sign_up(&server, "Ann").await;
    let v = solve(&server, Some(&ann), &id).await;
    let rated = v["puzzle_rating"].clone();
    server.stop().await;
    // The stored puzzle changed behind the server's back.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&db).await.unwrap();
    sqlx::query("UPDATE puzzles SET themes = ',', preset = 'other' WHERE id = $1")
        .bind(&id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let server = Server::start(db.clone()).await;
    let (_, again) = server
        .call("GET", &format!("/api/puzzles/{id}"), None, None)
        .await;
    assert_eq!(again["themes"], p["themes"], "the set's themes again");
    assert_eq!(again["variant"], p["variant"]);
    assert_eq!(again["rating"], rated, "the rating play gave it, kept");
    assert_eq!(again["plays"], 1);
    // The one puzzle left of a theme and variant (the others unshipped
    // while the server runs): asked for again, past `not`, it comes again
    // rather than none (it was a 404).
    let pool = sqlx::AnyPool::connect(&db).await.unwrap();
    sqlx::query("UPDATE puzzles SET shipped = 0 WHERE preset = $2 AND id <> $1")
        .bind(&id)
        .bind(again["variant"].as_str().unwrap())
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let query = format!("?variant={}&not={id}", again["variant"].as_str().unwrap());
    let (status, only) = next(&server, None, &query).await;
    assert_eq!(
        (status, only["id"].as_str()),
        (200, Some(id.as_str())),
        "{only}"
    );
    server.stop().await;
}

/// The shipped puzzle `id`.
fn shipped(id: &str) -> Puzzle {
    puzzles::shipped()
        .unwrap()
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("puzzle {id} is shipped"))
}

fn cells(turn: &[virus_wars_rules::Step]) -> Vec<String> {
    turn.iter().map(|s| s.to_string()).collect()
}

/// A whole turn from `p` that does not leave the board as `right` does:
/// each step the first legal cell, or the last.
fn wrong_turn(p: &AnyPosition, right: &[virus_wars_rules::Step]) -> Vec<String> {
    let mut after_right = *p;
    right.iter().for_each(|&s| after_right.play(s).unwrap());
    for last in [false, true] {
        let (mut q, mut steps) = (*p, Vec::new());
        while q.outcome().is_none() && q.side() == p.side() && q.turn() == p.turn() {
            let legal = q.legal_steps();
            let s = if last {
                legal[legal.len() - 1]
            } else {
                legal[0]
            };
            q.play(s).unwrap();
            steps.push(s);
        }
        if q != after_right {
            return cells(&steps);
        }
    }
    panic!("no other turn")
}

async fn try_line(
    server: &Server,
    cookie: Option<&str>,
    id: &str,
    line: &[String],
) -> (u16, Value) {
    let body = json!({ "steps": line }).to_string();
    let (status, _, v) = with_cookie(
        server,
        "POST",
        &format!("/api/puzzles/{id}/attempt"),
        cookie,
        Some(&body),
    )
    .await;
    (status, v)
}

/// Plays puzzle `id`'s solution turn by turn; the last answer.
async fn solve(server: &Server, cookie: Option<&str>, id: &str) -> Value {
    let p = shipped(id);
    let mut line = Vec::new();
    for (k, turn) in p.solution.iter().enumerate().step_by(2) {
        line.extend(cells(turn));
        let (status, v) = try_line(server, cookie, id, &line).await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["correct"], true, "{v}");
        let done = k + 1 == p.solution.len();
        assert_eq!(v["done"], done, "{v}");
        if done {
            let whole: Vec<Vec<String>> = p.solution.iter().map(|t| cells(t)).collect();
            assert_eq!(v["solution"], json!(whole));
            // Where the solution leaves the game on, one way on to its end
            // (the solver's); none where it ends the game.
            let end = p
                .line_to_end(&mut virus_wars_ai::solve::Solver::new(
                    virus_wars_ai::puzzles::FINISH_NODES,
                ))
                .unwrap();
            let end: Vec<Vec<String>> = end.iter().map(|t| cells(t)).collect();
            assert_eq!(v["to_the_end"], json!(end), "{v}");
            return v;
        }
        assert_eq!(v["reply"], json!(cells(&p.solution[k + 1])));
        assert_eq!(v["solution"], Value::Null, "not before the end");
        line.extend(cells(&p.solution[k + 1]));
    }
    unreachable!()
}

async fn next(server: &Server, cookie: Option<&str>, query: &str) -> (u16, Value) {
    let (status, _, v) = with_cookie(
        server,
        "GET",
        &format!("/api/puzzles/next{query}"),
        cookie,
        None,
    )
    .await;
    (status, v)
}

async fn a_player_solves_and_fails_and_its_rating_moves_once(db: String) {
    let server = Server::start(db).await;
    // Anybody gets a puzzle, drawn with what a board needs.
    let (status, p) = next(&server, None, "").await;
    assert_eq!(status, 200, "{p}");
    assert!(!p["start"]["legal"].as_array().unwrap().is_empty(), "{p}");
    assert!(p["start"]["to_move"].is_string());
    assert!(p["turns_to_find"].as_u64().unwrap() >= 1);
    assert_eq!(p["your_rating"], Value::Null);
    let (status, themed) = next(&server, None, "?theme=fortress&variant=classic").await;
    assert_eq!(status, 200, "{themed}");
    assert!(themed["themes"]
        .as_array()
        .unwrap()
        .contains(&json!("fortress")));
    assert_eq!(themed["variant"], "classic");
    // Solved anonymously: right, and nothing rated.
    let v = solve(&server, None, p["id"].as_str().unwrap()).await;
    assert_eq!(v["your_rating"], Value::Null);

    let ann = sign_up(&server, "Ann").await;
    let mut rating = 1500.0;
    let mut seen = std::collections::HashSet::new();
    // Logged in, before any puzzle: the rating every account starts from
    // (the page said "Log in to have a puzzle rating" to her).
    let (_, first) = next(&server, Some(&ann), "").await;
    assert_eq!(first["your_rating"]["rating"], 1500.0, "{first}");
    assert_eq!(first["your_rating"]["provisional"], true, "{first}");
    assert_eq!(first["your_rating"]["games"], 0, "{first}");
    // Ten solved, each a puzzle not tried before: the rating climbs.
    for _ in 0..10 {
        let (status, p) = next(&server, Some(&ann), "").await;
        assert_eq!(status, 200, "{p}");
        assert_eq!(p["tried"], false);
        let id = p["id"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "{id} given twice");
        let v = solve(&server, Some(&ann), &id).await;
        let after = v["your_rating"]["after"].as_f64().expect("rated");
        assert_eq!(v["your_rating"]["before"].as_f64().unwrap(), rating);
        assert!(after > rating, "{v}");
        rating = after;
    }
    // The same one again: right, and nothing moves.
    let again = seen.iter().next().unwrap().clone();
    let v = solve(&server, Some(&ann), &again).await;
    assert_eq!(v["your_rating"], Value::Null, "once per puzzle");
    let (_, _, shown) = with_cookie(
        &server,
        "GET",
        &format!("/api/puzzles/{again}"),
        Some(&ann),
        None,
    )
    .await;
    assert_eq!(shown["tried"], true);
    assert_eq!(shown["your_rating"]["games"], 10);
    // A wrong turn fails the puzzle, whatever follows it (a step after it
    // cannot turn the try into a question): the solution is shown, the
    // rating falls.
    let (_, p) = next(&server, Some(&ann), "").await;
    let id = p["id"].as_str().unwrap();
    let puzzle = shipped(id);
    let mut probe = wrong_turn(&puzzle.position, &puzzle.solution[0]);
    probe.push("a1".into());
    let (status, v) = try_line(&server, Some(&ann), id, &probe).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["correct"].clone(), v["done"].clone()),
        (json!(false), json!(false))
    );
    assert_eq!(v["solution"][0], json!(cells(&puzzle.solution[0])));
    assert!(v["your_rating"]["after"].as_f64().unwrap() < rating, "{v}");
    // The account's page and its chart know the puzzle rating.
    let (_, _, me) = with_cookie(&server, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(me["ratings"]["puzzles"]["games"], 11, "{me}");
    let (status, chart) = server
        .call("GET", "/api/players/Ann/ratings/puzzles", None, None)
        .await;
    assert_eq!(status, 200, "{chart}");
    assert_eq!(chart.as_array().unwrap().len(), 11);
    assert!(chart[0]["game_id"].as_str().unwrap().starts_with("puzzle:"));
    // A restart keeps what play did to the puzzles' ratings.
    let (_, before) = server
        .call("GET", &format!("/api/puzzles/{id}"), None, None)
        .await;
    assert_eq!(before["plays"], 1);
    let server = server.restart().await;
    let (_, after) = server
        .call("GET", &format!("/api/puzzles/{id}"), None, None)
        .await;
    assert_eq!(after["rating"], before["rating"]);
    assert_eq!(after["plays"], 1);
    server.stop().await;
}

/// One after another (each asking `not` the last), puzzles change their
/// variant and their themes unless the player chose them, for anybody and
/// for an account; a first try's answer counts it in the puzzle's figures.
async fn puzzles_come_varied_and_a_try_counts_at_once(db: String) {
    let server = Server::start(db).await;
    let ann = sign_up(&server, "Ann").await;
    for cookie in [None, Some(ann.as_str())] {
        let mut last: Option<Value> = None;
        for _ in 0..12 {
            let query = last
                .as_ref()
                .map(|p| format!("?not={}", p["id"].as_str().unwrap()))
                .unwrap_or_default();
            let (status, p) = next(&server, cookie, &query).await;
            assert_eq!(status, 200, "{p}");
            if let Some(l) = &last {
                assert_ne!(p["variant"], l["variant"], "{p} after {l}");
                assert_ne!(p["themes"], l["themes"], "{p} after {l}");
            }
            last = Some(p);
        }
        // A chosen variant comes every time.
        let l = last.unwrap();
        let (_, p) = next(
            &server,
            cookie,
            &format!(
                "?variant={}&not={}",
                l["variant"].as_str().unwrap(),
                l["id"].as_str().unwrap()
            ),
        )
        .await;
        assert_eq!(p["variant"], l["variant"], "chosen: {p}");
    }
    // Ann's first try counts at once in the answer; her second does not.
    let (_, p) = next(&server, Some(&ann), "").await;
    let id = p["id"].as_str().unwrap();
    let v = solve(&server, Some(&ann), id).await;
    assert_eq!(
        (v["plays"].as_i64(), v["solved"].as_i64()),
        (
            Some(p["plays"].as_i64().unwrap() + 1),
            Some(p["solved"].as_i64().unwrap() + 1)
        ),
        "{v}"
    );
    let again = solve(&server, Some(&ann), id).await;
    assert_eq!(
        (again["plays"].clone(), again["solved"].clone()),
        (v["plays"].clone(), v["solved"].clone())
    );
    server.stop().await;
}

async fn bad_tries_say_what_is_wrong(db: String) {
    let server = Server::start(db).await;
    let (_, p) = next(&server, None, "").await;
    let id = p["id"].as_str().unwrap();
    let puzzle = shipped(id);
    let first = cells(&puzzle.solution[0]);
    for (query, says) in [
        ("?theme=zugzwang", "theme 'zugzwang' is not one of"),
        ("?variant=chess", "variant 'chess' is not one of"),
    ] {
        let (status, v) = next(&server, None, query).await;
        assert_eq!(code(status, &v), (400, "malformed"), "{v}");
        assert!(
            v["error"]["message"].as_str().unwrap().contains(says),
            "{v}"
        );
    }
    let (status, v) = server
        .call("GET", "/api/puzzles/0123456789abcdef", None, None)
        .await;
    assert_eq!(code(status, &v), (404, "not_found"));
    let (status, v) = try_line(&server, None, "0123456789abcdef", &first).await;
    assert_eq!(code(status, &v), (404, "not_found"));
    let (status, v) = try_line(&server, None, id, &[]).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    let (status, v) = try_line(&server, None, id, &first[..1]).await;
    if puzzle.solution[0].len() > 1 {
        assert_eq!(code(status, &v), (400, "malformed"), "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .contains("inside a turn"),
            "{v}"
        );
    }
    let twice = vec![first[0].clone(), first[0].clone()];
    let (status, v) = try_line(&server, None, id, &twice).await;
    if puzzle.solution[0].len() > 1 {
        assert_eq!(code(status, &v), (422, "illegal_step"), "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .unwrap()
                .starts_with("step 2 ("),
            "{v}"
        );
    }
    let (status, v) = try_line(&server, None, id, &["z9".to_string()]).await;
    assert_eq!(code(status, &v), (400, "malformed"), "{v}");
    if puzzle.solution.len() > 1 {
        let mut line = first.clone();
        line.extend(cells(&puzzle.solution[1]));
        let (status, v) = try_line(&server, None, id, &line).await;
        assert_eq!(code(status, &v), (409, "off_the_line"), "{v}");
    }
    server.stop().await;
}

/// One account's first try at one puzzle, sent to two processes at once:
/// the ratings move once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_rate_a_first_try_once() {
    let Some((a, b)) = two_servers("two_processes_rate_a_first_try_once").await else {
        return;
    };
    let ann = sign_up(&a, "Ann").await;
    for _ in 0..5 {
        let (_, p) = next(&a, Some(&ann), "").await;
        let id = p["id"].as_str().unwrap().to_string();
        let puzzle = shipped(&id);
        let wrong = wrong_turn(&puzzle.position, &puzzle.solution[0]);
        let (x, y) = tokio::join!(
            try_line(&a, Some(&ann), &id, &wrong),
            try_line(&b, Some(&ann), &id, &wrong)
        );
        assert_eq!((x.0, y.0), (200, 200), "{x:?} {y:?}");
        let rated = [&x.1, &y.1]
            .iter()
            .filter(|v| !v["your_rating"].is_null())
            .count();
        assert_eq!(rated, 1, "{x:?} {y:?}");
        let (_, shown) = b
            .call("GET", &format!("/api/puzzles/{id}"), None, None)
            .await;
        assert_eq!(shown["plays"], 1);
    }
    let (_, _, me) = with_cookie(&b, "GET", "/api/me", Some(&ann), None).await;
    assert_eq!(me["ratings"]["puzzles"]["games"], 5, "{me}");
    a.stop().await;
    b.stop().await;
}

/// A solution that leaves the game on (the other side then loses whatever
/// it plays) comes with one way on to the end, which plays to the mover's
/// win; a second try's answer gives the same line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_solution_that_leaves_the_game_on_comes_with_a_line_to_its_end() {
    let server = Server::start(fresh_sqlite("a_solution_that_leaves_the_game_on")).await;
    let open = puzzles::shipped()
        .unwrap()
        .into_iter()
        .find(|p| p.after_solution().outcome().is_none())
        .expect("the set has solutions that leave the game on");
    let v = solve(&server, None, &open.id).await;
    let end = v["to_the_end"].as_array().unwrap().clone();
    assert!(!end.is_empty(), "{v}");
    let mut at = open.after_solution();
    for turn in &end {
        let cells: Vec<&str> = turn
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        for step in virus_wars_rules::notation::parse_steps(&cells.join(" ")).unwrap() {
            at.play(step).unwrap();
        }
    }
    assert_eq!(
        at.outcome(),
        Some(virus_wars_rules::Outcome::Win(open.position.side()))
    );
    let again = solve(&server, None, &open.id).await;
    assert_eq!(again["to_the_end"], v["to_the_end"]);
    server.stop().await;
}
