//! `virus-wars loadtest --correspondence`: signed-in players in pairs,
//! each holding its page's user socket (`GET /api/me/live`) on one server
//! process, playing games over days as a person does: a player acts only
//! when a notification tells it to (a challenge to accept, its challenge
//! accepted with X to play, its turn, a game over to challenge again).
//! So a notification that never comes stalls its pair, and is found.
//!
//! Measured: the time from the step that passes the turn to the
//! opponent's notification, apart for the two players' sockets on one
//! process and on two. Checked afterwards: every notification each account
//! stores was delivered to it exactly once (a socket that closes is opened
//! again with `?after=` the last it got: on the next process, where its
//! own is gone), and no pair stood still. Half of the pairs sit on one
//! process, half across two (with two or more).

mod player;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::http::Server;
use player::{Delivered, Player};

/// What a correspondence load test does.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each server process (one or more).
    pub servers: Vec<Server>,
    /// Pairs of players, one game at a time each.
    pub pairs: usize,
    pub seconds: f64,
    /// A player's pause before each step.
    pub think: Duration,
    /// The board size (`10x10`).
    pub size: String,
}

/// What the players tell as they go, shared.
struct Tally {
    servers: Vec<Server>,
    think: Duration,
    /// The last moment a player acts.
    deadline: Instant,
    /// The last moment a request is waited for.
    last: Instant,
    errors: AtomicU64,
    reconnects: AtomicU64,
    games: AtomicU64,
    finished: AtomicU64,
    turns: AtomicU64,
    steps: AtomicU64,
    /// Each game's last step sent: when, and by a player on which process.
    sent: Mutex<HashMap<String, (Instant, usize)>>,
    /// Each pair's last action (a challenge, an acceptance, a step).
    acted: Mutex<Vec<Instant>>,
    /// Pairs whose challenges an hour were spent (they stop playing).
    capped: Mutex<Vec<bool>>,
    /// Step-to-notification times: the two on one process, or on two.
    latencies: Mutex<(Vec<Duration>, Vec<Duration>)>,
}

impl Tally {
    fn error(&self, who: &str, what: &str) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        tracing::warn!(player = who, error = what, "a correspondence player failed");
    }

    fn capped(&self, pair: usize) {
        if let Some(capped) = self
            .capped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(pair)
        {
            *capped = true;
        }
    }

    fn acted(&self, pair: usize) {
        if let Some(at) = self
            .acted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(pair)
        {
            *at = Instant::now();
        }
    }
}

/// The figures of the closing line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub players: u64,
    /// Games begun, and finished.
    pub games: u64,
    pub finished: u64,
    /// Turns passed to the opponent (each one a `your_turn` to deliver).
    pub turns: u64,
    pub steps: u64,
    /// Notifications delivered.
    pub notifications: u64,
    /// Delivered more than once to one page.
    pub duplicated: u64,
    /// Stored but never delivered.
    pub missed: u64,
    /// Pairs that stood still (a notification that never came).
    pub stalled: u64,
    /// Pairs that stopped at the server's cap on challenges an hour.
    pub capped: u64,
    /// Players whose user socket never opened (nothing could reach them).
    pub unopened: u64,
    pub errors: u64,
    /// User sockets opened again (their process closed or died).
    pub reconnected: u64,
    /// Step to notification, both players on one process: p50, p99 (ms).
    pub same: Option<(f64, f64)>,
    /// The same, the players on two processes.
    pub across: Option<(f64, f64)>,
}

impl Report {
    /// What went wrong, if anything.
    pub fn faults(&self) -> Option<String> {
        let faults: Vec<String> = [
            ("duplicated", self.duplicated),
            ("missed", self.missed),
            ("stalled", self.stalled),
            ("unopened", self.unopened),
            ("errors", self.errors),
        ]
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(what, n)| format!("{what} {n}"))
        .collect();
        (!faults.is_empty() || self.turns == 0).then(|| match faults.is_empty() {
            true => "no turn was played".to_string(),
            false => faults.join(", "),
        })
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "players {}, games {}, finished {}, turns {}, steps {}, notifications {}, \
             duplicated {}, missed {}, stalled {}, capped {}, unopened {}, errors {}, reconnected {}",
            self.players,
            self.games,
            self.finished,
            self.turns,
            self.steps,
            self.notifications,
            self.duplicated,
            self.missed,
            self.stalled,
            self.capped,
            self.unopened,
            self.errors,
            self.reconnected,
        )?;
        for (name, figures) in [("same", self.same), ("across", self.across)] {
            if let Some((p50, p99)) = figures {
                write!(f, ", {name}-p50 {p50:.1} ms, {name}-p99 {p99:.1} ms")?;
            }
        }
        Ok(())
    }
}

