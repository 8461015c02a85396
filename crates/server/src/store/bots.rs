//! Registered bots: a name and the hash of the one token a bot plays with.

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Whether a bot of this name is registered.
    pub async fn bot_exists(&self, name: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT name FROM bots WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Registers a bot and its account (`bot:NAME`, rated like a
    /// person's); `Conflict` when the name is taken by a bot or an account,
    /// `TooMany` when `owner` has `most` bots already.
    pub async fn register_bot(
        &self,
        name: &str,
        hash: &str,
        owner: &str,
        most: i64,
        now: i64,
    ) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        // The owner's row locked (two registrations at once, through two
        // processes, count one after the other) and its bots counted.
        if !owner.is_empty() {
            super::shut_out::all_may_play(&mut tx, &[owner]).await?;
            let owned: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM accounts WHERE owner = $1 AND kind = 'bot'",
            )
            .bind(owner)
            .fetch_one(&mut *tx)
            .await?;
            if owned >= most {
                return Err(StoreError::TooMany(most));
            }
        }
        sqlx::query("INSERT INTO bots (name, token, created_ms) VALUES ($1, $2, $3)")
            .bind(name)
            .bind(hash)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, kind, created_ms, owner, skeleton) \
             VALUES ($1, $2, $3, '', 'bot', $4, $5, $6)",
        )
        .bind(format!("bot:{name}"))
        .bind(name)
        .bind(name.to_ascii_lowercase())
        .bind(now)
        .bind(owner)
        .bind(crate::names::skeleton(name))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The bot whose token has this hash: its name, when its account was
    /// last seen (0: never, or no account), and whether it is barred (its
    /// account, or the account that registered it, banned or deleted).
    pub async fn bot_of(&self, hash: &str) -> Result<Option<BotOf>, StoreError> {
        let row = sqlx::query(
            "SELECT b.name AS name, COALESCE(a.seen_ms, 0) AS seen_ms, \
             CASE WHEN COALESCE(a.banned_ms, 0) <> 0 OR COALESCE(a.deleted_ms, 0) <> 0 \
             OR COALESCE(o.banned_ms, 0) <> 0 OR COALESCE(o.deleted_ms, 0) <> 0 \
             THEN 1 ELSE 0 END AS barred FROM bots b \
             LEFT JOIN accounts a ON a.id = 'bot:' || b.name \
             LEFT JOIN accounts o ON o.id = a.owner AND a.owner <> '' WHERE b.token = $1",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) => Ok(Some(BotOf {
                name: r.try_get("name")?,
                seen_ms: r.try_get("seen_ms")?,
                barred: r.try_get::<i64, _>("barred")? != 0,
            })),
            None => Ok(None),
        }
    }
}

/// A bot found by its token.
pub struct BotOf {
    pub name: String,
    /// When its account was last seen (0: never).
    pub seen_ms: i64,
    /// Its account, or its owner's, is banned or deleted: it is refused.
    pub barred: bool,
}
