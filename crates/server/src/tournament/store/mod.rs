//! Tournaments as stored: made, listed, read, joined and left. What the
//! pairing task writes (its lease, a pairing, a result, the end) is in
//! `arenas.rs`. Every change of a tournament its pages show raises its
//! `version`, which each page's socket watches.

mod arenas;
mod rounds;

pub use arenas::{Ended, NewPairing, Scoring};
pub use rounds::NewRound;

use sqlx::any::AnyRow;
use sqlx::Row;

use virus_wars_pairing::{Kind, State};

use crate::store::{Store, StoreError, TournamentGame, TournamentPlayer};

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    pub kind: Kind,
    pub name: String,
    /// The games' options, as `POST /api/games` takes them (JSON).
    pub settings: String,
    /// The games' rating category ('' where they are not rated).
    pub category: String,
    pub created_by: String,
    pub created_ms: i64,
    pub starts_ms: i64,
    pub ends_ms: i64,
    pub bots: bool,
    pub max_players: i64,
    /// Most bots it takes (0 when `bots` is false).
    pub max_bots: i64,
    pub state: State,
    pub finished_ms: i64,
    pub version: i64,
    pub schedule: String,
    /// A Swiss tournament's rounds (0 for the other kinds).
    pub rounds: i64,
    /// The round paired last (0 before the first).
    pub round: i64,
}

/// A tournament a player played, for its player page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedIn {
    pub tournament: TournamentRow,
    pub points: i64,
    /// Its place at the end (0 before).
    pub place: i64,
    pub players: i64,
}

/// Column `name` of `r`, text read as `T` (a kind or a state): a value
/// the server never writes is a decoding error, not a guess.
fn parsed<T>(r: &AnyRow, name: &str) -> Result<T, sqlx::Error>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = r.try_get(name)?;
    text.parse().map_err(|e: T::Err| sqlx::Error::ColumnDecode {
        index: name.to_string(),
        source: Box::new(e),
    })
}

fn tournament_row(r: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        kind: parsed(r, "kind")?,
        name: r.try_get("name")?,
        settings: r.try_get("settings")?,
        category: r.try_get("category")?,
        created_by: r.try_get("created_by")?,
        created_ms: r.try_get("created_ms")?,
        starts_ms: r.try_get("starts_ms")?,
        ends_ms: r.try_get("ends_ms")?,
        bots: r.try_get::<i64, _>("bots")? != 0,
        max_players: r.try_get("max_players")?,
        max_bots: r.try_get("max_bots")?,
        state: parsed(r, "state")?,
        finished_ms: r.try_get("finished_ms")?,
        version: r.try_get("version")?,
        schedule: r.try_get("schedule")?,
        rounds: r.try_get::<i64, _>("rounds")?,
        round: r.try_get::<i64, _>("round")?,
    })
}

pub(super) fn entrant_row(r: &AnyRow) -> Result<TournamentPlayer, sqlx::Error> {
    Ok(TournamentPlayer {
        account: r.try_get("account")?,
        name: r.try_get("name")?,
        rating: r.try_get("rating")?,
        joined_ms: r.try_get("joined_ms")?,
        state: r.try_get("state")?,
        points: r.try_get("points")?,
        streak: r.try_get("streak")?,
        playing: r.try_get("playing")?,
        free_since_ms: r.try_get("free_since_ms")?,
        last_opponent: r.try_get("last_opponent")?,
        x_balance: r.try_get("x_balance")?,
        pairing_number: r.try_get("pairing_number")?,
    })
}

pub(super) fn pairing_row(r: &AnyRow) -> Result<TournamentGame, sqlx::Error> {
    Ok(TournamentGame {
        game: r.try_get("game")?,
        x_account: r.try_get("x_account")?,
        o_account: r.try_get("o_account")?,
        paired_ms: r.try_get("paired_ms")?,
        berserk: [
            r.try_get::<i64, _>("x_berserk")? != 0,
            r.try_get::<i64, _>("o_berserk")? != 0,
        ],
        scored: r.try_get::<i64, _>("scored")? != 0,
        result: r.try_get("result")?,
        points: [r.try_get("x_points")?, r.try_get("o_points")?],
        round: r.try_get::<i64, _>("round")?,
    })
}

