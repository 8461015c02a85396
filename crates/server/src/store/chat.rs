//! Chat lines said in games, reports, and operators' actions (mute, ban):
//! every process reads and writes these rows, so a mute made by `virus-wars
//! admin` holds at once wherever its player speaks.

use sqlx::Row;

use super::inbox::{write_notes, NewNote};
use super::{Store, StoreError};

/// A line said in a game's room.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChatRow {
    pub game: String,
    pub id: String,
    /// `players` or `watchers`.
    pub room: String,
    /// Who said it (an account's id: never shown).
    pub account: String,
    pub name: String,
    pub text: String,
    pub at_ms: i64,
}

fn chat_row(r: &sqlx::any::AnyRow) -> Result<ChatRow, sqlx::Error> {
    Ok(ChatRow {
        game: r.try_get("game")?,
        id: r.try_get("id")?,
        room: r.try_get("room")?,
        account: r.try_get("account")?,
        name: r.try_get("name")?,
        text: r.try_get("text")?,
        at_ms: r.try_get("at_ms")?,
    })
}

/// A report, as operators read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    pub id: String,
    pub reporter: String,
    pub player: String,
    pub reason: String,
    pub game: String,
    pub text: String,
    pub created_ms: i64,
}

impl Store {
    /// Stores a line and the notifications `notes` it raises, unless its
    /// speaker said `most` lines in that room already: `None` then, else
    /// the notifications' numbers.
    pub async fn add_chat_line(
        &self,
        line: &ChatRow,
        most: i64,
        notes: &[NewNote],
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let said: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM chat_lines WHERE game = $1 AND account = $3 AND room = $2",
        )
        .bind(&line.game)
        .bind(&line.room)
        .bind(&line.account)
        .fetch_one(&mut *tx)
        .await?;
        if said >= most {
            return Ok(None);
        }
        sqlx::query(
            "INSERT INTO chat_lines (game, id, room, account, name, text, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&line.game)
        .bind(&line.id)
        .bind(&line.room)
        .bind(&line.account)
        .bind(&line.name)
        .bind(&line.text)
        .bind(line.at_ms)
        .execute(&mut *tx)
        .await?;
        let seqs = write_notes(&mut tx, notes, line.at_ms).await?;
        tx.commit().await?;
        Ok(Some(seqs))
    }

    /// A room's newest `limit` lines, oldest first.
    pub async fn chat_lines(
        &self,
        game: &str,
        room: &str,
        limit: i64,
    ) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM chat_lines WHERE game = $1 AND room = $2 \
             ORDER BY at_ms DESC, id DESC LIMIT $3",
        )
        .bind(game)
        .bind(room)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut lines = rows.iter().map(chat_row).collect::<Result<Vec<_>, _>>()?;
        lines.reverse();
        Ok(lines)
    }

    /// The accounts `blocker` blocks.
    pub async fn blocked_ids(&self, blocker: &str) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT blocked FROM blocks WHERE blocker = $1")
                .bind(blocker)
                .fetch_all(&self.pool)
                .await?,
        )
    }

    /// Stores a report.
    pub async fn add_report(&self, r: &ReportRow) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query(
            "INSERT INTO reports (id, reporter, player, reason, game, text, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&r.id)
        .bind(&r.reporter)
        .bind(&r.player)
        .bind(&r.reason)
        .bind(&r.game)
        .bind(&r.text)
        .bind(r.created_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The open reports made before the cursor `before` (a report's time
    /// and id), newest first, at most `limit`.
    pub async fn open_reports(
        &self,
        before: (i64, &str),
        limit: i64,
    ) -> Result<Vec<ReportRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM reports WHERE closed_ms = 0 \
             AND (created_ms < $1 OR (created_ms = $1 AND id < $2)) \
             ORDER BY created_ms DESC, id DESC LIMIT $3",
        )
        .bind(before.0)
        .bind(before.1)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReportRow {
                    id: r.try_get("id")?,
                    reporter: r.try_get("reporter")?,
                    player: r.try_get("player")?,
                    reason: r.try_get("reason")?,
                    game: r.try_get("game")?,
                    text: r.try_get("text")?,
                    created_ms: r.try_get("created_ms")?,
                })
            })
            .collect()
    }

    /// When report `id` was made, if there is one.
    pub async fn report_made(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT created_ms FROM reports WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// Closes a report: false if there is no open report of that id.
    pub async fn close_report(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let done = sqlx::query("UPDATE reports SET closed_ms = $1 WHERE id = $2 AND closed_ms = 0")
            .bind(now)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The lines `account` said in `game` (what a report points at), oldest
    /// first, at most `limit`.
    pub async fn lines_of(
        &self,
        account: &str,
        game: &str,
        limit: i64,
    ) -> Result<Vec<ChatRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM chat_lines WHERE game = $1 AND account = $2 ORDER BY at_ms LIMIT $3",
        )
        .bind(game)
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(chat_row).collect::<Result<_, _>>()?)
    }

    /// An operator's action on `account`, with the change it makes, in one
    /// transaction: `mute` until `until`, `ban` (its sessions end),
    /// `unban`, `unmute`. Recorded with who did it and when. The accounts
    /// a ban closed (the account and its bots; none for the others).
    pub async fn moderate(
        &self,
        id: &str,
        operator: &str,
        action: &str,
        account: &str,
        until: i64,
        now: i64,
    ) -> Result<Vec<String>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let change = match action {
            "mute" => "UPDATE accounts SET muted_until_ms = $1 WHERE id = $2",
            "unmute" => "UPDATE accounts SET muted_until_ms = 0 WHERE id = $2 AND $1 >= 0",
            "ban" => "UPDATE accounts SET banned_ms = $1 WHERE id = $2",
            "unban" => "UPDATE accounts SET banned_ms = 0 WHERE id = $2 AND $1 >= 0",
            other => return Err(StoreError::Io(format!("no action '{other}'"))),
        };
        sqlx::query(change)
            .bind(if action == "mute" { until } else { now })
            .bind(account)
            .execute(&mut *tx)
            .await?;
        let mut closed = Vec::new();
        if action == "ban" {
            // Every way in closes, for the account and its bots.
            closed = super::shut_out::shut_out(&mut tx, account, now).await?;
        }
        sqlx::query(
            "INSERT INTO moderation (id, at_ms, operator, action, account, detail) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(now)
        .bind(operator)
        .bind(action)
        .bind(account)
        .bind(if action == "mute" {
            until.to_string()
        } else {
            String::new()
        })
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(closed)
    }

    /// What operators did, newest first, at most `limit`: when, who, what,
    /// to whom (the account's name), and its detail.
    pub async fn moderation_log(
        &self,
        limit: i64,
    ) -> Result<Vec<(i64, String, String, String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.at_ms, m.operator, m.action, a.name, m.detail FROM moderation m \
             JOIN accounts a ON a.id = m.account ORDER BY m.at_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get(4)?,
                ))
            })
            .collect()
    }

    /// Tells the other processes of a line (PostgreSQL; SQLite has none).
    pub async fn announce_chat(&self, line: &ChatRow) -> Result<(), StoreError> {
        if self.postgres {
            let payload = format!(
                "{} {}",
                self.me,
                serde_json::to_string(line).map_err(|e| StoreError::Io(e.to_string()))?
            );
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(super::CHAT_CHANNEL)
                .bind(payload)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}
