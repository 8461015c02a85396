//! `virus-wars loadtest`: many games of random legal steps played over
//! WebSockets against a running server, then every acknowledged step
//! checked against the stored games. Given several server processes (on
//! one PostgreSQL), each game is created and played by X on one and joined
//! and played by O on the next, so that its steps alternate between them,
//! and every process must show every acknowledged step. With accounts,
//! half of the games are rated games between accounts, and every rated
//! game that finished must have moved its players' ratings exactly once.
//! Loopback only in tests.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use crate::http::Server;
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

/// The figures of the closing line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Games played (finished or not when the time was up).
    pub games: u64,
    pub steps: u64,
    pub errors: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    /// Rated games that finished (with accounts).
    pub rated: u64,
    /// Accounts whose rated games counted on their page differ from those
    /// they finished (a rating moved twice, or never).
    pub rating_mismatches: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {}, steps {}, errors {}, lost {}, duplicated {}, p50 {:.1} ms, p99 {:.1} ms",
            self.games,
            self.steps,
            self.errors,
            self.lost,
            self.duplicated,
            self.p50_ms,
            self.p99_ms
        )?;
        if self.rated > 0 || self.rating_mismatches > 0 {
            write!(
                f,
                ", rated {}, mismatched {}",
                self.rated, self.rating_mismatches
            )?;
        }
        Ok(())
    }
}

