//! Arena results in SQLite (sqlx), one row a match and one a game, so that
//! many runs can be compared later with plain SQL.

use std::path::Path;

use anyhow::{Context, Result};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool};
use virus_wars_ai::arena::GameReport;

pub struct Store {
    runtime: tokio::runtime::Runtime,
    pool: SqlitePool,
    match_id: i64,
}

impl Store {
    /// Opens (creating if needed) the database and registers a match.
    pub fn open(
        path: &Path,
        a: &str,
        b: &str,
        variant: &str,
        time_ms: Option<u128>,
        games: u32,
    ) -> Result<Store> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true);
        let (pool, match_id) = runtime.block_on(async {
            let pool = SqlitePool::connect_with(options).await?;
            sqlx::migrate!("./migrations").run(&pool).await?;
            let started = format!("{:?}", std::time::SystemTime::now());
            let id = sqlx::query(
                "INSERT INTO matches (started_at, a, b, variant, time_per_turn_ms, games_planned) VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(started)
            .bind(a)
            .bind(b)
            .bind(variant)
            .bind(time_ms.map(|t| t as i64))
            .bind(games as i64)
            .execute(&pool)
            .await?
            .last_insert_rowid();
            anyhow::Ok((pool, id))
        })
        .with_context(|| format!("cannot open the results database {}", path.display()))?;
        Ok(Store {
            runtime,
            pool,
            match_id,
        })
    }

    pub fn match_id(&self) -> i64 {
        self.match_id
    }

    pub fn save(&self, g: &GameReport) -> Result<()> {
        self.runtime
            .block_on(
                sqlx::query("INSERT INTO games (match_id, idx, a_is_x, a_points, termination, record) VALUES (?, ?, ?, ?, ?, ?)")
                    .bind(self.match_id)
                    .bind(g.index as i64)
                    .bind(g.a_is_x)
                    .bind(g.a_points())
                    .bind(&g.termination)
                    .bind(g.record.write())
                    .execute(&self.pool),
            )
            .context("cannot store a game result")?;
        Ok(())
    }

    /// A's points and games stored for this match (to check what was written).
    pub fn totals(&self) -> Result<(f64, i64)> {
        let row: (f64, i64) = self.runtime.block_on(
            sqlx::query_as(
                "SELECT COALESCE(SUM(a_points), 0.0), COUNT(*) FROM games WHERE match_id = ?",
            )
            .bind(self.match_id)
            .fetch_one(&self.pool),
        )?;
        Ok(row)
    }
}
