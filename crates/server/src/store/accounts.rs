//! Accounts and their sessions: created, found by name or by a session's
//! token, renamed on deletion, with the games' names kept in step.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};

/// Most sessions one account keeps: a new one beyond ends the least
/// recently used.
pub const MAX_SESSIONS: i64 = 50;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    pub id: String,
    pub name: String,
    /// Argon2id PHC string; '' where nobody logs in.
    pub password_hash: String,
    /// `person` or `bot`.
    pub kind: String,
    pub created_ms: i64,
    /// 0 while it lives.
    pub deleted_ms: i64,
    pub no_bots: bool,
    /// A bot's account: the account that registered it ('' for none).
    pub owner: String,
    /// The password's generation: one more at each change of password.
    pub password_gen: i64,
    /// When it was last seen (a request with its session, a socket open).
    pub seen_ms: i64,
    /// It is never shown online.
    pub hide_online: bool,
    /// Who may challenge it: `everyone`, `following` (those it follows),
    /// `nobody`.
    pub challenges_from: String,
    /// Until when it may not chat (ms since the Unix epoch; 0: it may).
    pub muted_until_ms: i64,
    /// When an operator banned it (0: never, or unbanned).
    pub banned_ms: i64,
}

fn account_row(r: &AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        password_hash: r.try_get("password_hash")?,
        kind: r.try_get("kind")?,
        created_ms: r.try_get("created_ms")?,
        deleted_ms: r.try_get("deleted_ms")?,
        no_bots: r.try_get::<i64, _>("no_bots")? != 0,
        owner: r.try_get("owner")?,
        password_gen: r.try_get("password_gen")?,
        seen_ms: r.try_get("seen_ms")?,
        hide_online: r.try_get::<i64, _>("hide_online")? != 0,
        challenges_from: r.try_get("challenges_from")?,
        muted_until_ms: r.try_get("muted_until_ms")?,
        banned_ms: r.try_get("banned_ms")?,
    })
}

