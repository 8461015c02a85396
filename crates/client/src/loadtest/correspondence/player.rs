//! One correspondence player: its user socket, listened to on a task of
//! its own (opened again after `?after=` the last notification it got,
//! on the next process where its own is gone), and what it does on each
//! notification. Requests go to the player's process, and to the next
//! one while it cannot be reached.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::Tally;
use virus_wars_rules::rng::SplitMix64;

/// A player in a pair: `k` and `k ^ 1` play each other; the even one
/// challenges.
pub struct Player {
    k: usize,
    pub name: String,
    cookie: String,
    partner: String,
    /// The process its requests go to now.
    home: AtomicUsize,
    settings: Value,
}

/// What a player's socket delivered.
pub struct Delivered {
    /// The notifications' ids, in the order they came.
    pub ids: Vec<i64>,
    /// Deliveries of an id delivered before.
    pub duplicated: u64,
    /// Whether a socket ever opened (else nothing could be delivered: the
    /// player is counted apart, not its notifications as missed).
    pub opened: bool,
}

/// A notification as it reached the player: the message, when, and on
/// which process.
type Heard = (Value, Instant, usize);

impl Player {
    pub fn new(
        k: usize,
        name: &str,
        cookie: &str,
        partner: &str,
        home: usize,
        settings: Value,
    ) -> Player {
        Player {
            k,
            name: name.to_string(),
            cookie: cookie.to_string(),
            partner: partner.to_string(),
            home: AtomicUsize::new(home),
            settings,
        }
    }

    fn pair(&self) -> usize {
        self.k / 2
    }

    /// Listens and plays until the run's end; what its socket delivered.
    pub async fn live(&self, tally: &Tally) -> Delivered {
        let (heard, mut inbox) = mpsc::unbounded_channel();
        let (delivered, ()) = tokio::join!(self.listen(tally, heard), self.act(tally, &mut inbox));
        delivered
    }