/// The `q` quantile of `times`, in ms.
fn quantile(times: &mut [Duration], q: f64) -> f64 {
    times.sort();
    let k = ((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1;
    times[k].as_secs_f64() * 1000.0
}

/// How long the check after the run may take.
const CHECK_WITHIN: Duration = Duration::from_secs(60);
/// How long one sign-up may take, and all of them.
const SIGN_UP_WITHIN: Duration = Duration::from_secs(10);
const SIGN_UPS_WITHIN: Duration = Duration::from_secs(300);

/// Each server answers `/healthz` as a Virus Wars server does, within 5 s.
async fn probe(servers: &[Server]) -> Result<(), String> {
    for s in servers {
        let asked = tokio::time::timeout(Duration::from_secs(5), s.http("GET", "/healthz", ""));
        match asked.await {
            Ok(Ok((200, _))) => {}
            Ok(Ok((status, _))) => {
                return Err(format!(
                    "{} does not answer as a Virus Wars server does (GET /healthz: {status})",
                    s.origin()
                ))
            }
            Ok(Err(e)) => return Err(format!("{} cannot be reached: {e}", s.origin())),
            Err(_) => {
                return Err(format!(
                    "{} did not answer GET /healthz within 5 s",
                    s.origin()
                ))
            }
        }
    }
    Ok(())
}

/// Runs the plan and checks every account's notifications.
pub async fn run(plan: Plan) -> Result<Report, String> {
    if plan.servers.is_empty() || plan.pairs == 0 {
        return Err("a correspondence load test needs a server and a pair of players".into());
    }
    probe(&plan.servers).await?;
    let signing_by = Instant::now() + SIGN_UPS_WITHIN;
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    let n = plan.servers.len();
    // Sign-ups (each a slow password hash on the server) before the clock
    // starts, a few at a time; the first that fails ends the run.
    let mut signed: Vec<Signed> = Vec::new();
    let mut signing = tokio::task::JoinSet::new();
    let take =
        |done: Option<Result<SignUp, tokio::task::JoinError>>, signed: &mut Vec<Signed>| match done
        {
            None => Ok(()),
            Some(Err(e)) => Err(format!("a sign-up task failed: {e}")),
            Some(Ok((_, _, Err(e)))) => Err(e),
            Some(Ok((k, home, Ok((name, cookie))))) => {
                signed.push((k, home, name, cookie));
                Ok(())
            }
        };
    for k in 0..plan.pairs * 2 {
        let pair = k / 2;
        // Of each two pairs, one sits on one process, one across two.
        let home = (pair + (k % 2) * (pair % 2)) % n;
        let server = plan.servers[home].clone();
        signing.spawn(async move {
            let signed = tokio::time::timeout(SIGN_UP_WITHIN, sign_up(&server, run, k)).await;
            let signed = signed.unwrap_or_else(|_| {
                Err(format!(
                    "a sign-up had no answer within {} s",
                    SIGN_UP_WITHIN.as_secs()
                ))
            });
            (k, home, signed)
        });
        if signing.len() >= 8 {
            take(signing.join_next().await, &mut signed)?;
        }
        if Instant::now() > signing_by {
            return Err(format!(
                "{} of {} players signed up in {} s: fewer players, or a faster server",
                signed.len(),
                plan.pairs * 2,
                SIGN_UPS_WITHIN.as_secs()
            ));
        }
    }
    while let Some(done) = signing.join_next().await {
        take(Some(done), &mut signed)?;
    }
    signed.sort_by_key(|s| s.0);
    tracing::info!(players = signed.len(), "signed up: the run starts");
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(plan.seconds);
    let tally = Arc::new(Tally {
        servers: plan.servers.clone(),
        think: plan.think,
        deadline,
        last: deadline + Duration::from_secs(10),
        errors: AtomicU64::new(0),
        reconnects: AtomicU64::new(0),
        games: AtomicU64::new(0),
        finished: AtomicU64::new(0),
        turns: AtomicU64::new(0),
        steps: AtomicU64::new(0),
        sent: Mutex::default(),
        acted: Mutex::new(vec![start; plan.pairs]),
        capped: Mutex::new(vec![false; plan.pairs]),
        latencies: Mutex::default(),
    });
    let settings = json!({"variant": "classic", "size": plan.size, "rated": false,
                          "clock": {"days_per_turn": 3}});
    let players: Vec<Arc<Player>> = signed
        .iter()
        .map(|(k, home, name, cookie)| {
            let partner = &signed[k ^ 1].2;
            Arc::new(Player::new(
                *k,
                name,
                cookie,
                partner,
                *home,
                settings.clone(),
            ))
        })
        .collect();
    let mut tasks = Vec::new();
    for p in &players {
        let (p, tally) = (p.clone(), tally.clone());
        tasks.push(tokio::spawn(async move { p.live(&tally).await }));
    }
    let mut delivered: Vec<Delivered> = Vec::new();
    for t in tasks {
        delivered.push(
            t.await
                .map_err(|e| format!("a player's task failed: {e}"))?,
        );
    }
    let mut report = Report {
        players: players.len() as u64,
        games: tally.games.load(Ordering::Relaxed),
        finished: tally.finished.load(Ordering::Relaxed),
        turns: tally.turns.load(Ordering::Relaxed),
        steps: tally.steps.load(Ordering::Relaxed),
        reconnected: tally.reconnects.load(Ordering::Relaxed),
        ..Report::default()
    };
    // A pair that did nothing for long before the end waited for a
    // notification that never came.
    let still = (tally.think * 5).max(Duration::from_secs(5));
    let capped = tally
        .capped
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone();
    report.capped = capped.iter().filter(|c| **c).count() as u64;
    report.stalled = tally
        .acted
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .zip(&capped)
        .filter(|(at, capped)| !**capped && deadline.saturating_duration_since(**at) > still)
        .count() as u64;
    // Every notification stored was delivered, once; the check has its own
    // time (the run's is spent).
    let check_by = Instant::now() + CHECK_WITHIN;
    for (p, d) in players.iter().zip(&delivered) {
        report.notifications += d.ids.len() as u64;
        report.duplicated += d.duplicated;
        if !d.opened {
            report.unopened += 1;
            continue;
        }
        match p.stored_notes(&tally, check_by).await {
            Ok(stored) => {
                let got: std::collections::HashSet<i64> = d.ids.iter().copied().collect();
                let missed: Vec<i64> = stored.into_iter().filter(|id| !got.contains(id)).collect();
                if !missed.is_empty() {
                    tracing::warn!(player = p.name, ?missed, "notifications never delivered");
                }
                report.missed += missed.len() as u64;
            }
            Err(e) => tally.error(&p.name, &format!("cannot read its notifications: {e}")),
        }
    }
    report.errors = tally.errors.load(Ordering::Relaxed);
    let (mut same, mut across) =
        std::mem::take(&mut *tally.latencies.lock().unwrap_or_else(|e| e.into_inner()));
    for (times, figure) in [
        (&mut same, &mut report.same),
        (&mut across, &mut report.across),
    ] {
        if !times.is_empty() {
            *figure = Some((quantile(times, 0.5), quantile(times, 0.99)));
        }
    }
    Ok(report)
}

/// A player signed up: its number, its process, its name and session.
type Signed = (usize, usize, String, String);
/// A sign-up's outcome: the player's number, its process, and its name and
/// session or why not.
type SignUp = (usize, usize, Result<(String, String), String>);

/// Signs up player `k`: its name and session.
async fn sign_up(server: &Server, run: u64, k: usize) -> Result<(String, String), String> {
    let name = format!("c{:06x}p{k}", run & 0xff_ffff);
    let body = json!({"name": name, "password": "load test violet tram under paper"});
    let (status, answer, cookie) = server
        .http_session("POST", "/api/accounts", None, &body.to_string())
        .await?;
    if status != 201 {
        return Err(format!("sign up {name}: {status} {answer}"));
    }
    Ok((name, cookie.ok_or("sign up: no session cookie")?))
}
