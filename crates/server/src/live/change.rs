//! Changing a game: every change is one write that the database decides
//! (conditional on the version this process read). The write that loses
//! reloads the game and is refused with 409; the one that wins is made
//! current here and announced to the sockets.

use std::sync::Arc;

use tokio::sync::Mutex;
use virus_wars_rules::contest::RefusalError;
use virus_wars_rules::fog;
use virus_wars_rules::{Side, Step};

use super::LiveError;
use super::{from_row, progress, LiveGame, Shared};
use crate::present::{self, Shown};
use crate::seat::{Seat, Table};
use crate::store::{column, Append, GameRow, Holder, SeatChange, StoreError};
use crate::App;
use virus_wars_ai::Sitting;

/// Loads the game with this id from storage.
async fn load(app: &App, id: &str) -> Result<Option<LiveGame>, LiveError> {
    let Some((row, steps)) = app.store.load(id).await? else {
        return Ok(None);
    };
    let steps: Vec<String> = steps.into_iter().map(|s| s.step).collect();
    let game = from_row(&row, &steps, app.first_step_within_ms).map_err(|e| {
        LiveError::Store(StoreError::Database(format!(
            "game {id} cannot be replayed: {e}"
        )))
    })?;
    Ok(Some(game))
}

/// The game with this id: from memory, or loaded from storage.
pub async fn get(app: &App, id: &str) -> Result<Shared, LiveError> {
    if let Some(g) = app.games.find(id) {
        return Ok(g);
    }
    // Ids are short: a long one is no game, and costs no query.
    if id.len() > 64 {
        return Err(LiveError::NotFound);
    }
    let Some(game) = load(app, id).await? else {
        return Err(LiveError::NotFound);
    };
    // Another request may have loaded it meanwhile: keep the first.
    let loaded_at = game.version;
    let fresh = Arc::new(Mutex::new(game));
    let kept = app.games.keep_first(id, fresh);
    // A change another process committed while this one was loading was
    // announced before the game was held here, so nobody heard it: now
    // that it is held (every later announcement reaches it), read the
    // version again and catch up.
    if app.store.version(id).await? != Some(loaded_at) {
        refresh(app, &mut *kept.lock().await).await?;
    }
    Ok(kept)
}

/// Brings a game held in memory up to the stored version where several
/// processes share the database: a change another process committed a
/// moment ago may not have been heard here yet. A client that connects to
/// this process after its own process restarted (its step stored there,
/// the answer cut off) reads its first state from here and must see that
/// step, or it would play the turn again. On SQLite (one process) nothing
/// is read.
pub async fn catch_up(app: &App, shared: &Shared) -> Result<(), LiveError> {
    if app.store.announcer().is_none() {
        return Ok(());
    }
    let (id, held) = {
        let g = shared.lock().await;
        (g.id.clone(), g.version)
    };
    if app.store.version(&id).await? != Some(held) {
        refresh(app, &mut *shared.lock().await).await?;
    }
    Ok(())
}

/// After a change of `g` became current: its sockets hear of it, and a
/// computer to move is woken. The states announced, for every viewer.
fn changed(app: &App, g: &LiveGame, now: u64) -> Arc<Shown> {
    // Every socket on this game is told its state, as its viewer sees it;
    // the states are rendered once.
    let shown = Arc::new(present::shown(g, now));
    let _ = g.updates.send(shown.clone());
    if g.computer_to_move() {
        // A full queue is caught by the computer's sweep within a second.
        let _ = app.computer_turns.try_send(g.id.clone());
    }
    shown
}

/// Reloads a game held in memory from storage, where another server
/// process (or another copy in this one) changed it, and tells its
/// sockets if it did change.
pub async fn refresh(app: &App, g: &mut LiveGame) -> Result<(), LiveError> {
    let Some(fresh) = load(app, &g.id).await? else {
        return Ok(());
    };
    if fresh.version == g.version {
        return Ok(());
    }
    g.table = fresh.table;
    g.rematch = fresh.rematch;
    g.holders = fresh.holders;
    g.listed = fresh.listed;
    g.last_active_ms = fresh.last_active_ms;
    g.version = fresh.version;
    changed(app, g, app.clock.now_ms());
    Ok(())
}

/// The answer to a change that lost to another: the game has been reloaded.
fn lost(g: &LiveGame, sent_seq: u64, with_steps: bool) -> LiveError {
    if with_steps && g.table.contest.seq() != sent_seq {
        return RefusalError::StaleSeq {
            sent: sent_seq,
            now: g.table.contest.seq(),
        }
        .into();
    }
    LiveError::Changed
}