impl Store {
    /// Creates an account, and its first session when `session` is given
    /// (the hash of its token); `Conflict` when the name is taken, whatever
    /// its case.
    pub async fn create_account(
        &self,
        a: &AccountRow,
        session: Option<&str>,
    ) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO accounts (id, name, name_key, password_hash, kind, created_ms, skeleton, seen_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&a.id)
        .bind(&a.name)
        .bind(a.name.to_ascii_lowercase())
        .bind(&a.password_hash)
        .bind(&a.kind)
        .bind(a.created_ms)
        .bind(crate::names::skeleton(&a.name))
        .bind(a.seen_ms)
        .execute(&mut *tx)
        .await?;
        if let Some(hash) = session {
            insert_session(&mut tx, hash, &a.id, 0, a.created_ms).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The account of this name, whatever its case.
    pub async fn account_named(&self, name: &str) -> Result<Option<AccountRow>, StoreError> {
        // No name holds a NUL (names are checked when made), and PostgreSQL
        // refuses one in any text it is sent.
        if name.contains('\0') {
            return Ok(None);
        }
        let row = sqlx::query("SELECT * FROM accounts WHERE name_key = $1")
            .bind(name.to_ascii_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(account_row).transpose()?)
    }

    /// The name of an account whose name looks like this skeleton, if any.
    pub async fn account_like(&self, skeleton: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT name FROM accounts WHERE skeleton = $1 LIMIT 1")
                .bind(skeleton)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Gives each account stored before skeletons were its skeleton; one
    /// whose skeleton another account holds already (they looked alike
    /// before the rule) keeps it apart, its id added.
    pub async fn fill_skeletons(&self) -> Result<(), StoreError> {
        loop {
            let rows: Vec<(String, String)> = sqlx::query_as(
                "SELECT id, name FROM accounts WHERE skeleton >= 'pending:' \
                 AND skeleton < 'pending;' LIMIT 500",
            )
            .fetch_all(&self.pool)
            .await?;
            if rows.is_empty() {
                return Ok(());
            }
            let _turn = self.writer_turn().await;
            for (id, name) in &rows {
                let skeleton = crate::names::skeleton(name);
                for candidate in [skeleton.clone(), format!("{skeleton}:{id}")] {
                    let set = sqlx::query(
                        "UPDATE accounts SET skeleton = $1 WHERE id = $2 AND skeleton >= 'pending:' \
                         AND skeleton < 'pending;'",
                    )
                    .bind(&candidate)
                    .bind(id)
                    .execute(&self.pool)
                    .await;
                    match set {
                        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => continue,
                        other => {
                            other?;
                            break;
                        }
                    }
                }
            }
        }
    }

    /// The account of this id.
    pub async fn account(&self, id: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query("SELECT * FROM accounts WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(account_row).transpose()?)
    }

    /// A new session of an account, made with the password of generation
    /// `gen`: false (and nothing stored) if the password has changed since,
    /// or the account is gone. `replaces`: the hash of the session this
    /// device held before ('' for none), ended with it.
    pub async fn insert_session(
        &self,
        hash: &str,
        account: &str,
        gen: i64,
        now: i64,
        replaces: &str,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        if !replaces.is_empty() {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(replaces)
                .execute(&mut *tx)
                .await?;
        }
        let made = insert_session(&mut tx, hash, account, gen, now).await?;
        if made {
            // An account keeps its newest sessions, so many at most.
            sqlx::query(
                "DELETE FROM sessions WHERE account_id = $1 AND last_seen_ms < \
                 (SELECT last_seen_ms FROM sessions WHERE account_id = $1 \
                 ORDER BY last_seen_ms DESC LIMIT 1 OFFSET $2)",
            )
            .bind(account)
            .bind(MAX_SESSIONS - 1)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(made)
    }

    /// The account a session's token hash logs in, and when the session was
    /// last seen.
    pub async fn session_account(
        &self,
        hash: &str,
    ) -> Result<Option<(AccountRow, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT accounts.*, s.seen AS seen FROM accounts JOIN (SELECT account_id, \
             password_gen AS gen, last_seen_ms AS seen FROM sessions WHERE token_hash = $1) s \
             ON id = s.account_id WHERE deleted_ms = 0 AND banned_ms = 0 AND password_gen = s.gen",
        )
        .bind(hash)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) => Ok(Some((account_row(&r)?, r.try_get("seen")?))),
            None => Ok(None),
        }
    }

    /// Notes that a session was used at `now`.
    pub async fn touch_session(&self, hash: &str, now: i64) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE sessions SET last_seen_ms = $1 WHERE token_hash = $2")
            .bind(now)
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends one session.
    pub async fn delete_session(&self, hash: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends every session of an account but `keep` (a token hash, or '').
    pub async fn delete_sessions(&self, account: &str, keep: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
            .bind(account)
            .bind(keep)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A new password hash, of the next generation: every session but
    /// `keep` ends, and so does every session made with an older password,
    /// whenever it is stored (the login that checked the old one just
    /// before included).
    pub async fn set_password(
        &self,
        account: &str,
        hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let gen: i64 = sqlx::query_scalar(
            "UPDATE accounts SET password_hash = $1, password_gen = password_gen + 1 \
             WHERE id = $2 RETURNING password_gen",
        )
        .bind(hash)
        .bind(account)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
            .bind(account)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE sessions SET password_gen = $1 WHERE token_hash = $2 AND account_id = $3",
        )
        .bind(gen)
        .bind(keep)
        .bind(account)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes an account: it can no longer log in, its sessions end, and
    /// it and its games go by `new_name` from now on (each such game
    /// changed: a new version, so that every copy reloads). The games' ids.
    pub async fn delete_account(
        &self,
        account: &str,
        new_name: &str,
        now: i64,
    ) -> Result<Vec<String>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let old_name: Option<String> =
            sqlx::query_scalar("SELECT name FROM accounts WHERE id = $1")
                .bind(account)
                .fetch_optional(&mut *tx)
                .await?;
        sqlx::query(
            "UPDATE accounts SET name = $1, name_key = $2, password_hash = '', deleted_ms = $3, \
             skeleton = $5 WHERE id = $4",
        )
        .bind(new_name)
        .bind(new_name.to_ascii_lowercase())
        .bind(now)
        .bind(account)
        .bind(crate::names::skeleton(new_name))
        .execute(&mut *tx)
        .await?;
        // Everything it controls closes, its bots included.
        super::shut_out::shut_out(&mut tx, account, now).await?;
        // Its follows go, both ways: those it followed, and the counts of
        // those who followed it.
        sqlx::query("DELETE FROM follows WHERE follower = $1")
            .bind(account)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE accounts SET following = following - 1 \
             WHERE id IN (SELECT follower FROM follows WHERE followed = $1)",
        )
        .bind(account)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM follows WHERE followed = $1")
            .bind(account)
            .execute(&mut *tx)
            .await?;
        // Its notifications and blocks go too.
        for sql in [
            "DELETE FROM notifications WHERE account = $1",
            "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
        ] {
            sqlx::query(sql).bind(account).execute(&mut *tx).await?;
        }
        // Its tournaments: its lines go by its new name (it is paired no
        // more: `shut_out` paused it).
        sqlx::query("UPDATE tournament_players SET name = $1 WHERE account = $2")
            .bind(new_name)
            .bind(account)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE tournaments SET version = version + 1 \
             WHERE id IN (SELECT tournament FROM tournament_players WHERE account = $1)",
        )
        .bind(account)
        .execute(&mut *tx)
        .await?;
        // Its games go by its new name (each with whom it played).
        let mut games = Vec::new();
        let mut met = std::collections::BTreeSet::new();
        for sql in [
            "UPDATE games SET x_name = $1, version = version + 1 WHERE x_account = $2 \
             RETURNING id, o_account AS other",
            "UPDATE games SET o_name = $1, version = version + 1 WHERE o_account = $2 \
             RETURNING id, x_account AS other",
        ] {
            let rows = sqlx::query(sql)
                .bind(new_name)
                .bind(account)
                .fetch_all(&mut *tx)
                .await?;
            for r in rows {
                games.push(r.try_get::<String, _>("id")?);
                met.insert(r.try_get::<String, _>("other")?);
            }
        }
        // Others' notifications name it by its new name: its old one is free,
        // and may soon be a stranger's.
        if let Some(old) = old_name {
            rename_in_notes(&mut tx, account, &old, new_name, met).await?;
        }
        tx.commit().await?;
        Ok(games)
    }
}

