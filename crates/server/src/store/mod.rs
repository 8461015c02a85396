//! Storage through sqlx's `Any` driver: one code path for SQLite and
//! PostgreSQL. The database decides every change of a game: each write
//! names the version of the game it read, and of two writers only the
//! first succeeds (`games.rs`). Every accepted step is inserted in the same
//! transaction as the game's clocks and ending, before anyone is told of it.

mod accounts;
mod analyses;
mod bots;
mod challenges;
mod chat;
mod games;
pub(crate) mod group;
pub(crate) mod inbox;
mod people;
mod players;
mod push;
mod puzzles;
mod ratings;
mod rows;
mod service;
pub(crate) mod shut_out;
mod sqlite;
mod throttles;

pub use accounts::AccountRow;
pub use analyses::AnalysisRow;
pub use challenges::{still_open, ChallengeRow, Sent};
pub use chat::{ChatRow, ReportRow};
pub use games::{Append, SeatChange};
pub use inbox::{NewNote, NoteRow};
pub use people::{shown_online, Follow, SEEN_EVERY_MS};
pub use players::ArchiveFilter;
pub use push::PushRow;
pub use puzzles::{PuzzleFilter, PuzzleRow, PUZZLES};
pub use ratings::{RatedEnd, RatingRow};
pub use rows::{column, GameResult, GameRow, Holder, Progress, StoredClock, NEVER};
pub use virus_wars_pairing::{TournamentGame, TournamentPlayer};

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

use group::Job;

/// Why storage failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("migrations: {0}")]
    Migrate(String),
    /// An upgrade undone: the database has migrations this binary lacks.
    #[error(
        "the database was last opened by a newer virus-wars (it is at migration {found}, this \
         binary knows up to {known}): start that version or a newer one, or restore a backup \
         this version made"
    )]
    Newer { found: i64, known: i64 },
    #[error("server: {0}")]
    Io(String),
    /// The write lost: a row that is already there (a step number or a
    /// rematch another server process stored first, a bot name that is
    /// taken), or a game that changed since it was read.
    #[error("already stored: {0}")]
    Conflict(String),
    /// PostgreSQL gave the transaction up to let another go on (a deadlock
    /// found, or a serialisation it lost): tried again from the start, it
    /// goes through.
    #[error("lost a race to another transaction: {0}")]
    Contended(String),
    /// The database cannot be reached (no connection within the pool's
    /// time, a connection lost): nothing was stored.
    #[error("the database cannot be reached: {0}")]
    Unavailable(String),
    /// The account (or the account that registered the bot) is banned or
    /// deleted: nothing was written.
    #[error("account {0} is banned or deleted")]
    Barred(String),
    /// A count that may not grow: it is at its most already.
    #[error("at the most of {0} already")]
    TooMany(i64),
}

/// One connection tried before the pool is made: a pool keeps trying a
/// server it cannot reach and then says only that it timed out (after 30
/// s), where this says why at once (refused, no such host, a password).
async fn reach(url: &str) -> Result<(), StoreError> {
    use sqlx::Connection;
    // A port that takes the connection and never answers is said too.
    let within = std::time::Duration::from_secs(10);
    let connection = tokio::time::timeout(within, sqlx::AnyConnection::connect(url))
        .await
        .map_err(|_| {
            StoreError::Database(format!(
                "cannot connect: no answer within {} s",
                within.as_secs()
            ))
        })?
        .map_err(|e| StoreError::Database(format!("cannot connect: {e}")))?;
    let _ = connection.close().await;
    Ok(())
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => {
                StoreError::Conflict(d.message().to_string())
            }
            // deadlock_detected, serialization_failure
            sqlx::Error::Database(d)
                if matches!(d.code().as_deref(), Some("40P01") | Some("40001")) =>
            {
                StoreError::Contended(d.message().to_string())
            }
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_)
            | sqlx::Error::WorkerCrashed => StoreError::Unavailable(e.to_string()),
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// Longest a request waits for a database connection.
pub const ACQUIRE_WITHIN: std::time::Duration = std::time::Duration::from_secs(3);

/// The PostgreSQL channel on which server processes announce changed games.
pub const CHANNEL: &str = "vw_games";
/// The PostgreSQL channel on which a new notification is announced, as
/// the id of the account it is for.
pub const NOTES_CHANNEL: &str = "vw_notes";
/// The PostgreSQL channel on which a chat line said through one process
/// reaches the sockets of the others, as `<process id> <line as JSON>`.
pub const CHAT_CHANNEL: &str = "vw_chat";

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// This process's id: it holds computer turns' leases under it, and on
    /// PostgreSQL announces changes on [`CHANNEL`] as `<id> <game id>`.
    me: String,
    postgres: bool,
    /// SQLite takes one writer at a time, and a writer that finds the
    /// database busy backs off for up to 100 ms: writes queue here instead.
    writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>>,
    /// SQLite: appends go to the one writer task, which commits them in groups.
    batches: Option<tokio::sync::mpsc::Sender<Job>>,
}

