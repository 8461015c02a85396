//! The task that runs tournaments: every second each process looks for
//! the tournaments that are due, and pairs those whose lease it holds or
//! can take (one process at a time: `tournaments.pairer`, renewed every
//! second, lapsing [`LEASE_MS`] after its process dies). For each: the
//! start, every finished game onto its players' sheets, the players
//! waiting paired (one transaction), and the end once the time is up and
//! the last game is scored.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use virus_wars_pairing::{Kind, State};

use virus_wars_pairing::arena::{self, Outcome, Played, Waiting};
use virus_wars_pairing::standings::{outcome_of, standings};
use virus_wars_rules::Side;

use super::making::{kept_apart, make_games, PairError, LEASE_MS};
use super::schedule::Scheduled;
use crate::games::create;
use crate::games::settings::settings;
use crate::inbox::Raiser;
use crate::store::TournamentPlayer;
use crate::tournament::{NewPairing, Scoring, TournamentRow};
use crate::view::NewGame;
use crate::{ids, App};

/// How often each process runs the tournaments it pairs.
const EVERY: Duration = Duration::from_secs(1);
/// A player who just played waits this long for an opponent other than
/// the one it played, while other players are still in their games; then
/// it meets the one it played again (docs/tournaments.md).
pub const REMATCH_WAIT_MS: i64 = 10_000;
/// Tournaments looked at in one round.
const AT_ONCE: i64 = 200;

/// Runs until the server stops.
pub async fn run(app: Arc<App>) {
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = app.clock.now_ms() as i64;
        let due = match app.store.tournaments_due(now, AT_ONCE).await {
            Ok(due) => due,
            Err(e) => {
                tracing::warn!(error = %e, "cannot look for tournaments");
                continue;
            }
        };
        for (id, pairer, until) in due {
            if !app.store.is_me(&pairer) && until >= now {
                continue;
            }
            let now = app.clock.now_ms() as i64;
            match app.store.lease_tournament(&id, now, now + LEASE_MS).await {
                Ok(true) => {
                    if let Err(e) = run_one(&app, &id).await {
                        tracing::warn!(tournament = %id, error = %e, "pairing failed");
                    }
                    app.tournament_views.forget(&id);
                }
                Ok(false) => {}
                Err(e) => tracing::warn!(tournament = %id, error = %e, "cannot lease"),
            }
        }
    }
}

async fn run_one(app: &Arc<App>, id: &str) -> Result<(), PairError> {
    let Some(t) = app.store.tournament(id).await? else {
        return Ok(());
    };
    let now = app.clock.now_ms() as i64;
    if t.state == State::Soon && !app.store.start_tournament(id, now).await? {
        return Ok(());
    }
    if t.kind != Kind::Arena {
        return super::rounds::run(app, &t).await;
    }
    // Every game that ended since the last round onto the sheets, in one
    // write (a player plays one game at a time, so no streak read here
    // changes within it).
    let mut open = 0;
    let before = app.store.entrants_of(id).await?;
    let mut scorings = Vec::new();
    for ended in app.store.unscored(id).await? {
        if ended.finished {
            scorings.push(score(app, &before, &ended).await?);
        } else {
            open += 1;
        }
    }
    if !scorings.is_empty() {
        app.store
            .score_pairings(id, &scorings, app.clock.now_ms() as i64)
            .await?;
    }
    // The lease again before pairing: a round that took long (many games
    // scored on a busy machine) pairs under a fresh one.
    let now = app.clock.now_ms() as i64;
    if !app.store.lease_tournament(id, now, now + LEASE_MS).await? {
        return Ok(());
    }
    let entrants = app.store.entrants_of(id).await?;
    let now = app.clock.now_ms() as i64;
    if now < t.ends_ms {
        pair(app, &t, &entrants, now).await?;
    } else if open == 0 {
        let lines = standings(&entrants, &app.store.pairings(id).await?);
        let places: Vec<(String, i64)> = lines
            .iter()
            .map(|l| (l.account.clone(), l.rank as i64))
            .collect();
        if app.store.finish_tournament(id, now, &places).await? {
            tracing::info!(tournament = %id, players = places.len(), "tournament over");
        }
    }
    Ok(())
}

/// What a finished game puts on its players' sheets, their streaks read
/// from `entrants`.
async fn score(
    app: &Arc<App>,
    entrants: &[TournamentPlayer],
    ended: &crate::tournament::Ended,
) -> Result<Scoring, PairError> {
    let p = &ended.pairing;
    let streak_of = |account: &str| {
        entrants
            .iter()
            .find(|e| e.account == account)
            .map_or(0, |e| e.streak)
    };
    let accounts = [p.x_account.as_str(), p.o_account.as_str()];
    let mut scoring = Scoring {
        game: p.game.clone(),
        result: ended.result.clone(),
        points: [0; 2],
        streaks: accounts.map(streak_of),
        pause: [false; 2],
    };
    if ended.result == "aborted" || outcome_of(&ended.result, 0).is_none() {
        // Called off: nothing on the sheets; who did not make its first
        // step in time is paused (X, before any step; else O).
        scoring.result = "aborted".into();
        scoring.pause[usize::from(ended.steps > 0)] = true;
    } else {
        for k in 0..2 {
            let outcome = outcome_of(&ended.result, k).unwrap_or(Outcome::Lost);
            let turns = if p.berserk[k] && outcome == Outcome::Won {
                turns_of(app, &p.game, k).await?
            } else {
                0
            };
            let played = Played {
                outcome,
                berserk: p.berserk[k],
                turns,
            };
            let (scored, streak) = arena::score(scoring.streaks[k].max(0) as u32, &played);
            scoring.points[k] = i64::from(scored.points);
            scoring.streaks[k] = i64::from(streak);
        }
    }
    Ok(scoring)
}

