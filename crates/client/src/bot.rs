//! `virus-wars bot`: connects any program that speaks the engine protocol
//! (docs/engine-protocol.md) to a server, so that it plays people and other
//! bots online: it registers (or uses its bot token), finds games by quick
//! play or an invite, and answers each of its turns with the engine's
//! `bestturn`.

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use virus_wars_ai::arena::external::{EngineError, ExternalEngine};
use virus_wars_rules::fog::{read_view, Seen};
use virus_wars_rules::{position_string, Step, Variant};

use crate::http::{Inbox, Outbox, Server};

/// What a bot does.
#[derive(Clone, Debug)]
pub struct BotPlan {
    /// The server (`http://…` or `https://…`).
    pub server: Server,
    /// The engine's command line.
    pub engine: String,
    /// The bot token, or the name to register one under.
    pub identity: Identity,
    /// Games to play, one after another.
    pub games: u64,
    /// Play this game (an invite) instead of quick play.
    pub join: Option<String>,
    /// Play in this tournament (its id): join it, then play each game it
    /// pairs the bot in until it is over (`games` is not counted).
    pub tournament: Option<String>,
    /// Quick play's settings: a variant, its options, a clock.
    pub settings: Value,
    /// Thinking time for a turn of an untimed game.
    pub move_time: Duration,
}

#[derive(Clone, Debug)]
pub enum Identity {
    Token(String),
    Register(String),
}

/// How one game went, for the bot's output line.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    pub id: String,
    pub seat: String,
    pub status: String,
    pub ending: String,
    pub turns: u64,
}

impl std::fmt::Display for Played {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {}: played {} turn(s) as {}; {} ({})",
            self.id, self.turns, self.seat, self.status, self.ending
        )
    }
}

fn error_of(v: &Value) -> String {
    match v["error"]["message"].as_str() {
        Some(m) => format!("{} ({})", m, v["error"]["code"].as_str().unwrap_or("?")),
        None => v.to_string(),
    }
}

/// Registers the bot if asked to; returns its token (and whether it is new).
pub async fn token_of(server: &Server, identity: &Identity) -> Result<(String, bool), String> {
    match identity {
        Identity::Token(t) => Ok((t.clone(), false)),
        Identity::Register(name) => {
            let body = json!({ "name": name }).to_string();
            let (status, v) = server.http("POST", "/api/bots", &body).await?;
            if status != 201 {
                return Err(format!("cannot register bot '{name}': {}", error_of(&v)));
            }
            let token = v["token"].as_str().ok_or("the server sent no token")?;
            Ok((token.to_string(), true))
        }
    }
}

/// Takes a seat: the invite's, a challenge's (or a game the bot already
/// sits in, after a restart), or by quick play.
async fn seat(plan: &BotPlan, token: &str) -> Result<(String, String), String> {
    let join = |id: String| async move {
        plan.server
            .http_as("POST", &format!("/api/games/{id}/join"), Some(token), "")
            .await
    };
    let (status, v) = match &plan.join {
        Some(id) => join(id.clone()).await?,
        None => {
            let (status, mine) = plan
                .server
                .http_as("GET", "/api/bots/games", Some(token), "")
                .await?;
            if status != 200 {
                return Err(format!("cannot list the bot's games: {}", error_of(&mine)));
            }
            match mine.as_array().and_then(|a| a.first()) {
                Some(g) if g["seated"] == true => {
                    let id = g["id"].as_str().unwrap_or_default().to_string();
                    let seat = g["seat"].as_str().unwrap_or_default().to_string();
                    return Ok((id, seat));
                }
                Some(g) => join(g["id"].as_str().unwrap_or_default().to_string()).await?,
                None => {
                    let body = plan.settings.to_string();
                    plan.server
                        .http_as("POST", "/api/quick", Some(token), &body)
                        .await?
                }
            }
        }
    };
    if !(200..300).contains(&status) {
        return Err(format!("cannot take a seat: {}", error_of(&v)));
    }
    let id = v["id"].as_str().ok_or("the server sent no game id")?;
    let seat = v["seat"].as_str().ok_or("the server sent no seat")?;
    Ok((id.to_string(), seat.to_string()))
}

/// Starts the engine `command` (and does its handshake).
async fn start_engine(command: &str) -> Result<ExternalEngine, String> {
    let owned = command.to_string();
    tokio::task::spawn_blocking(move || ExternalEngine::start(&owned))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("engine '{command}': {e}"))
}

/// Joins tournament `id` (or comes back to it).
async fn join_tournament(plan: &BotPlan, token: &str, id: &str) -> Result<(), String> {
    let (status, v) = plan
        .server
        .http_as(
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Some(token),
            "",
        )
        .await?;
    if status != 200 {
        return Err(format!("cannot join tournament {id}: {}", error_of(&v)));
    }
    Ok(())
}

