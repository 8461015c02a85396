//! Throttles kept in the database, so that every server process counts
//! the same failed logins and sign-ups.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Until when `subject` is refused (ms since the Unix epoch; 0 or a
    /// past time: it is not).
    pub async fn blocked_until(&self, subject: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT blocked_until_ms FROM throttles WHERE subject = $1")
                .bind(subject)
                .fetch_optional(&self.pool)
                .await?
                .unwrap_or(0),
        )
    }

    /// Counts one more for `subject` at `now` in a window of `window_ms`
    /// (a count whose window has passed starts again at 1); the count and
    /// when its window started.
    pub async fn count_up(
        &self,
        subject: &str,
        now: i64,
        window_ms: i64,
    ) -> Result<(i64, i64), StoreError> {
        let _turn = self.writer_turn().await;
        let row = sqlx::query(
            "INSERT INTO throttles (subject, count, window_start_ms, blocked_until_ms) \
             VALUES ($1, 1, $2, 0) \
             ON CONFLICT (subject) DO UPDATE SET \
             count = CASE WHEN throttles.window_start_ms + $3 <= $2 THEN 1 ELSE throttles.count + 1 END, \
             window_start_ms = CASE WHEN throttles.window_start_ms + $3 <= $2 THEN $2 \
                               ELSE throttles.window_start_ms END \
             RETURNING count, window_start_ms",
        )
        .bind(subject)
        .bind(now)
        .bind(window_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("count")?, row.try_get("window_start_ms")?))
    }

    /// Refuses `subject` until `until` (or later, if it already was).
    pub async fn block(&self, subject: &str, until: i64) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query(
            "UPDATE throttles SET blocked_until_ms = \
             CASE WHEN blocked_until_ms < $1 THEN $1 ELSE blocked_until_ms END WHERE subject = $2",
        )
        .bind(until)
        .bind(subject)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Moves `subject`'s wait on to `until` if it was over at `now`: true
    /// for the one caller that did (of several at once, one wins).
    pub async fn take_turn(&self, subject: &str, now: i64, until: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let done = sqlx::query(
            "UPDATE throttles SET blocked_until_ms = $1 WHERE subject = $2 AND blocked_until_ms <= $3",
        )
        .bind(until)
        .bind(subject)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes one back from `subject`'s count (a try that did not fail).
    pub async fn count_down(&self, subject: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE throttles SET count = count - 1 WHERE subject = $1 AND count > 0")
            .bind(subject)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets `subject`'s count (a login that succeeded).
    pub async fn forget(&self, subject: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("DELETE FROM throttles WHERE subject = $1")
            .bind(subject)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