/// Plays `steps` for `side` if `seq` is current: stored first, then applied
/// and announced; the answer is the states announced, for every viewer. On any
/// error nothing changes. A refusal decided on this
/// process's copy is decided again on a fresh load (another process may
/// have changed the game a moment ago), so that only the database's state
/// refuses.
pub async fn play(
    app: &Arc<App>,
    shared: &Shared,
    side: Side,
    seq: u64,
    steps: &[Step],
) -> Result<Arc<Shown>, LiveError> {
    let started = std::time::Instant::now();
    let mut g = shared.lock().await;
    let mut fresh = false;
    loop {
        match try_play(app, &mut g, side, seq, steps).await {
            Err(Refused::Now(e)) if !fresh => {
                fresh = true;
                let version = g.version;
                refresh(app, &mut g).await?;
                if g.version == version {
                    return Err(e);
                }
            }
            Err(Refused::Now(e) | Refused::Stored(e)) => return Err(e),
            Ok(state) => {
                app.metrics.step_done(steps.len() as u64, started.elapsed());
                return Ok(state);
            }
        }
    }
}

/// Why steps were not played: refused on the game as this process holds
/// it, or by the database.
enum Refused {
    Now(LiveError),
    Stored(LiveError),
}

async fn try_play(
    app: &App,
    g: &mut LiveGame,
    side: Side,
    seq: u64,
    steps: &[Step],
) -> Result<Arc<Shown>, Refused> {
    if g.waiting() && !g.table.contest.finished() {
        return Err(Refused::Now(LiveError::WaitingForOpponent));
    }
    let steps = admitted(g, side, seq, steps).map_err(|e| Refused::Now(e.into()))?;
    let now = app.clock.now_ms();
    let mut next = g.table.clone();
    match next.play(side, seq, steps, now) {
        Ok(()) => {}
        Err(RefusalError::Over(e)) if g.table.contest.ending().is_none() => {
            // The clock ran out before these steps: store that ending.
            commit(app, g, next, &[], now)
                .await
                .map_err(Refused::Stored)?;
            return Err(Refused::Stored(RefusalError::Over(e).into()));
        }
        Err(e) => return Err(Refused::Now(e.into())),
    }
    let texts: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    commit(app, g, next, &texts, now)
        .await
        .map_err(Refused::Stored)
}

/// Under fog, the steps of a batch that are played (`fog::admitted`):
/// refused if one is on a cell `side` does not see, as any cell out of its
/// reach, before any is played; cut after the step that ends the game.
/// Only for the side to move at the current step: a stale or misdirected
/// request gets its own refusal.
fn admitted<'a>(
    g: &LiveGame,
    side: Side,
    seq: u64,
    steps: &'a [Step],
) -> Result<&'a [Step], RefusalError> {
    let c = &g.table.contest;
    if !g.fogged() || seq != c.seq() || side != c.side_to_move() {
        return Ok(steps);
    }
    fog::admitted(&c.game, side, steps).map_err(|(k, error)| RefusalError::Illegal {
        number: seq + k as u64 + 1,
        step: steps[k],
        error,
    })
}

/// Stores the draft with `steps` if the game is still at the version this
/// process read, then makes it current and announces it. A game changed
/// meanwhile (by another process, or another copy) is reloaded, and the
/// change is refused: `stale_seq` for steps, `changed` for the rest.
/// The states announced, for every viewer.
pub async fn commit(
    app: &App,
    g: &mut LiveGame,
    next: Table,
    steps: &[String],
    now: u64,
) -> Result<Arc<Shown>, LiveError> {
    write(app, g, next, steps, now, None, None).await
}

/// Why `side` may not berserk in `c` now (whether it did already is the
/// tournament's to say): the game over, no Fischer clock, or a step made.
pub fn berserk_refused(c: &virus_wars_rules::contest::Contest, side: Side) -> Option<&'static str> {
    if c.finished() {
        return Some("a game that is over");
    }
    if c.clocks.is_none_or(|k| k.control.per_turn) {
        return Some("a game without a running clock");
    }
    c.game
        .turns()
        .iter()
        .any(|t| t.side == side)
        .then_some("after your first step")
}

/// `side` halves its own clock in tournament game `g` before its first
/// step (its berserk): the time it has left now is halved, and the
/// tournament's game says so, in the same write. Refused once `side` has
/// made a step, or the game is over.
pub async fn commit_berserk(app: &App, g: &mut LiveGame, side: Side) -> Result<(), LiveError> {
    let c = &g.table.contest;
    c.check_open()?;
    if let Some(why) = berserk_refused(c, side) {
        return Err(LiveError::NoBerserk(why));
    }
    let Some(clocks) = c.clocks else {
        return Err(LiveError::NoBerserk("a game without a running clock"));
    };
    let now = app.clock.now_ms();
    // What the seat has left now, halved. Before the clocks start (a
    // side's first turn is uncharged) that is its stored time: the wait
    // for its first step is neither charged nor given back. Once they run,
    // the stored time less the turn's: the turn's time is added back, as
    // it is taken off again.
    let left = c.time_left(side, now).unwrap_or(0);
    let mut next = g.table.clone();
    if let Some(n) = next.contest.clocks.as_mut() {
        let k = side.index();
        n.left_ms[k] = clocks.left_ms[k] - left + left / 2;
    }
    write(app, g, next, &[], now, None, Some(side))
        .await
        .map(|_| ())
}

