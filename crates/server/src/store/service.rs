//! The service as a whole: when a server process was last alive, so that
//! time nobody was there to serve a game is not counted on its clocks.

use sqlx::Row;

use super::{Store, StoreError};

/// How long without a sign of life from any process counts as the whole
/// service having been down.
pub const DOWN_AFTER_MS: i64 = 5_000;

impl Store {
    /// Whether the database answers a read (the health probe).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Says this process is alive at `now_ms`.
    pub async fn alive(&self, now_ms: i64) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE service SET alive_ms = $1 WHERE id = 1 AND alive_ms < $1")
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// At start: if no process was alive for [`DOWN_AFTER_MS`], the whole
    /// service was down; the clocks of the games in play move on by that
    /// time, as if it had not passed. Of several processes starting at
    /// once, one does it (the row's old value decides). The time moved on
    /// by, in ms (0 if the service was not down).
    pub async fn resume_clocks(&self, now_ms: i64) -> Result<i64, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let last: i64 = sqlx::query("SELECT alive_ms FROM service WHERE id = 1")
            .fetch_one(&mut *tx)
            .await?
            .try_get("alive_ms")?;
        // 0: no process ever ran on this database.
        let down = now_ms - last;
        if last == 0 || down < DOWN_AFTER_MS {
            return Ok(0);
        }
        let won = sqlx::query("UPDATE service SET alive_ms = $1 WHERE id = 1 AND alive_ms = $2")
            .bind(now_ms)
            .bind(last)
            .execute(&mut *tx)
            .await?
            .rows_affected()
            == 1;
        if !won {
            return Ok(0);
        }
        sqlx::query(
            "UPDATE games SET turn_started_ms = turn_started_ms + $1, deadline_ms = deadline_ms + $1, \
             version = version + 1 WHERE finished = 0 AND clock_base_ms >= 0",
        )
        .bind(down)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(down)
    }
}