/// What a join did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joined {
    /// In (or back from a pause).
    In,
    /// It has `max_players` already.
    Full,
    /// It is over.
    Over,
    /// It runs and takes no one more (a round robin, or a Swiss whose
    /// last round is paired).
    Closed,
    /// A bot, where the tournament has its `max_bots` already.
    NoBotPlace,
    /// A bot, where another bot of the same owner is in.
    OwnersBotIn,
}

/// Pauses `account` in every other arena it is in (each one's version
/// moves on, so that its pages show it).
async fn pause_in_other_arenas(
    tx: &mut sqlx::AnyConnection,
    account: &str,
    id: &str,
) -> Result<(), StoreError> {
    let others = sqlx::query(
        "UPDATE tournament_players SET state = 'paused' \
         WHERE account = $1 AND tournament <> $2 AND state = 'in' \
         AND EXISTS (SELECT 1 FROM tournaments t \
         WHERE t.id = tournament_players.tournament AND t.kind = 'arena') \
         RETURNING tournament",
    )
    .bind(account)
    .bind(id)
    .fetch_all(&mut *tx)
    .await?;
    for r in &others {
        sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
            .bind(r.try_get::<String, _>("tournament")?)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// A new player's entry into tournament `id`, or why none is made (full,
/// or no room for this bot).
async fn enter(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    account: &str,
    name: &str,
    rating: i64,
    now: i64,
) -> Result<Option<Joined>, StoreError> {
    let r = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = $1) \
         AS players, t.max_players FROM tournaments t WHERE t.id = $1",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    let (players, most): (i64, i64) = (r.try_get("players")?, r.try_get("max_players")?);
    if players >= most {
        return Ok(Some(Joined::Full));
    }
    if let Some(refused) = bot_refused(&mut *tx, id, account).await? {
        return Ok(Some(refused));
    }
    sqlx::query(
        "INSERT INTO tournament_players (tournament, account, name, rating, joined_ms, \
         state, free_since_ms) VALUES ($1, $2, $3, $4, $5, 'in', $5)",
    )
    .bind(id)
    .bind(account)
    .bind(name)
    .bind(rating)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(None)
}

/// Why bot `account` may not take a place in tournament `id`, if it may
/// not: the tournament has as many bots as its maker allows, or another
/// bot of the same owner is in (an account fills no tournament with its
/// bots, and people always have the places that bots may not take).
async fn bot_refused(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    account: &str,
) -> Result<Option<Joined>, StoreError> {
    if !account.starts_with("bot:") {
        return Ok(None);
    }
    let r = sqlx::query(
        "SELECT (SELECT COUNT(*) FROM tournament_players p \
         WHERE p.tournament = $1 AND p.account LIKE 'bot:%') AS bots, \
         (SELECT COUNT(*) FROM tournament_players p JOIN accounts a ON a.id = p.account \
         WHERE p.tournament = $1 AND a.kind = 'bot' AND a.owner <> '' \
         AND a.owner = (SELECT owner FROM accounts WHERE id = $2)) AS owners, \
         t.max_bots FROM tournaments t WHERE t.id = $1",
    )
    .bind(id)
    .bind(account)
    .fetch_one(&mut *tx)
    .await?;
    let (bots, owners, most): (i64, i64, i64) = (
        r.try_get("bots")?,
        r.try_get("owners")?,
        r.try_get("max_bots")?,
    );
    Ok(if bots >= most {
        Some(Joined::NoBotPlace)
    } else if owners > 0 {
        Some(Joined::OwnersBotIn)
    } else {
        None
    })
}

impl Store {
    /// Stores tournament `t`, unless its maker has `most` unfinished ones
    /// already (counted under a lock of the maker's row): false then. The
    /// schedule's (no maker) are stored once a slot: a second process's
    /// copy is refused by the unique index, and false.
    pub async fn create_tournament(
        &self,
        t: &TournamentRow,
        most: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        if !t.created_by.is_empty() {
            sqlx::query("UPDATE accounts SET notes_seq = notes_seq WHERE id = $1")
                .bind(&t.created_by)
                .execute(&mut *tx)
                .await?;
            let open: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND state <> 'finished'",
            )
            .bind(&t.created_by)
            .fetch_one(&mut *tx)
            .await?;
            if open >= most {
                return Ok(false);
            }
        }
        let done = sqlx::query(
            "INSERT INTO tournaments (id, kind, name, settings, category, created_by, created_ms, \
             starts_ms, ends_ms, bots, max_players, state, schedule, rounds, max_bots) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&t.id)
        .bind(t.kind.as_str())
        .bind(&t.name)
        .bind(&t.settings)
        .bind(&t.category)
        .bind(&t.created_by)
        .bind(t.created_ms)
        .bind(t.starts_ms)
        .bind(t.ends_ms)
        .bind(t.bots as i64)
        .bind(t.max_players)
        .bind(t.state.as_str())
        .bind(&t.schedule)
        .bind(t.rounds)
        .bind(t.max_bots)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// The tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournaments WHERE id = $1")
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(tournament_row).transpose()?)
    }

    /// The tournament `id`'s version (`None`: no such tournament).
    pub async fn tournament_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT version FROM tournaments WHERE id = $1")
                .bind(id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// Tournaments in `state`, a page of at most `limit` past the cursor
    /// `from` (a tournament's start and id, the last one shown): by start,
    /// newest first (`newest_first`, from before the cursor) or soonest
    /// first (from after it). Each with its count of players.
    pub async fn tournaments(
        &self,
        state: State,
        from: (i64, &str),
        newest_first: bool,
        limit: i64,
    ) -> Result<Vec<(TournamentRow, i64)>, StoreError> {
        let sql = if newest_first {
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = t.id) \
             AS players FROM tournaments t WHERE t.state = $1 \
             AND (t.starts_ms < $2 OR (t.starts_ms = $2 AND t.id < $3)) \
             ORDER BY t.starts_ms DESC, t.id DESC LIMIT $4"
        } else {
            "SELECT t.*, (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament = t.id) \
             AS players FROM tournaments t WHERE t.state = $1 \
             AND (t.starts_ms > $2 OR (t.starts_ms = $2 AND t.id > $3)) \
             ORDER BY t.starts_ms, t.id LIMIT $4"
        };
        let rows = sqlx::query(sql)
            .bind(state.as_str())
            .bind(from.0)
            .bind(from.1)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|r| Ok((tournament_row(r)?, r.try_get("players")?)))
            .collect()
    }

    /// The tournament's players, by points.
    pub async fn entrants(&self, id: &str) -> Result<Vec<TournamentPlayer>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournament_players WHERE tournament = $1 ORDER BY points DESC",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(entrant_row).collect::<Result<_, _>>()?)
    }

    /// The tournament's byes: (round, account), in round order.
    pub async fn byes(&self, id: &str) -> Result<Vec<(i64, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT round, account FROM tournament_byes WHERE tournament = $1 ORDER BY round",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get::<i64, _>("round")?, r.try_get("account")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The tournament's games, in the order they were paired.
    pub async fn pairings(&self, id: &str) -> Result<Vec<TournamentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM tournament_games WHERE tournament = $1 ORDER BY paired_ms, game",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(pairing_row).collect::<Result<_, _>>()?)
    }

    /// The tournament game `game`, if it is one.
    pub async fn pairing(
        &self,
        game: &str,
    ) -> Result<Option<(String, TournamentGame)>, StoreError> {
        let row = sqlx::query("SELECT * FROM tournament_games WHERE game = $1")
            .bind(game)
            .fetch_optional(self.pool())
            .await?;
        match row {
            Some(r) => Ok(Some((r.try_get("tournament")?, pairing_row(&r)?))),
            None => Ok(None),
        }
    }

    /// `account` joins tournament `id` under `name` with `rating`, or
    /// comes back from a pause. Counted under a lock of the tournament's
    /// row, so that two joins at once never pass `max_players`.
    pub async fn join_tournament(
        &self,
        id: &str,
        account: &str,
        name: &str,
        rating: i64,
        now: i64,
    ) -> Result<Joined, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        // Locks the account's row (PostgreSQL): two joins of one player at
        // once, through two processes, go one after the other; and a ban
        // written meanwhile is seen (a banned account or bot never joins).
        crate::store::shut_out::all_may_play(&mut tx, &[account]).await?;
        let open = sqlx::query(
            "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND state <> 'finished' \
             RETURNING kind, state, round, rounds",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(open) = open else {
            return Ok(Joined::Over);
        };
        let kind: Kind = parsed(&open, "kind")?;
        let (state, round, rounds): (State, i64, i64) = (
            parsed(&open, "state")?,
            open.try_get("round")?,
            open.try_get("rounds")?,
        );
        // A round robin's games are all paired at its start; a Swiss
        // takes players until its last round is paired.
        if state == State::Running
            && (kind == Kind::RoundRobin || (kind == Kind::Swiss && round >= rounds))
        {
            return Ok(Joined::Closed);
        }
        let back = sqlx::query(
            "UPDATE tournament_players SET state = 'in', free_since_ms = $3 \
             WHERE tournament = $1 AND account = $2",
        )
        .bind(id)
        .bind(account)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        // One tournament at a time, as on lichess: joining one pauses the
        // player in any other it is in (its points stay there).
        // (Arenas only: a Swiss or a round robin keeps its players.)
        if kind == Kind::Arena {
            pause_in_other_arenas(&mut tx, account, id).await?;
        }
        if back.rows_affected() == 0 {
            if let Some(refused) = enter(&mut tx, id, account, name, rating, now).await? {
                return Ok(refused);
            }
        }
        tx.commit().await?;
        Ok(Joined::In)
    }

    /// `account` leaves tournament `id`: before it starts its entry goes;
    /// once it runs it pauses (its points stay; it is not paired until it
    /// joins again). `None` if it was not in; else whether its entry went.
    pub async fn withdraw_tournament(
        &self,
        id: &str,
        account: &str,
    ) -> Result<Option<bool>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        let gone = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament = $1 AND account = $2 \
             AND EXISTS (SELECT 1 FROM tournaments t WHERE t.id = $1 AND t.state = 'soon')",
        )
        .bind(id)
        .bind(account)
        .execute(&mut *tx)
        .await?;
        let paused = if gone.rows_affected() == 0 {
            sqlx::query(
                "UPDATE tournament_players SET state = 'paused' \
                 WHERE tournament = $1 AND account = $2 AND state = 'in'",
            )
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?
            .rows_affected()
        } else {
            1
        };
        if paused == 1 {
            sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok((paused == 1).then_some(gone.rows_affected() == 1))
    }

    /// The tournaments `account` played, newest first, at most `limit`.
    pub async fn tournaments_of(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<PlayedIn>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.*, p.points AS my_points, p.place AS my_place, \
             (SELECT COUNT(*) FROM tournament_players q WHERE q.tournament = t.id) AS players \
             FROM tournament_players p JOIN tournaments t ON t.id = p.tournament \
             WHERE p.account = $1 ORDER BY p.joined_ms DESC LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PlayedIn {
                    tournament: tournament_row(r)?,
                    points: r.try_get("my_points")?,
                    place: r.try_get("my_place")?,
                    players: r.try_get("players")?,
                })
            })
            .collect()
    }
}
