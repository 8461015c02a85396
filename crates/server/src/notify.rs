//! Scale-out: several server processes share one PostgreSQL. Each commit
//! announces its game on a channel (see `store`); every other process that
//! holds that game in memory reloads it from the database and tells its
//! own sockets. SQLite servers are one process and need none of this.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::store::CHANNEL;
use crate::App;

/// Listens for other processes' changes until the server stops; reconnects
/// after a lost connection.
pub async fn listen(app: Arc<App>, url: String) {
    let Some(me) = app.store.announcer().map(str::to_string) else {
        return;
    };
    loop {
        match listen_once(&app, &url, &me).await {
            Ok(()) => return,
            Err(e) => {
                tracing::warn!(error = %e, "lost the PostgreSQL notifications; reconnecting");
                tokio::time::sleep(Duration::from_secs(1)).await;
                // What was missed meanwhile: reload every game in memory.
                for shared in app.games.all() {
                    let mut g = shared.lock().await;
                    if let Err(e) = crate::live::refresh(&app, &mut g).await {
                        tracing::warn!(game = %g.id, error = ?e, "cannot reload a game");
                    }
                }
            }
        }
    }
}

async fn listen_once(app: &Arc<App>, url: &str, me: &str) -> Result<(), sqlx::Error> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    loop {
        let note = listener.recv().await?;
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
