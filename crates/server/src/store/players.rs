//! A player's games: finished ones kept in `player_games` as they end (the
//! archive a page at a time, newest first, filtered; the counts and the
//! streak), and those in progress.

use sqlx::Row;
use virus_wars_rules::Side;

use super::rows::{game_row, GameResult, GameRow};
use super::{Store, StoreError};

/// What an archive page asks for.
#[derive(Clone, Debug, Default)]
pub struct ArchiveFilter {
    /// A rating family (`classic`, …, `other`), or '' for all.
    pub family: String,
    /// `won`, `lost`, `drawn`, `aborted` (only these are listed then), or
    /// '' for every result but `aborted`.
    pub result: String,
    /// The opponent's account id, or '' for anyone.
    pub opponent: String,
    /// `Some(true)`: rated games only; `Some(false)`: casual ones only.
    pub rated: Option<bool>,
    /// Games that ended before this (when, id), or none: from the newest.
    pub before: Option<(i64, String)>,
}

/// A page of an archive: the games that match, newest first, and where the
/// next page starts (`None`: this was the last).
#[derive(Clone, Debug, Default)]
pub struct ArchivePage {
    pub games: Vec<GameRow>,
    pub next: Option<(i64, String)>,
}

/// Most of a player's finished games one archive page looks at, whatever
/// its filter: a page that finds fewer matches than it asked for among
/// them ends early, with a `next` that goes on from there.
pub const ARCHIVE_SCAN: i64 = 1000;

/// A player's counts of finished games (called-off games left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub played: i64,
    pub won: i64,
    pub lost: i64,
    pub drawn: i64,
}

impl ArchiveFilter {
    fn takes(&self, result: &str, family: &str, rated: bool, opponent: &str) -> bool {
        let result_ok = match self.result.as_str() {
            "" => result != "aborted",
            wanted => result == wanted,
        };
        result_ok
            && (self.family.is_empty() || self.family == family)
            && (self.opponent.is_empty() || self.opponent == opponent)
            && self.rated.is_none_or(|r| r == rated)
    }
}

impl Store {
    /// Finished games of `account`, newest first: at most `limit` of those
    /// that match, found among at most [`ARCHIVE_SCAN`] of its games.
    pub async fn archive(
        &self,
        account: &str,
        f: &ArchiveFilter,
        limit: i64,
    ) -> Result<ArchivePage, StoreError> {
        let (found, next) = self.archive_ids(account, f, limit).await?;
        let mut page = ArchivePage {
            games: Vec::with_capacity(found.len()),
            next,
        };
        for (id, ended) in found {
            if let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
                .bind(&id)
                .fetch_optional(&self.pool)
                .await?
            {
                let mut g = game_row(&row)?;
                // Listed by when it ended, whatever changed it since.
                g.progress.last_active_ms = ended;
                page.games.push(g);
            }
        }
        Ok(page)
    }

    /// The ids (and when each ended) of an archive page, and where the next
    /// page starts: at most `limit` games that match, found among at most
    /// [`ARCHIVE_SCAN`] of the account's games, through its key alone.
    pub async fn archive_ids(
        &self,
        account: &str,
        f: &ArchiveFilter,
        limit: i64,
    ) -> Result<(Vec<(String, i64)>, Option<(i64, String)>), StoreError> {
        let (before_ms, before_id) = f.before.clone().unwrap_or((i64::MAX, String::new()));
        use futures_util::TryStreamExt;
        let mut scanned = sqlx::query(
            "SELECT game_id, ended_ms, result, family, rated, opponent FROM player_games \
             WHERE account_id = $1 AND (ended_ms < $2 OR (ended_ms = $2 AND game_id < $3)) \
             ORDER BY ended_ms DESC, game_id DESC LIMIT $4",
        )
        .bind(account)
        .bind(before_ms)
        .bind(if f.before.is_some() {
            before_id
        } else {
            String::new()
        })
        .bind(ARCHIVE_SCAN)
        .fetch(&self.pool);
        let mut found: Vec<(String, i64)> = Vec::new();
        let mut last = None;
        let mut seen = 0;
        // Read as they come: a page that fills stops reading.
        while let Some(r) = scanned.try_next().await? {
            seen += 1;
            let (id, ended): (String, i64) = (r.try_get("game_id")?, r.try_get("ended_ms")?);
            let (result, family, rated, opponent): (String, String, i64, String) = (
                r.try_get("result")?,
                r.try_get("family")?,
                r.try_get("rated")?,
                r.try_get("opponent")?,
            );
            if f.takes(&result, &family, rated != 0, &opponent) {
                if found.len() as i64 == limit {
                    // One more matches: the next page starts after the last.
                    let next = found.last().map(|(id, ended)| (*ended, id.clone()));
                    return Ok((found, next));
                }
                found.push((id.clone(), ended));
            }
            last = Some((ended, id));
        }
        let next = (seen == ARCHIVE_SCAN).then_some(last).flatten();
        Ok((found, next))
    }

