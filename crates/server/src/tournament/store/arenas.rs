//! What the task that pairs a tournament writes: its lease (one process
//! pairs a tournament at a time), the start, each pairing (one
//! transaction, written only under the lease and only for players who
//! play no game), each result on the players' sheets (once), and the end.

use sqlx::Row;

use super::{entrant_row, pairing_row};
use crate::store::group::insert_game;
use crate::store::inbox::{write_notes, NewNote};
use crate::store::{GameRow, Store, StoreError, TournamentGame, TournamentPlayer};

/// One game of a pairing, to store: its row and its two players' accounts.
pub struct NewPairing {
    pub game: GameRow,
    pub accounts: [String; 2],
}

/// A tournament game not yet on its players' sheets, as its game stands.
pub struct Ended {
    pub pairing: TournamentGame,
    pub finished: bool,
    /// The game's `result` (`x`, `o`, `draw`, `aborted`; '' while played).
    pub result: String,
    /// Steps played in it.
    pub steps: i64,
}

/// A result to put on the players' sheets.
pub struct Scoring {
    pub game: String,
    /// `x`, `o`, `draw` or `aborted`.
    pub result: String,
    /// X's and O's points for it, and their wins in a row after it.
    pub points: [i64; 2],
    pub streaks: [i64; 2],
    /// A player who let the game be aborted is paused.
    pub pause: [bool; 2],
}

impl Store {
    /// Tournaments that have started or are due at `now` (the task starts
    /// them), with who holds each one's lease and until when: those run
    /// longest ago first (each run moves its lease on), so that however
    /// many are due, each has its turn.
    pub async fn tournaments_due(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, pairer, pairer_until_ms FROM tournaments \
             WHERE state IN ('soon', 'running') AND starts_ms <= $1 \
             ORDER BY pairer_until_ms, starts_ms LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("id")?,
                    r.try_get("pairer")?,
                    r.try_get("pairer_until_ms")?,
                ))
            })
            .collect()
    }

    /// Whether `pairer` is this process.
    pub fn is_me(&self, pairer: &str) -> bool {
        pairer == self.me()
    }

    /// Takes or renews this process's lease on pairing tournament `id`
    /// until `until`: true if it holds it now. Another process's lease must
    /// have lapsed.
    pub async fn lease_tournament(
        &self,
        id: &str,
        now: i64,
        until: i64,
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let done = sqlx::query(
            "UPDATE tournaments SET pairer = $1, pairer_until_ms = $2 \
             WHERE id = $3 AND state <> 'finished' AND (pairer = $1 OR pairer_until_ms < $4)",
        )
        .bind(self.me())
        .bind(until)
        .bind(id)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Starts tournament `id` if it is due and this process pairs it.
    pub async fn start_tournament(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let done = sqlx::query(
            "UPDATE tournaments SET state = 'running', version = version + 1 \
             WHERE id = $1 AND state = 'soon' AND starts_ms <= $2 AND pairer = $3 \
             AND pairer_until_ms > $2",
        )
        .bind(id)
        .bind(now)
        .bind(self.me())
        .execute(self.pool())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The tournament's games not yet on the sheets.
    pub async fn unscored(&self, id: &str) -> Result<Vec<Ended>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.*, g.finished AS game_finished, g.result AS game_result, \
             (SELECT COUNT(*) FROM steps s WHERE s.game_id = tg.game) AS game_steps \
             FROM tournament_games tg JOIN games g ON g.id = tg.game \
             WHERE tg.tournament = $1 AND tg.scored = 0",
        )
        .bind(id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Ended {
                    pairing: pairing_row(r)?,
                    finished: r.try_get::<i64, _>("game_finished")? != 0,
                    result: r.try_get("game_result")?,
                    steps: r.try_get("game_steps")?,
                })
            })
            .collect()
    }

    /// The hash of bot `name`'s token.
    pub async fn bot_token(&self, name: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT token FROM bots WHERE name = $1")
            .bind(name)
            .fetch_optional(self.pool())
            .await?)
    }

    /// The players of tournament `id` (for the task: all of them).
    pub async fn entrants_of(&self, id: &str) -> Result<Vec<TournamentPlayer>, StoreError> {
        let rows = sqlx::query("SELECT * FROM tournament_players WHERE tournament = $1")
            .bind(id)
            .fetch_all(self.pool())
            .await?;
        Ok(rows.iter().map(entrant_row).collect::<Result<_, _>>()?)
    }

    /// Puts the results `all` of games of tournament `id` on their
    /// players' sheets, in one transaction, each once (one already there is
    /// passed over): how many were put.
    pub async fn score_pairings(
        &self,
        id: &str,
        all: &[Scoring],
        now: i64,
    ) -> Result<usize, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        let mut put = 0;
        for r in all {
            let done = sqlx::query(
                "UPDATE tournament_games SET scored = 1, result = $2, x_points = $3, o_points = $4 \
                 WHERE game = $1 AND scored = 0 RETURNING x_account, o_account",
            )
            .bind(&r.game)
            .bind(&r.result)
            .bind(r.points[0])
            .bind(r.points[1])
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = done else {
                continue;
            };
            put += 1;
            let accounts: [String; 2] = [row.try_get("x_account")?, row.try_get("o_account")?];
            for (k, account) in accounts.iter().enumerate() {
                sqlx::query(
                    "UPDATE tournament_players SET points = points + $3, streak = $4, \
                     playing = CASE WHEN playing = $7 THEN '' ELSE playing END, free_since_ms = $5, \
                     state = CASE WHEN $6 = 1 THEN 'paused' ELSE state END \
                     WHERE tournament = $1 AND account = $2",
                )
                .bind(id)
                .bind(account)
                .bind(r.points[k])
                .bind(r.streaks[k])
                .bind(now)
                .bind(i64::from(r.pause[k]))
                .bind(&r.game)
                .execute(&mut *tx)
                .await?;
            }
        }
        if put > 0 {
            sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(put)
    }

    /// Stores the games `pairs` of tournament `id` and the notifications
    /// `notes` they raise, in one transaction: only while this process's
    /// lease holds at `now` and the tournament pairs (before `ends_ms`), and
    /// only if every player in them is in and plays no game. `None` (and
    /// nothing stored) otherwise; else the notifications' numbers.
    pub async fn store_pairings(
        &self,
        id: &str,
        now: i64,
        pairs: &[NewPairing],
        notes: &[NewNote],
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        let held = sqlx::query(
            "UPDATE tournaments SET version = version + 1 WHERE id = $1 AND pairer = $2 \
             AND pairer_until_ms > $3 AND state = 'running' AND ends_ms > $3",
        )
        .bind(id)
        .bind(self.me())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if held.rows_affected() != 1 {
            return Ok(None);
        }
        for p in pairs {
            if !take_players(&mut tx, id, p, Busy::AnyTournament).await? {
                return Ok(None);
            }
            insert_pairing(&mut tx, id, p, now, 0).await?;
        }
        let seqs = write_notes(&mut tx, notes, now).await?;
        tx.commit().await?;
        Ok(Some(seqs))
    }

    /// Ends tournament `id` with its players' final `places`, once every
    /// game is on the sheets: false if a game is not (or it has ended).
    pub async fn finish_tournament(
        &self,
        id: &str,
        now: i64,
        places: &[(String, i64)],
    ) -> Result<bool, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        let done = sqlx::query(
            "UPDATE tournaments SET state = 'finished', finished_ms = $2, version = version + 1 \
             WHERE id = $1 AND state = 'running' AND pairer = $3 \
             AND (kind <> 'arena' OR ends_ms <= $2) \
             AND NOT EXISTS (SELECT 1 FROM tournament_games g \
             WHERE g.tournament = $1 AND g.scored = 0)",
        )
        .bind(id)
        .bind(now)
        .bind(self.me())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        for (account, place) in places {
            sqlx::query(
                "UPDATE tournament_players SET place = $3 WHERE tournament = $1 AND account = $2",
            )
            .bind(id)
            .bind(account)
            .bind(place)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }
}

