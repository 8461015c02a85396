//! A change of a game as one write that the database decides, and
//! SQLite's one writer, which commits the changes waiting at the same
//! moment in one transaction (group commit).

use sqlx::AnyPool;
use virus_wars_rules::Side;

use super::inbox::{write_notes, NewNote};
use super::rows::{column, side_column, GameResult, GameRow, Progress};
use super::StoreError;

/// One change of a game: new steps, its progress, and (a rematch) a new
/// game created with it. Written only if the game's version is still
/// `version`; the version is then one more.
pub struct Append {
    pub id: String,
    pub version: i64,
    pub first_seq: i64,
    pub steps: Vec<String>,
    pub now_ms: i64,
    pub progress: Progress,
    pub new_game: Option<GameRow>,
    /// The notifications the change raises, stored with it.
    pub notes: Vec<NewNote>,
    /// A tournament seat halves its own clock (its berserk): marked on
    /// the tournament's game with the clock it halves.
    pub berserk: Option<Side>,
}

/// What an append answers: the numbers its notifications were stored
/// under, one for each of its `notes` (`None`: not stored, see
/// [`write_note`](super::inbox::write_note)).
pub type Stored = Result<Vec<Option<i64>>, StoreError>;

pub type Job = (Append, tokio::sync::oneshot::Sender<Stored>);

/// Most appends one group commit takes.
pub const MAX_GROUP: usize = 256;

/// Inserts a game's row.
pub async fn insert_game(conn: &mut sqlx::AnyConnection, g: &GameRow) -> Result<(), StoreError> {
    let (base, inc, per_turn) = g
        .clock
        .map_or((-1, -1, false), |c| (c.base_ms, c.increment_ms, c.per_turn));
    let p = &g.progress;
    sqlx::query(
        "INSERT INTO games (id, variant, start_position, x_player, o_player, x_token, o_token, \
         clock_base_ms, clock_inc_ms, x_left_ms, o_left_ms, declared, declared_side, finished, created_ms, \
         listed, draw_offer, rematch_id, last_active_ms, clock_per_turn, version, turn_started_ms, \
         deadline_ms, computer_to_move, rematch_of, x_name, o_name, x_account, o_account, rated, \
         result, family, seeker, to_move) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
         $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34)",
    )
    .bind(&g.id)
    .bind(&g.variant)
    .bind(&g.start_position)
    .bind(&g.players[0])
    .bind(&g.players[1])
    .bind(column(&g.holders[0].token_hash))
    .bind(column(&g.holders[1].token_hash))
    .bind(base)
    .bind(inc)
    .bind(p.left_ms[0])
    .bind(p.left_ms[1])
    .bind(&p.declared)
    .bind(side_column(p.declared_side))
    .bind(p.finished as i64)
    .bind(g.created_ms)
    .bind(g.listed as i64)
    .bind(side_column(p.draw_offer))
    .bind(p.rematch_id.as_deref().unwrap_or(""))
    .bind(p.last_active_ms)
    .bind(per_turn as i64)
    .bind(g.version)
    .bind(p.turn_started_ms)
    .bind(p.deadline_ms)
    .bind(p.computer_to_move as i64)
    .bind(&g.rematch_of)
    .bind(column(&g.holders[0].name))
    .bind(column(&g.holders[1].name))
    .bind(column(&g.holders[0].account))
    .bind(column(&g.holders[1].account))
    .bind(g.rated as i64)
    .bind(p.result.map_or("", GameResult::column))
    .bind(&g.family)
    .bind(&g.seeker)
    .bind(side_column(p.to_move))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Writes one change: the new game first (a second rematch of the same
/// game fails here, by the unique index on `rematch_of`), then the steps
/// (a step number stored before fails by the key), then the game's row,
/// only where its version is still the one read.
pub async fn write_append(conn: &mut sqlx::AnyConnection, a: &Append, postgres: bool) -> Stored {
    if let Some(g) = &a.new_game {
        insert_game(conn, g).await?;
    }
    for (k, step) in a.steps.iter().enumerate() {
        sqlx::query("INSERT INTO steps (game_id, seq, step, played_ms) VALUES ($1, $2, $3, $4)")
            .bind(&a.id)
            .bind(a.first_seq + k as i64 + 1)
            .bind(step)
            .bind(a.now_ms)
            .execute(&mut *conn)
            .await?;
    }
    let p = &a.progress;
    let done = sqlx::query(
        "UPDATE games SET x_left_ms = $1, o_left_ms = $2, declared = $3, declared_side = $4, \
         finished = $5, draw_offer = $6, rematch_id = $7, last_active_ms = $8, \
         turn_started_ms = $9, deadline_ms = $10, computer_to_move = $11, \
         thinker = CASE WHEN $14 = 1 THEN '' ELSE thinker END, \
         thinker_until_ms = CASE WHEN $14 = 1 THEN 0 ELSE thinker_until_ms END, \
         result = $15, to_move = $16, version = version + 1 \
         WHERE id = $12 AND version = $13",
    )
    .bind(p.left_ms[0])
    .bind(p.left_ms[1])
    .bind(&p.declared)
    .bind(side_column(p.declared_side))
    .bind(p.finished as i64)
    .bind(side_column(p.draw_offer))
    .bind(p.rematch_id.as_deref().unwrap_or(""))
    .bind(p.last_active_ms)
    .bind(p.turn_started_ms)
    .bind(p.deadline_ms)
    .bind(p.computer_to_move as i64)
    .bind(&a.id)
    .bind(a.version)
    // Steps end the turn, and with it any lease on the computer's turn;
    // another change (an offer) leaves the computer thinking.
    .bind(i64::from(!a.steps.is_empty()))
    .bind(p.result.map_or("", GameResult::column))
    .bind(side_column(p.to_move))
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict(format!(
            "game {} changed since version {}",
            a.id, a.version
        )));
    }
    // The game ends rated: both ratings move in this same transaction,
    // which only one writer can commit (the version above).
    if let Some(end) = &p.rated_end {
        super::ratings::write_rated_end(conn, postgres, &a.id, end, a.now_ms).await?;
    }
    // The game ended (or was ended before): its players' lists and counts.
    if p.finished {
        super::players::keep_finished(conn, &a.id).await?;
    }
    if let Some(side) = a.berserk {
        mark_berserk(conn, &a.id, side).await?;
    }
    // After the game's row: only one change of a game gets this far.
    write_notes(conn, &a.notes, a.now_ms).await
}

