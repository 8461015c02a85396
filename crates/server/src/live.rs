//! Games in play, in memory: each behind its own lock (one writer at a
//! time per game), loaded from storage on first use, and a broadcast
//! channel that tells every socket watching it about each change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::{broadcast, Mutex};
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::contest::{Clocks, Contest, RefusalError, TimeControl};
use virus_wars_rules::ending::{EndReason, Ending};
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::{position_string, Game, Outcome, Side, Step, Variant, VariantOptions};

use crate::error::ApiError;
use crate::store::{GameRow, Progress, StoreError};
use crate::view::{self, GameState};
use crate::App;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Who sits on a side.
#[derive(Clone, Debug, PartialEq)]
pub enum Player {
    /// A person (or, until one takes the seat, nobody).
    Human,
    /// A registered bot, playing over the API with its bot token.
    Bot(String),
    Computer(PlayerSpec),
}

impl Player {
    pub fn parse(text: &str) -> Result<Player, String> {
        if text == "human" {
            return Ok(Player::Human);
        }
        if let Some(name) = text.strip_prefix("bot:") {
            return Ok(Player::Bot(name.to_string()));
        }
        match PlayerSpec::parse_without_files(text) {
            Ok(spec @ PlayerSpec::Level(_)) => Ok(Player::Computer(spec)),
            Ok(_) => Err(format!(
                "opponent '{text}': play a person ('human') or the computer ('level:1' to 'level:9')"
            )),
            Err(e) => Err(format!("opponent: {e}")),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Bot(name) => format!("bot:{name}"),
            Player::Computer(spec) => spec.to_string(),
        }
    }
}

/// What a request changes in a game: the referee's contest, the draw
/// offer and the rematch. Built from the game, changed, then committed.
#[derive(Clone, Debug)]
pub struct Draft {
    pub contest: Contest,
    pub draw_offer: Option<Side>,
    pub rematch: Option<String>,
}

/// A game being played.
pub struct LiveGame {
    pub id: String,
    pub variant: Variant,
    pub contest: Contest,
    pub players: [Player; 2],
    /// SHA-256 of each seat's token; empty while the seat is free.
    pub token_hashes: [String; 2],
    /// The live sockets' message after each change (the state, rendered once).
    pub updates: broadcast::Sender<Arc<str>>,
    /// A computer player is thinking about this game.
    pub thinking: bool,
    /// When the game was created (ms since the Unix epoch).
    pub created_ms: u64,
    /// In the open games list.
    pub listed: bool,
    pub draw_offer: Option<Side>,
    pub rematch: Option<String>,
    /// When the last change was stored (ms since the Unix epoch).
    pub last_active_ms: u64,
}

impl LiveGame {
    pub fn draft(&self) -> Draft {
        Draft {
            contest: self.contest.clone(),
            draw_offer: self.draw_offer,
            rematch: self.rematch.clone(),
        }
    }

    /// Whether a seat still waits for a person: no step may be played and
    /// no clock runs until both seats are taken.
    pub fn waiting(&self) -> bool {
        Side::BOTH.into_iter().any(|s| view::seat_free(self, s))
    }

    /// Tells every socket on this game its state.
    pub fn announce(&self, now: u64) -> GameState {
        let state = view::state(self, now);
        let _ = self.updates.send(view::state_message(&state).into());
        state
    }
}