impl Store {
    /// Connects and brings the schema up to date.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let me = crate::ids::game_id();
        let tag = me.clone();
        if !sqlite {
            reach(url).await?;
        }
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            // A request waits this long for a connection at most: with the
            // database gone it is refused (503 unavailable), not held.
            .acquire_timeout(ACQUIRE_WITHIN)
            .after_connect(move |conn, _| {
                let tag = tag.clone();
                Box::pin(async move {
                    if sqlite {
                        sqlite::set_up(conn).await?;
                    } else {
                        // Who this connection's changes come from, as the
                        // trigger announces them (announcer.sql).
                        sqlx::query("SELECT set_config('vw.me', $1, false)")
                            .bind(tag)
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        refuse_newer(&pool).await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migrate(e.to_string()))?;
        if !sqlite {
            install_announcer(&pool).await?;
        }
        let writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>> = sqlite.then(Default::default);
        if let Some(writer) = &writer {
            sqlx::query("PRAGMA optimize=0x10002")
                .execute(&pool)
                .await?;
            tokio::spawn(sqlite::housekeeping(pool.clone(), writer.clone()));
        }
        let batches = writer.clone().map(|w| {
            let (tx, rx) = tokio::sync::mpsc::channel(4 * group::MAX_GROUP);
            tokio::spawn(group::group_commits(pool.clone(), w, rx));
            tx
        });
        let store = Store {
            pool,
            me,
            postgres: !sqlite,
            writer,
            batches,
        };
        store.fill_skeletons().await?;
        Ok(store)
    }

    /// The pool, for the queries a domain keeps beside its rules
    /// (`tournament/store/`).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// This process's id (leases are held under it).
    pub(crate) fn me(&self) -> &str {
        &self.me
    }

    /// On SQLite, the one writer's turn.
    pub(crate) async fn writer_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.writer {
            Some(w) => Some(w.lock().await),
            None => None,
        }
    }

    /// This process's id on the announcement channel (PostgreSQL only).
    pub fn announcer(&self) -> Option<&str> {
        self.postgres.then_some(self.me.as_str())
    }
}

/// The newest migration this binary knows.
pub fn known_migration() -> i64 {
    sqlx::migrate!("./migrations")
        .iter()
        .map(|m| m.version)
        .max()
        .unwrap_or(0)
}

/// Refuses a database that a newer binary has migrated (before any
/// migration runs), in words an operator who went back a version can act on.
async fn refuse_newer(pool: &AnyPool) -> Result<(), StoreError> {
    // No such table: a new database.
    let Ok(row) = sqlx::query("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(pool)
        .await
    else {
        return Ok(());
    };
    let found: Option<i64> = row.try_get(0)?;
    let known = known_migration();
    match found {
        Some(found) if found > known => Err(StoreError::Newer { found, known }),
        _ => Ok(()),
    }
}

/// Every change of a game, whichever statement makes it, raises its
/// version; on PostgreSQL a trigger announces each such row on [`CHANNEL`]
/// when its transaction commits, as `<process id> <game id>` (the process
/// from the connection's `vw.me`). So no kind of change can forget to tell
/// the other processes. Installed at every start, under a lock, as it is
/// now (the statements replace what an older start installed).
async fn install_announcer(pool: &AnyPool) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    sqlx::query("SELECT pg_advisory_xact_lock($1)")
        .bind(ANNOUNCER_KEY)
        .execute(&mut *tx)
        .await?;
    for sql in include_str!("announcer.sql").split("\n\n") {
        if !sql.trim().is_empty() {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(&mut *tx)
                .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// The advisory lock key under which the announcer is installed.
const ANNOUNCER_KEY: i64 = 0x0076_7761_6e6e_6f75; // "vwannou"

/// The advisory lock key of quick play's pairing (PostgreSQL).
const PAIRING_KEY: i64 = 0x0076_7771_7569_636b; // "vwquick"

/// Quick play's pairing, held across every process on PostgreSQL (a
/// session advisory lock on a connection of its own); released by
/// [`Pairing::release`], or, if the request is dropped first, by closing
/// that connection (PostgreSQL frees a session's locks when it ends).
pub struct Pairing {
    conn: Option<sqlx::pool::PoolConnection<sqlx::Any>>,
}

impl Pairing {
    pub async fn release(mut self) {
        if let Some(mut conn) = self.conn.take() {
            let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(PAIRING_KEY)
                .execute(&mut *conn)
                .await;
            if unlocked.is_err() {
                drop(conn.detach());
            }
        }
    }
}

impl Drop for Pairing {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            // Closed, not returned to the pool: the lock goes with it.
            drop(conn.detach());
        }
    }
}

impl Store {
    /// Waits (at most `within`) until this request is the only one pairing
    /// quick play in any process. On SQLite (one process) the server's own
    /// lock is enough and this holds nothing.
    pub async fn lock_pairing(
        &self,
        within: std::time::Duration,
    ) -> Result<Option<Pairing>, StoreError> {
        if !self.postgres {
            return Ok(Some(Pairing { conn: None }));
        }
        let until = tokio::time::Instant::now() + within;
        let mut conn = self.pool.acquire().await?;
        loop {
            use sqlx::Row;
            let got: bool = sqlx::query("SELECT pg_try_advisory_lock($1) AS got")
                .bind(PAIRING_KEY)
                .fetch_one(&mut *conn)
                .await?
                .try_get("got")?;
            if got {
                return Ok(Some(Pairing { conn: Some(conn) }));
            }
            if tokio::time::Instant::now() >= until {
                return Ok(None);
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }
}
