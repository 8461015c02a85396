//! Every query the server makes is served by an index: each SQL statement
//! written in `src/store` (read from the source, so a new one is checked
//! without being listed here) is planned on both databases, and a plan
//! that reads a whole table that requests make grow fails the test.

use std::collections::BTreeMap;

use sqlx::Row;

use crate::common::*;

/// Tables whose rows grow with play and sign-ups. (`puzzles` is the
/// shipped set, `service` one row, `bots` read by its key only.)
const GROWING: &[&str] = &[
    "games",
    "steps",
    "accounts",
    "sessions",
    "ratings",
    "rating_changes",
    "player_games",
    "throttles",
    "analyses",
    "puzzle_attempts",
    "follows",
    "tournaments",
    "tournament_players",
    "tournament_games",
];

/// The SQL statements written as string literals in `src/store`, each
/// with where it is (file and line).
fn statements() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        // A file's own unit tests (their scratch tables) are not the store's.
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        for (line, literal) in string_literals(text) {
            let sql = literal.trim();
            let head = sql.split_whitespace().next().unwrap_or("").to_uppercase();
            // Statements built with format! hold `{…}`: only the puzzles'
            // (a shipped set) are, and they are not checked here.
            // One that ends in VALUES has its rows added in code (the
            // puzzles' seed, from placeholders).
            if ["SELECT", "UPDATE", "DELETE", "INSERT", "WITH"].contains(&head.as_str())
                && !sql.contains('{')
                && !sql.ends_with("VALUES")
            {
                out.push((format!("{name}:{line}"), sql.to_string()));
            }
        }
    }
    out
}

