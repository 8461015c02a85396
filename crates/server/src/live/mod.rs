//! Games in play, in memory: each behind its own lock (one writer at a
//! time per game in this process), loaded from storage on first use and
//! dropped from memory when nobody has used it for a while, and a
//! broadcast channel that tells every socket watching it about each
//! change. The database is the truth: every change is written there first,
//! conditional on the version this process read (`change.rs`).

mod change;
mod deadline;
mod error;
mod record;
mod stored;

pub use change::{
    berserk_refused, catch_up, commit, commit_berserk, commit_rematch, computer_turn_starts, get,
    play, refresh, take_seat,
};
pub use deadline::{watch_deadlines, ABANDONED_AFTER_MS};
pub use error::LiveError;
pub use stored::{from_row, progress};

use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex as SyncMutex};

use tokio::sync::{broadcast, Mutex};

use crate::present::shown::Shown;
use crate::seat::{Seat, Table};
use crate::store::Holder;
use virus_wars_rules::{Side, Variant};

/// A game being played.
#[derive(Clone)]
pub struct LiveGame {
    pub id: String,
    /// The seats, the referee's contest and the draw offer.
    pub table: Table,
    /// The rematch this game led to.
    pub rematch: Option<String>,
    /// Who holds each seat, X's then O's.
    pub holders: [Holder; 2],
    /// The result moves both accounts' ratings.
    pub rated: bool,
    /// The live sockets' messages after each change (the state, rendered
    /// once for each viewer).
    pub updates: broadcast::Sender<Arc<Shown>>,
    /// When the game was created (ms since the Unix epoch).
    pub created_ms: u64,
    /// In the open games list.
    pub listed: bool,
    /// Listed by quick play: while it waits, it expires after
    /// [`SEEK_EXPIRES_MS`].
    pub seek: bool,
    /// When the last change was stored (ms since the Unix epoch).
    pub last_active_ms: u64,
    /// The stored row's version this copy was read at: the next change is
    /// written only if the row is still at it.
    pub version: i64,
    /// The seats' sockets open on this game on this process (X's, O's): a
    /// player at the board is not told of a real-time game's turn by a
    /// notification.
    pub at_board: Arc<[AtomicU32; 2]>,
}

/// A seat's socket at the board, counted in [`LiveGame::at_board`] while
/// it lives.
pub struct AtBoard {
    seats: Arc<[AtomicU32; 2]>,
    side: usize,
}

impl AtBoard {
    pub fn new(g: &LiveGame, side: Side) -> AtBoard {
        g.at_board[side.index()].fetch_add(1, Ordering::Relaxed);
        AtBoard {
            seats: g.at_board.clone(),
            side: side.index(),
        }
    }
}

impl Drop for AtBoard {
    fn drop(&mut self) {
        self.seats[self.side].fetch_sub(1, Ordering::Relaxed);
    }
}

impl LiveGame {
    pub fn variant(&self) -> &Variant {
        self.table.contest.game.variant()
    }

    /// Whether a seat still waits for a person: no step may be played and
    /// no clock runs until both seats are taken.
    pub fn waiting(&self) -> bool {
        Side::BOTH.into_iter().any(|s| self.seat_free(s))
    }

    /// Who holds `side`'s seat.
    pub fn holder(&self, side: Side) -> &Holder {
        &self.holders[side.index()]
    }

    /// The side whose seat `holds`, if either.
    pub fn seat_where(&self, holds: impl Fn(&Holder) -> bool) -> Option<Side> {
        Side::BOTH.into_iter().find(|s| holds(self.holder(*s)))
    }

    /// Whether a person may take `side`'s seat.
    pub fn seat_free(&self, side: Side) -> bool {
        *self.table.seat(side) == Seat::Human && !self.holder(side).seated()
    }

    /// Whether the game hides anything now: a fog game being played.
    pub fn fogged(&self) -> bool {
        self.variant().fog && !self.table.contest.finished()
    }

    /// Whether the computer is to move in a game being played.
    pub fn computer_to_move(&self) -> bool {
        self.table.computer_to_move() && !self.waiting()
    }
}

pub type Shared = Arc<Mutex<LiveGame>>;

/// A quick-play seek nobody answers is called off after this long (or
/// after the server's time for abandoned games, if that is shorter).
pub const SEEK_EXPIRES_MS: u64 = 10 * 60 * 1000;

impl LiveGame {
    /// How long the game may be left alone while it waits for a player.
    pub fn waits_at_most(&self, abandon_after_ms: u64) -> u64 {
        if self.seek {
            SEEK_EXPIRES_MS.min(abandon_after_ms)
        } else {
            abandon_after_ms
        }
    }
}

/// A game nobody holds (no socket, request or computer turn) and that has
/// not changed for this long leaves memory; it is loaded again when asked for.
pub const IDLE_IN_MEMORY_MS: u64 = 60_000;

/// The games in memory.
#[derive(Default)]
pub struct Registry {
    games: SyncMutex<HashMap<String, Shared>>,
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Shared>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn insert(&self, game: LiveGame) -> Shared {
        let id = game.id.clone();
        let shared = Arc::new(Mutex::new(game));
        self.lock().insert(id, shared.clone());
        shared
    }

    /// Holds `game` under `id`, unless a copy is held already: the one held.
    pub fn keep_first(&self, id: &str, game: Shared) -> Shared {
        self.lock().entry(id.to_string()).or_insert(game).clone()
    }

    pub fn find(&self, id: &str) -> Option<Shared> {
        self.lock().get(id).cloned()
    }

    pub fn all(&self) -> Vec<Shared> {
        self.lock().values().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Drops from memory the games nobody holds that are over or have not
    /// changed for `idle_ms`; how many were dropped.
    pub fn evict(&self, now: u64, idle_ms: u64) -> usize {
        let mut games = self.lock();
        let before = games.len();
        games.retain(|_, shared| {
            // Only the map holds it: no socket, request or computer turn.
            if Arc::strong_count(shared) > 1 {
                return true;
            }
            match shared.try_lock() {
                Ok(g) => {
                    !(g.table.contest.finished() || now.saturating_sub(g.last_active_ms) >= idle_ms)
                }
                Err(_) => true,
            }
        });
        before - games.len()
    }
}

/// Drops idle games from memory every few seconds (more often where the
/// idle time is short), until the server stops.
pub async fn evict_idle(app: Arc<crate::App>) {
    let every = (app.idle_in_memory_ms / 4).clamp(50, 5_000);
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(every));
    loop {
        tick.tick().await;
        let dropped = app.games.evict(app.clock.now_ms(), app.idle_in_memory_ms);
        if dropped > 0 {
            tracing::debug!(dropped, "idle games left memory");
        }
    }
}
