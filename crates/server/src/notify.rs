//! Scale-out: several server processes share one PostgreSQL. Each commit
//! announces its game on a channel (see `store`); every other process that
//! holds that game in memory reloads it from the database and tells its
//! own sockets. A new notification is announced on another channel as
//! the account it is for: the user sockets of that account here look.
//! SQLite servers are one process and need none of this.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::store::{ChatRow, CHANNEL, CHAT_CHANNEL, NOTES_CHANNEL};
use crate::App;

/// Starts listening before the server takes its first request: a game
/// loaded by a request is then sure to hear of every later change (a
/// process that served first could miss the changes made meanwhile, and
/// show a stale game until it left its memory). `None` where there are no
/// other processes to hear (SQLite).
pub async fn subscribe(app: &App, url: &str) -> Result<Option<PgListener>, sqlx::Error> {
    if app.store.announcer().is_none() {
        return Ok(None);
    }
    let mut listener = PgListener::connect(url).await?;
    listener
        .listen_all([CHANNEL, NOTES_CHANNEL, CHAT_CHANNEL])
        .await?;
    Ok(Some(listener))
}

/// Hears other processes' changes on `listener` until the server stops;
/// reconnects after a lost connection.
pub async fn listen(app: Arc<App>, url: String, listener: Option<PgListener>) {
    let (Some(me), Some(mut listener)) = (app.store.announcer().map(str::to_string), listener)
    else {
        return;
    };
    loop {
        let why = hear(&app, &mut listener, &me).await;
        tracing::warn!(why = %why, "lost the PostgreSQL notifications; reconnecting");
        listener = loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            match subscribe(&app, &url).await {
                Ok(Some(again)) => break again,
                Ok(None) => return,
                Err(e) => tracing::warn!(error = %e, "cannot listen again yet"),
            }
        };
        // What was missed meanwhile: every user socket looks, and every
        // game in memory is reloaded.
        app.doorbells.ring_all();
        for shared in app.games.all() {
            let mut g = shared.lock().await;
            if let Err(e) = crate::live::refresh(&app, &mut g).await {
                tracing::warn!(game = %g.id, error = ?e, "cannot reload a game");
            }
        }
    }
}

/// Hears changes until the connection is lost (sqlx's `recv` would
/// reconnect by itself and drop what was sent meanwhile unseen; `try_recv`
/// says so, and the caller reloads what it holds). The answer: why it stopped.
async fn hear(app: &Arc<App>, listener: &mut PgListener, me: &str) -> String {
    loop {
        let note = match listener.try_recv().await {
            Ok(Some(note)) => note,
            Ok(None) => return "the connection closed".to_string(),
            Err(e) => return e.to_string(),
        };
        if note.channel() == NOTES_CHANNEL {
            app.doorbells.ring(note.payload());
            continue;
        }
        if note.channel() == CHAT_CHANNEL {
            // Another process's line: its game's sockets here hear it.
            if let Some((from, line)) = note.payload().split_once(' ') {
                if from != me {
                    if let Ok(line) = serde_json::from_str::<ChatRow>(line) {
                        app.rooms.deliver(std::sync::Arc::new(line));
                    }
                }
            }
            continue;
        }
        let Some((from, id)) = note.payload().split_once(' ') else {
            continue;
        };
        if from == me {
            continue;
        }
        let Some(shared) = app.games.find(id) else {
            continue;
        };
        let mut g = shared.lock().await;
        // Reloading tells this process's sockets, and wakes the computer if
        // it is to move (the lease decides which process thinks).
        if let Err(e) = crate::live::refresh(app, &mut g).await {
            tracing::warn!(game = %id, error = ?e, "cannot reload a changed game");
        }
    }
}