/// The bot's next game in tournament `id` (the first of its games the
/// server lists), waited for; `None` once the tournament is over.
async fn tournament_game(
    plan: &BotPlan,
    token: &str,
    id: &str,
) -> Result<Option<(String, String)>, String> {
    loop {
        let (status, mine) = plan
            .server
            .http_as("GET", "/api/bots/games", Some(token), "")
            .await?;
        if status != 200 {
            return Err(format!("cannot list the bot's games: {}", error_of(&mine)));
        }
        if let Some(g) = mine.as_array().and_then(|a| a.first()) {
            let game = g["id"].as_str().unwrap_or_default().to_string();
            let seat = g["seat"].as_str().unwrap_or_default().to_string();
            return Ok(Some((game, seat)));
        }
        let (status, t) = plan
            .server
            .http_as("GET", &format!("/api/tournaments/{id}"), Some(token), "")
            .await?;
        if status != 200 {
            return Err(format!("cannot read tournament {id}: {}", error_of(&t)));
        }
        if t["state"] == "finished" {
            return Ok(None);
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// The engine's time for this turn: a share of the clock, or `move_time`.
fn turn_time(state: &Value, seat: &str, move_time: Duration) -> Duration {
    let clocks = &state["clocks"];
    if clocks.is_null() {
        return move_time;
    }
    let left = clocks[format!("{seat}_ms")].as_f64().unwrap_or(0.0);
    let inc = clocks["inc_s"].as_f64().unwrap_or(0.0) * 1000.0;
    // A twentieth of what is left plus most of the increment, and a margin
    // for the network.
    let ms = (left / 20.0 + inc * 0.8 - 200.0).clamp(20.0, 60_000.0);
    Duration::from_millis(ms as u64)
}

/// What the seat to move knows of a fog game, from its state's `fog`.
fn seen_of(state: &Value) -> Result<Seen, String> {
    let fog = &state["fog"];
    let text = fog["view"]
        .as_str()
        .ok_or("a fog state without the mover's view")?;
    let view = read_view(text)
        .map_err(|e| format!("the server sent a view this driver cannot read: {e}"))?;
    let hidden = fog["hidden_enemy_pieces"]
        .as_u64()
        .ok_or("a fog state without hidden_enemy_pieces")?;
    Ok(Seen {
        view,
        hidden_enemy_pieces: hidden,
        enemy_bases: Vec::new(),
    })
}

/// Plays one game with the engine; returns how it went.
async fn play_one(
    plan: &BotPlan,
    token: &str,
    (id, seat): (String, String),
    mut engine: ExternalEngine,
) -> Result<(Played, ExternalEngine), String> {
    let (mut out, mut inbox) = plan.server.socket(&id, token).await?;
    let mut played = Played {
        id: id.clone(),
        seat: seat.clone(),
        status: String::new(),
        ending: String::new(),
        turns: 0,
    };
    let mut started = false;
    let mut answered_seq = None;
    // In a fog game: the length of `turns` while this seat's turn goes on,
    // and when its time is up.
    let mut fog_turn: Option<(usize, Instant)> = None;
    let mine = seat.to_lowercase();
    while let Some(m) = inbox.recv().await {
        if m["type"] == "restart" {
            // The server restarts (a rolling restart): the game goes on
            // through another process, or this one once it is back.
            (out, inbox) = reconnect(plan, &id, token).await?;
            answered_seq = None;
            continue;
        }
        if m["type"] == "error" {
            // A stale answer (the state moved on) is retried on the next
            // state; a turn that came after the game ended (the clock ran
            // out while the engine thought) finds the end in the next.
            if m["error"]["code"] != "stale_seq" && m["error"]["code"] != "game_over" {
                return Err(format!(
                    "the server refused the bot's turn: {}",
                    error_of(&m)
                ));
            }
            answered_seq = None;
            continue;
        }
        if m["type"] != "state" {
            continue;
        }
        let Some(to_move) = m["to_move"].as_str() else {
            // Over: the result, and why in the API's words.
            played.status = m["status"].as_str().unwrap_or_default().to_string();
            played.ending = match m["ending"]["reason"].as_str() {
                Some("aborted") | None => "aborted".to_string(),
                Some(_) => {
                    let text = m["ending"]["text"].as_str().unwrap_or_default();
                    // `O wins (X has no legal step)`: the words in brackets.
                    text.split_once(" (")
                        .map_or(text, |(_, why)| why.trim_end_matches(')'))
                        .to_string()
                }
            };
            return Ok((played, engine));
        };
        let seq = m["seq"].as_u64();
        if to_move != mine || answered_seq == seq {
            continue;
        }
        // A seat still free: the game starts when the opponent takes it
        // (its join is announced on this socket).
        if m["seats_free"]["x"] == true || m["seats_free"]["o"] == true {
            continue;
        }
        if !m["fog"].is_null() {
            // A fog game: the seat's view, a step at a time (each step shows
            // more), within what is left of the turn's time.
            let turns = m["turns"].as_array().map_or(0, Vec::len);
            if fog_turn.is_none_or(|(n, _)| n != turns) {
                // The first step of a turn: a new turn, its time starts.
                fog_turn = Some((
                    turns + 1,
                    Instant::now() + turn_time(&m, &seat, plan.move_time),
                ));
                played.turns += 1;
            }
            let deadline = fog_turn.map_or_else(Instant::now, |(_, d)| d);
            let time = deadline
                .saturating_duration_since(Instant::now())
                .max(Duration::from_millis(20));
            let seen = seen_of(&m)?;
            let first = !started;
            started = true;
            let variant = first.then(|| Variant::of_position(&seen.view.as_if_empty()));
            let (e, step) = on_engine(engine, variant, move |engine| {
                engine.fog_step(&seen, time, Duration::from_secs(5))
            })
            .await?;
            engine = e;
            send_steps(&mut out, seq, &[step]).await?;
            answered_seq = seq;
            continue;
        }
        let text = m["position"].as_str().ok_or("a state without a position")?;
        let position = position_string::read(text)
            .map_err(|e| format!("the server sent a position this engine cannot read: {e}"))?;
        let time = turn_time(&m, &seat, plan.move_time);
        let first = !started;
        started = true;
        let variant = first.then(|| Variant::of_position(&position));
        let (e, steps) = on_engine(engine, variant, move |engine| {
            engine.turn(&position, time, Duration::from_secs(5))
        })
        .await?;
        engine = e;
        send_steps(&mut out, seq, &steps).await?;
        answered_seq = seq;
        played.turns += 1;
    }
    Err(format!("the server closed game {id}'s socket"))
}

/// The game's socket again after a restart: tried every half second for
/// up to a minute (a process coming back, or the proxy finding another).
async fn reconnect(plan: &BotPlan, id: &str, token: &str) -> Result<(Outbox, Inbox), String> {
    let mut tries = 0;
    loop {
        match plan.server.socket(id, token).await {
            Ok(socket) => return Ok(socket),
            Err(e) if tries >= 120 => return Err(format!("the server did not come back: {e}")),
            Err(_) => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

/// Asks the engine (on a blocking thread: it answers through pipes),
/// telling it of a new game first where `new_game` is some; the engine
/// comes back with the answer.
async fn on_engine<T: Send + 'static>(
    mut engine: ExternalEngine,
    new_game: Option<Variant>,
    ask: impl FnOnce(&mut ExternalEngine) -> Result<T, EngineError> + Send + 'static,
) -> Result<(ExternalEngine, T), String> {
    let (engine, answer) = tokio::task::spawn_blocking(move || {
        let answer = match &new_game {
            Some(variant) => engine.new_game(variant).and_then(|()| ask(&mut engine)),
            None => ask(&mut engine),
        };
        (engine, answer)
    })
    .await
    .map_err(|e| format!("the engine driver failed: {e}"))?;
    Ok((engine, answer.map_err(|e| format!("engine: {e}"))?))
}

/// Sends the seat's steps at `seq`.
async fn send_steps<S>(out: &mut S, seq: Option<u64>, steps: &[Step]) -> Result<(), String>
where
    S: futures_util::Sink<Message> + Unpin,
    S::Error: std::fmt::Display,
{
    let steps: Vec<String> = steps.iter().map(|s| s.to_string()).collect();
    let message = json!({"type": "steps", "seq": seq, "steps": steps});
    out.send(Message::Text(message.to_string().into()))
        .await
        .map_err(|e| crate::http::with_hint(format!("socket: {e}")))
}

/// Plays `plan.games` games; `registered` hears a new bot's token and
/// `report` each game as it ends. The engine is started first (a bot whose
/// engine does not start registers nothing), once, and told of each game.
pub async fn run(
    plan: BotPlan,
    registered: impl FnOnce(&str),
    mut report: impl FnMut(&Played),
) -> Result<Vec<Played>, String> {
    let mut engine = start_engine(&plan.engine).await?;
    let (token, new) = token_of(&plan.server, &plan.identity).await?;
    if new {
        registered(&token);
    }
    let mut all = Vec::new();
    if let Some(tournament) = plan.tournament.clone() {
        join_tournament(&plan, &token, &tournament).await?;
        let mut engine = Some(engine);
        while let Some(game) = tournament_game(&plan, &token, &tournament).await? {
            let e = match engine.take() {
                Some(e) => e,
                None => start_engine(&plan.engine).await?,
            };
            match play_one(&plan, &token, game, e).await {
                Ok((played, e)) => {
                    engine = Some(e);
                    report(&played);
                    all.push(played);
                }
                // An engine that did not answer (or a game's socket lost)
                // costs that game at most: a fresh engine plays on, from
                // the same game if it is still going.
                Err(e) => eprintln!("{e}: playing on with a fresh engine"),
            }
        }
        return Ok(all);
    }
    for _ in 0..plan.games {
        let game = seat(&plan, &token).await?;
        let (played, e) = play_one(&plan, &token, game, engine).await?;
        engine = e;
        report(&played);
        all.push(played);
        if plan.join.is_some() {
            break;
        }
    }
    Ok(all)
}
