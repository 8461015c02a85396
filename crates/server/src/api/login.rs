//! Logging in and out: `POST /api/session`, `DELETE /api/session`,
//! `DELETE /api/sessions` (the password checked under `guard`'s limits).

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use super::accounts::{me_of, Credentials, Me};
use super::body;
use super::error::ApiError;
use super::guard::check_login;
use super::{Caller, SignedIn, Unmetered};
use crate::session;
use crate::view::ErrorBody;
use crate::App;

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
    Caller {
        app,
        client,
        headers,
    }: Caller,
    request: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(request)?;
    let account = check_login(&app, &client, &c.name, &c.password).await?;
    // Right passwords too, each storing a session: so many an hour.
    let per_hour = app.limits.logins_per_hour;
    super::guard::per_hour(
        &app,
        &format!("login-ok:{}", account.id),
        per_hour,
        |secs| format!("this account logged in {per_hour} times this hour: try again in {secs} s"),
    )
    .await?;
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
        let hash = crate::ids::token_hash(&token);
        let account = app.store.session_account(&hash).await?.map(|(a, _)| a.id);
        app.store.delete_session(&hash).await?;
        // This device's pages close their user sockets now (the others'
        // look, find their session lasts, and stay).
        if let Some(account) = account {
            session::sessions_ended(&app, &account).await?;
        }
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
    SignedIn { app, viewer, .. }: SignedIn<Unmetered>,
) -> Result<Response, ApiError> {
    app.store.delete_sessions(&viewer.account.id, "").await?;
    // Every page's user socket, on every process, closes now.
    session::sessions_ended(&app, &viewer.account.id).await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, session::set_cookie(&app, ""))],
    )
        .into_response())
}
