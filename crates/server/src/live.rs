//! Games in play, in memory: each behind its own lock (one writer at a
//! time per game), loaded from storage on first use, and a broadcast
//! channel that tells every socket watching it about each change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as SyncMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tokio::sync::{broadcast, Mutex};
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::contest::{Clocks, Contest, RefusalError, TimeControl};
use virus_wars_rules::ending::{EndReason, Ending};
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::{position_string, Game, Outcome, Side, Step, Variant, VariantOptions};

use crate::error::ApiError;
use crate::store::{GameRow, Progress, StoreError};
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
    Human,
    Computer(PlayerSpec),
}

impl Player {
    pub fn parse(text: &str) -> Result<Player, String> {
        if text == "human" {
            return Ok(Player::Human);
        }
        match text.parse::<PlayerSpec>() {
            Ok(spec @ PlayerSpec::Level(_)) => Ok(Player::Computer(spec)),
            Ok(_) => Err(format!(
                "opponent '{text}': play a person ('human') or the computer ('level:1' to 'level:8')"
            )),
            Err(e) => Err(format!("opponent: {e}")),
        }
    }

    pub fn name(&self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Computer(spec) => spec.to_string(),
        }
    }
}

/// A game being played.
pub struct LiveGame {
    pub id: String,
    pub variant: Variant,
    pub contest: Contest,
    pub players: [Player; 2],
    /// SHA-256 of each seat's token; empty while the seat is free.
    pub token_hashes: [String; 2],
    pub updates: broadcast::Sender<Arc<Value>>,
    /// A computer player is thinking about this game.
    pub thinking: bool,
    /// When the game was created (ms since the Unix epoch).
    pub created_ms: u64,
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

    pub fn all(&self) -> Vec<Shared> {
        self.lock().values().cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }
}

/// The variant as `key=value` text with every option (stored with the game).
pub fn variant_text(v: &Variant) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let obstacles: Vec<String> = v.obstacles.iter().map(|c| c.to_string()).collect();
    let obstacles = if obstacles.is_empty() {
        "-".to_string()
    } else {
        obstacles.join(" ")
    };
    format!(
        "size={}x{};steps={};first={};start={};end={};deathmatch={};trenches={};double-base={};random-bases={};obstacles={};seed={}",
        v.width, v.height, v.rules.steps_per_turn, v.rules.first_turn_steps, v.rules.start,
        v.rules.end, yes(v.rules.deathmatch), v.trench_percent, yes(v.double_base),
        yes(v.random_bases), obstacles, v.seed
    )
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

/// The game as the API shows it.
pub fn state(g: &LiveGame, now: u64) -> Value {
    let c = &g.contest;
    let p = c.game.position();
    // The same words as `replay`'s last line.
    let status = match (c.aborted(), c.ending()) {
        (true, _) => "aborted".to_string(),
        (false, Some(e)) => e.outcome.to_string(),
        (false, None) => format!("{} to move", p.side()),
    };
    let legal: Vec<String> = if c.finished() {
        Vec::new()
    } else {
        p.legal_steps().iter().map(|s| s.to_string()).collect()
    };
    let clocks = c.clocks.map(|k| {
        let mover = (!c.finished()).then(|| p.side());
        let left = |s: Side| match mover {
            Some(m) => k.left_at(s, m, now),
            None => k.left_ms[s.index()],
        };
        json!({
            "base_s": k.control.base_ms as f64 / 1000.0,
            "inc_s": k.control.increment_ms as f64 / 1000.0,
            "x_ms": left(Side::X),
            "o_ms": left(Side::O),
            "running": mover.map(|m| m.to_string().to_lowercase()),
        })
    });
    let v = &g.variant;
    json!({
        "id": g.id,
        "variant": {
            "preset": v.preset().map_or("custom".to_string(), |p| p.name().to_string()),
            "options": variant_text(v),
        },
        "steps": c.game.steps().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
        "seq": c.seq(),
        "position": position_string::write(p),
        "status": status,
        "ending": c.ending().map(|e| e.reason.to_string()),
        "legal": legal,
        "clocks": clocks,
        "players": {"x": g.players[0].name(), "o": g.players[1].name()},
        "seats_free": {
            "x": g.players[0] == Player::Human && g.token_hashes[0].is_empty(),
            "o": g.players[1] == Player::Human && g.token_hashes[1].is_empty(),
        },
    })
}