/// The ordinary string literals of Rust source (comments skipped), with
/// their escapes and line continuations read, and the line each starts on.
fn string_literals(text: &str) -> Vec<(usize, String)> {
    let chars: Vec<char> = text.chars().collect();
    let (mut k, mut line) = (0, 1);
    let mut out = Vec::new();
    while k < chars.len() {
        match chars[k] {
            '\n' => line += 1,
            '/' if chars.get(k + 1) == Some(&'/') => {
                while k < chars.len() && chars[k] != '\n' {
                    k += 1;
                }
                continue;
            }
            // A char literal that is a quote ('"'), not a string.
            '\'' if chars.get(k + 1) == Some(&'"') && chars.get(k + 2) == Some(&'\'') => {
                k += 3;
                continue;
            }
            '"' => {
                let start = line;
                let mut s = String::new();
                k += 1;
                while k < chars.len() && chars[k] != '"' {
                    if chars[k] == '\\' {
                        k += 1;
                        match chars.get(k) {
                            Some('\n') => {
                                line += 1;
                                while chars.get(k + 1).is_some_and(|c| c.is_whitespace()) {
                                    if chars[k + 1] == '\n' {
                                        line += 1;
                                    }
                                    k += 1;
                                }
                            }
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some(&c) => s.push(c),
                            None => {}
                        }
                    } else {
                        if chars[k] == '\n' {
                            line += 1;
                        }
                        s.push(chars[k]);
                    }
                    k += 1;
                }
                out.push((start, s));
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// How many parameters (`$N`) a statement takes.
fn parameters(sql: &str) -> usize {
    let mut most = 0;
    let b = sql.as_bytes();
    for (k, _) in sql.match_indices('$') {
        let digits: String = b[k + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .map(|&c| c as char)
            .collect();
        if let Ok(n) = digits.parse::<usize>() {
            most = most.max(n);
        }
    }
    most
}

/// The growing table each name in `sql` stands for (itself, or an alias).
fn aliases(sql: &str) -> BTreeMap<String, String> {
    let words: Vec<String> = sql
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut map = BTreeMap::new();
    for k in 0..words.len() {
        if ["from", "join", "update", "into"].contains(&words[k].as_str()) {
            if let Some(table) = words.get(k + 1).filter(|t| GROWING.contains(&t.as_str())) {
                map.insert(table.clone(), table.clone());
                let mut next = k + 2;
                if words.get(next).is_some_and(|w| w == "as") {
                    next += 1;
                }
                if let Some(alias) = words.get(next) {
                    let keyword = [
                        "where",
                        "on",
                        "join",
                        "set",
                        "order",
                        "limit",
                        "group",
                        "values",
                        "union",
                        "left",
                        "inner",
                        "select",
                        "returning",
                    ];
                    if !keyword.contains(&alias.as_str()) {
                        map.insert(alias.clone(), table.clone());
                    }
                }
            }
        }
    }
    map
}

/// Where a SQLite plan reads a whole growing table.
fn sqlite_scans(sql: &str, plan: &[String]) -> Vec<String> {
    let names = aliases(sql);
    plan.iter()
        .filter_map(|detail| {
            let rest = detail.strip_prefix("SCAN ")?;
            let name = rest.split_whitespace().next()?.to_lowercase();
            names.get(&name).map(|table| format!("{table}: {detail}"))
        })
        .collect()
}

/// Statements the server makes on PostgreSQL only (its locks and settings).
fn postgres_only(sql: &str) -> bool {
    sql.contains("pg_") || sql.contains("set_config") || sql.ends_with("FOR UPDATE")
}

async fn sqlite_plans(url: &str) -> Vec<String> {
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut failures = Vec::new();
    for (at, sql) in statements() {
        if postgres_only(&sql) {
            continue;
        }
        let mut q = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")));
        for _ in 0..parameters(&sql) {
            q = q.bind(None::<String>);
        }
        let rows = match q.fetch_all(&pool).await {
            Ok(rows) => rows,
            Err(e) => {
                failures.push(format!("{at}: does not plan on SQLite: {e}\n  {sql}"));
                continue;
            }
        };
        let plan: Vec<String> = rows
            .iter()
            .map(|r| r.try_get::<String, _>("detail").unwrap())
            .collect();
        for scan in sqlite_scans(&sql, &plan) {
            failures.push(format!("{at}: SQLite reads all of {scan}\n  {sql}"));
        }
    }
    pool.close().await;
    failures
}

async fn postgres_plans(url: &str) -> Vec<String> {
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    // The plan used whatever the values (a generic plan), with every other
    // way tried before a sequential scan: a scan that shows is the only way.
    for set in [
        "SET enable_seqscan = off",
        "SET plan_cache_mode = force_generic_plan",
    ] {
        sqlx::query(set).execute(&mut *conn).await.unwrap();
    }
    let mut failures = Vec::new();
    for (at, sql) in statements() {
        let n = parameters(&sql);
        if let Err(e) = sqlx::query(sqlx::AssertSqlSafe(format!("PREPARE planned AS {sql}")))
            .execute(&mut *conn)
            .await
        {
            failures.push(format!("{at}: does not plan on PostgreSQL: {e}\n  {sql}"));
            continue;
        }
        let nulls = vec!["NULL"; n].join(", ");
        let explain = if n == 0 {
            "EXPLAIN EXECUTE planned".to_string()
        } else {
            format!("EXPLAIN EXECUTE planned({nulls})")
        };
        let plan: Vec<String> = sqlx::query(sqlx::AssertSqlSafe(explain))
            .fetch_all(&mut *conn)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get::<String, _>(0).unwrap())
            .collect();
        sqlx::query("DEALLOCATE planned")
            .execute(&mut *conn)
            .await
            .unwrap();
        for line in &plan {
            if let Some(rest) = line.trim().split("Seq Scan on ").nth(1) {
                let table = rest.split_whitespace().next().unwrap_or("");
                if GROWING.contains(&table) {
                    failures.push(format!("{at}: PostgreSQL reads all of {table}\n  {sql}"));
                }
            }
        }
    }
    failures
}

#[test]
fn the_statements_are_read_from_the_source() {
    let all = statements();
    // Each store module holds some; a reader that found none would pass
    // every plan.
    assert!(all.len() > 60, "{} statements", all.len());
    let claim = all
        .iter()
        .find(|(_, s)| s.starts_with("UPDATE games SET x_account = $1, x_name = $2"))
        .expect("the seat claim's statement");
    assert!(
        claim.1.contains("WHERE x_token = $3 AND x_account = ''"),
        "{}",
        claim.1
    );
    assert_eq!(parameters(&claim.1), 3);
    let scans = sqlite_scans(
        "SELECT * FROM games g JOIN accounts a ON a.id = g.x_account",
        &[
            "SCAN g".into(),
            "SEARCH a USING INDEX sqlite_autoindex_accounts_1 (id=?)".into(),
        ],
    );
    assert_eq!(scans, ["games: SCAN g"]);
}

/// Games as a live server holds them, for the planners' statistics: most
/// seats anonymous and most games over, so that an index that hardly
/// narrows a query (`x_account = ''`, `finished = 1`) looks as poor to the
/// planner as it is.
async fn fill(url: &str, postgres: bool) {
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    for k in 0..GAMES {
        let account = if k % 50 == 0 {
            format!("acc{}", k % 7)
        } else {
            String::new()
        };
        sqlx::query(
            "INSERT INTO games (id, variant, start_position, x_player, o_player, x_token, o_token, \
             clock_base_ms, clock_inc_ms, x_left_ms, o_left_ms, declared, declared_side, finished, \
             created_ms, last_active_ms, x_account, result) \
             VALUES ($1, 'v', 'p', 'human', 'human', $2, $3, -1, -1, 0, 0, '', '', $4, $5, $5, $6, $7)",
        )
        .bind(format!("g{k}"))
        .bind(format!("x{k}"))
        .bind(format!("o{k}"))
        .bind(i64::from(k % 20 != 0))
        .bind(i64::from(k))
        .bind(account)
        .bind(if k % 20 != 0 { "x" } else { "" })
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::query("ANALYZE").execute(&pool).await.unwrap();
    if !postgres {
        sqlx::query("PRAGMA optimize").execute(&pool).await.unwrap();
    }
    pool.close().await;
}

const GAMES: u32 = 3000;

/// The plan a database gives a statement whose parameters are all NULL.
async fn plan_of(url: &str, postgres: bool, sql: &str) -> String {
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let n = parameters(sql);
    let text = if postgres {
        let mut conn = pool.acquire().await.unwrap();
        sqlx::query("SET plan_cache_mode = force_generic_plan")
            .execute(&mut *conn)
            .await
            .unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("PREPARE one AS {sql}")))
            .execute(&mut *conn)
            .await
            .unwrap();
        let args = vec!["NULL"; n].join(", ");
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN EXECUTE one({args})")))
            .fetch_all(&mut *conn)
            .await
            .unwrap();
        rows.iter()
            .map(|r| r.try_get::<String, _>(0).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    } else {
        let mut q = sqlx::query(sqlx::AssertSqlSafe(format!("EXPLAIN QUERY PLAN {sql}")));
        for _ in 0..n {
            q = q.bind(None::<String>);
        }
        q.fetch_all(&pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.try_get::<String, _>("detail").unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    };
    pool.close().await;
    text
}

/// A seat is claimed through its token's index, not the accounts' (the
/// claim of 500 tokens took 8 s with 20,000 games stored).
async fn claims_use_the_token_index(url: &str, postgres: bool) {
    let claim = statements()
        .into_iter()
        .find(|(_, s)| s.starts_with("UPDATE games SET x_account = $1, x_name = $2"))
        .unwrap()
        .1;
    let plan = plan_of(url, postgres, &claim).await;
    assert!(plan.contains("games_x_token"), "{plan}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_statement_is_served_by_an_index_on_both_databases() {
    let url = fresh_sqlite("plans");
    let server = Server::start(url.clone()).await;
    fill(&url, false).await;
    let mut failures = sqlite_plans(&url).await;
    claims_use_the_token_index(&url, false).await;
    server.stop().await;
    if let Some(url) = fresh_postgres("plans").await {
        let server = Server::start(url.clone()).await;
        fill(&url, true).await;
        failures.extend(postgres_plans(&url).await);
        claims_use_the_token_index(&url, true).await;
        server.stop().await;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
