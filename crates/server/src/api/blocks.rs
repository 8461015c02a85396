//! Blocking (docs/api.md, Blocks): a player you block cannot challenge you
//! (nor you them), is never paired with you by quick play, and their open
//! challenges to you (and yours to them) end.

use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use super::error::ApiError;
use super::people::{me_and, Toward};
use super::SignedIn;
use crate::code::Code;
use crate::session::Viewer;
use crate::view::ErrorBody;

/// Most players one account may block.
pub const MOST_BLOCKED: i64 = 1000;

/// Block a player (blocking again changes nothing).
#[utoipa::path(put, path = "/api/me/blocks/{name}", tag = "people",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You block them"),
        (status = 400, description = "`malformed`: yourself", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no living player of that name", body = ErrorBody),
        (status = 409, description = "`too_many`: you block 1,000 players already", body = ErrorBody),
    ))]
pub async fn block(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (me, them) = me_and(&app, me, &name, Toward::Start("block")).await?;
    let now = app.clock.now_ms() as i64;
    if !app
        .store
        .block_player(&me.id, &them.id, now, MOST_BLOCKED)
        .await?
    {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!("you block {MOST_BLOCKED} players already: unblock one first"),
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// Stop blocking a player (nothing if you did not).
#[utoipa::path(delete, path = "/api/me/blocks/{name}", tag = "people",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You do not block them"),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no player of that name", body = ErrorBody),
    ))]
pub async fn unblock(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    // A deleted player can still be unblocked.
    let (me, them) = me_and(&app, me, &name, Toward::End).await?;
    app.store.unblock_player(&me.id, &them.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The players you block.
#[derive(Debug, Serialize, ToSchema)]
pub struct Blocked {
    /// Their names, in alphabetical order (at most 1,000).
    pub players: Vec<String>,
}

/// The players you block.
#[utoipa::path(get, path = "/api/me/blocks", tag = "people",
    responses(
        (status = 200, body = Blocked),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn blocked(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
) -> Result<Json<Blocked>, ApiError> {
    Ok(Json(Blocked {
        players: app.store.blocked_names(&me.account.id).await?,
    }))
}
