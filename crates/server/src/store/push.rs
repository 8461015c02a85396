//! Push subscriptions, and the VAPID key: made by the first process that
//! needs it and kept, so that every process signs with the same key (a
//! browser subscribed with it accepts no other).

use sqlx::Row;

use super::{Store, StoreError};

/// A browser's push subscription.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushRow {
    pub endpoint: String,
    pub account: String,
    pub p256dh: String,
    pub auth: String,
}

impl Store {
    /// The key named `name`, stored as `made` if none was (the first
    /// process's wins: each reads back what is stored).
    pub async fn server_key(&self, name: &str, made: &str) -> Result<String, StoreError> {
        {
            let _turn = self.writer_turn().await;
            sqlx::query(
                "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            )
            .bind(name)
            .bind(made)
            .execute(&self.pool)
            .await?;
        }
        Ok(
            sqlx::query_scalar("SELECT value FROM server_keys WHERE name = $1")
                .bind(name)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Stores (or moves to `s.account`) a subscription, unless its account
    /// has `most` others already: false then.
    pub async fn add_push(&self, s: &PushRow, now: i64, most: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET notes_seq = notes_seq WHERE id = $1")
            .bind(&s.account)
            .execute(&mut *tx)
            .await?;
        let others: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM push_subscriptions WHERE account = $1 AND endpoint <> $2",
        )
        .bind(&s.account)
        .bind(&s.endpoint)
        .fetch_one(&mut *tx)
        .await?;
        if others >= most {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, account, p256dh, auth, created_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (endpoint) DO UPDATE SET \
             account = $2, p256dh = $3, auth = $4, created_ms = $5",
        )
        .bind(&s.endpoint)
        .bind(&s.account)
        .bind(&s.p256dh)
        .bind(&s.auth)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Removes a subscription: the account's own (`Some`), or any (a push
    /// service said it is gone).
    pub async fn remove_push(
        &self,
        endpoint: &str,
        account: Option<&str>,
    ) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        match account {
            Some(a) => {
                sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND account = $2")
                    .bind(endpoint)
                    .bind(a)
                    .execute(&self.pool)
                    .await?
            }
            None => {
                sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
                    .bind(endpoint)
                    .execute(&self.pool)
                    .await?
            }
        };
        Ok(())
    }

    /// A send to `endpoint` failed (`failed`) or was delivered: a failure
    /// counted (the subscription dropped at the `drop_at`-th in a row),
    /// a delivery forgets them. Whether it was dropped.
    pub async fn push_outcome(
        &self,
        endpoint: &str,
        failed: bool,
        drop_at: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        if !failed {
            sqlx::query(
                "UPDATE push_subscriptions SET failures = 0 WHERE endpoint = $1 AND failures <> 0",
            )
            .bind(endpoint)
            .execute(&self.pool)
            .await?;
            return Ok(false);
        }
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE push_subscriptions SET failures = failures + 1 WHERE endpoint = $1")
            .bind(endpoint)
            .execute(&mut *tx)
            .await?;
        let dropped =
            sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1 AND failures >= $2")
                .bind(endpoint)
                .bind(drop_at)
                .execute(&mut *tx)
                .await?;
        tx.commit().await?;
        Ok(dropped.rows_affected() == 1)
    }

    /// The account's subscriptions.
    pub async fn pushes_of(&self, account: &str) -> Result<Vec<PushRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM push_subscriptions WHERE account = $1")
            .bind(account)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(PushRow {
                    endpoint: r.try_get("endpoint")?,
                    account: r.try_get("account")?,
                    p256dh: r.try_get("p256dh")?,
                    auth: r.try_get("auth")?,
                })
            })
            .collect()
    }
}
