//! A player's games: counted, listed newest first (the archive, a page at
//! a time, filtered), and those in progress.

use sqlx::Row;

use super::rows::{game_row, GameRow};
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
    /// Games older than this (last change, id), or none: from the newest.
    pub before: Option<(i64, String)>,
}

/// A player's counts of finished games (called-off games left out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub played: i64,
    pub won: i64,
    pub lost: i64,
    pub drawn: i64,
}

impl Store {
    /// Finished games of `account`, newest first, at most `limit`.
    pub async fn archive(
        &self,
        account: &str,
        f: &ArchiveFilter,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (before_ms, before_id) = f.before.clone().unwrap_or((i64::MAX, String::new()));
        let rows = sqlx::query(
            "SELECT * FROM games WHERE (x_account = $1 OR o_account = $1) AND finished = 1 \
             AND ($2 = '' OR family = $2) \
             AND ($3 = '' OR (x_account = $3 AND o_account = $1) OR (o_account = $3 AND x_account = $1)) \
             AND ($4 < 0 OR rated = $4) \
             AND (CASE \
                  WHEN $5 = '' THEN (CASE WHEN result = 'aborted' THEN 0 ELSE 1 END) \
                  WHEN $5 = 'aborted' THEN (CASE WHEN result = 'aborted' THEN 1 ELSE 0 END) \
                  WHEN $5 = 'drawn' THEN (CASE WHEN result = 'draw' THEN 1 ELSE 0 END) \
                  WHEN $5 = 'won' THEN (CASE WHEN (result = 'x' AND x_account = $1) \
                       OR (result = 'o' AND o_account = $1) THEN 1 ELSE 0 END) \
                  WHEN $5 = 'lost' THEN (CASE WHEN (result = 'x' AND o_account = $1) \
                       OR (result = 'o' AND x_account = $1) THEN 1 ELSE 0 END) \
                  ELSE 0 END) = 1 \
             AND (last_active_ms < $6 OR (last_active_ms = $6 AND $7 <> '' AND id < $7)) \
             ORDER BY last_active_ms DESC, id DESC LIMIT $8",
        )
        .bind(account)
        .bind(&f.family)
        .bind(&f.opponent)
        .bind(f.rated.map_or(-1, i64::from))
        .bind(&f.result)
        .bind(before_ms)
        .bind(before_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// Games of `account` in progress, the most recently active first.
    pub async fn playing(&self, account: &str, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE (x_account = $1 OR o_account = $1) AND finished = 0 \
             ORDER BY last_active_ms DESC, id DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// How many games `account` finished, won, lost and drew.
    pub async fn counts(&self, account: &str) -> Result<Counts, StoreError> {
        let r = sqlx::query(
            "SELECT \
             CAST(COALESCE(SUM(CASE WHEN result <> 'aborted' THEN 1 ELSE 0 END), 0) AS BIGINT) AS played, \
             CAST(COALESCE(SUM(CASE WHEN (result = 'x' AND x_account = $1) \
                  OR (result = 'o' AND o_account = $1) THEN 1 ELSE 0 END), 0) AS BIGINT) AS won, \
             CAST(COALESCE(SUM(CASE WHEN result = 'draw' THEN 1 ELSE 0 END), 0) AS BIGINT) AS drawn \
             FROM games WHERE (x_account = $1 OR o_account = $1) AND finished = 1",
        )
        .bind(account)
        .fetch_one(&self.pool)
        .await?;
        let (played, won, drawn): (i64, i64, i64) =
            (r.try_get("played")?, r.try_get("won")?, r.try_get("drawn")?);
        Ok(Counts {
            played,
            won,
            lost: played - won - drawn,
            drawn,
        })
    }

    /// The results of `account`'s newest finished games (not called off),
    /// from the newest: `won`, `lost` or `drawn`, at most `limit`.
    pub async fn latest_results(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT CASE WHEN result = 'draw' THEN 'drawn' \
             WHEN (result = 'x' AND x_account = $1) OR (result = 'o' AND o_account = $1) THEN 'won' \
             ELSE 'lost' END FROM games \
             WHERE (x_account = $1 OR o_account = $1) AND finished = 1 AND result <> 'aborted' \
             ORDER BY last_active_ms DESC, id DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
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
