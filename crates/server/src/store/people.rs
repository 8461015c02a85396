//! People finding each other: who follows whom, and who is online (an
//! account seen within the last few minutes: a request with its session,
//! or a socket it holds open). Every process reads and writes these rows,
//! so all agree on who is online and who follows whom.

use sqlx::Row;

use super::{Store, StoreError};

/// An account is online while it was seen this recently.
pub const ONLINE_MS: i64 = 5 * 60_000;
/// An account's `seen_ms` is written at most this often.
pub const SEEN_EVERY_MS: i64 = 60_000;

/// A followed player as a list shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub seen_ms: i64,
    pub hide_online: bool,
    pub deleted: bool,
}

/// What a follow did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// Followed now, or already.
    Following,
    /// The follower follows `most` already.
    TooMany,
}

/// Whether an account seen at `seen_ms` is shown online at `now`.
pub fn shown_online(seen_ms: i64, hide_online: bool, deleted: bool, now: i64) -> bool {
    !hide_online && !deleted && seen_ms >= now - ONLINE_MS
}

impl Store {
    /// Marks `account` seen at `now`, unless it was seen within the last
    /// [`SEEN_EVERY_MS`] (then nothing is written).
    pub async fn seen(&self, account: &str, now: i64) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE accounts SET seen_ms = $1 WHERE id = $2 AND seen_ms < $3")
            .bind(now)
            .bind(account)
            .bind(now - SEEN_EVERY_MS)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// `follower` follows `followed` (idempotent), unless it follows
    /// `most` players already. The row and the follower's count change in
    /// one transaction, the count by a conditional update of its account's
    /// row, which two requests at once cannot pass together (on PostgreSQL
    /// the second waits for the first and reads its count).
    pub async fn follow(
        &self,
        follower: &str,
        followed: &str,
        now: i64,
        most: i64,
    ) -> Result<Follow, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let added = sqlx::query(
            "INSERT INTO follows (follower, followed, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (follower, followed) DO NOTHING",
        )
        .bind(follower)
        .bind(followed)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if added == 0 {
            // Followed already: nothing changes.
            return Ok(Follow::Following);
        }
        let counted = sqlx::query(
            "UPDATE accounts SET following = following + 1 WHERE id = $1 AND following < $2",
        )
        .bind(follower)
        .bind(most)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if counted == 0 {
            tx.rollback().await?;
            return Ok(Follow::TooMany);
        }
        tx.commit().await?;
        Ok(Follow::Following)
    }

    /// `follower` no longer follows `followed` (nothing if it did not).
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let removed = sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
            .bind(follower)
            .bind(followed)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if removed > 0 {
            sqlx::query("UPDATE accounts SET following = following - 1 WHERE id = $1")
                .bind(follower)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Whether `follower` follows `followed`.
    pub async fn follows(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 AS one FROM follows WHERE follower = $1 AND followed = $2")
                .bind(follower)
                .bind(followed)
                .fetch_optional(&self.pool)
                .await?
                .is_some(),
        )
    }

    /// How many follow `account`.
    pub async fn followers(&self, account: &str) -> Result<i64, StoreError> {
        Ok(
            sqlx::query("SELECT COUNT(*) AS n FROM follows WHERE followed = $1")
                .bind(account)
                .fetch_one(&self.pool)
                .await?
                .try_get("n")?,
        )
    }

    /// The players `follower` follows, by name (any case), at most `limit`
    /// of them after the name key `after` ('' from the first).
    pub async fn following(
        &self,
        follower: &str,
        after: &str,
        limit: i64,
    ) -> Result<Vec<Followed>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.id, a.name, a.kind, a.seen_ms, a.hide_online, a.deleted_ms FROM follows f \
             JOIN accounts a ON a.id = f.followed \
             WHERE f.follower = $1 AND a.name_key > $2 ORDER BY a.name_key LIMIT $3",
        )
        .bind(follower)
        .bind(after.to_ascii_lowercase())
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Followed {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    kind: r.try_get("kind")?,
                    seen_ms: r.try_get("seen_ms")?,
                    hide_online: r.try_get::<i64, _>("hide_online")? != 0,
                    deleted: r.try_get::<i64, _>("deleted_ms")? != 0,
                })
            })
            .collect()
    }

    /// The ids of at most `limit` players `follower` follows, the most
    /// recently seen first (a follower's rows are at most the cap on
    /// follows, read through its key).
    pub async fn followed_recently_seen(
        &self,
        follower: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.id FROM follows f JOIN accounts a ON a.id = f.followed \
             WHERE f.follower = $1 AND a.deleted_ms = 0 ORDER BY a.seen_ms DESC, a.id LIMIT $2",
        )
        .bind(follower)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()
            .map_err(Into::into)
    }

    /// Accounts online at `now` (seen within [`ONLINE_MS`], not deleted),
    /// and the names of at most `limit` of those who let it be shown, the
    /// most recently seen first.
    pub async fn online(&self, now: i64, limit: i64) -> Result<(i64, Vec<String>), StoreError> {
        let since = now - ONLINE_MS;
        let count: i64 = sqlx::query(
            "SELECT COUNT(*) AS n FROM accounts WHERE seen_ms >= $1 AND deleted_ms = 0",
        )
        .bind(since)
        .fetch_one(&self.pool)
        .await?
        .try_get("n")?;
        let names = sqlx::query(
            "SELECT name FROM accounts WHERE seen_ms >= $1 AND deleted_ms = 0 \
             AND hide_online = 0 ORDER BY seen_ms DESC, name_key LIMIT $2",
        )
        .bind(since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| r.try_get("name"))
        .collect::<Result<Vec<String>, _>>()?;
        Ok((count, names))
    }

    /// Sets whether the account is never shown online.
    pub async fn set_hide_online(&self, account: &str, hide: bool) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE accounts SET hide_online = $1 WHERE id = $2")
            .bind(hide as i64)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Who may challenge `account`: `everyone`, `following` or `nobody`.
    pub async fn set_challenges_from(&self, account: &str, from: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE accounts SET challenges_from = $1 WHERE id = $2")
            .bind(from)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