/// `YYYY.MM.DD` (UTC) of a time in ms since the Unix epoch, as records write dates.
pub fn record_date(ms: u64) -> String {
    // Howard Hinnant's civil-from-days.
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

pub type Shared = Arc<Mutex<LiveGame>>;

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

    pub fn find(&self, id: &str) -> Option<Shared> {
        self.lock().get(id).cloned()
    }

    pub fn all(&self) -> Vec<Shared> {
        self.lock().values().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

fn variant_from_text(text: &str) -> Result<Variant, String> {
    let mut o = VariantOptions::default();
    for pair in text.split(';') {
        let (k, v) = pair
            .split_once('=')
            .ok_or_else(|| format!("bad stored variant '{text}'"))?;
        o.set(k, v)?;
    }
    o.build().map_err(|e| e.to_string())
}

/// The stored form of a game's progress.
pub fn progress(d: &Draft, now: u64) -> Progress {
    let c = &d.contest;
    let (declared, side) = match (c.aborted(), c.declared()) {
        (true, _) => ("aborted".to_string(), String::new()),
        (false, Some(e)) => {
            let side = match (e.reason, e.outcome) {
                (_, Outcome::Draw) => String::new(),
                (_, Outcome::Win(w)) => (!w).to_string().to_lowercase(),
            };
            (e.reason.termination().to_string(), side)
        }
        (false, None) => (String::new(), String::new()),
    };
    Progress {
        left_ms: c.clocks.map_or([0, 0], |k| {
            k.left_ms.map(|ms| ms.min(i64::MAX as u64) as i64)
        }),
        declared,
        declared_side: side,
        finished: c.finished(),
        draw_offer: d.draw_offer.map(view::side_name).unwrap_or_default(),
        rematch_id: d.rematch.clone().unwrap_or_default(),
        last_active_ms: now.min(i64::MAX as u64) as i64,
    }
}

/// Builds a game from its stored row and steps.
pub fn from_row(row: &GameRow, steps: &[String], now: u64) -> Result<LiveGame, String> {
    let variant = variant_from_text(&row.variant)?;
    let start = position_string::read(&row.start_position).map_err(|e| e.to_string())?;
    let mut game = if variant.start().map_err(|e| e.to_string())? == start {
        Game::new(variant.clone()).map_err(|e| e.to_string())?
    } else {
        Game::from_position(variant.clone(), start).map_err(|e| e.to_string())?
    };
    for (k, text) in steps.iter().enumerate() {
        let step = parse_step(text).map_err(|e| e.to_string())?;
        game.play(step)
            .map_err(|e| format!("stored step {} ({step}): {e}", k + 1))?;
    }
    // The clocks stood still while the server was down: the turn in
    // progress starts again now with the time it had.
    let p = &row.progress;
    let clocks = row.clock.map(|(base, inc, per_turn)| Clocks {
        control: TimeControl {
            base_ms: base.max(0) as u64,
            increment_ms: inc.max(0) as u64,
            per_turn,
        },
        left_ms: p.left_ms.map(|ms| ms.max(0) as u64),
        turn_started_ms: now,
    });
    let mut contest = Contest::new(game, clocks);
    let side = |text: &str| match text {
        "x" => Some(Side::X),
        "o" => Some(Side::O),
        _ => None,
    };
    let declared = match (p.declared.as_str(), side(&p.declared_side)) {
        ("resignation", Some(s)) => Ending::loss_of(EndReason::Resignation(s)),
        ("time forfeit", Some(s)) => Ending::loss_of(EndReason::Time(s)),
        ("agreement", None) => Ending::loss_of(EndReason::Agreement),
        _ => None,
    };
    contest.restore(declared, p.declared == "aborted");
    let players = [
        Player::parse(&row.players[0])?,
        Player::parse(&row.players[1])?,
    ];
    Ok(LiveGame {
        id: row.id.clone(),
        variant,
        contest,
        players,
        token_hashes: row.token_hashes.clone(),
        // Sockets only need the latest state: a lagging one is sent it afresh.
        updates: broadcast::channel(4).0,
        thinking: false,
        created_ms: row.created_ms.max(0) as u64,
        listed: row.listed,
        draw_offer: side(&p.draw_offer),
        rematch: (!p.rematch_id.is_empty()).then(|| p.rematch_id.clone()),
        last_active_ms: p.last_active_ms.max(row.created_ms).max(0) as u64,
    })
}

/// Loads the game with this id from storage.
async fn load(app: &App, id: &str) -> Result<Option<LiveGame>, ApiError> {
    let Some((row, steps)) = app.store.load(id).await? else {
        return Ok(None);
    };
    let steps: Vec<String> = steps.into_iter().map(|s| s.step).collect();
    let game = from_row(&row, &steps, now_ms()).map_err(|e| {
        ApiError::from(StoreError::Database(format!(
            "game {id} cannot be replayed: {e}"
        )))
    })?;
    Ok(Some(game))
}

/// The game with this id: from memory, or loaded from storage.
pub async fn get(app: &App, id: &str) -> Result<Shared, ApiError> {
    if let Some(g) = app.games.lock().get(id) {
        return Ok(g.clone());
    }
    if id.len() > 64 {
        return Err(ApiError::not_found("game with that id"));
    }
    let Some(game) = load(app, id).await? else {
        return Err(ApiError::not_found("game with that id"));
    };
    // Another request may have loaded it meanwhile: keep the first.
    let mut games = app.games.lock();
    Ok(games
        .entry(id.to_string())
        .or_insert_with(|| Arc::new(Mutex::new(game)))
        .clone())
}

/// Reloads a game held in memory from storage, where another server
/// process changed it, and tells its sockets.
pub async fn refresh(app: &App, g: &mut LiveGame) -> Result<(), ApiError> {
    let Some(fresh) = load(app, &g.id).await? else {
        return Ok(());
    };
    let clocks_before = g.contest.clocks;
    let was_waiting = g.waiting();
    g.contest = fresh.contest;
    if let (Some(before), Some(now)) = (clocks_before, g.contest.clocks.as_mut()) {
        // The same turn goes on: it started when this process first saw it
        // (or, for a game that was waiting for a player, now).
        if before.left_ms == now.left_ms && !was_waiting {
            now.turn_started_ms = before.turn_started_ms;
        }
    }
    g.players = fresh.players;
    g.token_hashes = fresh.token_hashes;
    g.listed = fresh.listed;
    g.draw_offer = fresh.draw_offer;
    g.rematch = fresh.rematch;
    g.last_active_ms = fresh.last_active_ms;
    g.announce(now_ms());
    Ok(())
}

/// Plays `steps` for `side` if `seq` is current: stored first, then applied
/// and announced. On any error nothing changes.
pub async fn play(
    app: &Arc<App>,
    shared: &Shared,
    side: Side,
    seq: u64,
    steps: &[Step],
) -> Result<GameState, ApiError> {
    let started = std::time::Instant::now();
    let mut g = shared.lock().await;
    if g.waiting() && !g.contest.finished() {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "waiting_for_opponent",
            "the game starts when both seats are taken: wait for the other player to join",
        ));
    }
    let now = now_ms();
    let mut next = g.draft();
    match next.contest.play(side, seq, steps, now) {
        Ok(()) => {}
        Err(RefusalError::Over(e)) if g.contest.ending().is_none() => {
            // The clock ran out before these steps: store that ending.
            commit(app, &mut g, next, &[], now).await?;
            return Err(RefusalError::Over(e).into());
        }
        Err(e) => return Err(e.into()),
    }
    // Playing on declines the other side's draw offer.
    if next.draw_offer == Some(!side) {
        next.draw_offer = None;
    }
    let texts: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    let state = commit(app, &mut g, next, &texts, now).await?;
    app.metrics.step_done(steps.len() as u64, started.elapsed());
    drop(g);
    crate::computer::maybe_move(app, shared);
    Ok(state)
}

