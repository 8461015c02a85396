//! Players: a player's page, the archive and its filters, a rating's
//! history, the leaderboards; on SQLite and PostgreSQL.

use serde_json::Value;

use crate::accounts::{sign_up, with_cookie};
use crate::common::{act, code, fresh_postgres, fresh_sqlite, Server};
use crate::rated::play_turn;

on_both_databases!(players_pages_archives_and_leaderboards);

/// A rated 5×5 blitz game (category `other-blitz`) between `x` and `o`,
/// played to a resignation by `loser` (`x` or `o`); its id.
async fn rated_5x5(server: &Server, x: &str, o: &str, loser: &str) -> String {
    let body = r#"{"size":"5x5","side":"x","rated":true,"clock":{"base_s":180,"inc_s":2}}"#;
    let (id, xt, ot) = crate::rated::rated_game_with(server, x, o, body).await;
    let (xt, ot) = (xt.as_str(), ot.as_str());
    play_turn(server, &id, xt, "x").await;
    play_turn(server, &id, ot, "o").await;
    let (status, v) = act(server, &id, if loser == "x" { xt } else { ot }, "resign").await;
    assert_eq!(status, 200, "{v}");
    id
}

async fn get(server: &Server, path: &str) -> (u16, Value) {
    server.call("GET", path, None, None).await
}

