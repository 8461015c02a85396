//! Storage through sqlx's `Any` driver: one code path for SQLite and
//! PostgreSQL. Every accepted step is inserted in a transaction together
//! with the game's clocks and ending, before anyone is told of it.

use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

/// Why storage failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(String),
    #[error("migrations: {0}")]
    Migrate(String),
    #[error("server: {0}")]
    Io(String),
    /// A row that is already there (a step number another server process
    /// stored first, a bot name that is taken).
    #[error("already stored: {0}")]
    Conflict(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => {
                StoreError::Conflict(d.message().to_string())
            }
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// The PostgreSQL channel on which server processes announce changed games.
pub const CHANNEL: &str = "vw_games";

/// A clock as stored: base and increment in ms, and whether per turn
/// (correspondence).
pub type StoredClock = (i64, i64, bool);

/// A game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub start_position: String,
    pub players: [String; 2],
    pub token_hashes: [String; 2],
    /// (base, increment) in ms and whether it is per turn, if the game has a clock.
    pub clock: Option<StoredClock>,
    pub listed: bool,
    pub created_ms: i64,
    pub progress: Progress,
}

/// A stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub seq: i64,
    pub step: String,
    pub played_ms: i64,
}

/// What changes during a game: the clocks, the ending, offers, the
/// rematch and the time of the last change.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub left_ms: [i64; 2],
    pub declared: String,
    pub declared_side: String,
    pub finished: bool,
    /// 'x', 'o' or ''.
    pub draw_offer: String,
    pub rematch_id: String,
    pub last_active_ms: i64,
}

