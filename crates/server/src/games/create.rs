//! A new game: its seats, the game and its row made from checked
//! settings, stored, then held in memory with the computer woken where it
//! is to move. The API's new games, quick play, challenges, rematches and
//! tournaments all make theirs here.

use std::sync::Arc;

use tokio::sync::broadcast;
use virus_wars_rules::contest::{Clocks, Contest};
use virus_wars_rules::{position_string, Game, Side};

use super::settings::{Settings, SettingsError};
use crate::ids;
use crate::live::{self, LiveGame, Shared};
use crate::seat::{Seat, Table};
use crate::store::{GameRow, Holder, StoreError, StoredClock};
use crate::view;
use crate::App;
use virus_wars_ai::Sitting;

/// Why a new game was not made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// X or O, drawn at random.
pub fn random_side() -> Side {
    let mut b = [0u8];
    let _ = getrandom::fill(&mut b);
    if b[0] & 1 == 0 {
        Side::X
    } else {
        Side::O
    }
}

/// Who sits on a side of a new game.
#[derive(Clone, Debug)]
pub struct Sitter {
    pub seat: Seat,
    /// Who holds it (nobody for a free seat or the computer's).
    pub holder: Holder,
}

impl Sitter {
    /// A seat nobody holds yet, or the computer's.
    pub fn empty(seat: Seat) -> Sitter {
        Sitter {
            seat,
            holder: Holder::default(),
        }
    }
}

/// Who sits on each side of a new game (X, O).
pub type Seating = [Sitter; 2];

/// `mine` on `side` and `other` on the other side.
pub fn seating(side: Side, mine: Sitter, other: Sitter) -> Seating {
    match side {
        Side::X => [mine, other],
        Side::O => [other, mine],
    }
}

/// A new game of settings `s` with these seats, and its row. Not stored yet.
pub fn prepare(
    app: &App,
    s: &Settings,
    seats: Seating,
) -> Result<(LiveGame, GameRow), SettingsError> {
    let game = Game::new(s.variant.clone()).map_err(|e| SettingsError(e.to_string()))?;
    let now = app.clock.now_ms();
    let mut contest = Contest::new(game, s.clock.map(|c| Clocks::new(c, now)));
    contest.first_turn_limit_ms = Some(app.first_step_within_ms);
    let [x, o] = seats;
    let players = [x.seat, o.seat];
    let live = LiveGame {
        id: ids::game_id(),
        table: Table::new(contest, players),
        rematch: None,
        holders: [x.holder, o.holder],
        rated: s.rated,
        // Sockets only need the latest state: a lagging one is sent it afresh.
        updates: broadcast::channel(4).0,
        created_ms: now,
        listed: s.listed,
        seek: !s.seeker.is_empty(),
        last_active_ms: now,
        version: 0,
        at_board: Default::default(),
    };
    let row = GameRow {
        id: live.id.clone(),
        variant: view::variant_text(&s.variant),
        start_position: position_string::write(live.table.contest.game.start()),
        players: live.table.seats.clone().map(|p| p.name()),
        holders: live.holders.clone(),
        rated: live.rated,
        family: crate::rating::Family::of(&s.variant).name().to_string(),
        clock: s.clock.map(|c| StoredClock {
            base_ms: c.base_ms as i64,
            increment_ms: c.increment_ms as i64,
            per_turn: c.per_turn,
        }),
        listed: s.listed,
        created_ms: now as i64,
        version: 0,
        rematch_of: String::new(),
        seeker: s.seeker.clone(),
        progress: live::progress(&live, &live.table, now, app.abandon_after_ms),
    };
    Ok((live, row))
}

/// A game stored a moment ago is held in memory and counted; the computer
/// is woken if it is to move.
pub fn created(app: &App, live: LiveGame, row: &GameRow) -> Shared {
    app.metrics.games_created.inc();
    tracing::info!(
        game = %row.id,
        variant = %row.variant,
        x = %row.players[0],
        o = %row.players[1],
        listed = row.listed,
        "game created"
    );
    let computer = live.computer_to_move();
    let id = live.id.clone();
    let shared = app.games.insert(live);
    if computer {
        let _ = app.computer_turns.try_send(id);
    }
    shared
}

/// Creates and stores a game (see [`prepare`]).
pub async fn start(
    app: &Arc<App>,
    s: &Settings,
    seats: Seating,
) -> Result<(String, Shared), CreateError> {
    let (live, row) = prepare(app, s, seats)?;
    app.store.insert_game(&row).await?;
    let id = live.id.clone();
    Ok((id, created(app, live, &row)))
}