/// The turns seat `k` played in `game`.
async fn turns_of(app: &App, game: &str, k: usize) -> Result<u32, PairError> {
    let shared = crate::live::get(app, game)
        .await
        .map_err(|e| PairError::Settings(format!("game {game}: {e}")))?;
    let g = shared.lock().await;
    let side = if k == 0 { Side::X } else { Side::O };
    let turns = g.table.contest.game.turns();
    Ok(turns.iter().filter(|t| t.side == side).count() as u32)
}

/// Pairs the players waiting, and tells them.
async fn pair(
    app: &Arc<App>,
    t: &TournamentRow,
    entrants: &[TournamentPlayer],
    now: i64,
) -> Result<(), PairError> {
    // The order the pairing goes by: points, then rating, then name.
    let mut order: Vec<&TournamentPlayer> = entrants.iter().collect();
    order.sort_by(|a, b| (b.points, b.rating, &a.name).cmp(&(a.points, a.rating, &b.name)));
    let rank: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(k, e)| (e.account.as_str(), k + 1))
        .collect();
    let free: Vec<&TournamentPlayer> = order
        .iter()
        .copied()
        .filter(|e| e.state == "in" && e.playing.is_empty())
        .collect();
    if free.len() < 2 {
        return Ok(());
    }
    // Never paired: a player and their own bot (rated), two players where
    // one blocks the other.
    let apart = kept_apart(app, t, entrants).await?;
    let never = |account: &str| -> Vec<String> {
        apart
            .iter()
            .filter(|(a, _)| a == account)
            .map(|(_, b)| b.clone())
            .collect()
    };
    let waiting: Vec<Waiting> = free
        .iter()
        .map(|e| Waiting {
            id: e.account.clone(),
            rank: rank[e.account.as_str()],
            last_opponent: (!e.last_opponent.is_empty()).then(|| e.last_opponent.clone()),
            x_balance: e.x_balance as i32,
            never: never(&e.account),
        })
        .collect();
    let others_playing = entrants.iter().any(|e| !e.playing.is_empty());
    let pairs: Vec<(usize, usize)> = arena::pair(&waiting)
        .into_iter()
        .filter(|&(a, b)| {
            // Two who just met wait a while for someone else to be free.
            let again = free[a].last_opponent == free[b].account;
            let waited = now - free[a].free_since_ms.max(free[b].free_since_ms);
            !(again && others_playing && waited < REMATCH_WAIT_MS)
        })
        .collect();
    if pairs.is_empty() {
        return Ok(());
    }
    let pairs: Vec<(&TournamentPlayer, &TournamentPlayer)> =
        pairs.into_iter().map(|(a, b)| (free[a], free[b])).collect();
    let (made, notes) = make_games(app, t, &pairs).await?;
    let rows: Vec<NewPairing> = made
        .iter()
        .map(|(_, p)| NewPairing {
            game: p.game.clone(),
            accounts: p.accounts.clone(),
        })
        .collect();
    let Some(seqs) = app.store.store_pairings(&t.id, now, &rows, &notes).await? else {
        return Ok(());
    };
    for (live, p) in made {
        create::created(app, live, &p.game);
    }
    Raiser::of(app).stored(&notes, &seqs);
    Ok(())
}

/// Makes the schedule's tournaments ahead: the next slot of each line
/// exists from the moment the one before it starts (or the server does).
/// Every process makes them; the database keeps one a slot.
pub async fn make_scheduled(app: Arc<App>, lines: Vec<Scheduled>) {
    if lines.is_empty() {
        return;
    }
    let mut made: HashSet<String> = HashSet::new();
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let now = app.clock.now_ms() as i64;
        for line in &lines {
            let starts_ms = line.next_start(now);
            let key = line.key(starts_ms);
            if made.contains(&key) {
                continue;
            }
            match make_one(&app, line, starts_ms, &key, now).await {
                Ok(()) => {
                    made.insert(key);
                }
                Err(e) => {
                    tracing::warn!(schedule = %line.line, error = %e, "cannot make a scheduled tournament")
                }
            }
        }
    }
}

async fn make_one(
    app: &App,
    line: &Scheduled,
    starts_ms: i64,
    key: &str,
    now: i64,
) -> Result<(), PairError> {
    let request: NewGame = serde_json::from_str(&line.settings)
        .map_err(|e| PairError::Settings(format!("the games' options: {e}")))?;
    let s = settings(&request).map_err(|e| PairError::Settings(e.0))?;
    let row = TournamentRow {
        id: ids::game_id(),
        kind: line.kind,
        name: line.name.clone(),
        settings: line.settings.clone(),
        category: crate::tournament::category_of(&s),
        created_by: String::new(),
        created_ms: now,
        starts_ms,
        // A Swiss ends when its last game does.
        ends_ms: if line.kind == Kind::Arena {
            starts_ms + line.minutes * 60_000
        } else {
            0
        },
        bots: line.bots,
        max_players: crate::tournament::MOST_PLAYERS,
        max_bots: if line.bots {
            crate::tournament::MOST_PLAYERS / 2
        } else {
            0
        },
        state: State::Soon,
        finished_ms: 0,
        version: 0,
        schedule: key.to_string(),
        rounds: line.rounds,
        round: 0,
    };
    if app.store.create_tournament(&row, 0).await? {
        tracing::info!(tournament = %row.id, name = %row.name, starts_ms, "scheduled tournament made");
    }
    Ok(())
}
