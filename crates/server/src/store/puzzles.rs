//! The puzzle trainer's tables: the puzzles with their ratings, and each
//! account's first try at each (which alone moves the account's
//! `puzzles` rating and the puzzle's, in one transaction).

use sqlx::any::AnyRow;
use sqlx::Row;
use virus_wars_ai::puzzles::{self, Puzzle};
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::position_string;

use super::{Store, StoreError};
use crate::rating::{Glicko, Outcome};

/// The rating category of puzzles (beside `classic-blitz`, …).
pub const PUZZLES: &str = "puzzles";
/// A new puzzle's RD: its first rating is a guess (docs/puzzles.md).
const FIRST_RD: f64 = 300.0;
/// Rows a seeding statement inserts at once.
const SEED_BATCH: usize = 50;

/// A puzzle as stored.
#[derive(Clone, Debug)]
pub struct PuzzleRow {
    pub puzzle: Puzzle,
    pub preset: String,
    pub glicko: Glicko,
    /// Accounts' first tries, and those solved.
    pub plays: i64,
    pub solved: i64,
}

/// What a first try did to the two ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct TryRated {
    pub player_before: Glicko,
    pub player: Glicko,
    pub puzzle: Glicko,
    /// The puzzle's counts with this try: first tries, and solves.
    pub plays: i64,
    pub solved: i64,
}

/// Which puzzles may come next.
#[derive(Clone, Debug, Default)]
pub struct PuzzleFilter {
    /// A theme's name, checked by the caller.
    pub theme: Option<String>,
    /// A preset's name, checked by the caller.
    pub preset: Option<String>,
    /// A puzzle not to give (the one just played).
    pub not: Option<String>,
    /// A preset given only when no other passes (the last puzzle's, where
    /// the player chose none): no variant twice in a row.
    pub avoid_preset: Option<String>,
    /// A set of themes given only when no other passes (the last
    /// puzzle's, where the player chose no theme).
    pub avoid_themes: Option<Vec<String>>,
}

impl PuzzleFilter {
    /// The `themes` column's value for `avoid_themes` (`,a,b,`).
    fn avoided_themes(&self) -> String {
        match &self.avoid_themes {
            None => String::new(),
            Some(t) if t.is_empty() => ",".to_string(),
            Some(t) => format!(",{},", t.join(",")),
        }
    }
}

const COLUMNS: &str =
    "id, preset, position, solution, themes, rating, rd, volatility, plays, solved";

fn puzzle_row(r: &AnyRow) -> Result<PuzzleRow, StoreError> {
    let id: String = r.try_get("id")?;
    let themes: String = r.try_get("themes")?;
    let themes = themes.trim_matches(',');
    let rating: f64 = r.try_get("rating")?;
    let line = format!(
        "{id}\t{}\t{}\t{}\t{rating}",
        r.try_get::<String, _>("position")?,
        r.try_get::<String, _>("solution")?,
        if themes.is_empty() { "-" } else { themes },
    );
    let puzzle = puzzles::parse_line(&line, 1)
        .map_err(|e| StoreError::Database(format!("puzzle {id} does not read: {e}")))?;
    Ok(PuzzleRow {
        puzzle,
        preset: r.try_get("preset")?,
        glicko: Glicko {
            rating,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
        },
        plays: r.try_get("plays")?,
        solved: r.try_get("solved")?,
    })
}

/// The stored form of a puzzle's themes.
fn themes_column(p: &Puzzle) -> String {
    let names: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
    if names.is_empty() {
        ",".to_string()
    } else {
        format!(",{},", names.join(","))
    }
}

