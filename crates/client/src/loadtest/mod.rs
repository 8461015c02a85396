//! `virus-wars loadtest`: many games of random legal steps played over
//! WebSockets against a running server, then every acknowledged step
//! checked against the stored games. Given several server processes (on
//! one PostgreSQL), each game is created and played by X on one and joined
//! and played by O on the next, so that its steps alternate between them,
//! and every process must show every acknowledged step. With accounts,
//! half of the games are rated games between accounts, and every rated
//! game that finished must have moved its players' ratings exactly once.
//! A server that restarts meanwhile (close code 1012) is connected to
//! again, and what it stored is checked the same way. Loopback only in
//! tests.

pub mod correspondence;
mod figures;
mod play;

pub use figures::Report;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::http::Server;
use figures::Ack;
use virus_wars_rules::rng::SplitMix64;

/// What a load test does.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each server process (one or more): `http://…` or `https://…`.
    pub servers: Vec<Server>,
    pub games: usize,
    pub seconds: f64,
    /// A player's pause before each step.
    pub think: Duration,
    /// The game settings sent to `POST /api/games` (side and opponent are set here).
    pub settings: Value,
    /// Half of the players sign up two accounts and play rated games
    /// between them (with a 10-minute clock).
    pub accounts: bool,
}

/// What the players tell as they go.
struct Tally {
    start: Instant,
    errors: AtomicU64,
    reconnects: AtomicU64,
    acks: Mutex<Vec<Ack>>,
    /// Every game played, with the steps acknowledged.
    played: Mutex<Vec<play::Played>>,
    /// Each account's name and the rated games it finished.
    rated: Mutex<Vec<(String, u64)>>,
}

impl Tally {
    fn new(start: Instant) -> Tally {
        Tally {
            start,
            errors: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
            acks: Mutex::default(),
            played: Mutex::default(),
            rated: Mutex::default(),
        }
    }

    fn since_start(&self) -> Duration {
        self.start.elapsed()
    }

    fn push_ack(&self, ack: Ack) {
        self.acks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(ack);
    }

    fn count_reconnect(&self) {
        self.reconnects.fetch_add(1, Ordering::Relaxed);
    }
}

/// Two accounts' sessions and names, X's and O's.
struct Accounts {
    cookies: [String; 2],
    names: [String; 2],
    finished: u64,
}

/// Signs up the two accounts of player `k`.
async fn sign_up(server: &Server, run: u64, k: u64) -> Result<Accounts, String> {
    let mut cookies = [String::new(), String::new()];
    let mut names = [String::new(), String::new()];
    for (side, letter) in ["x", "o"].into_iter().enumerate() {
        let name = format!("lt{:06x}{k}{letter}", run & 0xff_ffff);
        let body = json!({"name": name, "password": "load test violet tram under paper"});
        let (status, answer, cookie) =
            (server.http_session("POST", "/api/accounts", None, &body.to_string())).await?;
        if status != 201 {
            return Err(format!("sign up: {status} {answer}"));
        }
        cookies[side] = cookie.ok_or("sign up: no session cookie")?;
        names[side] = name;
    }
    Ok(Accounts {
        cookies,
        names,
        finished: 0,
    })
}