#[derive(Default)]
struct Tally {
    errors: AtomicU64,
    latencies_us: Mutex<Vec<u64>>,
    /// Every game played: its id, the steps acknowledged, and whether one
    /// more was in flight when the test ended.
    played: Mutex<Vec<(String, Vec<String>, bool)>>,
    /// Each account's name and the rated games it finished.
    rated: Mutex<Vec<(String, u64)>>,
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

fn over(state: &Value) -> bool {
    state["to_move"].is_null()
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
        if let Err(e) = one_game(&plan, &tally, &mut rng, deadline, accounts.as_mut()).await {
            tally.errors.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(error = %e, "load test game failed");
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

async fn one_game(
    plan: &Plan,
    tally: &Tally,
    rng: &mut SplitMix64,
    deadline: Instant,
    accounts: Option<&mut Accounts>,
) -> Result<(), String> {
    let mut settings = plan.settings.clone();
    settings["side"] = json!("x");
    settings["opponent"] = json!("human");
    if accounts.is_some() {
        settings["rated"] = json!(true);
        settings["clock"] = json!({"base_s": 600, "inc_s": 0});
    }
    let cookie = |side: usize| accounts.as_ref().map(|a| a.cookies[side].clone());
    // X on one process, O on the next.
    let n = plan.servers.len().max(1);
    let first = rng.below(n as u32) as usize;
    let servers = [&plan.servers[first], &plan.servers[(first + 1) % n]];
    let (status, created, _) = servers[0]
        .http_session(
            "POST",
            "/api/games",
            cookie(0).as_deref(),
            &settings.to_string(),
        )
        .await?;
    if status != 201 {
        return Err(format!("create: {status} {created}"));
    }
    let id = created["id"].as_str().unwrap_or_default().to_string();
    let x = created["token"].as_str().unwrap_or_default().to_string();
    let (status, joined, _) = servers[1]
        .http_session(
            "POST",
            &format!("/api/games/{id}/join"),
            cookie(1).as_deref(),
            "",
        )
        .await?;
    if status != 200 {
        return Err(format!("join: {status} {joined}"));
    }
    let o = joined["token"].as_str().unwrap_or_default().to_string();
    let mut acked: Vec<String> = Vec::new();
    let mut in_flight = false;
    let played = play_sockets(
        plan,
        tally,
        rng,
        deadline,
        &id,
        servers,
        [&x, &o],
        &mut acked,
        &mut in_flight,
    )
    .await;
    if let (Ok(true), Some(a)) = (&played, accounts) {
        a.finished += 1;
    }
    // Checked afterwards whatever happened: an error must not hide a loss.
    tally
        .played
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push((id, acked, in_flight));
    played.map(|_| ())
}

#[allow(clippy::too_many_arguments)]
async fn play_sockets(
    plan: &Plan,
    tally: &Tally,
    rng: &mut SplitMix64,
    deadline: Instant,
    id: &str,
    [x_at, o_at]: [&Server; 2],
    [x, o]: [&str; 2],
    acked: &mut Vec<String>,
    in_flight: &mut bool,
) -> Result<bool, String> {
    let (mut x_out, mut x_in) = x_at.socket(id, x).await?;
    let (mut o_out, mut o_in) = o_at.socket(id, o).await?;
    let mut state = x_in.recv().await.ok_or("the socket closed")?;
    while !over(&state) && Instant::now() < deadline {
        tokio::time::sleep(plan.think).await;
        let x_moves = state["to_move"] == "x";
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return Err(format!("no legal step in {state}"));
        }
        let step = legal[rng.below(legal.len() as u32) as usize].clone();
        let seq = state["seq"].as_u64().unwrap_or(0);
        let message = json!({"type": "steps", "seq": seq, "steps": [step]}).to_string();
        let (out, inbox, other) = if x_moves {
            (&mut x_out, &mut x_in, &mut o_in)
        } else {
            (&mut o_out, &mut o_in, &mut x_in)
        };
        let sent = Instant::now();
        *in_flight = true;
        out.send(Message::Text(message.into()))
            .await
            .map_err(|e| format!("send: {e}"))?;
        loop {
            let m = tokio::time::timeout(Duration::from_secs(30), inbox.recv())
                .await
                .map_err(|_| "no answer within 30 s".to_string())?
                .ok_or("the socket closed")?;
            match m["type"].as_str() {
                Some("error") => return Err(format!("refused: {m}")),
                Some("state") if m["seq"].as_u64() == Some(seq + 1) => {
                    let us = sent.elapsed().as_micros() as u64;
                    tally
                        .latencies_us
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(us);
                    acked.push(step.as_str().unwrap_or_default().to_string());
                    *in_flight = false;
                    state = m;
                    break;
                }
                _ => {}
            }
        }
        while other.try_recv().is_ok() {}
    }
    let _ = x_out.close().await;
    let _ = o_out.close().await;
    Ok(over(&state))
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let k = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[k] as f64 / 1000.0
}

/// Runs the plan and checks every acknowledged step against the server.
pub async fn run(plan: Plan) -> Result<Report, String> {
    let plan = Arc::new(plan);
    let tally = Arc::new(Tally::default());
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
    let deadline = Instant::now() + Duration::from_secs_f64(plan.seconds);
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
    let (mut lost, mut duplicated, mut steps) = (0u64, 0u64, 0u64);
    for (id, acked, in_flight) in &played {
        steps += acked.len() as u64;
        // Every process shows every acknowledged step: the worst counts.
        let (mut game_lost, mut game_duplicated) = (0, 0);
        for server in &plan.servers {
            // Another process hears of a change a few ms after it is
            // stored: one that is behind is asked again, for up to 2 s,
            // before what it lacks counts as lost.
            let mut tries = 0;
            let (missing, stored) = loop {
                let (status, state) = server.http("GET", &format!("/api/games/{id}"), "").await?;
                let stored: Vec<String> = state["steps"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|s| s.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default();
                let missing = if status == 200 {
                    acked
                        .iter()
                        .enumerate()
                        .filter(|(k, s)| stored.get(*k) != Some(*s))
                        .count() as u64
                } else {
                    acked.len() as u64
                };
                tries += 1;
                if missing == 0 || tries >= 20 {
                    break (missing, stored);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            let allowed = acked.len() + usize::from(*in_flight);
            game_lost = game_lost.max(missing);
            game_duplicated = game_duplicated.max(stored.len().saturating_sub(allowed) as u64);
        }
        lost += game_lost;
        duplicated += game_duplicated;
    }
    // Each account's page counts exactly the rated games it finished.
    let rated = std::mem::take(&mut *tally.rated.lock().unwrap_or_else(|e| e.into_inner()));
    let mut rating_mismatches = 0;
    for (name, finished) in &rated {
        let (status, page) =
            (plan.servers[0].http("GET", &format!("/api/players/{name}"), "")).await?;
        let counted: u64 = page["ratings"]
            .as_object()
            .map_or(0, |r| r.values().filter_map(|v| v["games"].as_u64()).sum());
        if status != 200 || counted != *finished {
            tracing::warn!(%name, finished, counted, "rating count differs");
            rating_mismatches += 1;
        }
    }
    let mut lat =
        std::mem::take(&mut *tally.latencies_us.lock().unwrap_or_else(|e| e.into_inner()));
    lat.sort_unstable();
    Ok(Report {
        games: played.len() as u64,
        steps,
        errors: tally.errors.load(Ordering::Relaxed),
        lost,
        duplicated,
        p50_ms: percentile(&lat, 0.50),
        p99_ms: percentile(&lat, 0.99),
        rated: rated.iter().map(|(_, n)| n).sum::<u64>() / 2,
        rating_mismatches,
    })
}