async fn players_pages_archives_and_leaderboards(db: String) {
    let server = Server::start(db).await;
    let (ann, bo, cy) = (
        sign_up(&server, "Ann").await,
        sign_up(&server, "bo").await,
        sign_up(&server, "cy").await,
    );
    // Ann and Bo play (Ann wins two in three) until Ann's rating is no
    // longer provisional; then a casual game with Cy, and one called off.
    let (mut games, mut wins) = (0, 0);
    loop {
        let ann_wins = games % 3 != 2;
        rated_5x5(&server, &ann, &bo, if ann_wins { "o" } else { "x" }).await;
        games += 1;
        wins += i64::from(ann_wins);
        let (_, me) = get(&server, "/api/players/ann").await;
        if me["ratings"]["other-blitz"]["provisional"] == false {
            break;
        }
        assert!(games < 60, "still provisional after {games} games: {me}");
    }
    let casual = r#"{"size":"5x5","side":"o"}"#;
    let (_, _, c) = with_cookie(&server, "POST", "/api/games", Some(&ann), Some(casual)).await;
    let casual_id = c["id"].as_str().unwrap().to_string();
    let (_, _, j) = with_cookie(
        &server,
        "POST",
        &format!("/api/games/{casual_id}/join"),
        Some(&cy),
        None,
    )
    .await;
    play_turn(&server, &casual_id, j["token"].as_str().unwrap(), "x").await;
    play_turn(&server, &casual_id, c["token"].as_str().unwrap(), "o").await;
    act(&server, &casual_id, j["token"].as_str().unwrap(), "resign").await;
    let (_, _, called_off) =
        with_cookie(&server, "POST", "/api/games", Some(&ann), Some(casual)).await;
    act(
        &server,
        called_off["id"].as_str().unwrap(),
        called_off["token"].as_str().unwrap(),
        "abort",
    )
    .await;

    let (status, page) = get(&server, "/api/players/ANN").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["name"], "Ann");
    assert_eq!(
        (
            page["played"].as_i64(),
            page["won"].as_i64(),
            page["lost"].as_i64(),
            page["drawn"].as_i64()
        ),
        (Some(games + 1), Some(wins + 1), Some(games - wins), Some(0)),
        "{page}"
    );
    assert_eq!(page["streak"]["result"], "won");
    assert!(page["streak"]["games"].as_i64() >= Some(1));
    let ann_rating = page["ratings"]["other-blitz"]["rating"].as_f64().unwrap();
    assert!(ann_rating > 1500.0);
    let (status, v) = get(&server, "/api/players/nobody").await;
    assert_eq!(code(status, &v), (404, "not_found"));

    // The archive: newest first, a page at a time, filtered.
    let (_, first) = get(&server, "/api/players/Ann/games?limit=3").await;
    let listed = first["games"].as_array().unwrap();
    assert_eq!(listed.len(), 3);
    assert_eq!(
        listed[0]["id"], casual_id,
        "the newest first; called off left out"
    );
    assert_eq!(
        (listed[0]["result"].as_str(), listed[0]["rated"].as_bool()),
        (Some("won"), Some(false))
    );
    assert_eq!(listed[0]["opponent"]["name"], "cy");
    let moved = &listed[1]["rating"];
    let up = moved["after"].as_f64() > moved["before"].as_f64();
    assert_eq!(up, listed[1]["result"] == "won", "{moved}");
    let mut seen = 3;
    let mut next = first["next"].as_str().map(String::from);
    while let Some(before) = next {
        let (_, more) = get(
            &server,
            &format!("/api/players/Ann/games?limit=3&before={before}"),
        )
        .await;
        seen += more["games"].as_array().unwrap().len() as i64;
        next = more["next"].as_str().map(String::from);
    }
    assert_eq!(seen, games + 1, "every finished game once");
    for (query, count) in [
        ("rated=false", 1),
        ("rated=true", games),
        ("opponent=CY", 1),
        ("opponent=nobody", 0),
        ("result=lost", games - wins),
        ("result=aborted", 1),
        ("variant=classic", 0),
        ("variant=other&result=won&rated=true", wins),
    ] {
        let (status, v) = get(
            &server,
            &format!("/api/players/ann/games?limit=100&{query}"),
        )
        .await;
        assert_eq!(status, 200, "{query}: {v}");
        assert_eq!(
            v["games"].as_array().unwrap().len() as i64,
            count,
            "{query}"
        );
    }
    for bad in [
        "result=maybe",
        "variant=chess",
        "limit=0",
        "before=yesterday",
        "colour=x",
    ] {
        let (status, v) = get(&server, &format!("/api/players/ann/games?{bad}")).await;
        assert_eq!(code(status, &v), (400, "malformed"), "{bad}: {v}");
    }
    // Bo's side of the same games.
    let (_, bo_games) = get(&server, "/api/players/bo/games?limit=100").await;
    let bo_games = bo_games["games"].as_array().unwrap();
    assert_eq!(bo_games.len() as i64, games);
    assert_eq!(
        bo_games.iter().filter(|g| g["result"] == "lost").count() as i64,
        wins
    );
    assert_eq!(bo_games[0]["opponent"]["name"], "Ann");

    // The rating's history: one point a rated game, oldest first.
    let (_, history) = get(&server, "/api/players/ann/ratings/other-blitz").await;
    let points = history.as_array().unwrap();
    assert_eq!(points.len() as i64, games);
    assert_eq!(
        points[0]["before"].as_f64(),
        Some(1500.0),
        "where she started"
    );
    assert_eq!(points.last().unwrap()["rating"].as_f64(), Some(ann_rating));
    let (status, _) = get(&server, "/api/players/ann/ratings/chess-blitz").await;
    assert_eq!(status, 404);

    // The leaderboard: Ann, whose rating is settled, first (Bo's is as
    // settled or not, and lower); Cy has none.
    let (status, board) = get(&server, "/api/leaderboard/other-blitz").await;
    assert_eq!(status, 200, "{board}");
    let board = board.as_array().unwrap();
    assert_eq!(
        (board[0]["rank"].as_i64(), board[0]["name"].as_str()),
        (Some(1), Some("Ann"))
    );
    assert!(board.len() <= 2);
    assert!(board.iter().all(|l| l["rd"].as_f64().unwrap() < 110.0));
    assert!(board.iter().all(|l| l["name"] != "cy"));
    // Apart: those still provisional.
    let (_, provisional) = get(&server, "/api/leaderboard/other-blitz?provisional=true").await;
    let provisional = provisional.as_array().unwrap();
    assert!(provisional
        .iter()
        .all(|l| l["rd"].as_f64().unwrap() >= 110.0 && l["name"] != "Ann"));
    assert_eq!(provisional.len() + board.len(), 2, "Ann and Bo, each once");
    let (status, v) = get(&server, "/api/leaderboard/other-blitz?provisional=maybe").await;
    assert_eq!(code(status, &v), (400, "malformed"));
    let (_, empty) = get(&server, "/api/leaderboard/classic-blitz").await;
    assert_eq!(empty, serde_json::json!([]));
    // The overview: only the categories somebody is rated in, each with
    // the same top as its own board.
    let (status, overview) = get(&server, "/api/leaderboard").await;
    assert_eq!(status, 200, "{overview}");
    let categories: Vec<&str> = overview
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["category"].as_str().unwrap())
        .collect();
    assert_eq!(categories, ["other-blitz"], "{overview}");
    assert_eq!(overview[0]["leaders"][0], board[0]);
    assert_eq!(
        overview[0]["provisional"].as_array().unwrap().len(),
        provisional.len()
    );
    // Export: every finished game, as records one after another and as
    // JSON lines, each read back whole.
    let (status, vwr) = server
        .raw("GET", "/api/players/ann/export", None, None)
        .await;
    assert_eq!(status, 200);
    let records: Vec<String> = vwr
        .split("\n[Event ")
        .enumerate()
        .map(|(k, part)| {
            if k == 0 {
                part.to_string()
            } else {
                format!("[Event {part}")
            }
        })
        .filter(|part| !part.trim().is_empty())
        .collect();
    assert_eq!(records.len() as i64, games + 1, "{vwr}");
    for text in &records {
        let r = virus_wars_rules::record::read(text).unwrap_or_else(|e| panic!("{e}: {text}"));
        assert!(r.x_player == "Ann" || r.o_player == "Ann", "{text}");
        assert!(r.ending().is_some(), "each game finished: {text}");
    }
    let (status, lines) = server
        .raw("GET", "/api/players/ann/export?format=jsonl", None, None)
        .await;
    assert_eq!(status, 200);
    let lines: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as i64, games + 1);
    assert_eq!(lines[0]["id"], casual_id);
    assert!(lines[0]["steps"].as_array().is_some_and(|s| !s.is_empty()));
    let (status, v) = get(&server, "/api/players/ann/export?format=pgn").await;
    assert_eq!(code(status, &v), (400, "malformed"));
    let _ = cy;
    server.stop().await;
}