async fn commit_group(
    pool: &AnyPool,
    group: &[&Append],
) -> Result<Vec<Vec<Option<i64>>>, StoreError> {
    let mut tx = pool.begin().await?;
    let mut stored = Vec::with_capacity(group.len());
    for a in group {
        stored.push(write_append(&mut tx, a, false).await?);
    }
    tx.commit().await?;
    Ok(stored)
}

/// SQLite's one writer: takes the appends waiting, commits them in one
/// transaction, and answers each. If the group fails (a step number
/// stored before, a game changed), each append is tried alone, so that
/// only the one at fault is refused.
pub async fn group_commits(
    pool: AnyPool,
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    mut jobs: tokio::sync::mpsc::Receiver<Job>,
) {
    let mut group: Vec<Job> = Vec::with_capacity(MAX_GROUP);
    while jobs.recv_many(&mut group, MAX_GROUP).await > 0 {
        let _turn = writer.lock().await;
        let all: Vec<&Append> = group.iter().map(|(a, _)| a).collect();
        match commit_group(&pool, &all).await {
            Ok(stored) => {
                for ((_, done), seqs) in group.drain(..).zip(stored) {
                    let _ = done.send(Ok(seqs));
                }
            }
            Err(_) => {
                for (a, done) in group.drain(..) {
                    let alone = commit_group(&pool, &[&a]).await;
                    let _ = done.send(alone.map(|mut s| s.pop().unwrap_or_default()));
                }
            }
        }
    }
}

/// Marks `side`'s berserk on the tournament game `game`, in the
/// transaction that halves its clock (`group.rs`): a second berserk of
/// the same seat (two requests at once) is refused here, and its clock
/// not halved again.
async fn mark_berserk(
    conn: &mut sqlx::AnyConnection,
    game: &str,
    side: Side,
) -> Result<(), StoreError> {
    let sql = match side {
        Side::X => "UPDATE tournament_games SET x_berserk = 1 WHERE game = $1 AND x_berserk = 0",
        Side::O => "UPDATE tournament_games SET o_berserk = 1 WHERE game = $1 AND o_berserk = 0",
    };
    let done = sqlx::query(sql).bind(game).execute(&mut *conn).await?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Conflict(format!(
            "game {game}: {side} berserked already, or it is no tournament's"
        )));
    }
    sqlx::query(
        "UPDATE tournaments SET version = version + 1 \
         WHERE id = (SELECT tournament FROM tournament_games WHERE game = $1)",
    )
    .bind(game)
    .execute(&mut *conn)
    .await?;
    Ok(())
}
