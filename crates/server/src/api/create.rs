//! `POST /api/games`: a new game against a person or the computer.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Map, Value};
use tokio::sync::broadcast;
use virus_wars_rules::contest::{Clocks, Contest, TimeControl};
use virus_wars_rules::{position_string, Game, Preset, Side, VariantOptions};

use super::body;
use crate::error::ApiError;
use crate::ids;
use crate::live::{self, now_ms, LiveGame, Player};
use crate::store::GameRow;
use crate::App;

/// Longest base time (a week) and increment (a day) a clock may have.
const MAX_BASE_S: f64 = 7.0 * 86_400.0;
const MAX_INC_S: f64 = 86_400.0;

fn text_of(key: &str, v: &Value) -> Result<String, ApiError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(if *b { "yes" } else { "no" }.to_string()),
        _ => Err(ApiError::bad_request(format!(
            "{key} must be a string, a number or true/false"
        ))),
    }
}

fn clock_of(v: &Value) -> Result<Option<TimeControl>, ApiError> {
    let Value::Object(c) = v else {
        return match v {
            Value::Null => Ok(None),
            _ => Err(ApiError::bad_request(
                "clock is null or {\"base_s\":300,\"inc_s\":5}",
            )),
        };
    };
    if let Some(k) = c.keys().find(|k| *k != "base_s" && *k != "inc_s") {
        return Err(ApiError::bad_request(format!(
            "clock: unknown field '{k}': expected base_s and inc_s"
        )));
    }
    let seconds = |key: &str, max: f64, min: f64| -> Result<u64, ApiError> {
        let s = c
            .get(key)
            .map_or(Some(0.0), Value::as_f64)
            .filter(|s| (min..=max).contains(s))
            .ok_or_else(|| {
                ApiError::bad_request(format!("clock.{key} must be seconds from {min} to {max}"))
            })?;
        Ok((s * 1000.0).round() as u64)
    };
    Ok(Some(TimeControl {
        base_ms: seconds("base_s", MAX_BASE_S, 1.0)?,
        increment_ms: seconds("inc_s", MAX_INC_S, 0.0)?,
    }))
}

pub async fn create(
    State(app): State<Arc<App>>,
    request: Result<Json<Map<String, Value>>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let fields = body(request)?;
    let mut options = VariantOptions::default();
    let mut opponent = Player::Human;
    let mut side = None;
    let mut clock = None;
    for (key, value) in &fields {
        match key.as_str() {
            "variant" => {
                let name = text_of(key, value)?;
                if name != "custom" {
                    options.preset = Some(
                        name.parse::<Preset>()
                            .map_err(|e| ApiError::bad_request(e.to_string()))?,
                    );
                }
            }
            "opponent" => {
                opponent = Player::parse(&text_of(key, value)?).map_err(ApiError::bad_request)?
            }
            "side" => {
                side = match text_of(key, value)?.as_str() {
                    "x" => Some(Side::X),
                    "o" => Some(Side::O),
                    "random" => None,
                    other => {
                        return Err(ApiError::bad_request(format!(
                            "side is x, o or random, not '{other}'"
                        )))
                    }
                }
            }
            "clock" => clock = clock_of(value)?,
            _ => options
                .set(key, &text_of(key, value)?)
                .map_err(ApiError::bad_request)?,
        }
    }
    let variant = options
        .build()
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let side = side.unwrap_or_else(|| {
        let mut b = [0u8];
        let _ = getrandom::fill(&mut b);
        if b[0] & 1 == 0 {
            Side::X
        } else {
            Side::O
        }
    });
    let game = Game::new(variant.clone()).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let now = now_ms();
    let token = ids::token();
    let mut players = [Player::Human, Player::Human];
    players[(!side).index()] = opponent;
    let mut hashes = [String::new(), String::new()];
    hashes[side.index()] = ids::token_hash(&token);
    let live = LiveGame {
        id: ids::game_id(),
        variant: variant.clone(),
        contest: Contest::new(game, clock.map(|c| Clocks::new(c, now))),
        players,
        token_hashes: hashes,
        // Sockets only need the latest state: a lagging one is sent it afresh.
        updates: broadcast::channel(4).0,
        thinking: false,
        created_ms: now,
    };
    let row = GameRow {
        id: live.id.clone(),
        variant: live::variant_text(&variant),
        start_position: position_string::write(live.contest.game.start()),
        players: live.players.clone().map(|p| p.name()),
        token_hashes: live.token_hashes.clone(),
        clock: clock.map(|c| (c.base_ms as i64, c.increment_ms as i64)),
        left_ms: clock.map_or([0, 0], |c| [c.base_ms as i64; 2]),
        declared: String::new(),
        declared_side: String::new(),
        finished: false,
        created_ms: now as i64,
    };
    app.store.insert_game(&row).await?;
    app.metrics
        .games_created
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let id = live.id.clone();
    let shared = app.games.insert(live);
    crate::computer::maybe_move(&app, &shared);
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id,
            "seat": side.to_string().to_lowercase(),
            "token": token,
            "invite": id,
        })),
    ))
}
