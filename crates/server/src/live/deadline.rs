//! Games that end because nobody acted: a clock that ran out, an untimed
//! game or an unjoined one left alone. The database says which games'
//! deadlines have come (each change stores its game's next deadline), so
//! a game ends on time whether or not any process holds it in memory; of
//! several processes ending the same game, the database lets one win.

use std::sync::Arc;
use std::time::Duration;

use virus_wars_rules::ending::{EndReason, Ending};

use super::LiveError;
use super::{commit, get, progress, refresh};
use crate::App;

/// How long an untimed game may wait for its side to move before it ends
/// as abandoned: that side loses on time (or, before both sides moved, the
/// game is aborted).
pub const ABANDONED_AFTER_MS: u64 = 14 * 24 * 3600 * 1000;

/// Most games ended (or looked at) in one pass.
const BATCH: i64 = 200;

/// Ends the games whose deadline has come, four times a second, until the
/// server stops.
pub async fn watch_deadlines(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let due = match app.store.due(app.clock.now_ms() as i64, BATCH).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the games whose time is up");
                continue;
            }
        };
        for id in due {
            if let Err(e) = expire(&app, &id).await {
                tracing::warn!(game = %id, error = ?e, "could not end a game whose time is up");
            }
        }
    }
}

/// Ends game `id` if its time is up; otherwise stores its right deadline.
async fn expire(app: &App, id: &str) -> Result<(), LiveError> {
    let shared = get(app, id).await?;
    let mut g = shared.lock().await;
    // The database said the game's time is up: look at it as stored.
    refresh(app, &mut g).await?;
    if g.table.contest.finished() {
        return Ok(());
    }
    let now = app.clock.now_ms();
    let mut next = g.table.clone();
    let idle = now.saturating_sub(g.last_active_ms);
    let left_alone = idle >= app.abandon_after_ms;
    let changed = if g.waiting() {
        let left_alone = idle >= g.waits_at_most(app.abandon_after_ms);
        // No one joined: called off, never won or lost.
        left_alone && next.contest.abort().is_ok()
    } else if next.contest.clocks.is_some() {
        next.contest.check_time(now)
    } else if left_alone {
        if next.contest.abort().is_err() {
            let mover = next.contest.side_to_move();
            next.contest
                .restore(Ending::loss_of(EndReason::Time(mover)), false);
        }
        true
    } else {
        false
    };
    if changed {
        match commit(app, &mut g, next, &[], now).await {
            // Another process ended it (or changed it) first.
            Err(LiveError::Changed) => Ok(()),
            other => other.map(|_| ()),
        }
    } else {
        // Stored before deadlines were, or a clock that a change moved:
        // the deadline as it is now (never again in the past).
        let p = progress(&g, &g.table, g.last_active_ms, app.abandon_after_ms);
        let deadline = p.deadline_ms.max(now as i64 + 1000);
        app.store
            .correct_watch(&g.id, g.version, deadline, p.computer_to_move)
            .await?;
        Ok(())
    }
}
