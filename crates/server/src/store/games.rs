//! Games: created, changed (each change conditional on the version its
//! writer read), found for the lobby, and found by the watchers (games
//! whose deadline has come, computer turns nobody thinks).

use sqlx::Row;

pub use super::group::Append;
use super::group::{self, Stored};
use super::rows::{game_row, GameRow, Progress, StepRow, StoredClock};
use super::{Store, StoreError};

/// A seat taken: who takes it and what the game's row becomes.
pub struct SeatChange<'a> {
    pub side: usize,
    pub token_hash: &'a str,
    pub player: &'a str,
    /// The name the person chose, or the account's ('' for none).
    pub name: &'a str,
    /// The account taking the seat ('' for none).
    pub account: &'a str,
    pub now_ms: i64,
    /// The game's clocks and watchers' columns once the seat is taken.
    pub progress: &'a Progress,
}

/// The accounts seated in a new game.
pub(super) fn seated(g: &GameRow) -> [&str; 2] {
    g.holders
        .each_ref()
        .map(|h| h.account.as_deref().unwrap_or(""))
}

/// How often a change PostgreSQL gave up for another is tried again.
const CONTENDED_TRIES: u32 = 5;

impl Store {
    /// Stores a new game, unless an account seated in it may not play
    /// (`Barred`: banned or deleted, or its bot's owner is).
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        // No writer's turn, as before: a new game does not queue behind
        // the steps' group commits (SQLite orders the writes itself).
        let mut tx = self.pool.begin().await?;
        super::shut_out::all_may_play(&mut tx, &seated(g)).await?;
        group::insert_game(&mut tx, g).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Takes a free seat of an unfinished game for `player` ('human' or
    /// 'bot:NAME'): true if it was free and is now this token's (the
    /// game's version is then one more). Never opposite a seat a ban or a
    /// deletion closed (its player can no longer step).
    pub async fn take_seat(&self, id: &str, seat: &SeatChange<'_>) -> Result<bool, StoreError> {
        let sql = [
            "UPDATE games SET x_token = $1, x_player = $2, last_active_ms = $4, turn_started_ms = $5, \
             deadline_ms = $6, computer_to_move = $7, x_name = $8, x_account = $9, version = version + 1 \
             WHERE id = $3 AND finished = 0 AND x_token = '' AND (x_player = 'human' OR x_player = $2) \
             AND o_token <> 'banned'",
            "UPDATE games SET o_token = $1, o_player = $2, last_active_ms = $4, turn_started_ms = $5, \
             deadline_ms = $6, computer_to_move = $7, o_name = $8, o_account = $9, version = version + 1 \
             WHERE id = $3 AND finished = 0 AND o_token = '' AND (o_player = 'human' OR o_player = $2) \
             AND x_token <> 'banned'",
        ][seat.side];
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        super::shut_out::all_may_play(&mut tx, &[seat.account]).await?;
        let done = sqlx::query(sql)
            .bind(seat.token_hash)
            .bind(seat.player)
            .bind(id)
            .bind(seat.now_ms)
            .bind(seat.progress.turn_started_ms)
            .bind(seat.progress.deadline_ms)
            .bind(seat.progress.computer_to_move as i64)
            .bind(seat.name)
            .bind(seat.account)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a change of game `id` read at `version`: steps `first_seq +
    /// 1 ..`, its progress, for a rematch the new game, and the
    /// notifications it raises, in one transaction. `Conflict` if the game
    /// changed since (another request or process was first) or the rematch
    /// exists already. On SQLite the changes waiting at the same moment
    /// share one transaction. The numbers the notifications were stored
    /// under.
    pub async fn append(&self, job: Append) -> Stored {
        if let Some(batches) = &self.batches {
            let (done, answer) = tokio::sync::oneshot::channel();
            batches
                .send((job, done))
                .await
                .map_err(|_| StoreError::Io("the database writer has stopped".into()))?;
            return answer
                .await
                .map_err(|_| StoreError::Io("the database writer has stopped".into()))?;
        }
        // PostgreSQL: a transaction given up for another (a deadlock, a
        // lost serialisation) is tried again, not answered as a failure.
        let mut tries = 0;
        loop {
            let done = async {
                let mut tx = self.pool.begin().await?;
                let seqs = group::write_append(&mut tx, &job, self.postgres).await?;
                tx.commit().await?;
                Ok::<_, StoreError>(seqs)
            }
            .await;
            match done {
                Err(StoreError::Contended(why)) if tries < CONTENDED_TRIES => {
                    tries += 1;
                    tracing::debug!(game = job.id, %why, tries, "storing a change again");
                    tokio::time::sleep(std::time::Duration::from_millis(5 << tries)).await;
                }
                other => return other,
            }
        }
    }

    /// Writes what the watchers look for (the deadline, whether the
    /// computer is to move) where they were out of date, if the game is
    /// still at `version`. Not a change of the game: the version stays.
    pub async fn correct_watch(
        &self,
        id: &str,
        version: i64,
        deadline_ms: i64,
        computer_to_move: bool,
    ) -> Result<(), StoreError> {
        let _turn = self.writer_turn().await;
        sqlx::query(
            "UPDATE games SET deadline_ms = $1, computer_to_move = $2 WHERE id = $3 AND version = $4",
        )
        .bind(deadline_ms)
        .bind(computer_to_move as i64)
        .bind(id)
        .bind(version)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The version of game `id`, if there is such a game.
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// The ids `sql` selects with `now_ms` as `$1` and `limit` as `$2`.
    async fn ids(
        &self,
        sql: &'static str,
        now_ms: i64,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(sql)
            .bind(now_ms)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?)
    }

    /// Unfinished games whose deadline has come by `now_ms`, soonest first.
    pub async fn due(&self, now_ms: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.ids(
            "SELECT id FROM games WHERE finished = 0 AND deadline_ms <= $1 \
             ORDER BY deadline_ms LIMIT $2",
            now_ms,
            limit,
        )
        .await
    }

    /// Games where the computer is to move and no process holds the turn
    /// (no lease, or one that lapsed before `now_ms`).
    pub async fn computer_turns_unheld(
        &self,
        now_ms: i64,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        self.ids(
            "SELECT id FROM games WHERE computer_to_move = 1 AND finished = 0 \
             AND thinker_until_ms < $1 ORDER BY last_active_ms LIMIT $2",
            now_ms,
            limit,
        )
        .await
    }

    /// Takes the lease on the computer's turn in game `id` at
    /// `version` for this process until `until_ms`: true if it is this
    /// process's now. Nobody else's lease may hold at `now_ms`. With
    /// `turn_starts`, the computer's turn starts then (its clock did not
    /// run while the turn waited for a worker): a change of the game, so
    /// its version is one more, announced to the other processes.
    pub async fn lease_turn(
        &self,
        id: &str,
        version: i64,
        now_ms: i64,
        until_ms: i64,
        turn_starts: Option<i64>,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET thinker = $1, thinker_until_ms = $2, \
             turn_started_ms = CASE WHEN $6 = 1 THEN $7 ELSE turn_started_ms END, \
             version = version + $6 \
             WHERE id = $3 AND version = $4 AND finished = 0 AND computer_to_move = 1 \
             AND (thinker = $1 OR thinker = '' OR thinker_until_ms < $5)",
        )
        .bind(&self.me)
        .bind(until_ms)
        .bind(id)
        .bind(version)
        .bind(now_ms)
        .bind(i64::from(turn_starts.is_some()))
        .bind(turn_starts.unwrap_or(0))
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Renews this process's lease on the computer's turn in game `id`
    /// until `until_ms`: false if the lease is gone (the turn was played,
    /// the game ended, or another process took the turn over). Keyed on
    /// the turn, not the version: an offer meanwhile keeps the lease.
    pub async fn renew_turn(&self, id: &str, until_ms: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let done = sqlx::query(
            "UPDATE games SET thinker_until_ms = $1 \
             WHERE id = $2 AND thinker = $3 AND finished = 0 AND computer_to_move = 1",
        )
        .bind(until_ms)
        .bind(id)
        .bind(&self.me)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Listed games, not finished, with a seat a person may take: newest
    /// first, at most `limit`.
    pub async fn open_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE listed = 1 AND finished = 0 AND \
             ((x_player = 'human' AND x_token = '') OR (o_player = 'human' AND o_token = '')) \
             ORDER BY created_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// Quick play's seeks that a player asking for this variant text,
    /// clock and kind (rated or casual) may answer: listed, waiting, the
    /// oldest first, at most `limit`.
    pub async fn seeks(
        &self,
        limit: i64,
        variant: &str,
        clock: Option<StoredClock>,
        rated: bool,
    ) -> Result<Vec<GameRow>, StoreError> {
        let (base, inc, per_turn) =
            clock.map_or((-1, -1, false), |c| (c.base_ms, c.increment_ms, c.per_turn));
        let rows = sqlx::query(
            "SELECT * FROM games WHERE listed = 1 AND finished = 0 \
             AND ((x_player = 'human' AND x_token = '') OR (o_player = 'human' AND o_token = '')) \
             AND variant = $1 AND clock_base_ms = $2 AND clock_inc_ms = $3 \
             AND clock_per_turn = $4 AND rated = $5 ORDER BY created_ms LIMIT $6",
        )
        .bind(variant)
        .bind(base)
        .bind(inc)
        .bind(per_turn as i64)
        .bind(rated as i64)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// The unfinished games quick play listed for `seeker`, newest first.
    pub async fn seeks_of(&self, seeker: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE seeker = $1 AND finished = 0 \
             ORDER BY created_ms DESC LIMIT 50",
        )
        .bind(seeker)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Listed games in play (both seats taken, not over), the most
    /// recently active first: the games to watch.
    pub async fn playing_games(&self, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM games WHERE listed = 1 AND finished = 0 \
             AND NOT ((x_player = 'human' AND x_token = '') OR (o_player = 'human' AND o_token = '')) \
             ORDER BY last_active_ms DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
    }

    /// Unfinished games where `player` ('bot:NAME') sits or is challenged,
    /// oldest first.
    pub async fn games_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE finished = 0 AND (x_player = $1 OR o_player = $1) \
             ORDER BY created_ms LIMIT 100",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The newest `limit` finished games' ids, aborted games left out.
    pub async fn finished_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE finished = 1 AND result <> 'aborted' \
             ORDER BY last_active_ms DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?)
    }

    /// A game's row and steps, read in one snapshot (the steps are those
    /// of the row's version).
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<StepRow>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        if self.postgres {
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                .execute(&mut *tx)
                .await?;
        }
        let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let steps =
            sqlx::query("SELECT seq, step, played_ms FROM steps WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| {
                    Ok(StepRow {
                        seq: r.try_get("seq")?,
                        step: r.try_get("step")?,
                        played_ms: r.try_get("played_ms")?,
                    })
                })
                .collect::<Result<Vec<_>, sqlx::Error>>()?;
        tx.commit().await?;
        Ok(Some((game, steps)))
    }
}
