//! A player's notifications, durable: numbered from 1 for each account,
//! the number raised in the transaction that inserts the next (a
//! conditional update of the account's row, which PostgreSQL serialises),
//! so that every process numbers them alike. A socket delivers those past
//! the last number it sent; `read` marks up to a number.

use sqlx::Row;

use super::{Store, StoreError};

/// Most notifications kept for one account: older ones go as new ones come.
pub const KEPT: i64 = 300;

/// A stored notification.
#[derive(Clone, Debug, PartialEq)]
pub struct NoteRow {
    pub seq: i64,
    pub kind: String,
    pub at_ms: i64,
    pub game: String,
    /// The kind's own fields (a JSON object).
    pub body: serde_json::Value,
}

fn note_row(r: &sqlx::any::AnyRow) -> Result<NoteRow, StoreError> {
    let body: String = r.try_get("body")?;
    Ok(NoteRow {
        seq: r.try_get("seq")?,
        kind: r.try_get("kind")?,
        at_ms: r.try_get("at_ms")?,
        game: r.try_get("game")?,
        body: serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
    })
}

/// A notification to store, with the change that raises it where there
/// is one (a step, a challenge): in that change's own transaction, so that
/// a process killed after the change was stored cannot lose it.
#[derive(Clone, Debug, PartialEq)]
pub struct NewNote {
    pub account: String,
    pub kind: &'static str,
    /// The game it is about, or empty.
    pub game: String,
    /// The kind's own fields (a JSON object).
    pub body: serde_json::Value,
    /// Not stored where an unread one of the same kind about the same game
    /// is there (one "your turn" a game until it is read).
    pub once: bool,
    /// Of the account's own doing (the acceptance it made): stored read,
    /// where everything before it was read (the mark is one number).
    pub read: bool,
}

/// Stores `note` in the transaction `conn` is in; its number, or `None`
/// when the account is deleted (or none), or when `once` finds an unread
/// one. Its number is raised by a conditional update of the account's row,
/// which PostgreSQL serialises; the `once` check is read before it, which
/// is safe where it is used: a game's notes are written after the game's
/// own conditional update, which lets one change of the game through at a
/// time.
pub async fn write_note(
    conn: &mut sqlx::AnyConnection,
    note: &NewNote,
    now: i64,
) -> Result<Option<i64>, StoreError> {
    if note.account.is_empty() || note.account.starts_with("bot:") {
        return Ok(None);
    }
    if note.once {
        let there: Option<i64> = sqlx::query_scalar(
            "SELECT n.seq FROM notifications n JOIN accounts a ON a.id = n.account \
             WHERE n.account = $1 AND n.seq > a.notes_read AND n.kind = $2 AND n.game = $3 \
             LIMIT 1",
        )
        .bind(&note.account)
        .bind(note.kind)
        .bind(&note.game)
        .fetch_optional(&mut *conn)
        .await?;
        if there.is_some() {
            return Ok(None);
        }
    }
    let Some(seq): Option<i64> = sqlx::query_scalar(
        "UPDATE accounts SET notes_seq = notes_seq + 1 WHERE id = $1 AND deleted_ms = 0 \
         RETURNING notes_seq",
    )
    .bind(&note.account)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    // A challenge's note names it: it needs the player while it is open.
    let challenge = match note.kind {
        "challenge" => note.body["challenge"].as_str().unwrap_or(""),
        _ => "",
    };
    sqlx::query(
        "INSERT INTO notifications (account, seq, kind, at_ms, game, body, challenge) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&note.account)
    .bind(seq)
    .bind(note.kind)
    .bind(now)
    .bind(&note.game)
    .bind(note.body.to_string())
    .bind(challenge)
    .execute(&mut *conn)
    .await?;
    sqlx::query("DELETE FROM notifications WHERE account = $1 AND seq <= $2")
        .bind(&note.account)
        .bind(seq - KEPT)
        .execute(&mut *conn)
        .await?;
    if note.read {
        sqlx::query("UPDATE accounts SET notes_read = $1 WHERE id = $2 AND notes_read = $1 - 1")
            .bind(seq)
            .bind(&note.account)
            .execute(&mut *conn)
            .await?;
    }
    Ok(Some(seq))
}

/// Stores each of `notes` in the transaction `conn` is in: their numbers.
pub async fn write_notes(
    conn: &mut sqlx::AnyConnection,
    notes: &[NewNote],
    now: i64,
) -> Result<Vec<Option<i64>>, StoreError> {
    let mut seqs = Vec::with_capacity(notes.len());
    for note in notes {
        seqs.push(write_note(conn, note, now).await?);
    }
    Ok(seqs)
}

impl Store {
    /// The account's notifications numbered after `after`, oldest first,
    /// at most `limit`.
    pub async fn notes_after(
        &self,
        account: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<NoteRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM notifications WHERE account = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        )
        .bind(account)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(note_row).collect()
    }

    /// The account's notifications numbered before `before`, newest first,
    /// at most `limit`.
    pub async fn notes_before(
        &self,
        account: &str,
        before: i64,
        limit: i64,
    ) -> Result<Vec<NoteRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM notifications WHERE account = $1 AND seq < $2 \
             ORDER BY seq DESC LIMIT $3",
        )
        .bind(account)
        .bind(before)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(note_row).collect()
    }

    /// The account's last notification's number, what it has read up to,
    /// and how many unread ones still need the player: one about a game
    /// that is over no longer does (the "your turn" of a game that ended,
    /// its pairing, its result), nor one about a challenge no longer open,
    /// so the bell's number is what waits.
    pub async fn note_counts(&self, account: &str) -> Result<(i64, i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT a.notes_seq AS last, a.notes_read AS done, \
             (SELECT COUNT(*) FROM notifications n WHERE n.account = a.id \
              AND n.seq > a.notes_read AND ((n.kind = 'challenge' AND EXISTS \
              (SELECT 1 FROM challenges c WHERE c.id = n.challenge AND c.state = 'open')) \
              OR (n.kind <> 'challenge' AND (n.game = '' OR EXISTS \
              (SELECT 1 FROM games g WHERE g.id = n.game AND g.finished = 0))))) AS unread \
             FROM accounts a WHERE a.id = $1",
        )
        .bind(account)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => (r.try_get("last")?, r.try_get("done")?, r.try_get("unread")?),
            None => (0, 0, 0),
        })
    }

    /// Marks the account's notifications up to `up_to` read (never back:
    /// an older mark from another tab changes nothing; never past the last).
    pub async fn read_notes(&self, account: &str, up_to: i64) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query(
            "UPDATE accounts SET notes_read = CASE WHEN $1 > notes_seq THEN notes_seq ELSE $1 END \
             WHERE id = $2 AND notes_read < $1",
        )
        .bind(up_to)
        .bind(account)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Store {
    /// Rings `account`'s doorbell on the other processes (PostgreSQL; on
    /// SQLite there are none): their sockets read the account's count again.
    pub async fn ring_elsewhere(&self, account: &str) -> Result<(), StoreError> {
        if self.postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(super::NOTES_CHANNEL)
                .bind(account)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}
