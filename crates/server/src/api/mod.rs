//! The HTTP routes (docs/api.md).

mod create;
mod games;
mod socket;

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use virus_wars_rules::Side;

use crate::error::ApiError;
use crate::ids::token_hash;
use crate::live::LiveGame;
use crate::App;

/// Largest request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/api/games", post(create::create))
        .route("/api/games/{id}", get(games::show))
        .route("/api/games/{id}/join", post(games::join))
        .route("/api/games/{id}/steps", post(games::steps))
        .route("/api/games/{id}/resign", post(games::resign))
        .route("/api/games/{id}/abort", post(games::abort))
        .route("/api/games/{id}/record", get(games::record))
        .route("/api/games/{id}/live", get(socket::live))
        .fallback(|| async { ApiError::not_found("such route") })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(app)
}

async fn metrics(State(app): State<Arc<App>>) -> impl IntoResponse {
    use std::sync::atomic::Ordering::Relaxed;
    (
        [("content-type", "text/plain; version=0.0.4")],
        app.metrics.render(
            app.games.len(),
            app.computer.queued.load(Relaxed),
            app.computer.thinking.load(Relaxed),
        ),
    )
}

/// A JSON body, or the error that says what is wrong with it.
pub(crate) fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    match b {
        Ok(Json(v)) => Ok(v),
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("the body is over the limit of {MAX_BODY} bytes"),
        )),
        Err(r) => Err(ApiError::bad_request(r.body_text())),
    }
}

/// The seat whose token the request carries (`Authorization: Bearer …`).
pub(crate) fn seat_of(headers: &HeaderMap, g: &LiveGame) -> Result<Side, ApiError> {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "no_token",
                "send your seat token as 'Authorization: Bearer <token>'",
            )
        })?;
    seat_of_token(token, g)
}

pub(crate) fn seat_of_token(token: &str, g: &LiveGame) -> Result<Side, ApiError> {
    let hash = token_hash(token.trim());
    Side::BOTH
        .into_iter()
        .find(|s| g.token_hashes[s.index()] == hash)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong_token",
                "this token holds no seat in this game",
            )
        })
}