/// Stores a session if the account still has the password of generation
/// `gen` (one statement: a change committed first leaves it unstored, one
/// committed after leaves it of an old generation, which logs nobody in).
async fn insert_session(
    conn: &mut sqlx::AnyConnection,
    hash: &str,
    account: &str,
    gen: i64,
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO sessions (token_hash, account_id, created_ms, last_seen_ms, password_gen) \
         SELECT $1, $2, $3, $3, $4 WHERE EXISTS \
         (SELECT 1 FROM accounts WHERE id = $2 AND password_gen = $4 AND deleted_ms = 0)",
    )
    .bind(hash)
    .bind(account)
    .bind(now)
    .bind(gen)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

impl Store {
    /// Attaches to `account` (going by `name`) the seats whose token hashes
    /// are `hashes`, where no account holds them and the account holds no
    /// other seat of that game; the games' ids.
    pub async fn claim_seats(
        &self,
        account: &str,
        name: &str,
        hashes: &[String],
    ) -> Result<Vec<String>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let mut ids = Vec::new();
        for hash in hashes {
            for sql in [
                "UPDATE games SET x_account = $1, x_name = $2, version = version + 1 \
                 WHERE x_token = $3 AND x_account = '' AND o_account <> $1 RETURNING id",
                "UPDATE games SET o_account = $1, o_name = $2, version = version + 1 \
                 WHERE o_token = $3 AND o_account = '' AND x_account <> $1 RETURNING id",
            ] {
                let claimed: Vec<String> = sqlx::query_scalar(sql)
                    .bind(account)
                    .bind(name)
                    .bind(hash)
                    .fetch_all(&mut *tx)
                    .await?;
                ids.extend(claimed);
            }
        }
        // A finished game joins the account's archive and counts.
        for id in &ids {
            super::players::keep_finished(&mut tx, id).await?;
        }
        tx.commit().await?;
        Ok(ids)
    }

    /// Whether quick play may pair the account with bots.
    pub async fn set_no_bots(&self, account: &str, no_bots: bool) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("UPDATE accounts SET no_bots = $1 WHERE id = $2")
            .bind(no_bots as i64)
            .bind(account)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Rewrites `old` to `new` in the notifications of the accounts `met`
/// (those it played) and of those it challenged or was challenged by: only
/// they can hold one that names it. A name is rewritten only where it is a
/// JSON value (`:"Ann"`), never a key or a part of a text.
async fn rename_in_notes(
    tx: &mut sqlx::AnyConnection,
    account: &str,
    old: &str,
    new_name: &str,
    mut met: std::collections::BTreeSet<String>,
) -> Result<(), StoreError> {
    for sql in [
        "SELECT to_account FROM challenges WHERE from_account = $1",
        "SELECT from_account FROM challenges WHERE to_account = $1",
    ] {
        let ids: Vec<String> = sqlx::query_scalar(sql)
            .bind(account)
            .fetch_all(&mut *tx)
            .await?;
        met.extend(ids);
    }
    let value = |name: &str| format!(":{}", serde_json::Value::from(name));
    let (old, new) = (value(old), value(new_name));
    for other in met.iter().filter(|id| !id.is_empty()) {
        sqlx::query(
            "UPDATE notifications SET body = REPLACE(body, $1, $2) \
             WHERE account = $3 AND body LIKE '%' || $1 || '%'",
        )
        .bind(&old)
        .bind(&new)
        .bind(other)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