#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    /// Set on PostgreSQL: changes are announced on [`CHANNEL`] as
    /// `<this process's id> <game id>`.
    announce_as: Option<String>,
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
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: readers never wait for the writer; a commit
                        // survives the process being killed.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        // Checkpoints run on their own task (below), not
                        // inside some player's commit.
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migrate(e.to_string()))?;
        if sqlite {
            let pool = pool.clone();
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
                loop {
                    tick.tick().await;
                    // PASSIVE: copies what it can without blocking writers.
                    if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                        .execute(&pool)
                        .await
                    {
                        tracing::warn!(error = %e, "WAL checkpoint failed");
                    }
                }
            });
        }
        let writer: Option<std::sync::Arc<tokio::sync::Mutex<()>>> = sqlite.then(Default::default);
        let batches = writer.clone().map(|w| {
            let (tx, rx) = tokio::sync::mpsc::channel(4 * MAX_GROUP);
            tokio::spawn(group_commits(pool.clone(), w, rx));
            tx
        });
        Ok(Store {
            pool,
            announce_as: (!sqlite).then(crate::ids::game_id),
            writer,
            batches,
        })
    }

    /// On SQLite, the one writer's turn.
    async fn writer_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.writer {
            Some(w) => Some(w.lock().await),
            None => None,
        }
    }

    /// This process's id on the announcement channel (PostgreSQL only).
    pub fn announcer(&self) -> Option<&str> {
        self.announce_as.as_deref()
    }

    async fn announce(
        &self,
        conn: &mut sqlx::AnyConnection,
        game_id: &str,
    ) -> Result<(), StoreError> {
        if let Some(me) = &self.announce_as {
            // Delivered to the other processes when the transaction commits.
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(format!("{me} {game_id}"))
                .execute(conn)
                .await?;
        }
        Ok(())
    }

    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        let (base, inc, per_turn) = g.clock.unwrap_or((-1, -1, false));
        let p = &g.progress;
        sqlx::query(
            "INSERT INTO games (id, variant, start_position, x_player, o_player, x_token, o_token, \
             clock_base_ms, clock_inc_ms, x_left_ms, o_left_ms, declared, declared_side, finished, created_ms, \
             listed, draw_offer, rematch_id, last_active_ms, clock_per_turn) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)",
        )
        .bind(&g.id)
        .bind(&g.variant)
        .bind(&g.start_position)
        .bind(&g.players[0])
        .bind(&g.players[1])
        .bind(&g.token_hashes[0])
        .bind(&g.token_hashes[1])
        .bind(base)
        .bind(inc)
        .bind(p.left_ms[0])
        .bind(p.left_ms[1])
        .bind(&p.declared)
        .bind(&p.declared_side)
        .bind(p.finished as i64)
        .bind(g.created_ms)
        .bind(g.listed as i64)
        .bind(&p.draw_offer)
        .bind(&p.rematch_id)
        .bind(p.last_active_ms)
        .bind(per_turn as i64)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Takes a free seat for `player` ('human' or 'bot:NAME'): true if it
    /// was free and is now this token's.
    pub async fn take_seat(
        &self,
        id: &str,
        side: usize,
        hash: &str,
        player: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let sql = [
            "UPDATE games SET x_token = $1, x_player = $2, last_active_ms = $4 WHERE id = $3 AND x_token = '' AND (x_player = 'human' OR x_player = $2)",
            "UPDATE games SET o_token = $1, o_player = $2, last_active_ms = $4 WHERE id = $3 AND o_token = '' AND (o_player = 'human' OR o_player = $2)",
        ][side];
        let _turn = self.writer_turn().await;
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(sql)
            .bind(hash)
            .bind(player)
            .bind(id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        self.announce(&mut tx, id).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Stores steps `first_seq + 1 ..` and the game's progress in one
    /// transaction. A step number stored before is refused by the key.
    /// On SQLite the appends waiting at the same moment share one
    /// transaction (group commit): one writer, many games.
    pub async fn append(
        &self,
        id: &str,
        first_seq: i64,
        steps: &[String],
        now_ms: i64,
        progress: &Progress,
    ) -> Result<(), StoreError> {
        let job = Append {
            id: id.to_string(),
            first_seq,
            steps: steps.to_vec(),
            now_ms,
            progress: progress.clone(),
        };
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
        let mut tx = self.pool.begin().await?;
        write_append(&mut tx, &job).await?;
        self.announce(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Listed games, not finished, with a seat a person may take: newest
    /// first, at most `limit`; with `like`, only those with that variant
    /// text and clock (quick play).
    pub async fn open_games(
        &self,
        limit: i64,
        like: Option<(&str, Option<StoredClock>)>,
    ) -> Result<Vec<GameRow>, StoreError> {
        macro_rules! open {
            ($rest:literal) => {
                concat!(
                    "SELECT * FROM games WHERE listed = 1 AND finished = 0 AND \
                     ((x_player = 'human' AND x_token = '') OR (o_player = 'human' AND o_token = '')) ",
                    $rest
                )
            };
        }
        let rows = match like {
            None => {
                sqlx::query(open!("ORDER BY created_ms DESC LIMIT $1"))
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?
            }
            Some((variant, clock)) => {
                let (base, inc, per_turn) = clock.unwrap_or((-1, -1, false));
                sqlx::query(open!(
                    "AND variant = $1 AND clock_base_ms = $2 AND clock_inc_ms = $3 \
                     AND clock_per_turn = $4 ORDER BY created_ms LIMIT $5"
                ))
                .bind(variant)
                .bind(base)
                .bind(inc)
                .bind(per_turn as i64)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?
            }
        };
        Ok(rows.iter().map(game_row).collect::<Result<_, _>>()?)
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

    /// Whether a bot of this name is registered.
    pub async fn bot_exists(&self, name: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT name FROM bots WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Registers a bot; `Conflict` when the name is taken.
    pub async fn register_bot(&self, name: &str, hash: &str, now: i64) -> Result<(), StoreError> {
        sqlx::query("INSERT INTO bots (name, token, created_ms) VALUES ($1, $2, $3)")
            .bind(name)
            .bind(hash)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Unfinished games where `player` ('bot:NAME') sits or is challenged,
    /// oldest first.
    pub async fn games_of(&self, player: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE finished = 0 AND (x_player = $1 OR o_player = $1) \
             ORDER BY created_ms LIMIT 100",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, _>>()?)
    }

    /// The bot whose token has this hash.
    pub async fn bot_of(&self, hash: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT name FROM bots WHERE token = $1")
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| r.try_get("name")).transpose()?)
    }

    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<StepRow>)>, StoreError> {
        let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let game = game_row(&row)?;
        let steps =
            sqlx::query("SELECT seq, step, played_ms FROM steps WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool)
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
        Ok(Some((game, steps)))
    }

    /// Ids of the games not finished yet.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE finished = 0")
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| r.try_get::<String, _>("id").ok())
            .collect())
    }
}

/// One game's steps and progress, to be stored.
struct Append {
    id: String,
    first_seq: i64,
    steps: Vec<String>,
    now_ms: i64,
    progress: Progress,
}

type Job = (Append, tokio::sync::oneshot::Sender<Result<(), StoreError>>);

/// Most appends one group commit takes.
const MAX_GROUP: usize = 256;

async fn write_append(conn: &mut sqlx::AnyConnection, a: &Append) -> Result<(), StoreError> {
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
    sqlx::query(
        "UPDATE games SET x_left_ms = $1, o_left_ms = $2, declared = $3, declared_side = $4, \
         finished = $5, draw_offer = $6, rematch_id = $7, last_active_ms = $8 WHERE id = $9",
    )
    .bind(p.left_ms[0])
    .bind(p.left_ms[1])
    .bind(&p.declared)
    .bind(&p.declared_side)
    .bind(p.finished as i64)
    .bind(&p.draw_offer)
    .bind(&p.rematch_id)
    .bind(p.last_active_ms)
    .bind(&a.id)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

async fn commit_group(pool: &AnyPool, group: &[&Append]) -> Result<(), StoreError> {
    let mut tx = pool.begin().await?;
    for a in group {
        write_append(&mut tx, a).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// SQLite's one writer: takes the appends waiting, commits them in one
/// transaction, and answers each. If the group fails (a step number
/// stored before), each append is tried alone, so that only the one at
/// fault is refused.
async fn group_commits(
    pool: AnyPool,
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    mut jobs: tokio::sync::mpsc::Receiver<Job>,
) {
    let mut group: Vec<Job> = Vec::with_capacity(MAX_GROUP);
    while jobs.recv_many(&mut group, MAX_GROUP).await > 0 {
        let _turn = writer.lock().await;
        let all: Vec<&Append> = group.iter().map(|(a, _)| a).collect();
        match commit_group(&pool, &all).await {
            Ok(()) => {
                for (_, done) in group.drain(..) {
                    let _ = done.send(Ok(()));
                }
            }
            Err(_) => {
                for (a, done) in group.drain(..) {
                    let _ = done.send(commit_group(&pool, &[&a]).await);
                }
            }
        }
    }
}

fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let base: i64 = r.try_get("clock_base_ms")?;
    let inc: i64 = r.try_get("clock_inc_ms")?;
    let per_turn = r.try_get::<i64, _>("clock_per_turn")? != 0;
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        start_position: r.try_get("start_position")?,
        players: [r.try_get("x_player")?, r.try_get("o_player")?],
        token_hashes: [r.try_get("x_token")?, r.try_get("o_token")?],
        clock: (base >= 0).then_some((base, inc, per_turn)),
        listed: r.try_get::<i64, _>("listed")? != 0,
        created_ms: r.try_get("created_ms")?,
        progress: Progress {
            left_ms: [r.try_get("x_left_ms")?, r.try_get("o_left_ms")?],
            declared: r.try_get("declared")?,
            declared_side: r.try_get("declared_side")?,
            finished: r.try_get::<i64, _>("finished")? != 0,
            draw_offer: r.try_get("draw_offer")?,
            rematch_id: r.try_get("rematch_id")?,
            last_active_ms: r.try_get("last_active_ms")?,
        },
    })
}
