//! Logging in and out: `POST /api/session`, `DELETE /api/session`,
//! `DELETE /api/sessions` (the password checked under `guard`'s limits).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::accounts::{me_of, Credentials, Me};
use super::guard::check_login;
use super::{body, Client};
use crate::error::ApiError;
use crate::session;
use crate::view::ErrorBody;
use crate::App;

/// Right-password logins are counted an hour at a time.
const LOGINS_WINDOW_MS: i64 = 3_600_000;

/// Log in: the session cookie, and who you are.
#[utoipa::path(post, path = "/api/session", tag = "accounts", request_body = Credentials,
    responses(
        (status = 200, description = "Logged in: the `vw_session` cookie is set", body = Me),
        (status = 400, description = "Malformed", body = ErrorBody),
        (status = 401, description = "`wrong_login`: wrong name or password", body = ErrorBody),
        (status = 429, description = "Too many failed logins for this name or address: wait `Retry-After` seconds", body = ErrorBody),
    )
)]
pub async fn log_in(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    request: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(request)?;
    let account = check_login(&app, &client, &c.name, &c.password).await?;
    // Right passwords too, each storing a session: so many an hour.
    let now = crate::live::now_ms() as i64;
    let subject = format!("login-ok:{}", account.id);
    let per_hour = i64::from(app.limits.logins_per_hour);
    if per_hour > 0 {
        let (count, since) = app.store.count_up(&subject, now, LOGINS_WINDOW_MS).await?;
        if count > per_hour {
            let secs = ((since + LOGINS_WINDOW_MS - now).max(1000) as u64).div_ceil(1000);
            return Err(ApiError {
                retry_after: Some(secs),
                ..ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!(
                        "this account logged in {per_hour} times this hour: try again in {secs} s"
                    ),
                )
            });
        }
    }
    // A session this device held before ends with it: one session a device.
    let cookie = session::start(&app, &account, &headers).await?;
    let me = me_of(&app, &account).await?;
    Ok(([(header::SET_COOKIE, cookie)], Json(me)).into_response())
}

/// Log out on this device.
#[utoipa::path(delete, path = "/api/session", tag = "accounts",
    responses((status = 204, description = "Logged out: the cookie is cleared")))]
pub async fn log_out(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = session::cookie_token(&app, &headers) {
        app.store
            .delete_session(&crate::ids::token_hash(&token))
            .await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, session::set_cookie(&app, ""))],
    )
        .into_response())
}

/// Log out everywhere: every session of your account ends.
#[utoipa::path(delete, path = "/api/sessions", tag = "accounts",
    responses(
        (status = 204, description = "Every session ended"),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn log_out_everywhere(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let viewer = session::logged_in(&app, &headers).await?;
    app.store.delete_sessions(&viewer.account.id, "").await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, session::set_cookie(&app, ""))],
    )
        .into_response())
}