    /// The user socket until a moment after the run's end (what was
    /// raised at its end still comes).
    async fn listen(&self, tally: &Tally, heard: mpsc::UnboundedSender<Heard>) -> Delivered {
        let until = tally.deadline + Duration::from_secs(2);
        let mut d = Delivered {
            ids: Vec::new(),
            duplicated: 0,
            opened: false,
        };
        let mut last = 0i64;
        let mut first = true;
        while Instant::now() < until {
            let at = self.home.load(Ordering::Relaxed);
            let left = until.saturating_duration_since(Instant::now());
            let opened = tokio::time::timeout(
                left,
                tally.servers[at].user_socket(&self.cookie, last as u64),
            )
            .await;
            let Ok(Ok((_out, mut messages))) = opened else {
                self.move_on(tally, at);
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            if !first {
                tally.reconnects.fetch_add(1, Ordering::Relaxed);
            }
            first = false;
            d.opened = true;
            loop {
                let left = until.saturating_duration_since(Instant::now());
                let Ok(Some(m)) = tokio::time::timeout(left, messages.recv()).await else {
                    break;
                };
                if m["type"] == "restart" {
                    break;
                }
                if m["type"] != "notification" {
                    continue;
                }
                let id = m["id"].as_i64().unwrap_or(0);
                if id <= last {
                    d.duplicated += 1;
                    tracing::warn!(player = self.name, id, last, "a notification came twice");
                    continue;
                }
                last = id;
                d.ids.push(id);
                let _ = heard.send((m, Instant::now(), at));
            }
        }
        d
    }

    /// The next process takes this player's requests and socket, where
    /// process `from` cannot be reached.
    fn move_on(&self, tally: &Tally, from: usize) {
        let next = (from + 1) % tally.servers.len();
        let _ = self
            .home
            .compare_exchange(from, next, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// A request as this player, to its process (the next one while it
    /// cannot be reached, or answers 502/503); up to the run's last moment.
    async fn call(
        &self,
        tally: &Tally,
        method: &str,
        path: &str,
        body: &str,
    ) -> Result<(u16, Value), String> {
        self.call_until(tally, tally.last, method, path, body).await
    }

    /// As [`Player::call`], tried up to `last`.
    async fn call_until(
        &self,
        tally: &Tally,
        last: Instant,
        method: &str,
        path: &str,
        body: &str,
    ) -> Result<(u16, Value), String> {
        loop {
            let at = self.home.load(Ordering::Relaxed);
            let left = last.saturating_duration_since(Instant::now());
            let answer = tokio::time::timeout(
                left.min(Duration::from_secs(10)),
                tally.servers[at].http_session(method, path, Some(&self.cookie), body),
            )
            .await;
            match answer {
                Ok(Ok((status, value, _))) if !matches!(status, 502 | 503) => {
                    return Ok((status, value))
                }
                Ok(Ok((status, value, _))) if Instant::now() >= last => {
                    return Err(format!("{method} {path}: {status} {value}"))
                }
                Ok(Err(e)) if Instant::now() >= last => {
                    return Err(format!("{method} {path}: {e}"))
                }
                Err(_) if Instant::now() >= last => {
                    return Err(format!("{method} {path}: no answer"))
                }
                _ => {
                    self.move_on(tally, at);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }

    /// Acts on each notification until the run's end.
    async fn act(&self, tally: &Tally, inbox: &mut mpsc::UnboundedReceiver<Heard>) {
        let mut rng = SplitMix64::new(0xC0DE + self.k as u64);
        // This player's side in each game it plays.
        let mut sides: HashMap<String, String> = HashMap::new();
        if self.k % 2 == 0 {
            self.challenge(tally).await;
        }
        loop {
            let left = tally.deadline.saturating_duration_since(Instant::now());
            let Ok(Some((m, heard_at, on))) = tokio::time::timeout(left, inbox.recv()).await else {
                return;
            };
            let id = m["id"].as_i64().unwrap_or(0);
            let game = m["game"].as_str().unwrap_or_default().to_string();
            match m["kind"].as_str().unwrap_or_default() {
                "challenge" if m["from"] == self.partner.as_str() => {
                    let path = format!(
                        "/api/challenges/{}/accept",
                        m["challenge"].as_str().unwrap_or_default()
                    );
                    tally.acted(self.pair());
                    match self.call(tally, "POST", &path, "").await {
                        Ok((201, _)) => {}
                        Ok((status, answer)) => {
                            tally.error(&self.name, &format!("accept: {status} {answer}"))
                        }
                        Err(e) => tally.error(&self.name, &format!("accept: {e}")),
                    }
                }
                "challenge_accepted" => {
                    let side = m["side"].as_str().unwrap_or_default().to_string();
                    sides.insert(game.clone(), side.clone());
                    if side == "x" {
                        tally.games.fetch_add(1, Ordering::Relaxed);
                        self.play(tally, &game, "x", id, &mut rng).await;
                    }
                }
                "your_turn" => {
                    if let Some((sent, from)) = tally
                        .sent
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get(&game)
                        .copied()
                    {
                        let took = heard_at.saturating_duration_since(sent);
                        let mut l = tally.latencies.lock().unwrap_or_else(|e| e.into_inner());
                        match from == on {
                            true => l.0.push(took),
                            false => l.1.push(took),
                        }
                    }
                    match sides.get(&game).cloned() {
                        Some(side) => self.play(tally, &game, &side, id, &mut rng).await,
                        None => tally.error(
                            &self.name,
                            &format!("its turn in game {game}, never accepted"),
                        ),
                    }
                }
                "game_over" => {
                    let side = sides.remove(&game);
                    if side.as_deref() == Some("x") {
                        tally.finished.fetch_add(1, Ordering::Relaxed);
                    }
                    // The two challenge in turn (X to the challenger): each
                    // account's challenges an hour are counted by the server.
                    if side.as_deref() == Some("o")
                        && Instant::now() + Duration::from_secs(1) < tally.deadline
                    {
                        self.challenge(tally).await;
                    }
                }
                _ => {}
            }
        }
    }

    /// Challenges the partner to a game over days, X to the challenger.
    async fn challenge(&self, tally: &Tally) {
        let mut body = self.settings.clone();
        body["to"] = self.partner.clone().into();
        body["side"] = "x".into();
        tally.acted(self.pair());
        match self
            .call(tally, "POST", "/api/challenges", &body.to_string())
            .await
        {
            Ok((201, _)) => {}
            // The server's cap on an account's challenges an hour
            // (docs/api.md): the pair has played its share and stops; not
            // a fault.
            Ok((429, answer)) => {
                tracing::info!(player = self.name, %answer, "the pair's challenges an hour are spent");
                tally.capped(self.pair());
            }
            Ok((status, answer)) => {
                tally.error(&self.name, &format!("challenge: {status} {answer}"))
            }
            Err(e) => tally.error(&self.name, &format!("challenge: {e}")),
        }
    }

    /// Plays this player's turn in `game` (told by notification `note`,
    /// marked read first: its next "your turn" is raised for sure).
    async fn play(&self, tally: &Tally, game: &str, side: &str, note: i64, rng: &mut SplitMix64) {
        let read = json!({"up_to": note}).to_string();
        if let Err(e) = self
            .call(tally, "POST", "/api/me/notifications/read", &read)
            .await
        {
            tally.error(&self.name, &format!("read: {e}"));
        }
        let path = format!("/api/games/{game}");
        let mut state = match self.call(tally, "GET", &path, "").await {
            Ok((200, state)) => state,
            Ok((status, answer)) => {
                return tally.error(&self.name, &format!("game {game}: {status} {answer}"))
            }
            Err(e) => return tally.error(&self.name, &format!("game {game}: {e}")),
        };
        let steps = format!("/api/games/{game}/steps");
        while state["to_move"] == side && Instant::now() < tally.deadline {
            tokio::time::sleep(tally.think).await;
            let legal = state["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                return tally.error(&self.name, &format!("no legal step in {state}"));
            }
            let step = &legal[rng.below(legal.len() as u32) as usize];
            let seq = state["seq"].as_u64().unwrap_or(0);
            let body = json!({"seq": seq, "steps": [step]}).to_string();
            tally.acted(self.pair());
            let at = self.home.load(Ordering::Relaxed);
            tally
                .sent
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(game.to_string(), (Instant::now(), at));
            state = match self.call(tally, "POST", &steps, &body).await {
                Ok((200, next)) => {
                    tally.steps.fetch_add(1, Ordering::Relaxed);
                    next
                }
                // Stored already (its answer was lost with its process),
                // or refused: the game as it is now.
                Ok(_) | Err(_) => match self.call(tally, "GET", &path, "").await {
                    Ok((200, now)) => now,
                    Ok((status, answer)) => {
                        return tally.error(&self.name, &format!("game {game}: {status} {answer}"))
                    }
                    Err(e) => return tally.error(&self.name, &format!("game {game}: {e}")),
                },
            };
        }
        if !state["to_move"].is_null() && state["to_move"] != side {
            tally.turns.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The ids of the notifications the server keeps for this player (asked
    /// up to `last`).
    pub async fn stored_notes(&self, tally: &Tally, last: Instant) -> Result<Vec<i64>, String> {
        let mut ids = Vec::new();
        let mut before: Option<i64> = None;
        loop {
            let path = match before {
                Some(b) => format!("/api/me/notifications?limit=50&before={b}"),
                None => "/api/me/notifications?limit=50".to_string(),
            };
            let (status, page) = self.call_until(tally, last, "GET", &path, "").await?;
            if status != 200 {
                return Err(format!("{status} {page}"));
            }
            for item in page["items"].as_array().into_iter().flatten() {
                ids.push(item["id"].as_i64().unwrap_or(0));
            }
            match page["next"].as_i64() {
                Some(next) => before = Some(next),
                None => return Ok(ids),
            }
        }
    }
}