    /// Games of `account` in progress, the most recently active first.
    pub async fn playing(&self, account: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM (SELECT * FROM games WHERE x_account = $1 AND finished = 0 \
             ORDER BY last_active_ms DESC LIMIT $2) x \
             UNION SELECT * FROM (SELECT * FROM games WHERE o_account = $1 AND finished = 0 \
             ORDER BY last_active_ms DESC LIMIT $2) o \
             ORDER BY last_active_ms DESC, id DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// Games of `account` in progress that may wait for its move (or whose
    /// mover is not stored yet), the longest waiting first, at most `limit`.
    pub async fn my_move(&self, account: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM (SELECT * FROM games WHERE x_account = $1 AND finished = 0 \
             AND to_move <> 'o' ORDER BY last_active_ms LIMIT $2) x \
             UNION SELECT * FROM (SELECT * FROM games WHERE o_account = $1 AND finished = 0 \
             AND to_move <> 'x' ORDER BY last_active_ms LIMIT $2) o \
             ORDER BY last_active_ms, id LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// How many games `account` finished, won, lost and drew.
    pub async fn counts(&self, account: &str) -> Result<Counts, StoreError> {
        let r = sqlx::query("SELECT won, lost, drawn FROM accounts WHERE id = $1")
            .bind(account)
            .fetch_optional(&self.pool)
            .await?;
        let Some(r) = r else {
            return Ok(Counts::default());
        };
        let (won, lost, drawn): (i64, i64, i64) =
            (r.try_get("won")?, r.try_get("lost")?, r.try_get("drawn")?);
        Ok(Counts {
            played: won + lost + drawn,
            won,
            lost,
            drawn,
        })
    }

    /// The results of `account`'s newest finished games (not called off),
    /// from the newest: `won`, `lost` or `drawn`, among its newest `limit`.
    pub async fn latest_results(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let results: Vec<String> = sqlx::query_scalar(
            "SELECT result FROM player_games WHERE account_id = $1 \
             ORDER BY ended_ms DESC, game_id DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(results.into_iter().filter(|r| r != "aborted").collect())
    }

    /// What each of these rated games did to `account`'s rating: (game,
    /// before, after).
    pub async fn changes_in(
        &self,
        account: &str,
        games: &[String],
    ) -> Result<Vec<(String, f64, f64)>, StoreError> {
        let mut out = Vec::new();
        for id in games {
            let row = sqlx::query(
                "SELECT rating_before, rating FROM rating_changes WHERE account_id = $1 AND game_id = $2",
            )
            .bind(account)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(r) = row {
                out.push((
                    id.clone(),
                    r.try_get("rating_before")?,
                    r.try_get("rating")?,
                ));
            }
        }
        Ok(out)
    }
}

/// Keeps a finished game in its players' lists and counts: a row of
/// `player_games` for each seat an account holds, and that account's count
/// of its result, once (a game already kept is left as it is). Written in
/// the transaction that ends the game, or that gives a finished game's
/// seat to an account; the accounts in the order of their ids, as every
/// writer locks them.
pub async fn keep_finished(
    conn: &mut sqlx::AnyConnection,
    game_id: &str,
) -> Result<(), StoreError> {
    let Some(r) = sqlx::query(
        "SELECT x_account, o_account, result, family, rated, last_active_ms FROM games \
         WHERE id = $1 AND finished = 1",
    )
    .bind(game_id)
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(());
    };
    let accounts: [String; 2] = [r.try_get("x_account")?, r.try_get("o_account")?];
    let (result, family, rated, ended): (String, String, i64, i64) = (
        r.try_get("result")?,
        r.try_get("family")?,
        r.try_get("rated")?,
        r.try_get("last_active_ms")?,
    );
    let mut seats: Vec<usize> = (0..2).filter(|&k| !accounts[k].is_empty()).collect();
    seats.sort_by(|&a, &b| accounts[a].cmp(&accounts[b]));
    for k in seats {
        let theirs =
            GameResult::from_column(&result).map_or("aborted", |r| r.for_seat(Side::BOTH[k]));
        let kept = sqlx::query(
            "INSERT INTO player_games (account_id, game_id, ended_ms, result, family, rated, opponent) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, game_id) DO NOTHING",
        )
        .bind(&accounts[k])
        .bind(game_id)
        .bind(ended)
        .bind(theirs)
        .bind(&family)
        .bind(rated)
        .bind(&accounts[1 - k])
        .execute(&mut *conn)
        .await?
        .rows_affected()
            == 1;
        if kept && theirs != "aborted" {
            let sql = match theirs {
                "won" => "UPDATE accounts SET won = won + 1 WHERE id = $1",
                "lost" => "UPDATE accounts SET lost = lost + 1 WHERE id = $1",
                _ => "UPDATE accounts SET drawn = drawn + 1 WHERE id = $1",
            };
            sqlx::query(sql)
                .bind(&accounts[k])
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}