impl Store {
    /// Puts `set` in the database as the puzzles given out: one already
    /// there takes the set's solution, themes and preset and keeps its
    /// rating and counts; one no longer in the set stays (old links open
    /// it) but is no longer given. How many rows were written.
    pub async fn seed_puzzles(&self, set: &[Puzzle]) -> Result<u64, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE puzzles SET shipped = 0 WHERE shipped = 1")
            .execute(&mut *tx)
            .await?;
        let mut added = 0;
        for chunk in set.chunks(SEED_BATCH) {
            let mut sql = String::from(
                "INSERT INTO puzzles (id, preset, position, solution, themes, rating, rd, volatility) VALUES ",
            );
            for k in 0..chunk.len() {
                let b = k * 8;
                if k > 0 {
                    sql.push_str(", ");
                }
                sql.push_str(&format!(
                    "(${}, ${}, ${}, ${}, ${}, ${}, ${}, ${})",
                    b + 1,
                    b + 2,
                    b + 3,
                    b + 4,
                    b + 5,
                    b + 6,
                    b + 7,
                    b + 8
                ));
            }
            sql.push_str(
                " ON CONFLICT (id) DO UPDATE SET preset = excluded.preset, position = excluded.position, \
                 solution = excluded.solution, themes = excluded.themes, shipped = 1",
            );
            // Built from constants and placeholders only.
            let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
            for p in chunk {
                let solution: Vec<String> = p.solution.iter().map(|t| format_turn(t)).collect();
                q = q
                    .bind(p.id.clone())
                    .bind(puzzles::preset_of(&p.position).map_or("other", |k| k.name()))
                    .bind(position_string::write(&p.position))
                    .bind(solution.join(" "))
                    .bind(themes_column(p))
                    .bind(p.rating)
                    .bind(FIRST_RD)
                    .bind(Glicko::default().volatility);
            }
            added += q.execute(&mut *tx).await?.rows_affected();
        }
        tx.commit().await?;
        Ok(added)
    }

    /// Puzzle `id`, if there is one.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM puzzles WHERE id = $1"
        )))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(puzzle_row)
        .transpose()
    }

    /// The next puzzle for `account` (rated `rating` in puzzles): among
    /// those it has not tried that pass `filter`, one of the `among`
    /// nearest its rating (`pick` chooses which, modulo those found), or any
    /// it has tried once every one has been; for nobody, any that passes.
    pub async fn next_puzzle(
        &self,
        account: Option<&str>,
        rating: f64,
        filter: &PuzzleFilter,
        among: i64,
        pick: usize,
    ) -> Result<Option<PuzzleRow>, StoreError> {
        // $4 and $5: what is given only when nothing else passes.
        const PASS: &str =
            "shipped = 1 AND id <> $1 AND ($2 = '' OR themes LIKE $2) AND ($3 = '' OR preset = $3)";
        const VARIED: &str = " AND ($4 = '' OR preset <> $4) AND ($5 = '' OR themes <> $5)";
        let theme = filter
            .theme
            .as_ref()
            .map(|t| format!("%,{t},%"))
            .unwrap_or_default();
        let preset = filter.preset.clone().unwrap_or_default();
        let not = filter.not.clone().unwrap_or_default();
        let avoid = [
            filter.avoid_preset.clone().unwrap_or_default(),
            filter.avoided_themes(),
        ];
        // Varied first (when there is something to vary from), then any:
        // an empty value avoids nothing.
        let none = [String::new(), String::new()];
        let passes: &[&[String; 2]] = if avoid == none {
            &[&none]
        } else {
            &[&avoid, &none]
        };
        let Some(account) = account else {
            for avoid in passes {
                let sql = format!(
                    "SELECT {COLUMNS} FROM puzzles WHERE {PASS}{VARIED} ORDER BY RANDOM() LIMIT 1"
                );
                let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(&not)
                    .bind(&theme)
                    .bind(&preset)
                    .bind(&avoid[0])
                    .bind(&avoid[1])
                    .fetch_optional(&self.pool)
                    .await?;
                if let Some(r) = row {
                    return Ok(Some(puzzle_row(&r)?));
                }
            }
            return Ok(None);
        };
        for untried in [true, false] {
            for avoid in passes {
                let sql = format!(
                    "SELECT {COLUMNS} FROM puzzles WHERE {PASS}{VARIED}{} ORDER BY ABS(rating - $6), id LIMIT $7",
                    if untried {
                        " AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
                         WHERE a.account_id = $8 AND a.puzzle_id = puzzles.id)"
                    } else {
                        ""
                    }
                );
                let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .bind(&not)
                    .bind(&theme)
                    .bind(&preset)
                    .bind(&avoid[0])
                    .bind(&avoid[1])
                    .bind(rating)
                    .bind(among);
                if untried {
                    q = q.bind(account);
                }
                let rows = q.fetch_all(&self.pool).await?;
                if let Some(r) = rows.get(pick % rows.len().max(1)) {
                    return Ok(Some(puzzle_row(r)?));
                }
            }
        }
        Ok(None)
    }

    /// Whether `account` has tried puzzle `id`.
    pub async fn tried_puzzle(&self, account: &str, id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "SELECT 1 AS one FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
        )
        .bind(account)
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        .is_some())
    }

    /// Records `account`'s first try at puzzle `id` and moves both
    /// ratings (the try a game between them, won by the account if it
    /// `solved` the puzzle); `None` if it had tried it before (nothing
    /// moves). On PostgreSQL the account's rating row and then the
    /// puzzle's are locked first, so tries at once are rated one after
    /// the other.
    pub async fn rate_first_try(
        &self,
        account: &str,
        id: &str,
        solved: bool,
        now: i64,
    ) -> Result<Option<TryRated>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let first = sqlx::query(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, at_ms, solved) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (account_id, puzzle_id) DO NOTHING",
        )
        .bind(account)
        .bind(id)
        .bind(now)
        .bind(solved as i64)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if first == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        let lock = if self.postgres { " FOR UPDATE" } else { "" };
        let (player, games, last) = puzzle_rating(&mut tx, account, now, lock).await?;
        let r = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT rating, rd, volatility FROM puzzles WHERE id = $1{lock}"
        )))
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
        let puzzle = Glicko {
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
        };
        let outcome = if solved { Outcome::Win } else { Outcome::Loss };
        let idle = if games == 0 {
            0
        } else {
            (now - last).max(0) as u64
        };
        let (player_after, puzzle_after) = player.game(idle, puzzle, 0, outcome);
        sqlx::query(
            "UPDATE ratings SET rating = $3, rd = $4, volatility = $5, games = games + 1, last_rated_ms = $6 \
             WHERE account_id = $1 AND category = $2",
        )
        .bind(account)
        .bind(PUZZLES)
        .bind(player_after.rating)
        .bind(player_after.rd)
        .bind(player_after.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO rating_changes (account_id, game_id, category, at_ms, rating_before, rating, rd, nth) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(account)
        .bind(format!("puzzle:{id}"))
        .bind(PUZZLES)
        .bind(now)
        .bind(player.rating)
        .bind(player_after.rating)
        .bind(player_after.rd)
        .bind(games + 1)
        .execute(&mut *tx)
        .await?;
        let counts = sqlx::query(
            "UPDATE puzzles SET rating = $2, rd = $3, volatility = $4, plays = plays + 1, solved = solved + $5 \
             WHERE id = $1 RETURNING plays, solved",
        )
        .bind(id)
        .bind(puzzle_after.rating)
        .bind(puzzle_after.rd)
        .bind(puzzle_after.volatility)
        .bind(solved as i64)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(TryRated {
            player_before: player,
            player: player_after,
            puzzle: puzzle_after,
            plays: counts.try_get("plays")?,
            solved: counts.try_get("solved")?,
        }))
    }
}

/// `account`'s puzzle rating, its rated tries and when it was last rated,
/// its row made (at the start) where it has none; locked with `lock`
/// (PostgreSQL's ` FOR UPDATE`, so that tries at once wait on it).
async fn puzzle_rating(
    tx: &mut sqlx::AnyConnection,
    account: &str,
    now: i64,
    lock: &str,
) -> Result<(Glicko, i64, i64), StoreError> {
    let start = Glicko::default();
    // The row first, so that two first tries at once wait on it.
    sqlx::query(
        "INSERT INTO ratings (account_id, category, rating, rd, volatility, games, last_rated_ms) \
         VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, category) DO NOTHING",
    )
    .bind(account)
    .bind(PUZZLES)
    .bind(start.rating)
    .bind(start.rd)
    .bind(start.volatility)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let r = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT rating, rd, volatility, games, last_rated_ms FROM ratings \
         WHERE account_id = $1 AND category = $2{lock}"
    )))
    .bind(account)
    .bind(PUZZLES)
    .fetch_one(&mut *tx)
    .await?;
    let player = Glicko {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
    };
    let (games, last): (i64, i64) = (r.try_get("games")?, r.try_get("last_rated_ms")?);
    Ok((player, games, last))
}
