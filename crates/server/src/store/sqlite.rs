//! SQLite's side of the store: how each connection is set up, and the
//! housekeeping one task does for the file (checkpoints, the planner's
//! statistics), so that none of it runs inside some player's commit.
//!
//! In WAL mode a commit appends to the `-wal` file; a checkpoint copies
//! those pages into the database, and the WAL starts again from its
//! beginning only when a writer finds every page copied and no reader
//! inside it. A server always has some reader inside it, so under steady
//! play the WAL would only grow (389 MB after 11,500 steps, measured): when
//! it passes [`WAL_RESET_BYTES`], the task copies and empties it while it
//! holds the writer's turn (a `TRUNCATE` checkpoint, which waits a moment
//! for readers), and SQLite trims a reset WAL to [`WAL_RESET_BYTES`] on its
//! own (`journal_size_limit`).

use std::sync::Arc;
use std::time::Duration;

use sqlx::{AnyConnection, AnyPool, Executor, Row};

/// The size the WAL may reach before it is emptied.
pub const WAL_RESET_BYTES: i64 = 32 << 20;

/// How long the emptying checkpoint waits for readers before it gives up
/// until the next second (the writers wait for it meanwhile).
const RESET_WAIT: Duration = Duration::from_millis(250);

/// The set-up of each new connection.
pub async fn set_up(conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
    // WAL: readers never wait for the writer; a commit survives the
    // process being killed.
    conn.execute("PRAGMA journal_mode = WAL").await?;
    conn.execute("PRAGMA synchronous = NORMAL").await?;
    conn.execute("PRAGMA busy_timeout = 10000").await?;
    // Checkpoints run on their own task (below), not inside some player's
    // commit.
    conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
    conn.execute(sqlx::AssertSqlSafe(format!(
        "PRAGMA journal_size_limit = {WAL_RESET_BYTES}"
    )))
    .await?;
    Ok(())
}

/// Keeps the file in shape while the server runs: a checkpoint that
/// blocks nobody every second, the WAL emptied whenever it has grown past
/// [`WAL_RESET_BYTES`], and the planner's statistics (sqlite_stat1) brought
/// up to date at start and every hour, as SQLite advises, so that no query
/// is planned through an index that hardly narrows it.
pub async fn housekeeping(pool: AnyPool, writer: Arc<tokio::sync::Mutex<()>>) {
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    let mut ticks: u64 = 0;
    loop {
        tick.tick().await;
        ticks += 1;
        if ticks % 3600 == 0 {
            if let Err(e) = sqlx::query("PRAGMA optimize").execute(&pool).await {
                tracing::warn!(error = %e, "PRAGMA optimize failed");
            }
        }
        if let Err(e) = tend_wal(&pool, &writer, WAL_RESET_BYTES).await {
            tracing::warn!(error = %e, "WAL checkpoint failed");
        }
    }
}

/// One round of the WAL's upkeep: a checkpoint that blocks nobody, and,
/// if the WAL is over `limit` bytes, one that empties it, taken with the
/// writer's turn. Whether the WAL was emptied.
async fn tend_wal(
    pool: &AnyPool,
    writer: &tokio::sync::Mutex<()>,
    limit: i64,
) -> Result<bool, sqlx::Error> {
    if wal_bytes(pool).await? <= limit {
        return Ok(false);
    }
    let _turn = writer.lock().await;
    empty_wal(pool).await
}

/// A PASSIVE checkpoint (it copies what it can without blocking anyone);
/// the WAL's size in bytes.
async fn wal_bytes(pool: &AnyPool) -> Result<i64, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(&mut *conn)
        .await?;
    let frames: i64 = row.try_get(1)?;
    let page: i64 = sqlx::query("PRAGMA page_size")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    Ok(frames.max(0) * page)
}