/// Stores the draft with `steps`, then makes it current and announces it.
/// A step number another server process stored first reloads the game and
/// is refused as stale.
pub async fn commit(
    app: &App,
    g: &mut LiveGame,
    mut next: Draft,
    steps: &[String],
    now: u64,
) -> Result<GameState, ApiError> {
    if next.contest.finished() && !g.contest.finished() {
        // The game ends now: the clock shows what was left at the end.
        next.contest.stop_clocks(now);
    }
    let first = g.contest.seq();
    match app
        .store
        .append(
            &g.id,
            first as i64,
            steps,
            now as i64,
            &progress(&next, now),
        )
        .await
    {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            refresh(app, g).await?;
            return Err(RefusalError::StaleSeq {
                sent: first,
                now: g.contest.seq(),
            }
            .into());
        }
        Err(e) => return Err(e.into()),
    }
    if next.contest.finished() && !g.contest.finished() {
        let result = match next.contest.ending() {
            _ if next.contest.aborted() => "aborted".to_string(),
            Some(e) => e.to_string(),
            None => String::new(),
        };
        tracing::info!(game = %g.id, %result, steps = next.contest.seq(), "game over");
    }
    g.contest = next.contest;
    g.draw_offer = next.draw_offer;
    g.rematch = next.rematch;
    g.last_active_ms = now;
    Ok(g.announce(now))
}

/// How long an untimed game may wait for its side to move before it ends
/// as abandoned: that side loses on time (or, before both sides moved, the
/// game is aborted).
pub const ABANDONED_AFTER_MS: u64 = 14 * 24 * 3600 * 1000;

/// Ends games whose clock ran out, and untimed games abandoned for
/// `abandon_after_ms`, four times a second.
pub async fn watch_clocks(app: Arc<App>, abandon_after_ms: u64) {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tick.tick().await;
        for shared in app.games.all() {
            let mut g = shared.lock().await;
            if g.contest.finished() || g.thinking {
                continue;
            }
            let now = now_ms();
            let mut next = g.draft();
            let left_alone = now.saturating_sub(g.last_active_ms) >= abandon_after_ms;
            let changed = if g.waiting() {
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
                if let Err(e) = commit(&app, &mut g, next, &[], now).await {
                    tracing::warn!(game = %g.id, error = ?e, "could not store the end of a game");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_civil() {
        assert_eq!(super::record_date(0), "1970.01.01");
        assert_eq!(super::record_date(1_795_305_600_000), "2026.11.22");
        assert_eq!(super::record_date(951_782_400_000), "2000.02.29");
    }
}