/// The stored form of the game's progress.
pub fn progress(c: &Contest) -> Progress {
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
    let clocks = row.clock.map(|(base, inc)| Clocks {
        control: TimeControl {
            base_ms: base.max(0) as u64,
            increment_ms: inc.max(0) as u64,
        },
        left_ms: row.left_ms.map(|ms| ms.max(0) as u64),
        turn_started_ms: now,
    });
    let mut contest = Contest::new(game, clocks);
    let side = match row.declared_side.as_str() {
        "x" => Some(Side::X),
        "o" => Some(Side::O),
        _ => None,
    };
    let declared = match (row.declared.as_str(), side) {
        ("resignation", Some(s)) => Ending::loss_of(EndReason::Resignation(s)),
        ("time forfeit", Some(s)) => Ending::loss_of(EndReason::Time(s)),
        ("agreement", None) => Ending::loss_of(EndReason::Agreement),
        _ => None,
    };
    contest.restore(declared, row.declared == "aborted");
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
    })
}

/// The game with this id: from memory, or loaded from storage.
pub async fn get(app: &App, id: &str) -> Result<Shared, ApiError> {
    if let Some(g) = app.games.lock().get(id) {
        return Ok(g.clone());
    }
    if id.len() > 64 {
        return Err(ApiError::not_found("game with that id"));
    }
    let Some((row, steps)) = app.store.load(id).await? else {
        return Err(ApiError::not_found("game with that id"));
    };
    let steps: Vec<String> = steps.into_iter().map(|s| s.step).collect();
    let game = from_row(&row, &steps, now_ms()).map_err(|e| {
        ApiError::from(StoreError::Database(format!(
            "game {id} cannot be replayed: {e}"
        )))
    })?;
    // Another request may have loaded it meanwhile: keep the first.
    let mut games = app.games.lock();
    Ok(games
        .entry(id.to_string())
        .or_insert_with(|| Arc::new(Mutex::new(game)))
        .clone())
}

/// Plays `steps` for `side` if `seq` is current: stored first, then applied
/// and announced. On any error nothing changes.
pub async fn play(
    app: &Arc<App>,
    shared: &Shared,
    side: Side,
    seq: u64,
    steps: &[Step],
) -> Result<Value, ApiError> {
    let started = std::time::Instant::now();
    let mut g = shared.lock().await;
    let now = now_ms();
    let mut next = g.contest.clone();
    match next.play(side, seq, steps, now) {
        Ok(()) => {}
        Err(RefusalError::Over(e)) if g.contest.ending().is_none() => {
            // The clock ran out before these steps: store that ending.
            commit(app, &mut g, next, &[], now).await?;
            return Err(RefusalError::Over(e).into());
        }
        Err(e) => return Err(e.into()),
    }
    let texts: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    let state = commit(app, &mut g, next, &texts, now).await?;
    app.metrics.step_done(steps.len() as u64, started.elapsed());
    drop(g);
    crate::computer::maybe_move(app, shared);
    Ok(state)
}

/// Stores the contest's new state with `steps`, then makes it current and
/// announces it.
pub async fn commit(
    app: &App,
    g: &mut LiveGame,
    next: Contest,
    steps: &[String],
    now: u64,
) -> Result<Value, ApiError> {
    let first = g.contest.seq() as i64;
    app.store
        .append(&g.id, first, steps, now as i64, &progress(&next))
        .await?;
    g.contest = next;
    let state = Arc::new(state(g, now));
    let _ = g.updates.send(state.clone());
    Ok((*state).clone())
}

/// Ends games whose clock ran out, four times a second.
pub async fn watch_clocks(app: Arc<App>) {
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tick.tick().await;
        for shared in app.games.all() {
            let mut g = shared.lock().await;
            if g.contest.clocks.is_none() || g.contest.finished() {
                continue;
            }
            let now = now_ms();
            let mut next = g.contest.clone();
            if next.check_time(now) {
                if let Err(e) = commit(&app, &mut g, next, &[], now).await {
                    tracing::warn!(game = %g.id, error = ?e, "could not store a time forfeit");
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
