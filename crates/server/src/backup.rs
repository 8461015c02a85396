//! Backups of a SQLite server's database while it runs, and putting one
//! back. A backup is SQLite's `VACUUM INTO`: one read transaction, so the
//! copy is the database as of one moment (every step committed before it
//! began is in it), written while players go on (readers never wait in WAL
//! mode, and the writer does not wait for it). A restore checks the file
//! (a whole SQLite database of this server, not newer than this binary)
//! and puts it where the server reads, never over a database.
//!
//! PostgreSQL has its own tools (`pg_dump`, `pg_restore`: docs/hosting.md).

use std::path::Path;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection, Row};

/// Why a backup or a restore was refused.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} is there already: a backup never writes over a file")]
    TargetExists(String),
    #[error("{0} has a database already: restore into an empty or new folder")]
    DatabaseExists(String),
    #[error("there is no database at {0}")]
    NoDatabase(String),
    #[error("{file} is no backup of this server: {why}")]
    NotABackup { file: String, why: String },
    #[error(
        "{file} was written by a newer virus-wars (its database is at migration {found}, \
         this binary knows up to {known}): restore it with that version"
    )]
    Newer {
        file: String,
        found: i64,
        known: i64,
    },
    #[error("{0}")]
    Io(String),
}

impl From<sqlx::Error> for BackupError {
    fn from(e: sqlx::Error) -> Self {
        BackupError::Io(e.to_string())
    }
}

use std::os::unix::fs::OpenOptionsExt as _;

async fn open(path: &Path, read_only: bool) -> Result<SqliteConnection, BackupError> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .read_only(read_only)
        .busy_timeout(std::time::Duration::from_secs(10));
    Ok(options.connect().await?)
}

/// Copies the database `database` (the file a server uses, running or
/// not) to the new file `to`, consistent as of one moment.
pub async fn backup(database: &Path, to: &Path) -> Result<(), BackupError> {
    if !database.exists() {
        return Err(BackupError::NoDatabase(database.display().to_string()));
    }
    if to.exists() {
        return Err(BackupError::TargetExists(to.display().to_string()));
    }
    let target = to
        .to_str()
        .ok_or_else(|| BackupError::Io(format!("{} is no UTF-8 path", to.display())))?;
    let mut conn = open(database, false).await?;
    sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut conn)
        .await?;
    conn.close().await?;
    // The copy holds what the database holds: its owner's alone.
    crate::private::owner_only_file(to)
        .map_err(|e| BackupError::Io(format!("{}: {e}", to.display())))?;
    Ok(())
}

/// Checks that `from` (named `file` in errors) is an undamaged database of
/// this server, of a migration this server knows.
async fn check_backup(from: &Path, file: &str) -> Result<(), BackupError> {
    let not = |why: String| BackupError::NotABackup {
        file: file.to_string(),
        why,
    };
    let mut conn = open(from, true)
        .await
        .map_err(|e| not(format!("it does not open as SQLite ({e})")))?;
    let check: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| not(format!("it does not read as SQLite ({e})")))?
        .try_get(0)?;
    if check != "ok" {
        return Err(not(format!("SQLite finds it damaged: {check}")));
    }
    let found: Option<i64> = sqlx::query("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut conn)
        .await
        .map_err(|_| not("it has none of this server's tables".into()))?
        .try_get(0)?;
    let found = found.ok_or_else(|| not("it has none of this server's tables".into()))?;
    let games: i64 = sqlx::query(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('games', 'steps')",
    )
    .fetch_one(&mut conn)
    .await?
    .try_get(0)?;
    if games != 2 {
        return Err(not("it has no games or steps tables".into()));
    }
    let known = crate::store::known_migration();
    if found > known {
        return Err(BackupError::Newer {
            file: file.to_string(),
            found,
            known,
        });
    }
    conn.close().await?;
    Ok(())
}

/// Checks the backup `from` and copies it to `database` (which must not
/// exist); the server then starts on it (and runs any newer migrations).
pub async fn restore(from: &Path, database: &Path) -> Result<(), BackupError> {
    let file = from.display().to_string();
    let not = |why: String| BackupError::NotABackup {
        file: file.clone(),
        why,
    };
    if !from.is_file() {
        return Err(not("there is no such file".into()));
    }
    // A database open in WAL mode has its -wal and -shm beside it, even
    // when the WAL was just emptied: a server may write it while it is
    // copied, and its newest commits may be in the -wal, which a copy of
    // the file alone would lose. (SQLite removes both at a clean close.)
    // Beside its real name: a link to a live database has no -wal beside
    // the link. A file with other names (hard links) may be one too.
    let real = std::fs::canonicalize(from).map_err(|e| not(format!("it cannot be read ({e})")))?;
    let beside = |end: &str| std::path::PathBuf::from(format!("{}-{end}", real.display()));
    if ["wal", "shm", "journal"]
        .iter()
        .any(|end| beside(end).exists())
    {
        return Err(not(
            "it is a database in use, or one whose server was killed (a -wal, -shm or -journal file stands beside it): take a backup of it with `virus-wars backup`".into(),
        ));
    }
    if std::os::unix::fs::MetadataExt::nlink(&real.metadata().map_err(|e| not(e.to_string()))?) > 1
    {
        return Err(not(
            "it has other names (hard links), and may be a database in use under one of them: take a backup of it with `virus-wars backup`, or restore from a copy".into(),
        ));
    }
    let from = real.as_path();
    for existing in [
        database.to_path_buf(),
        database.with_extension("sqlite-wal"),
    ] {
        if existing.exists() {
            return Err(BackupError::DatabaseExists(
                database.parent().unwrap_or(database).display().to_string(),
            ));
        }
    }
    check_backup(from, &file).await?;
    if let Some(dir) = database.parent() {
        crate::private::owner_only(dir)
            .map_err(|e| BackupError::Io(format!("{}: {e}", dir.display())))?;
    }
    // Copied beside, then linked in place: a restore cut short leaves no
    // half a database where the server would read it, and a database that
    // appeared meanwhile is not written over (the link fails).
    // Each restore its own partial file (created new, never shared), so
    // that two restores into one folder cannot write into each other's.
    let partial = database.with_extension(format!("sqlite-restoring-{}", crate::ids::request_id()));
    let io = |p: &Path, e: std::io::Error| BackupError::Io(format!("{}: {e}", p.display()));
    let copied = (|| {
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&partial)?;
        std::io::copy(&mut std::fs::File::open(from)?, &mut out)?;
        out.sync_all()
    })();
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(io(&partial, e));
    }
    let linked = std::fs::hard_link(&partial, database);
    let _ = std::fs::remove_file(&partial);
    match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(BackupError::DatabaseExists(
                database.parent().unwrap_or(database).display().to_string(),
            ))
        }
        Err(e) => Err(io(database, e)),
    }
}
