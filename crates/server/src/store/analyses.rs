//! The engine's analyses of finished games: a queue in the database that
//! every server process takes from. A process runs an analysis only while
//! it holds the analysis's lease (`runner`, until `runner_until_ms`), which
//! it renews while it runs and with each position it saves; an analysis whose process died
//! is taken over once its lease lapses, and goes on from what was saved.

use sqlx::Row;

use super::{Store, StoreError};

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    pub game_id: String,
    /// `queued`, `running` or `done`.
    pub status: String,
    /// What is judged so far, as JSON (see `computer::reviews`).
    pub judged: String,
}

fn analysis_row(r: &sqlx::any::AnyRow) -> Result<AnalysisRow, StoreError> {
    Ok(AnalysisRow {
        game_id: r.try_get("game_id")?,
        status: r.try_get("status")?,
        judged: r.try_get("judged")?,
    })
}

impl Store {
    /// Queues the analysis of game `id` for `requester` unless it is
    /// there already, behind that requester's own waiting analyses (its
    /// share); the analysis as it stands.
    pub async fn queue_analysis(
        &self,
        id: &str,
        requester: &str,
        now_ms: i64,
    ) -> Result<AnalysisRow, StoreError> {
        {
            let _turn = self.writer_turn().await;
            sqlx::query(
                "INSERT INTO analyses (game_id, status, requested_ms, requester, share) \
                 SELECT $1, 'queued', $2, $3, COUNT(*) FROM analyses \
                 WHERE requester = $3 AND status <> 'done' \
                 ON CONFLICT (game_id) DO NOTHING",
            )
            .bind(id)
            .bind(now_ms)
            .bind(requester)
            .execute(&self.pool)
            .await?;
        }
        self.analysis(id)
            .await?
            .ok_or_else(|| StoreError::Database(format!("analysis of {id} vanished")))
    }

    /// The analysis of game `id`, if one was asked for.
    pub async fn analysis(&self, id: &str) -> Result<Option<AnalysisRow>, StoreError> {
        sqlx::query("SELECT game_id, status, judged FROM analyses WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(analysis_row)
            .transpose()
    }

    /// Analyses of `requester` waiting or running.
    pub async fn analyses_of(&self, requester: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM analyses WHERE requester = $1 AND status <> 'done'",
        )
        .bind(requester)
        .fetch_one(&self.pool)
        .await?)
    }

    /// Analyses waiting, and those running whose lease has lapsed.
    pub async fn analyses_waiting(&self) -> Result<i64, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT COUNT(*) FROM analyses WHERE status = 'queued'")
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Takes the oldest analysis nobody runs (queued, or running under a
    /// lease that lapsed before `now_ms`) under this process's lease until
    /// `until_ms`: of several processes, one gets it.
    pub async fn take_analysis(
        &self,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<Option<AnalysisRow>, StoreError> {
        let candidates: Vec<String> = sqlx::query_scalar(
            "SELECT game_id FROM (\
             SELECT game_id, share, requested_ms FROM (SELECT game_id, share, requested_ms \
             FROM analyses WHERE status = 'queued' ORDER BY share, requested_ms LIMIT 4) q \
             UNION ALL SELECT game_id, share, requested_ms FROM (SELECT game_id, share, requested_ms \
             FROM analyses WHERE status = 'running' AND runner_until_ms < $1 \
             ORDER BY share, requested_ms LIMIT 4) r) c ORDER BY share, requested_ms LIMIT 4",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        for id in candidates {
            let taken = {
                let _turn = self.writer_turn().await;
                sqlx::query(
                    "UPDATE analyses SET status = 'running', runner = $1, runner_until_ms = $2 \
                     WHERE game_id = $3 AND (status = 'queued' \
                     OR (status = 'running' AND runner_until_ms < $4))",
                )
                .bind(&self.me)
                .bind(until_ms)
                .bind(&id)
                .bind(now_ms)
                .execute(&self.pool)
                .await?
                .rows_affected()
                    == 1
            };
            if taken {
                return self.analysis(&id).await;
            }
        }
        Ok(None)
    }

    /// Saves what this process has judged of game `id`'s analysis and
    /// renews its lease until `until_ms` (`done`: the analysis is whole);
    /// false if the lease is no longer this process's.
    pub async fn save_analysis(
        &self,
        id: &str,
        judged: &str,
        done: bool,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        Ok(sqlx::query(
            "UPDATE analyses SET judged = $1, status = $2, runner_until_ms = $3, done_ms = $4 \
             WHERE game_id = $5 AND status = 'running' AND runner = $6",
        )
        .bind(judged)
        .bind(if done { "done" } else { "running" })
        .bind(until_ms)
        .bind(if done { now_ms } else { 0 })
        .bind(id)
        .bind(&self.me)
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1)
    }

    /// Renews this process's lease on game `id`'s analysis until
    /// `until_ms`: false if it is no longer this process's (or is done).
    pub async fn renew_analysis(&self, id: &str, until_ms: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        Ok(sqlx::query(
            "UPDATE analyses SET runner_until_ms = $1 \
             WHERE game_id = $2 AND status = 'running' AND runner = $3",
        )
        .bind(until_ms)
        .bind(id)
        .bind(&self.me)
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1)
    }

    /// Queues the analysis of the most recently finished game that has
    /// none and whose sides played a turn each (for `serve
    /// --analyse-finished`); false when every finished game has one.
    pub async fn queue_next_finished(&self, now_ms: i64) -> Result<bool, StoreError> {
        let id: Option<String> = sqlx::query_scalar(
            "SELECT g.id FROM games g WHERE g.finished = 1 AND g.result <> 'aborted' \
             AND NOT EXISTS (SELECT 1 FROM analyses a WHERE a.game_id = g.id) \
             AND EXISTS (SELECT 1 FROM steps s WHERE s.game_id = g.id) \
             ORDER BY g.last_active_ms DESC LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?;
        match id {
            Some(id) => self
                .queue_analysis(&id, "server", now_ms)
                .await
                .map(|_| true),
            None => Ok(false),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One requester's backlog delays another's first analysis by no more
    /// than the one taken before it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_queue_takes_each_requesters_first_before_anyones_second() {
        let dir = std::env::temp_dir().join(format!("vw-fair-{}", crate::ids::game_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("q.sqlite").display());
        let store = Store::connect(&url).await.unwrap();
        for k in 0..5 {
            store
                .queue_analysis(&format!("a{k}"), "greedy", k)
                .await
                .unwrap();
        }
        store.queue_analysis("b0", "newcomer", 10).await.unwrap();
        store.queue_analysis("a5", "greedy", 11).await.unwrap();
        store.queue_analysis("c0", "late", 12).await.unwrap();
        assert_eq!(store.analyses_of("greedy").await.unwrap(), 6);
        let mut order = Vec::new();
        while let Some(row) = store.take_analysis(100, 1000).await.unwrap() {
            order.push(row.game_id);
        }
        assert_eq!(order, ["a0", "b0", "c0", "a1", "a2", "a3", "a4", "a5"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
