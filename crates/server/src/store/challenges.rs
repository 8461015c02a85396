//! Challenges by name, and blocks. A challenge is decided once: each
//! change of its state is a conditional write on its row (`state =
//! 'open'` and not expired), and an accepted challenge's game is inserted
//! in the same transaction, so that of two answers in two processes only
//! one makes a game.

use sqlx::Row;

use super::group::insert_game;
use super::inbox::{write_notes, NewNote};
use super::{GameRow, Store, StoreError};

/// A stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: String,
    pub from_account: String,
    pub to_account: String,
    /// The game's settings as asked (a JSON object).
    pub settings: String,
    pub real_time: bool,
    pub created_ms: i64,
    pub expires_ms: i64,
    pub state: String,
    pub reason: String,
    pub game: String,
}

fn challenge_row(r: &sqlx::any::AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        from_account: r.try_get("from_account")?,
        to_account: r.try_get("to_account")?,
        settings: r.try_get("settings")?,
        real_time: r.try_get::<i64, _>("real_time")? != 0,
        created_ms: r.try_get("created_ms")?,
        expires_ms: r.try_get("expires_ms")?,
        state: r.try_get("state")?,
        reason: r.try_get("reason")?,
        game: r.try_get("game")?,
    })
}

/// A real-time challenge lapses once its challenger has not been seen
/// for this long (their open page marks them seen every minute). The
/// statements below say it as `seen_ms > now - 120000`, each with its
/// own columns in its condition: an `UPDATE` that waited for another
/// writer checks those again on the row as that writer left it (a
/// condition in a subquery over the same table is not checked again: two
/// acceptances at once through two processes both passed one).
pub const GONE_MS: i64 = 120_000;

/// Whether a challenge is open at `now` with its challenger seen at `seen_ms`.
pub fn still_open(c: &ChallengeRow, seen_ms: i64, now: i64) -> bool {
    c.state == "open" && c.expires_ms > now && (!c.real_time || seen_ms > now - GONE_MS)
}

/// What storing a new challenge did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Stored, with its notifications under these numbers.
    Sent(Vec<Option<i64>>),
    /// The challenger has `most` open already.
    TooMany,
}

