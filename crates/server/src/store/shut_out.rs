//! What a ban or a deletion closes, in the transaction that makes it:
//! everything the account controls, its bots included, at once and for
//! every process (the database is what each process reads); and the check
//! that every write giving an account a seat, a game or a place makes in
//! its own transaction, so that none slips past a ban written meanwhile.

use super::StoreError;

/// Closes every way `account` and the bots it registered act: their
/// sessions and pushes end; their seats in games still played take no
/// token (each game's version moves, so every copy in memory reloads; the
/// clocks run on); their seeks and open games leave the lists; their
/// challenges, either way, end; they leave the tournaments not started
/// yet and are paused (never paired again) in those running. A bot's
/// token is refused from then on where it reads its account or its
/// owner's ([`super::Store::bot_of`]). The accounts closed, `account`
/// first.
pub(super) async fn shut_out(
    conn: &mut sqlx::AnyConnection,
    account: &str,
    now: i64,
) -> Result<Vec<String>, StoreError> {
    let mut closed = vec![account.to_string()];
    let bots: Vec<String> =
        sqlx::query_scalar("SELECT id FROM accounts WHERE owner = $1 AND kind = 'bot'")
            .bind(account)
            .fetch_all(&mut *conn)
            .await?;
    closed.extend(bots);
    for who in &closed {
        // The tournament places first, then the games: a pairing that
        // took a place before this wrote its game before this reads them
        // (PostgreSQL makes this wait for it), and one that comes after
        // finds the place paused.
        for sql in [
            "DELETE FROM sessions WHERE account_id = $1",
            "DELETE FROM push_subscriptions WHERE account = $1",
            "UPDATE tournaments SET version = version + 1 WHERE state <> 'finished' \
             AND id IN (SELECT tournament FROM tournament_players WHERE account = $1)",
            "DELETE FROM tournament_players WHERE account = $1 \
             AND tournament IN (SELECT id FROM tournaments WHERE state = 'soon')",
            "UPDATE tournament_players SET state = 'paused' WHERE account = $1 AND state = 'in'",
            // Waiting for an opponent: out of the open games and quick play.
            "UPDATE games SET listed = 0, version = version + 1 \
             WHERE finished = 0 AND listed = 1 AND (x_account = $1 OR o_account = $1) \
             AND (x_token = '' OR o_token = '')",
            "UPDATE games SET x_token = 'banned', version = version + 1 \
             WHERE x_account = $1 AND finished = 0 AND x_token <> 'banned'",
            "UPDATE games SET o_token = 'banned', version = version + 1 \
             WHERE o_account = $1 AND finished = 0 AND o_token <> 'banned'",
        ] {
            sqlx::query(sql).bind(who).execute(&mut *conn).await?;
        }
        sqlx::query(
            "UPDATE challenges SET state = 'withdrawn', decided_ms = $2 WHERE state = 'open' \
             AND (from_account = $1 OR to_account = $1)",
        )
        .bind(who)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(closed)
}

/// Whether every account of `accounts` may still take a seat, a game or a
/// place: neither it nor (a bot) the account that registered it is banned
/// or deleted. `Barred` naming the first row that may not. Their rows are
/// locked for the rest of the transaction `conn` is in (a no-op update,
/// which PostgreSQL serialises with a ban's own update of the row), all of
/// them in the order of their ids: two writes over the same accounts (Ann
/// challenging Bo while Bo challenges Ann) lock them in one order and never
/// deadlock. A seat, a game or an entry written after this check commits
/// either before the ban, which then closes it, or not at all. '' (no
/// account) may.
pub(crate) async fn all_may_play(
    conn: &mut sqlx::AnyConnection,
    accounts: &[&str],
) -> Result<(), StoreError> {
    let mut rows: Vec<String> = Vec::new();
    for account in accounts.iter().filter(|a| !a.is_empty()) {
        let owner: Option<String> = sqlx::query_scalar("SELECT owner FROM accounts WHERE id = $1")
            .bind(account)
            .fetch_optional(&mut *conn)
            .await?;
        // No row: a bot registered before accounts were made for bots.
        let Some(owner) = owner else { continue };
        rows.push(account.to_string());
        if !owner.is_empty() {
            rows.push(owner);
        }
    }
    rows.sort();
    rows.dedup();
    for id in rows {
        let held = sqlx::query(
            "UPDATE accounts SET notes_seq = notes_seq \
             WHERE id = $1 AND banned_ms = 0 AND deleted_ms = 0",
        )
        .bind(&id)
        .execute(&mut *conn)
        .await?;
        if held.rows_affected() != 1 {
            return Err(StoreError::Barred(id));
        }
    }
    Ok(())
}
