//! One load-test game: created on one server process and joined on the
//! next, then played step by step over each player's socket. A socket the
//! server closes (a restart: close code 1012, or the connection lost) is
//! opened again, through the proxy to whichever process runs, and the
//! step in flight is judged by the state the new socket brings: stored
//! (the game's seq went past it) or not (sent again). A request refused
//! by a proxy whose server is away (502, 503) is tried again.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

use super::figures::Ack;
use super::{Plan, Tally};
use crate::http::{Inbox, Outbox, Server};
use virus_wars_rules::rng::SplitMix64;

/// How long a player keeps trying to reach a server that went away.
const COME_BACK_WITHIN: Duration = Duration::from_secs(60);
/// How long past the end of the run a player whose step is in flight
/// keeps trying to reach the server, to learn whether it was stored.
const IN_FLIGHT_GRACE: Duration = Duration::from_secs(10);

/// When to stop trying to reach a server that is away: within
/// [`COME_BACK_WITHIN`], and never past `last`.
fn give_up_at(last: Instant) -> Instant {
    (Instant::now() + COME_BACK_WITHIN).min(last)
}

fn over(state: &Value) -> bool {
    state["to_move"].is_null()
}

/// A request through [`Server::http_session`], tried again while the
/// server is away (no connection, or a proxy's 502 or 503), up to `until`.
/// A request sent is waited for up to `answer_by` (the run's end and
/// [`IN_FLIGHT_GRACE`]): one sent just before the end, to a process that is
/// stopping, is answered by the process that takes its place.
async fn request(
    server: &Server,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: &str,
    until: Instant,
    answer_by: Instant,
) -> Result<(u16, Value), String> {
    loop {
        // A server that takes the request and never answers is away too:
        // never waited for past `answer_by`.
        let left = answer_by.saturating_duration_since(Instant::now());
        let answer =
            match tokio::time::timeout(left, server.http_session(method, path, cookie, body)).await
            {
                Ok(answer) => answer,
                Err(_) => Err(format!("no answer by the end of the run ({method} {path})")),
            };
        let away = match &answer {
            Err(_) => true,
            Ok((status, _, _)) => matches!(status, 502 | 503),
        };
        if !away || Instant::now() >= until {
            return answer.map(|(status, value, _)| (status, value));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One player's socket on the game.
struct Seat<'a> {
    server: &'a Server,
    id: &'a str,
    token: &'a str,
    out: Outbox,
    inbox: Inbox,
    /// The last moment to try reaching the server: the run's end and
    /// [`IN_FLIGHT_GRACE`].
    last: Instant,
}

impl<'a> Seat<'a> {
    /// Opens the seat's socket; one refused while the server is away (a
    /// restart behind a proxy, which may answer anything but the upgrade)
    /// is tried again, as [`Seat::reconnect`] does.
    async fn open(
        server: &'a Server,
        id: &'a str,
        token: &'a str,
        deadline: Instant,
    ) -> Result<Seat<'a>, String> {
        let last = deadline + IN_FLIGHT_GRACE;
        let until = give_up_at(last);
        let (out, inbox) = loop {
            let left = last.saturating_duration_since(Instant::now());
            let opened = tokio::time::timeout(left, server.socket(id, token))
                .await
                .unwrap_or_else(|_| Err("no answer by the end of the run".to_string()));
            match opened {
                Ok(socket) => break socket,
                Err(e) if Instant::now() >= until => return Err(e),
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        Ok(Seat {
            server,
            id,
            token,
            out,
            inbox,
            last,
        })
    }

    /// The next state the server sends (other messages are passed over);
    /// `None` when the socket was closed.
    async fn next_state(&mut self) -> Result<Option<Value>, String> {
        loop {
            // 30 s at most, and never past the run's end and its grace.
            let wait =
                Duration::from_secs(30).min(self.last.saturating_duration_since(Instant::now()));
            let m = tokio::time::timeout(wait, self.inbox.recv())
                .await
                .map_err(|_| format!("no answer within {:.0} s", wait.as_secs_f64()))?;
            match m {
                None => return Ok(None),
                Some(m) => match m["type"].as_str() {
                    Some("restart") => return Ok(None),
                    Some("error") => return Err(format!("refused: {m}")),
                    Some("state") => return Ok(Some(m)),
                    _ => {}
                },
            }
        }
    }

    /// Opens the socket again (the server closed it) and gives the state
    /// it starts with.
    async fn reconnect(&mut self, tally: &Tally) -> Result<Value, String> {
        tally.count_reconnect();
        let until = give_up_at(self.last);
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let opened = tokio::time::timeout(left, self.server.socket(self.id, self.token))
                .await
                .unwrap_or_else(|_| Err("no answer by the end of the run".to_string()));
            match opened {
                Ok((out, inbox)) => {
                    (self.out, self.inbox) = (out, inbox);
                    if let Some(state) = self.next_state().await? {
                        return Ok(state);
                    }
                }
                Err(e) if Instant::now() >= until => {
                    return Err(format!("the server did not come back: {e}"))
                }
                Err(_) => {}
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Reads what came meanwhile; opens the socket again if it was closed.
    async fn drain(&mut self, tally: &Tally) -> Result<(), String> {
        loop {
            match self.inbox.try_recv() {
                Ok(m) if m["type"] == "restart" => break,
                Ok(_) => {}
                Err(tokio::sync::mpsc::error::TryRecvError::Empty) => return Ok(()),
                Err(tokio::sync::mpsc::error::TryRecvError::Disconnected) => break,
            }
        }
        self.reconnect(tally).await.map(|_| ())
    }
}

/// What became of one game.
pub struct Played {
    pub id: String,
    /// The steps acknowledged, in order.
    pub acked: Vec<String>,
    /// Whether one more step was in flight when the test ended.
    pub in_flight: bool,
    /// Whether the game finished (not cut off by the end of the run).
    pub finished: bool,
}

/// Creates a game (X on one process, O on the next), plays it to its end
/// or to `deadline`, and tells how it went; an error is returned with what
/// was acknowledged before it, for the losses check.
pub async fn one_game(
    plan: &Plan,
    tally: &Tally,
    rng: &mut SplitMix64,
    deadline: Instant,
    cookies: Option<[&str; 2]>,
) -> (Option<Played>, Result<(), String>) {
    let mut settings = plan.settings.clone();
    settings["side"] = json!("x");
    settings["opponent"] = json!("human");
    if cookies.is_some() {
        settings["rated"] = json!(true);
        settings["clock"] = json!({"base_s": 600, "inc_s": 0});
    }
    let cookie = |side: usize| cookies.map(|c| c[side]);
    let n = plan.servers.len().max(1);
    let first = rng.below(n as u32) as usize;
    let servers = [&plan.servers[first], &plan.servers[(first + 1) % n]];
    let created = request(
        servers[0],
        "POST",
        "/api/games",
        cookie(0),
        &settings.to_string(),
        give_up_at(deadline),
        deadline + IN_FLIGHT_GRACE,
    )
    .await;
    let (id, x) = match created {
        Ok((201, created)) => (
            created["id"].as_str().unwrap_or_default().to_string(),
            created["token"].as_str().unwrap_or_default().to_string(),
        ),
        Ok((status, created)) => return (None, Err(format!("create: {status} {created}"))),
        Err(e) => return (None, Err(format!("create: {e}"))),
    };
    if Instant::now() >= deadline {
        // Created as the run ended: not played, and no fault.
        return (None, Ok(()));
    }
    let joined = request(
        servers[1],
        "POST",
        &format!("/api/games/{id}/join"),
        cookie(1),
        "",
        give_up_at(deadline),
        deadline + IN_FLIGHT_GRACE,
    )
    .await;
    let o = match joined {
        Ok((200, joined)) => joined["token"].as_str().unwrap_or_default().to_string(),
        Ok((status, joined)) => return (None, Err(format!("join: {status} {joined}"))),
        Err(e) => return (None, Err(format!("join: {e}"))),
    };
    let mut played = Played {
        id,
        acked: Vec::new(),
        in_flight: false,
        finished: false,
    };
    let result = play(plan, tally, rng, deadline, servers, [&x, &o], &mut played).await;
    (Some(played), result)
}

/// Plays the game on its two seats' sockets.
async fn play(
    plan: &Plan,
    tally: &Tally,
    rng: &mut SplitMix64,
    deadline: Instant,
    [x_at, o_at]: [&Server; 2],
    [x, o]: [&str; 2],
    played: &mut Played,
) -> Result<(), String> {
    let id = played.id.clone();
    let mut seats = [
        Seat::open(x_at, &id, x, deadline).await?,
        Seat::open(o_at, &id, o, deadline).await?,
    ];
    let mut state = match seats[0].next_state().await? {
        Some(state) => state,
        None => seats[0].reconnect(tally).await?,
    };
    while !over(&state) && Instant::now() < deadline {
        tokio::time::sleep(plan.think).await;
        let mover = usize::from(state["to_move"] != "x");
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return Err(format!("no legal step in {state}"));
        }
        let step = legal[rng.below(legal.len() as u32) as usize].clone();
        let seq = state["seq"].as_u64().unwrap_or(0);
        let message = json!({"type": "steps", "seq": seq, "steps": [step]}).to_string();
        let sent = tally.since_start();
        played.in_flight = true;
        let seat = &mut seats[mover];
        let answer = match seat.out.send(Message::Text(message.into())).await {
            Ok(()) => seat.next_state_after(seq).await?,
            Err(_) => None,
        };
        let answer = match answer {
            Some(answer) => answer,
            // Closed before the answer: the state after reconnecting
            // says whether the step was stored.
            None => seat.reconnect(tally).await?,
        };
        match answer["seq"].as_u64() {
            Some(s) if s == seq + 1 => {
                tally.push_ack(Ack {
                    sent,
                    answered: tally.since_start(),
                });
                played
                    .acked
                    .push(step.as_str().unwrap_or_default().to_string());
            }
            // Not stored: the same turn is played again.
            Some(s) if s == seq => {}
            _ => {
                return Err(format!(
                    "the game moved past step {seq} without it: {answer}"
                ))
            }
        }
        played.in_flight = false;
        state = answer;
        seats[1 - mover].drain(tally).await?;
    }
    played.finished = over(&state);
    for seat in &mut seats {
        let _ = seat.out.close().await;
    }
    Ok(())
}

impl Seat<'_> {
    /// The state that answers a step sent at `seq` (`None`: the socket was
    /// closed first).
    async fn next_state_after(&mut self, seq: u64) -> Result<Option<Value>, String> {
        loop {
            match self.next_state().await? {
                Some(m) if m["seq"].as_u64() == Some(seq + 1) => return Ok(Some(m)),
                Some(_) => {}
                None => return Ok(None),
            }
        }
    }
}