/// Stores the rematch `new_game` with the draft of the old game `g` that
/// names it, in one transaction. Of two rematches asked at once (in one
/// process or two), the second is refused by the database and finds the
/// first in the reloaded game.
pub async fn commit_rematch(
    app: &App,
    g: &mut LiveGame,
    new_game: &GameRow,
) -> Result<(), LiveError> {
    let next = g.table.clone();
    write(app, g, next, &[], app.clock.now_ms(), Some(new_game), None)
        .await
        .map(|_| ())
}

async fn write(
    app: &App,
    g: &mut LiveGame,
    mut next: Table,
    steps: &[String],
    now: u64,
    new_game: Option<&GameRow>,
    berserk: Option<Side>,
) -> Result<Arc<Shown>, LiveError> {
    if next.contest.finished() && !g.table.contest.finished() {
        // The game ends now: the clock shows what was left at the end.
        next.contest.stop_clocks(now);
    }
    let first = g.table.contest.seq();
    let mut stored = progress(g, &next, now, app.abandon_after_ms);
    if let Some(new_game) = new_game {
        // The game names the rematch it led to, in the same transaction.
        stored.rematch_id = Some(new_game.id.clone());
    }
    let notes = crate::inbox::raised_by_change(g, &next, stored.result);
    let job = Append {
        id: g.id.clone(),
        version: g.version,
        first_seq: first as i64,
        steps: steps.to_vec(),
        now_ms: now as i64,
        progress: stored.clone(),
        new_game: new_game.cloned(),
        notes: notes.clone(),
        berserk,
    };
    let seqs = match app.store.append(job).await {
        Ok(seqs) => seqs,
        Err(StoreError::Conflict(why)) => {
            tracing::debug!(game = %g.id, %why, "a change lost to another; reloading");
            refresh(app, g).await?;
            return Err(lost(g, first, !steps.is_empty()));
        }
        Err(e) => return Err(e.into()),
    };
    crate::inbox::Raiser::of(app).stored(&notes, &seqs);
    if next.contest.finished() && !g.table.contest.finished() {
        let result = match next.contest.ending() {
            _ if next.contest.aborted() => "aborted".to_string(),
            Some(e) => e.to_string(),
            None => String::new(),
        };
        tracing::info!(game = %g.id, %result, steps = next.contest.seq(), "game over");
    }
    g.table = next;
    g.rematch = stored.rematch_id;
    g.last_active_ms = now;
    g.version += 1;
    Ok(changed(app, g, now))
}

/// The computer's turn starts now (stored by the lease that said so, in
/// `computer/turns.rs`): this copy follows, and its sockets hear of it.
pub fn computer_turn_starts(app: &App, g: &mut LiveGame, now: u64) {
    if let Some(c) = g.table.contest.clocks.as_mut() {
        c.turn_started_ms = now;
    }
    g.version += 1;
    changed(app, g, now);
}

/// Takes `side`'s free seat for `who`, held by `holder` (its token, the
/// name it plays under, its account): stored first, on the condition that the seat is still free and the game not
/// over; then the game is reloaded (the database's version is the truth).
/// False if another request or process took it a moment ago.
pub async fn take_seat(
    app: &App,
    g: &mut LiveGame,
    side: Side,
    who: &Seat,
    holder: Holder,
) -> Result<bool, LiveError> {
    let now = app.clock.now_ms();
    // What the row becomes once the seat is taken: with both seats taken,
    // the game and its clock start now.
    let mut after = g.clone();
    after.table.seats[side.index()] = who.clone();
    after.holders[side.index()] = holder.clone();
    if let Some(c) = after.table.contest.clocks.as_mut() {
        c.turn_started_ms = now;
    }
    let stored = progress(&after, &after.table, now, app.abandon_after_ms);
    let seat = SeatChange {
        side: side.index(),
        token_hash: column(&holder.token_hash),
        player: &who.name(),
        name: column(&holder.name),
        account: column(&holder.account),
        now_ms: now as i64,
        progress: &stored,
    };
    let taken = app.store.take_seat(&g.id, &seat).await?;
    refresh(app, g).await?;
    Ok(taken)
}
