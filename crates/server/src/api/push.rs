//! Web Push subscriptions (docs/api.md, Web Push): a browser subscribes
//! with the server's public VAPID key, and gives its PushSubscription.

use super::{Limited, SignedIn};
use crate::session::Viewer;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::error::ApiError;
use crate::code::Code;
use crate::push::check_endpoint;
use crate::store::PushRow;
use crate::view::ErrorBody;

/// Most push subscriptions one account may hold (its browsers).
pub const MOST_SUBSCRIPTIONS: i64 = 5;
/// Longest endpoint, in bytes.
const MAX_ENDPOINT: usize = 1024;

/// The server's public VAPID key.
#[derive(Debug, Serialize, ToSchema)]
pub struct PushKey {
    /// base64url, as `pushManager.subscribe({applicationServerKey})` takes it.
    pub key: String,
}

/// The key a browser subscribes with.
#[utoipa::path(get, path = "/api/push/key", tag = "people",
    responses((status = 200, body = PushKey)))]
pub async fn key(Limited { app, .. }: Limited) -> Result<Json<PushKey>, ApiError> {
    Ok(Json(PushKey {
        key: app.pusher.public.clone(),
    }))
}

/// A browser's PushSubscription, as its `toJSON()` gives it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Subscription {
    pub endpoint: String,
    pub keys: SubscriptionKeys,
    /// As browsers give it; not used.
    #[serde(rename = "expirationTime", default)]
    #[schema(value_type = Option<f64>)]
    pub _expiration_time: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key, base64url (65 bytes).
    pub p256dh: String,
    /// Its authentication secret, base64url (16 bytes).
    pub auth: String,
}

/// A browser's subscription, for your account.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Unsubscription {
    pub endpoint: String,
}

fn read<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(e.to_string()))
}

/// Subscribe this browser: your challenges and turns to play (in games
/// played over days) reach it when no page of yours is open.
#[utoipa::path(post, path = "/api/me/push", tag = "people", request_body = Subscription,
    responses(
        (status = 204, description = "Subscribed (again: its keys are replaced)"),
        (status = 400, description = "`malformed`: not https, not public, keys of the wrong size", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 409, description = "`too_many`: 5 browsers already", body = ErrorBody),
    ))]
pub async fn subscribe(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    request: Bytes,
) -> Result<StatusCode, ApiError> {
    let s: Subscription = read(&request)?;
    if s.endpoint.len() > MAX_ENDPOINT {
        return Err(ApiError::bad_request(format!(
            "endpoint is at most {MAX_ENDPOINT} bytes"
        )));
    }
    check_endpoint(&s.endpoint, app.pusher.allows_loopback()).map_err(ApiError::bad_request)?;
    for (name, value, size) in [
        ("keys.p256dh", &s.keys.p256dh, 65),
        ("keys.auth", &s.keys.auth, 16),
    ] {
        match URL_SAFE_NO_PAD.decode(value.trim_end_matches('=')) {
            Ok(bytes) if bytes.len() == size => {}
            _ => {
                return Err(ApiError::bad_request(format!(
                "{name} is {size} bytes in base64url, as the browser's PushSubscription gives it"
            )))
            }
        }
    }
    // The browser's key must be a point of P-256 (else every push to it fails).
    let p256dh = URL_SAFE_NO_PAD
        .decode(s.keys.p256dh.trim_end_matches('='))
        .unwrap_or_default();
    let auth = URL_SAFE_NO_PAD
        .decode(s.keys.auth.trim_end_matches('='))
        .unwrap_or_default();
    if ece::encrypt(&p256dh, &auth, b"check").is_err() {
        return Err(ApiError::bad_request(
            "keys.p256dh is not a P-256 public key: give the browser's PushSubscription as it is",
        ));
    }
    let row = PushRow {
        endpoint: s.endpoint,
        account: me.id,
        p256dh: s.keys.p256dh.trim_end_matches('=').to_string(),
        auth: s.keys.auth.trim_end_matches('=').to_string(),
    };
    let now = app.clock.now_ms() as i64;
    if !app.store.add_push(&row, now, MOST_SUBSCRIPTIONS).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!("{MOST_SUBSCRIPTIONS} browsers are subscribed already: unsubscribe one first"),
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Unsubscribe a browser of yours (nothing if it was not).
#[utoipa::path(delete, path = "/api/me/push", tag = "people", request_body = Unsubscription,
    responses(
        (status = 204, description = "Not subscribed"),
        (status = 400, description = "`malformed`", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn unsubscribe(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    request: Bytes,
) -> Result<StatusCode, ApiError> {
    let s: Unsubscription = read(&request)?;
    app.store.remove_push(&s.endpoint, Some(&me.id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