/// Copies every page of the WAL into the database and truncates it, with
/// the writer's turn held by the caller; waits at most [`RESET_WAIT`] for
/// the readers inside the WAL to finish. Whether it did.
async fn empty_wal(pool: &AnyPool) -> Result<bool, sqlx::Error> {
    let mut conn = pool.acquire().await?;
    conn.execute(sqlx::AssertSqlSafe(format!(
        "PRAGMA busy_timeout = {}",
        RESET_WAIT.as_millis()
    )))
    .await?;
    let result = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(&mut *conn)
        .await;
    conn.execute("PRAGMA busy_timeout = 10000").await?;
    let busy: i64 = result?.try_get(0)?;
    if busy != 0 {
        tracing::debug!("the WAL stays for now: readers were inside it");
    }
    Ok(busy == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pool(name: &str) -> (AnyPool, std::path::PathBuf) {
        sqlx::any::install_default_drivers();
        let dir = std::env::temp_dir().join(format!("vw-wal-{name}-{}", crate::ids::game_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("w.sqlite");
        let pool = sqlx::any::AnyPoolOptions::new()
            .max_connections(4)
            .after_connect(|conn, _| Box::pin(async move { set_up(conn).await }))
            .connect(&format!("sqlite://{}?mode=rwc", file.display()))
            .await
            .unwrap();
        sqlx::query("CREATE TABLE pages (body BLOB)")
            .execute(&pool)
            .await
            .unwrap();
        (pool, file)
    }

    /// Writes `n` rows of 64 KiB, each its own commit.
    async fn write(pool: &AnyPool, n: usize) {
        for _ in 0..n {
            sqlx::query("INSERT INTO pages (body) VALUES (zeroblob(65536))")
                .execute(pool)
                .await
                .unwrap();
        }
    }

    fn wal_len(file: &std::path::Path) -> u64 {
        std::fs::metadata(format!("{}-wal", file.display())).map_or(0, |m| m.len())
    }

    /// A reader is always inside the WAL on a busy server, so checkpoints
    /// alone never let it start again: it grew without end (389 MB after
    /// 11,500 steps). Over the limit, it is emptied.
    #[tokio::test]
    async fn a_wal_over_its_limit_is_emptied_though_readers_come_and_go() {
        let (pool, file) = pool("limit").await;
        let writer = tokio::sync::Mutex::new(());
        const LIMIT: i64 = 1 << 20;
        // Writes while a reader holds a snapshot: nothing can be reset.
        let mut reader = pool.acquire().await.unwrap();
        sqlx::query("BEGIN").execute(&mut *reader).await.unwrap();
        sqlx::query("SELECT COUNT(*) FROM pages")
            .fetch_one(&mut *reader)
            .await
            .unwrap();
        write(&pool, 48).await;
        assert!(wal_len(&file) > 3 * LIMIT as u64, "{}", wal_len(&file));
        // While that reader stays, emptying gives up without an error
        // (it waits a moment, not for good).
        assert!(!tend_wal(&pool, &writer, LIMIT).await.unwrap());
        assert!(wal_len(&file) > LIMIT as u64);
        sqlx::query("COMMIT").execute(&mut *reader).await.unwrap();
        drop(reader);
        // Readers gone: the next round empties it, and nothing is lost.
        assert!(tend_wal(&pool, &writer, LIMIT).await.unwrap());
        assert_eq!(wal_len(&file), 0);
        let rows: i64 = sqlx::query("SELECT COUNT(*) FROM pages")
            .fetch_one(&pool)
            .await
            .unwrap()
            .try_get(0)
            .unwrap();
        assert_eq!(rows, 48);
        // Under the limit, it is left alone.
        write(&pool, 4).await;
        let small = wal_len(&file);
        assert!(small > 0 && small < LIMIT as u64);
        assert!(!tend_wal(&pool, &writer, LIMIT).await.unwrap());
        assert_eq!(wal_len(&file), small);
        let _ = std::fs::remove_dir_all(file.parent().unwrap());
    }
}
