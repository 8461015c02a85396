//! A game: its state, joining it, playing, resigning, its record.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use virus_wars_rules::contest::Contest;
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::record::Record;
use virus_wars_rules::Step;

use super::{body, seat_of};
use crate::error::ApiError;
use crate::ids;
use crate::live::{self, now_ms, Player};
use crate::App;

pub async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let shared = live::get(&app, &id).await?;
    let g = shared.lock().await;
    Ok(Json(live::state(&g, now_ms())))
}

pub async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let shared = live::get(&app, &id).await?;
    let mut g = shared.lock().await;
    let free = virus_wars_rules::Side::BOTH
        .into_iter()
        .find(|s| g.players[s.index()] == Player::Human && g.token_hashes[s.index()].is_empty());
    let Some(side) = free else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_free_seat",
            "both seats are taken: you can watch the game live",
        ));
    };
    let token = ids::token();
    let hash = ids::token_hash(&token);
    if !app.store.take_seat(&g.id, side.index(), &hash).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_free_seat",
            "the seat was taken a moment ago",
        ));
    }
    g.token_hashes[side.index()] = hash;
    let _ = g.updates.send(Arc::new(live::state(&g, now_ms())));
    Ok(Json(json!({
        "seat": side.to_string().to_lowercase(),
        "token": token,
    })))
}

/// `{"seq": N, "steps": ["c3", "d4"]}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepsRequest {
    pub seq: u64,
    pub steps: Vec<String>,
}

/// Parses step texts; an error names the one that is not a step.
pub fn parse_steps(texts: &[String]) -> Result<Vec<Step>, ApiError> {
    texts
        .iter()
        .enumerate()
        .map(|(k, t)| parse_step(t).map_err(|e| ApiError::bad_request(format!("steps[{k}]: {e}"))))
        .collect()
}

pub async fn steps(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    request: Result<Json<StepsRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let shared = live::get(&app, &id).await?;
    let side = seat_of(&headers, &*shared.lock().await)?;
    let request = body(request)?;
    let steps = parse_steps(&request.steps)?;
    Ok(Json(
        live::play(&app, &shared, side, request.seq, &steps).await?,
    ))
}

/// Resigns or aborts for the token's seat.
async fn end_by(
    app: Arc<App>,
    id: String,
    headers: HeaderMap,
    how: fn(
        &mut Contest,
        virus_wars_rules::Side,
    ) -> Result<(), virus_wars_rules::contest::RefusalError>,
) -> Result<Json<Value>, ApiError> {
    let shared = live::get(&app, &id).await?;
    let mut g = shared.lock().await;
    let side = seat_of(&headers, &g)?;
    let mut next = g.contest.clone();
    how(&mut next, side)?;
    Ok(Json(live::commit(&app, &mut g, next, &[], now_ms()).await?))
}

pub async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    end_by(app, id, headers, |c, side| c.resign(side)).await
}

pub async fn abort(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    end_by(app, id, headers, |c, _| c.abort()).await
}

/// The game's record (`.vwr`), finished or not.
pub async fn record(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let shared = live::get(&app, &id).await?;
    let g = shared.lock().await;
    let mut r = Record::new(g.contest.game.clone());
    r.event = "virus-wars server".into();
    r.site = format!("game {}", g.id);
    r.date = live::record_date(g.created_ms);
    r.x_player = g.players[0].name();
    r.o_player = g.players[1].name();
    if let Some(e) = g.contest.declared() {
        r.declare(e);
    }
    if let Some(c) = g.contest.clocks {
        r.time_control = format!(
            "{}+{}",
            c.control.base_ms as f64 / 1000.0,
            c.control.increment_ms as f64 / 1000.0
        );
    }
    if g.contest.aborted() {
        r.termination = "aborted".into();
    }
    Ok((
        [
            ("content-type", "text/plain; charset=utf-8".to_string()),
            (
                "content-disposition",
                format!("attachment; filename=\"virus-wars-{}.vwr\"", g.id),
            ),
        ],
        r.write(),
    ))
}
