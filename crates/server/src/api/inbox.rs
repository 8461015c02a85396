//! A player's notifications (docs/api.md, Notifications): the list, newest
//! first, marking them read, and the user socket that brings each one to
//! every page the player has open, on whichever process holds it.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::Query;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::body;
use super::error::ApiError;
use super::SignedIn;
use crate::inbox;
use crate::view::ErrorBody;

/// Most notifications one page of the list gives.
pub const MOST_A_PAGE: i64 = 50;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NotesQuery {
    /// The `next` of the page before: notifications numbered below it.
    pub before: Option<i64>,
    /// 1 to 50, default 20.
    pub limit: Option<i64>,
}

/// Your notifications, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct Notes {
    /// How many you have not read.
    pub unread: i64,
    /// Each `{"id","kind","at","read",…}` with its kind's fields (docs/api.md).
    #[schema(value_type = Vec<Object>)]
    pub items: Vec<serde_json::Value>,
    /// Ask with `before` set to this for older ones; `null` at the end.
    pub next: Option<i64>,
}

/// Your notifications, newest first, a page at a time, and how many are
/// unread. Only the newest 300 are kept.
#[utoipa::path(get, path = "/api/me/notifications", tag = "people", params(NotesQuery),
    responses(
        (status = 200, body = Notes),
        (status = 400, description = "`malformed`: a bad limit or an unknown parameter", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn notifications(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
    query: Result<Query<NotesQuery>, QueryRejection>,
) -> Result<Json<Notes>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = q.limit.unwrap_or(20);
    if !(1..=MOST_A_PAGE).contains(&size) {
        return Err(ApiError::bad_request(format!(
            "limit is 1 to {MOST_A_PAGE}, not {size}"
        )));
    }
    let before = q.before.unwrap_or(i64::MAX);
    let (_, read_up_to, unread) = app.store.note_counts(&me.account.id).await?;
    let mut rows = app
        .store
        .notes_before(&me.account.id, before, size + 1)
        .await?;
    let more = rows.len() as i64 > size;
    rows.truncate(size as usize);
    let next = more.then(|| rows.last().map(|r| r.seq)).flatten();
    Ok(Json(Notes {
        unread,
        items: rows.iter().map(|n| inbox::shown(n, read_up_to)).collect(),
        next,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadUpTo {
    /// The newest notification read: it and every older one are read.
    pub up_to: i64,
}

/// How many notifications are unread.
#[derive(Debug, Serialize, ToSchema)]
pub struct Unread {
    pub unread: i64,
}

/// Mark your notifications read up to a number (an older mark, sent late
/// by another tab, changes nothing). Every page you have open hears the
/// new count.
#[utoipa::path(post, path = "/api/me/notifications/read", tag = "people", request_body = ReadUpTo,
    responses(
        (status = 200, body = Unread),
        (status = 400, description = "`malformed`", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn read(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
    request: Result<Json<ReadUpTo>, JsonRejection>,
) -> Result<Json<Unread>, ApiError> {
    let r = body(request)?;
    if r.up_to < 0 {
        return Err(ApiError::bad_request(format!(
            "up_to is a notification's id (1 or more), not {}",
            r.up_to
        )));
    }
    app.store.read_notes(&me.account.id, r.up_to).await?;
    app.doorbells.ring(&me.account.id);
    app.store.ring_elsewhere(&me.account.id).await?;
    let (_, _, unread) = app.store.note_counts(&me.account.id).await?;
    Ok(Json(Unread { unread }))
}
