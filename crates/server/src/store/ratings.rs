//! Ratings: each player's per category, what each rated game did to them
//! (written in the transaction that ends the game, so exactly once), the
//! leaderboards.

use sqlx::any::AnyRow;
use sqlx::Row;

use super::{Store, StoreError};
use crate::rating::{Glicko, Outcome};

/// A player's rating in a category, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub category: String,
    pub glicko: Glicko,
    /// Rated games played in the category.
    pub games: i64,
    pub last_rated_ms: i64,
}

/// A rated game's end, to be written with it: the category, both seats'
/// accounts (X, O) and X's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedEnd {
    pub category: String,
    pub accounts: [String; 2],
    pub x_outcome: Outcome,
}

/// A point of a rating chart: after the rated game `game_id` at `at_ms`.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub game_id: String,
    pub at_ms: i64,
    pub before: f64,
    pub rating: f64,
    pub rd: f64,
}

fn rating_row(r: &AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        category: r.try_get("category")?,
        glicko: Glicko {
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
        },
        games: r.try_get("games")?,
        last_rated_ms: r.try_get("last_rated_ms")?,
    })
}

impl Store {
    /// An account's ratings, in every category it has played rated.
    pub async fn ratings_of(&self, account: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT category, rating, rd, volatility, games, last_rated_ms FROM ratings \
             WHERE account_id = $1 ORDER BY category",
        )
        .bind(account)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(rating_row).collect::<Result<_, _>>()?)
    }

    /// An account's rating changes in a category, oldest first (at most
    /// the newest `limit`).
    pub async fn rating_changes(
        &self,
        account: &str,
        category: &str,
        limit: i64,
    ) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, at_ms, rating_before, rating, rd FROM rating_changes \
             WHERE account_id = $1 AND category = $2 \
             ORDER BY nth DESC, at_ms DESC, game_id DESC LIMIT $3",
        )
        .bind(account)
        .bind(category)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut changes = rows
            .iter()
            .map(|r| {
                Ok(RatingChange {
                    game_id: r.try_get("game_id")?,
                    at_ms: r.try_get("at_ms")?,
                    before: r.try_get("rating_before")?,
                    rating: r.try_get("rating")?,
                    rd: r.try_get("rd")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        changes.reverse();
        Ok(changes)
    }

    /// The best `limit` players of a category whose RD is at least
    /// `min_rd` and under `max_rd` (settled, or provisional), of living
    /// accounts: their names, kinds and ratings.
    pub async fn leaderboard(
        &self,
        category: &str,
        min_rd: f64,
        max_rd: f64,
        limit: i64,
    ) -> Result<Vec<(String, String, RatingRow)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.name, a.kind, r.category, r.rating, r.rd, r.volatility, r.games, r.last_rated_ms \
             FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.category = $1 AND r.rd >= $2 AND r.rd < $3 AND a.deleted_ms = 0 \
             ORDER BY r.rating DESC, a.name_key LIMIT $4",
        )
        .bind(category)
        .bind(min_rd)
        .bind(max_rd)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("name")?, r.try_get("kind")?, rating_row(r)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

/// Writes a rated game's end: both players' new ratings (each rating
/// period holding this one game, the RD first grown for the time since
/// their last rated game) and the changes, in the transaction that ends
/// the game. Each player's row is made first if it is missing, then every
/// row is read locked (on PostgreSQL), in the order of the accounts' ids:
/// two games of one player ending at once are rated one after the other,
/// and two games of the same two players with their colours crossed never
/// wait on each other in a circle.
pub async fn write_rated_end(
    conn: &mut sqlx::AnyConnection,
    postgres: bool,
    game_id: &str,
    end: &RatedEnd,
    now: i64,
) -> Result<(), StoreError> {
    let select = if postgres {
        "SELECT category, rating, rd, volatility, games, last_rated_ms FROM ratings \
         WHERE account_id = $1 AND category = $2 FOR UPDATE"
    } else {
        "SELECT category, rating, rd, volatility, games, last_rated_ms FROM ratings \
         WHERE account_id = $1 AND category = $2"
    };
    let mut order = [0usize, 1];
    order.sort_by(|&a, &b| end.accounts[a].cmp(&end.accounts[b]));
    let fresh = Glicko::default();
    for &k in &order {
        sqlx::query(
            "INSERT INTO ratings (account_id, category, rating, rd, volatility, games, last_rated_ms) \
             VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, category) DO NOTHING",
        )
        .bind(&end.accounts[k])
        .bind(&end.category)
        .bind(fresh.rating)
        .bind(fresh.rd)
        .bind(fresh.volatility)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    let mut before: [Option<RatingRow>; 2] = [None, None];
    for &k in &order {
        let row = sqlx::query(select)
            .bind(&end.accounts[k])
            .bind(&end.category)
            .fetch_optional(&mut *conn)
            .await?;
        before[k] = row.as_ref().map(rating_row).transpose()?;
    }
    let current = |k: usize| {
        before[k]
            .as_ref()
            .map_or((fresh, 0, now), |r| (r.glicko, r.games, r.last_rated_ms))
    };
    let ((x, x_games, x_last), (o, o_games, o_last)) = (current(0), current(1));
    let idle = |last: i64| (now - last).max(0) as u64;
    let (x_after, o_after) = x.game(idle(x_last), o, idle(o_last), end.x_outcome);
    let after = [(x, x_after, x_games), (o, o_after, o_games)];
    for k in order {
        let (was, after, games) = after[k];
        let account = &end.accounts[k];
        sqlx::query(
            "UPDATE ratings SET rating = $3, rd = $4, volatility = $5, games = $6, last_rated_ms = $7 \
             WHERE account_id = $1 AND category = $2",
        )
        .bind(account)
        .bind(&end.category)
        .bind(after.rating)
        .bind(after.rd)
        .bind(after.volatility)
        .bind(games + 1)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_changes (account_id, game_id, category, at_ms, rating_before, rating, rd, nth) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(account)
        .bind(game_id)
        .bind(&end.category)
        .bind(now)
        .bind(was.rating)
        .bind(after.rating)
        .bind(after.rd)
        .bind(games + 1)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
