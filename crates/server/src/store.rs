//! Storage through sqlx's `Any` driver: one code path for SQLite and
//! PostgreSQL. Every accepted step is inserted in a transaction together
//! with the game's clocks and ending, before anyone is told of it.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

/// Why storage failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("migrations: {0}")]
    Migrate(String),
    #[error("server: {0}")]
    Io(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

/// A game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub start_position: String,
    pub players: [String; 2],
    pub token_hashes: [String; 2],
    /// (base, increment) in ms, if the game has a clock.
    pub clock: Option<(i64, i64)>,
    pub left_ms: [i64; 2],
    pub declared: String,
    pub declared_side: String,
    pub finished: bool,
    pub created_ms: i64,
}

/// A stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub seq: i64,
    pub step: String,
    pub played_ms: i64,
}

/// What changes with a turn: the clocks and the ending.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub left_ms: [i64; 2],
    pub declared: String,
    pub declared_side: String,
    pub finished: bool,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// SQLite takes one writer at a time, and a writer that finds the
    /// database busy backs off for up to 100 ms: writes queue here instead.
    writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
}

impl Store {
    /// Connects and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: readers never wait for the writer; a commit
                        // survives the process being killed.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints run on their own task (below), not
                        // inside some player's commit.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migrate(e.to_string()))?;
        if sqlite {
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
                loop {
                    tick.tick().await;
                    // PASSIVE: copies what it can without blocking writers.
                    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                        .execute(&pool)
                        .await
                    {
                        tracing::warn!(error = %e, "WAL checkpoint failed");
                    }
                }
            });
        }
        Ok(Store {
            pool,
            writer: sqlite.then(Default::default),
        })
    }

    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        let (base, inc) = g.clock.unwrap_or((-1, -1));
        sqlx::query(
            "INSERT INTO games (id, variant, start_position, x_player, o_player, x_token, o_token, \
             clock_base_ms, clock_inc_ms, x_left_ms, o_left_ms, declared, declared_side, finished, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(&g.id)
        .bind(&g.variant)
        .bind(&g.start_position)
        .bind(&g.players[0])
        .bind(&g.players[1])
        .bind(&g.token_hashes[0])
        .bind(&g.token_hashes[1])
        .bind(base)
        .bind(inc)
        .bind(g.left_ms[0])
        .bind(g.left_ms[1])
        .bind(&g.declared)
        .bind(&g.declared_side)
        .bind(g.finished as i64)
        .bind(g.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes a free seat: true if it was free and is now this token's.
    pub async fn take_seat(&self, id: &str, side: usize, hash: &str) -> Result<bool, StoreError> {
        let sql = [
            "UPDATE games SET x_token = $1 WHERE id = $2 AND x_token = ''",
            "UPDATE games SET o_token = $1 WHERE id = $2 AND o_token = ''",
        ][side];
        let done = sqlx::query(sql)
            .bind(hash)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Stores steps `first_seq + 1 ..` and the game's progress in one
    /// transaction. A step number stored before is refused by the key.
    pub async fn append(
        &self,
        id: &str,
        first_seq: i64,
        steps: &[String],
        now_ms: i64,
        progress: &Progress,
    ) -> Result<(), StoreError> {
        let _turn = match &self.writer {
            Some(w) => Some(w.lock().await),
            None => None,
        };
        let mut tx = self.pool.begin().await?;
        for (k, step) in steps.iter().enumerate() {
            sqlx::query(
                "INSERT INTO steps (game_id, seq, step, played_ms) VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(first_seq + k as i64 + 1)
            .bind(step)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE games SET x_left_ms = $1, o_left_ms = $2, declared = $3, declared_side = $4, \
             finished = $5 WHERE id = $6",
        )
        .bind(progress.left_ms[0])
        .bind(progress.left_ms[1])
        .bind(&progress.declared)
        .bind(&progress.declared_side)
        .bind(progress.finished as i64)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<StepRow>)>, StoreError> {
        let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let steps =
            sqlx::query("SELECT seq, step, played_ms FROM steps WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|r| {
                    Ok(StepRow {
                        seq: r.try_get("seq")?,
                        step: r.try_get("step")?,
                        played_ms: r.try_get("played_ms")?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok(Some((game, steps)))
    }

    /// Ids of the games not finished yet.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished = 0")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| r.try_get::<String, _>("id").ok())
            .collect())
    }
}

fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let base: i64 = r.try_get("clock_base_ms")?;
    let inc: i64 = r.try_get("clock_inc_ms")?;
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        start_position: r.try_get("start_position")?,
        players: [r.try_get("x_player")?, r.try_get("o_player")?],
        token_hashes: [r.try_get("x_token")?, r.try_get("o_token")?],
        clock: (base >= 0).then_some((base, inc)),
        left_ms: [r.try_get("x_left_ms")?, r.try_get("o_left_ms")?],
        declared: r.try_get("declared")?,
        declared_side: r.try_get("declared_side")?,
        finished: r.try_get::<i64, _>("finished")? != 0,
        created_ms: r.try_get("created_ms")?,
    })
}