impl Store {
    /// Stores challenge `c` (and `game`, a bot's, made with it) and the
    /// notifications `notes` it raises, unless its challenger has `most`
    /// open challenges already (counted under a lock of the challenger's
    /// row): then nothing is stored.
    pub async fn send_challenge(
        &self,
        c: &ChallengeRow,
        now: i64,
        most: i64,
        game: Option<&GameRow>,
        notes: &[NewNote],
    ) -> Result<Sent, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        // Locks both players' rows, in one order (PostgreSQL): two
        // challenges at once count one after the other, Ann's to Bo and
        // Bo's to Ann at once never deadlock (the notification raises the
        // other's row), and neither may be banned or deleted.
        super::shut_out::all_may_play(&mut tx, &[&c.from_account, &c.to_account]).await?;
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM challenges c JOIN accounts f ON f.id = c.from_account \
             WHERE c.from_account = $1 AND c.state = 'open' AND c.expires_ms > $2 \
             AND (c.real_time = 0 OR f.seen_ms > $2 - 120000)",
        )
        .bind(&c.from_account)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        if open >= most {
            return Ok(Sent::TooMany);
        }
        sqlx::query(
            "INSERT INTO challenges (id, from_account, to_account, settings, real_time, \
             created_ms, expires_ms, state, game) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&c.id)
        .bind(&c.from_account)
        .bind(&c.to_account)
        .bind(&c.settings)
        .bind(c.real_time as i64)
        .bind(c.created_ms)
        .bind(c.expires_ms)
        .bind(&c.state)
        .bind(&c.game)
        .execute(&mut *tx)
        .await?;
        if let Some(game) = game {
            // A bot's game: its owner's row too, in the same order.
            super::shut_out::all_may_play(&mut tx, &super::games::seated(game)).await?;
            insert_game(&mut tx, game).await?;
        }
        let seqs = write_notes(&mut tx, notes, now).await?;
        tx.commit().await?;
        Ok(Sent::Sent(seqs))
    }

    /// The challenge `id`, whatever its state, with its challenger's
    /// `seen_ms`.
    pub async fn challenge(&self, id: &str) -> Result<Option<(ChallengeRow, i64)>, StoreError> {
        let row = sqlx::query(
            "SELECT c.*, f.seen_ms AS seen FROM challenges c \
             JOIN accounts f ON f.id = c.from_account WHERE c.id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(r) => Ok(Some((challenge_row(&r)?, r.try_get("seen")?))),
            None => Ok(None),
        }
    }

    /// The open challenges to (`incoming`) or from an account, newest
    /// first, at most `limit`.
    pub async fn open_challenges(
        &self,
        account: &str,
        incoming: bool,
        now: i64,
        limit: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let sql = if incoming {
            "SELECT c.* FROM challenges c JOIN accounts f ON f.id = c.from_account \
             WHERE c.to_account = $1 AND c.state = 'open' AND c.expires_ms > $2 \
             AND (c.real_time = 0 OR f.seen_ms > $2 - 120000) ORDER BY c.created_ms DESC LIMIT $3"
        } else {
            "SELECT c.* FROM challenges c JOIN accounts f ON f.id = c.from_account \
             WHERE c.from_account = $1 AND c.state = 'open' AND c.expires_ms > $2 \
             AND (c.real_time = 0 OR f.seen_ms > $2 - 120000) ORDER BY c.created_ms DESC LIMIT $3"
        };
        let rows = sqlx::query(sql)
            .bind(account)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(challenge_row).collect::<Result<_, _>>()?)
    }

    /// Ends the open challenge `id` as `state` (declined, withdrawn) with
    /// `reason`, and stores the notifications `notes` with it: `None` if it
    /// was not open at `now` any more, else their numbers.
    pub async fn close_challenge(
        &self,
        id: &str,
        state: &str,
        reason: &str,
        now: i64,
        notes: &[NewNote],
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE challenges SET state = $2, reason = $3, decided_ms = $4 \
             WHERE id = $1 AND state = 'open' AND expires_ms > $4 AND (real_time = 0 OR \
             EXISTS (SELECT 1 FROM accounts f WHERE f.id = challenges.from_account \
             AND f.seen_ms > $4 - 120000))",
        )
        .bind(id)
        .bind(state)
        .bind(reason)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        let seqs = write_notes(&mut tx, notes, now).await?;
        tx.commit().await?;
        Ok(Some(seqs))
    }

    /// Accepts the open challenge `id`: its game `game` and the
    /// notifications `notes` are stored in the same transaction. `None`
    /// (nothing stored) if it was not open at `now` any more, else the
    /// notifications' numbers.
    pub async fn accept_challenge(
        &self,
        id: &str,
        game: &GameRow,
        now: i64,
        notes: &[NewNote],
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE challenges SET state = 'accepted', game = $2, decided_ms = $3 \
             WHERE id = $1 AND state = 'open' AND expires_ms > $3 AND (real_time = 0 OR \
             EXISTS (SELECT 1 FROM accounts f WHERE f.id = challenges.from_account \
             AND f.seen_ms > $3 - 120000))",
        )
        .bind(id)
        .bind(&game.id)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(None);
        }
        super::shut_out::all_may_play(&mut tx, &super::games::seated(game)).await?;
        insert_game(&mut tx, game).await?;
        let seqs = write_notes(&mut tx, notes, now).await?;
        tx.commit().await?;
        Ok(Some(seqs))
    }

    /// `blocker` blocks `blocked` (idempotent), unless it blocks `most`
    /// already: false then.
    pub async fn block_player(
        &self,
        blocker: &str,
        blocked: &str,
        now: i64,
        most: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET notes_seq = notes_seq WHERE id = $1")
            .bind(blocker)
            .execute(&mut *tx)
            .await?;
        let there: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM blocks WHERE blocker = $1")
            .bind(blocker)
            .fetch_one(&mut *tx)
            .await?;
        if there >= most {
            return Ok(false);
        }
        sqlx::query(
            "INSERT INTO blocks (blocker, blocked, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (blocker, blocked) DO NOTHING",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // Their open challenges to each other end.
        sqlx::query(
            "UPDATE challenges SET state = 'withdrawn', decided_ms = $3 WHERE state = 'open' \
             AND ((from_account = $1 AND to_account = $2) OR (from_account = $2 AND to_account = $1))",
        )
        .bind(blocker)
        .bind(blocked)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(true)
    }

    pub async fn unblock_player(&self, blocker: &str, blocked: &str) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
            .bind(blocker)
            .bind(blocked)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Whether either of two accounts blocks the other.
    pub async fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let found: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM blocks WHERE (blocker = $1 AND blocked = $2) \
             OR (blocker = $2 AND blocked = $1) LIMIT 1",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?;
        Ok(found.is_some())
    }

    /// The pairs of players of tournament `id` where one blocks the
    /// other (blocker first): never paired together.
    pub async fn blocks_in_tournament(
        &self,
        id: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.blocker, b.blocked FROM tournament_players p \
             JOIN blocks b ON b.blocker = p.account \
             JOIN tournament_players q ON q.tournament = p.tournament AND q.account = b.blocked \
             WHERE p.tournament = $1",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// The names of those `blocker` blocks, by name.
    pub async fn blocked_names(&self, blocker: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT a.name FROM blocks b JOIN accounts a ON a.id = b.blocked \
             WHERE b.blocker = $1 ORDER BY a.name_key",
        )
        .bind(blocker)
        .fetch_all(&self.pool)
        .await?)
    }
}

#[cfg(test)]
mod tests {
    /// The statements write the lapse out: they say what GONE_MS says.
    #[test]
    fn the_statements_lapse_as_gone_ms_says() {
        let source = include_str!("challenges.rs");
        let needle = format!("- {})", super::GONE_MS);
        assert_eq!(source.matches(&needle).count(), 5);
    }
}
