//! The computer's turns in games: a player like any other, whose turn
//! reaches the game through the same `play` as a person's step.
//!
//! One owner per turn: a process thinks a computer turn only while it holds
//! the turn's lease in the database (`games.thinker`, until
//! `thinker_until_ms`), which it renews while it thinks. A process that
//! dies lets its lease lapse within [`LEASE_MS`], and another process's
//! sweep takes the turn over. A turn is searched by one process at a time.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use virus_wars_ai::{Clock, StopFlag};

use super::Kind;
use crate::live::{self, Shared};
use crate::seat::Seat;
use crate::App;
use virus_wars_rules::fog::Seen;

/// How long a lease on a computer turn holds unless it is renewed.
pub const LEASE_MS: u64 = 5_000;
/// How often a thinking process renews its lease.
const RENEW_EVERY: Duration = Duration::from_millis(LEASE_MS / 3);
/// How often each process looks for computer turns nobody holds.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// Thinks the computer's turns: those this process is woken for (a change
/// that left the computer to move) and, every second, those in the
/// database that no process holds (after a restart, or when the process
/// that held one died). Runs until the server stops.
pub async fn run_turns(app: Arc<App>, mut wakes: mpsc::Receiver<String>) {
    let mut sweep = tokio::time::interval(SWEEP_EVERY);
    sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            woken = wakes.recv() => match woken {
                Some(id) => start(&app, id),
                None => return,
            },
            _ = sweep.tick() => {
                match app.store.computer_turns_unheld(app.clock.now_ms() as i64, 100).await {
                    Ok(ids) => ids.into_iter().for_each(|id| start(&app, id)),
                    Err(e) => tracing::warn!(error = %e, "cannot look for computer turns"),
                }
            }
        }
    }
}

/// Starts thinking game `id`'s computer turn, unless this process does already.
fn start(app: &Arc<App>, id: String) {
    let mut held = app
        .computer
        .turns_held
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if !held.insert(id.clone()) {
        return;
    }
    drop(held);
    let app = app.clone();
    tokio::spawn(async move {
        let _held = Held(&app, &id);
        if let Err(e) = think(&app, &id).await {
            tracing::warn!(game = %id, error = ?e, "the computer's turn failed");
        }
    });
}

/// This process thinks game `.1`'s turn while it lives.
struct Held<'a>(&'a App, &'a str);

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let mut held = self
            .0
            .computer
            .turns_held
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        held.remove(self.1);
    }
}

/// A computer turn that waited less than this for its worker is not moved.
const CLOCK_GRACE_MS: u64 = 100;

/// Takes the lease on the computer's turn in `shared` at the version this
/// process holds (reloading once if it is out of date); false if another
/// process holds the turn, or the computer is not to move. Taking it, in
/// the same write, starts the computer's turn now: its clock did not run
/// while the turn waited for a worker (nothing to move for an untimed game
/// or a turn just handed over).
async fn lease(app: &App, shared: &Shared) -> Result<bool, super::ComputerError> {
    for _ in 0..2 {
        let mut g = shared.lock().await;
        if !g.computer_to_move() {
            return Ok(false);
        }
        let now = app.clock.now_ms();
        // Only at the turn's first step: a fog turn is thought a step a
        // lease, and its clock runs from its first step to its last.
        let p = g.table.contest.game.position();
        let first_step = p.at_turn_start();
        let starts = g
            .table
            .contest
            .clocks
            .filter(|c| first_step && now.saturating_sub(c.turn_started_ms) >= CLOCK_GRACE_MS)
            .map(|_| now as i64);
        if app
            .store
            .lease_turn(
                &g.id,
                g.version,
                now as i64,
                (now + LEASE_MS) as i64,
                starts,
            )
            .await?
        {
            if starts.is_some() {
                live::computer_turn_starts(app, &mut g, now);
            }
            return Ok(true);
        }
        // Held by another, or this copy is out of date: reload and look again.
        let version = g.version;
        live::refresh(app, &mut g).await?;
        if g.version == version {
            return Ok(false);
        }
    }
    Ok(false)
}

async fn think(app: &Arc<App>, id: &str) -> Result<(), super::ComputerError> {
    let shared = live::get(app, id).await?;
    if !shared.lock().await.computer_to_move() {
        return Ok(());
    }
    // A worker first, then the turn: while this process has no worker free,
    // it holds no lease, and a process that has one takes the turn over.
    let worker = super::worker(app, Kind::Turn).await?;
    if !lease(app, &shared).await? {
        return Ok(());
    }
    let (spec, side, seq, what, clock) = {
        let g = shared.lock().await;
        let side = g.table.contest.side_to_move();
        let Seat::Computer(spec) = &g.table.seats[side.index()] else {
            return Ok(());
        };
        // The computer's own clock as of now: its turn thinks within it.
        let contest = &g.table.contest;
        let clock = contest.clocks.map(|k| Clock {
            remaining: Duration::from_millis(
                contest.time_left(side, app.clock.now_ms()).unwrap_or(0),
            ),
            increment: Duration::from_millis(k.control.increment_ms),
        });
        // Under fog the player is given what its side knows, never the
        // position, and it plays one step at a time: each step it plays
        // wakes it again for the next, with the view that step left.
        let game = &g.table.contest.game;
        let what = match g.fogged() {
            true => Ok(Seen::of_game(game)),
            false => Err(*game.position()),
        };
        (
            app.computer.capped(spec),
            side,
            g.table.contest.seq(),
            what,
            clock,
        )
    };
    let (stop, lost) = (StopFlag::new(), StopFlag::new());
    let renewing = tokio::spawn(renew(
        app.clone(),
        id.to_string(),
        [stop.clone(), lost.clone()],
    ));
    let mut budget = spec.budget();
    budget.clock = clock;
    let thought = match what {
        Ok(seen) => super::think_in_fog(
            app,
            worker,
            spec,
            seen,
            budget,
            stop,
            app.clock.now_ms() ^ seq,
        )
        .await
        .map(|step| step.into_iter().collect::<Vec<_>>()),
        Err(position) => super::think(app, worker, spec, position, budget, stop)
            .await
            .map(|r| r.steps),
    };
    renewing.abort();
    if lost.is_stopped() {
        // The turn is another process's now (or the game moved on).
        return Ok(());
    }
    match thought {
        Ok(steps) if !steps.is_empty() => {
            // Played like any player's turn: refused if the game moved on.
            if let Err(e) = live::play(app, &shared, side, seq, &steps).await {
                tracing::debug!(game = %id, error = ?e, "the computer's turn was refused");
            }
        }
        Ok(_) => tracing::warn!(game = %id, "the computer found no step"),
        Err(e) => tracing::error!(game = %id, error = ?e, "a computer player failed"),
    }
    Ok(())
}

/// Renews the lease until aborted; if it is lost (the turn was played or
/// the game ended, or another process took the turn over), stops the
/// search and says so.
async fn renew(app: Arc<App>, id: String, flags: [StopFlag; 2]) {
    loop {
        tokio::time::sleep(RENEW_EVERY).await;
        match app
            .store
            .renew_turn(&id, (app.clock.now_ms() + LEASE_MS) as i64)
            .await
        {
            Ok(true) => {}
            Ok(false) => {
                tracing::debug!(game = %id, "lost the lease on a computer turn");
                flags.iter().for_each(StopFlag::stop);
                return;
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot renew a computer turn's lease")
            }
        }
    }
}
