//! What the task that pairs a Swiss tournament or a round robin writes: a
//! whole round at once (one transaction, only under this process's lease
//! and only as the round after the last one stored), with its bye.

use super::arenas::{insert_pairing, take_players, Busy, NewPairing};
use crate::store::inbox::{write_notes, NewNote};
use crate::store::{Store, StoreError};

/// A round to store.
pub struct NewRound<'a> {
    /// 1 for the first.
    pub round: i64,
    pub pairs: &'a [NewPairing],
    /// The pairing-allocated bye's account: a point (2 halves) for it.
    pub bye: Option<&'a str>,
    /// A Swiss round: each player plays one game of it, and is marked as
    /// playing it (a round robin's players play all theirs at once).
    pub one_game_each: bool,
    pub notes: &'a [NewNote],
    /// The pairing numbers of the players this round numbers for the
    /// first time (each stored where the player has none yet).
    pub numbers: &'a [(String, i64)],
}

impl Store {
    /// Stores round `r` of tournament `id`: `None` (and nothing stored)
    /// unless this process's lease holds at `now`, the tournament runs,
    /// the round before is the last one stored, and (a Swiss round) every
    /// player in it is in and plays no game of it yet. Else the
    /// notifications' numbers.
    pub async fn store_round(
        &self,
        id: &str,
        now: i64,
        r: &NewRound<'_>,
    ) -> Result<Option<Vec<Option<i64>>>, StoreError> {
        let _turn = self.writer_turn().await;
        let mut tx = self.pool().begin().await?;
        let held = sqlx::query(
            "UPDATE tournaments SET version = version + 1, round = $4 WHERE id = $1 \
             AND pairer = $2 AND pairer_until_ms > $3 AND state = 'running' AND round = $4 - 1",
        )
        .bind(id)
        .bind(self.me())
        .bind(now)
        .bind(r.round)
        .execute(&mut *tx)
        .await?;
        if held.rows_affected() != 1 {
            return Ok(None);
        }
        for (account, number) in r.numbers {
            sqlx::query(
                "UPDATE tournament_players SET pairing_number = $3 \
                 WHERE tournament = $1 AND account = $2 AND pairing_number = 0",
            )
            .bind(id)
            .bind(account)
            .bind(number)
            .execute(&mut *tx)
            .await?;
        }
        for p in r.pairs {
            // A player banned, deleted or gone meanwhile is never paired.
            if !r.one_game_each {
                let here: i64 = sqlx::query_scalar(
                    "SELECT COUNT(*) FROM tournament_players \
                     WHERE tournament = $1 AND state = 'in' AND (account = $2 OR account = $3)",
                )
                .bind(id)
                .bind(&p.accounts[0])
                .bind(&p.accounts[1])
                .fetch_one(&mut *tx)
                .await?;
                if here != 2 {
                    return Ok(None);
                }
            }
            if r.one_game_each && !take_players(&mut tx, id, p, Busy::ThisTournament).await? {
                return Ok(None);
            }
            insert_pairing(&mut tx, id, p, now, r.round).await?;
        }
        if let Some(account) = r.bye {
            sqlx::query(
                "INSERT INTO tournament_byes (tournament, round, account) VALUES ($1, $2, $3)",
            )
            .bind(id)
            .bind(r.round)
            .bind(account)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "UPDATE tournament_players SET points = points + 2 WHERE tournament = $1 AND account = $2",
            )
            .bind(id)
            .bind(account)
            .execute(&mut *tx)
            .await?;
        }
        let seqs = write_notes(&mut tx, r.notes, now).await?;
        tx.commit().await?;
        Ok(Some(seqs))
    }
}