/// Plays games one after another until `deadline` (with `accounts`,
/// rated games between them).
async fn player(
    plan: Arc<Plan>,
    tally: Arc<Tally>,
    seed: u64,
    deadline: Instant,
    mut accounts: Option<Accounts>,
) {
    let mut rng = SplitMix64::new(seed);
    while Instant::now() < deadline {
        let cookies = accounts
            .as_ref()
            .map(|a| [a.cookies[0].as_str(), a.cookies[1].as_str()]);
        let (played, result) = play::one_game(&plan, &tally, &mut rng, deadline, cookies).await;
        if let (Some(a), Some(true)) = (accounts.as_mut(), played.as_ref().map(|p| p.finished)) {
            a.finished += 1;
        }
        let failed = result.is_err();
        if let Err(e) = result {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            let game = played.as_ref().map_or("", |p| p.id.as_str());
            tracing::warn!(error = %e, game, "load test game failed");
        }
        // Checked afterwards whatever happened: an error must not hide a loss.
        if let Some(played) = played {
            tally
                .played
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(played);
        }
        if failed {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    if let Some(a) = accounts {
        let mut rated = tally.rated.lock().unwrap_or_else(|e| e.into_inner());
        for name in a.names {
            rated.push((name, a.finished));
        }
    }
}

/// Runs the plan and checks every acknowledged step against the server.
pub async fn run(plan: Plan) -> Result<Report, String> {
    let plan = Arc::new(plan);
    // Players join over the first part of the run, not all in one instant.
    let ramp = Duration::from_secs_f64((plan.seconds / 4.0).min(5.0));
    // Half of the players have two accounts each, signed up before the
    // clock starts.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    let mut accounts = Vec::new();
    for k in 0..plan.games {
        accounts.push(if plan.accounts && k % 2 == 0 {
            Some(sign_up(&plan.servers[k % plan.servers.len()], run, k as u64).await?)
        } else {
            None
        });
    }
    let cpu_before = figures::cpu_ticks();
    let start = Instant::now();
    let tally = Arc::new(Tally::new(start));
    let deadline = start + Duration::from_secs_f64(plan.seconds);
    let mut tasks = Vec::new();
    for (k, accounts) in accounts.into_iter().enumerate() {
        let (plan, tally) = (plan.clone(), tally.clone());
        let delay = ramp.mul_f64(k as f64 / plan.games.max(1) as f64);
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            player(plan, tally, 0x10AD + k as u64, deadline, accounts).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let played = std::mem::take(&mut *tally.played.lock().unwrap_or_else(|e| e.into_inner()));
    let run_time = start.elapsed();
    let steal_percent = figures::steal_percent(cpu_before, figures::cpu_ticks());
    let mut check = Check::new(plan.servers.len());
    for game in &played {
        check.game(&plan.servers, game).await;
    }
    // Each account's page counts exactly the rated games it finished.
    let rated = std::mem::take(&mut *tally.rated.lock().unwrap_or_else(|e| e.into_inner()));
    let mut rating_mismatches = 0;
    for (name, finished) in &rated {
        let path = format!("/api/players/{name}");
        let read = plan.servers[0].http("GET", &path, "");
        let answer = match check.unreached[0] >= 3 {
            true => Err("the server could not be reached".to_string()),
            false => tokio::time::timeout(CHECK_WITHIN, read)
                .await
                .unwrap_or_else(|_| Err(format!("no answer within {} s", CHECK_WITHIN.as_secs()))),
        };
        let (status, page) = match answer {
            Ok(answer) => answer,
            Err(e) => {
                check.unreached[0] += 1;
                tracing::warn!(%name, error = %e, "cannot read the account's page");
                rating_mismatches += 1;
                continue;
            }
        };
        let counted: u64 = page["ratings"]
            .as_object()
            .map_or(0, |r| r.values().filter_map(|v| v["games"].as_u64()).sum());
        if status != 200 || counted != *finished {
            tracing::warn!(%name, finished, counted, "rating count differs");
            rating_mismatches += 1;
        }
    }
    let acks = std::mem::take(&mut *tally.acks.lock().unwrap_or_else(|e| e.into_inner()));
    let mut report = Report {
        games: played.len() as u64,
        steps: check.steps,
        errors: tally.errors.load(Ordering::Relaxed),
        lost: check.lost,
        duplicated: check.duplicated,
        unchecked: check.unchecked,
        reconnected: tally.reconnects.load(Ordering::Relaxed),
        steal_percent,
        rated: rated.iter().map(|(_, n)| n).sum::<u64>() / 2,
        rating_mismatches,
        ..Report::default()
    };
    figures::timing(
        &mut report,
        &acks,
        ramp,
        run_time.min(Duration::from_secs_f64(plan.seconds)),
    );
    Ok(report)
}

/// How long the check after the run waits for one answer.
const CHECK_WITHIN: Duration = Duration::from_secs(5);

/// The check of every acknowledged step against every server process,
/// after the run; a server that cannot be reached three times running is
/// asked no more (its games count as unchecked, their steps as lost), so
/// that a dead server ends the check at once.
struct Check {
    steps: u64,
    lost: u64,
    duplicated: u64,
    unchecked: u64,
    unreached: Vec<u32>,
}

impl Check {
    fn new(servers: usize) -> Check {
        Check {
            steps: 0,
            lost: 0,
            duplicated: 0,
            unchecked: 0,
            unreached: vec![0; servers],
        }
    }

    async fn game(&mut self, servers: &[Server], played: &play::Played) {
        let play::Played {
            id,
            acked,
            in_flight,
            ..
        } = played;
        self.steps += acked.len() as u64;
        // Every process shows every acknowledged step: the worst counts.
        let (mut game_lost, mut game_duplicated, mut unchecked) = (0, 0, false);
        for (k, server) in servers.iter().enumerate() {
            let Some(stored) = self.stored(k, server, id, acked).await else {
                unchecked = true;
                game_lost = acked.len() as u64;
                continue;
            };
            let missing = acked
                .iter()
                .enumerate()
                .filter(|(k, s)| stored.get(*k) != Some(*s))
                .count() as u64;
            let allowed = acked.len() + usize::from(*in_flight);
            if missing > 0 || stored.len() > allowed {
                tracing::warn!(
                    game = %id,
                    server = %server.origin(),
                    acknowledged = ?acked,
                    in_flight,
                    stored = ?stored,
                    "a game's stored steps differ from those acknowledged"
                );
            }
            game_lost = game_lost.max(missing);
            game_duplicated = game_duplicated.max(stored.len().saturating_sub(allowed) as u64);
        }
        self.lost += game_lost;
        self.duplicated += game_duplicated;
        self.unchecked += u64::from(unchecked);
    }

    /// The steps server `k` stores for game `id`; `None` when it cannot
    /// be read. Another process hears of a change a few ms after it is
    /// stored: one that is behind `acked` is asked again, for up to 2 s.
    async fn stored(
        &mut self,
        k: usize,
        server: &Server,
        id: &str,
        acked: &[String],
    ) -> Option<Vec<String>> {
        let mut stored = None;
        for _ in 0..20 {
            if self.unreached[k] >= 3 {
                return None;
            }
            let path = format!("/api/games/{id}");
            let read = server.http("GET", &path, "");
            let answer = tokio::time::timeout(CHECK_WITHIN, read)
                .await
                .unwrap_or_else(|_| Err(format!("no answer within {} s", CHECK_WITHIN.as_secs())));
            match answer {
                Err(e) => {
                    self.unreached[k] += 1;
                    tracing::warn!(game = %id, server = %server.origin(), error = %e,
                        "cannot read a game to check its steps");
                    return None;
                }
                Ok((status, state)) => {
                    self.unreached[k] = 0;
                    if status != 200 {
                        tracing::warn!(game = %id, server = %server.origin(), status,
                            "cannot read a game to check its steps");
                        return None;
                    }
                    let steps: Vec<String> = state["steps"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|s| s.as_str().map(String::from))
                                .collect()
                        })
                        .unwrap_or_default();
                    let behind = acked
                        .iter()
                        .enumerate()
                        .any(|(k, s)| steps.get(k) != Some(s));
                    stored = Some(steps);
                    if !behind {
                        break;
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        stored
    }
}