/// Where a player taken into a game must not be playing already.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Busy {
    /// In this tournament (a round's other games).
    ThisTournament,
    /// In any tournament (an arena pairs only the free).
    AnyTournament,
}

/// Marks both players of `p` as playing its game (X's colour balance one
/// up, O's one down), each only if it is in and plays no game (`busy`
/// says where): false, and nothing marked for the second, otherwise.
pub(super) async fn take_players(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    p: &NewPairing,
    busy: Busy,
) -> Result<bool, StoreError> {
    let sql = match busy {
        Busy::ThisTournament => {
            "UPDATE tournament_players SET playing = $3, last_opponent = $4, \
             x_balance = x_balance + $5 \
             WHERE tournament = $1 AND account = $2 AND playing = '' AND state = 'in'"
        }
        Busy::AnyTournament => {
            "UPDATE tournament_players SET playing = $3, last_opponent = $4, \
             x_balance = x_balance + $5 \
             WHERE tournament = $1 AND account = $2 AND playing = '' AND state = 'in' \
             AND NOT EXISTS (SELECT 1 FROM tournament_players o \
             WHERE o.account = $2 AND o.playing <> '')"
        }
    };
    for (k, account) in p.accounts.iter().enumerate() {
        let taken = sqlx::query(sql)
            .bind(id)
            .bind(account)
            .bind(&p.game.id)
            .bind(&p.accounts[1 - k])
            .bind(if k == 0 { 1i64 } else { -1 })
            .execute(&mut *tx)
            .await?;
        if taken.rows_affected() != 1 {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Stores `p`'s game and its place in tournament `id` (round `round`; 0
/// in an arena).
pub(super) async fn insert_pairing(
    tx: &mut sqlx::AnyConnection,
    id: &str,
    p: &NewPairing,
    now: i64,
    round: i64,
) -> Result<(), StoreError> {
    insert_game(&mut *tx, &p.game).await?;
    sqlx::query(
        "INSERT INTO tournament_games (game, tournament, x_account, o_account, paired_ms, round) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(&p.game.id)
    .bind(id)
    .bind(&p.accounts[0])
    .bind(&p.accounts[1])
    .bind(now)
    .bind(round)
    .execute(&mut *tx)
    .await?;
    Ok(())
}
