//! What a ban or a deletion closes, in the transaction that makes it:
//! everything the account controls, its bots included, at once and for
//! every process (the database is what each process reads).

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
        for sql in [
            "DELETE FROM sessions WHERE account_id = $1",
            "DELETE FROM push_subscriptions WHERE account = $1",
            // Waiting for an opponent: out of the open games and quick play.
            "UPDATE games SET listed = 0, version = version + 1 \
             WHERE finished = 0 AND listed = 1 AND (x_account = $1 OR o_account = $1) \
             AND (x_token = '' OR o_token = '')",
            "UPDATE games SET x_token = 'banned', version = version + 1 \
             WHERE x_account = $1 AND finished = 0 AND x_token <> 'banned'",
            "UPDATE games SET o_token = 'banned', version = version + 1 \
             WHERE o_account = $1 AND finished = 0 AND o_token <> 'banned'",
            "UPDATE tournaments SET version = version + 1 WHERE state <> 'finished' \
             AND id IN (SELECT tournament FROM tournament_players WHERE account = $1)",
            "DELETE FROM tournament_players WHERE account = $1 \
             AND tournament IN (SELECT id FROM tournaments WHERE state = 'soon')",
            "UPDATE tournament_players SET state = 'paused' WHERE account = $1 AND state = 'in'",
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
