//! Registering a bot: a name and one secret token it plays all its games
//! with (quick play, the open games list, invites), over the same API.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{body, limit, Client};
use crate::error::ApiError;
use crate::ids;
use crate::live::now_ms;
use crate::store::StoreError;
use crate::view::ErrorBody;
use crate::App;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotRequest {
    /// 3 to 24 letters, digits, `-` and `_`; shown as `bot:NAME`.
    #[schema(example = "my-bot")]
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BotToken {
    pub name: String,
    /// Send it as `Authorization: Bearer` when creating, joining and quick
    /// playing, and as the seat token in those games. Shown only once.
    pub token: String,
}

/// Register a bot.
#[utoipa::path(
    post,
    path = "/api/bots",
    tag = "bots",
    request_body = BotRequest,
    responses(
        (status = 201, body = BotToken),
        (status = 400, description = "A bad name", body = ErrorBody),
        (status = 409, description = "`name_taken`", body = ErrorBody),
        (status = 429, body = ErrorBody),
    )
)]
pub async fn register(
    State(app): State<Arc<App>>,
    client: Client,
    request: Result<Json<BotRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<BotToken>), ApiError> {
    limit(&app.limits.create, client.0.ip(), "registrations")?;
    let name = body(request)?.name;
    let ok = (3..=24).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !ok {
        return Err(ApiError::bad_request(
            "a bot's name is 3 to 24 letters, digits, '-' and '_'",
        ));
    }
    let token = format!("bot-{}", ids::token());
    match app
        .store
        .register_bot(&name, &ids::token_hash(&token), now_ms() as i64)
        .await
    {
        Ok(()) => Ok((StatusCode::CREATED, Json(BotToken { name, token }))),
        Err(StoreError::Conflict(_)) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "name_taken",
            format!("a bot named '{name}' is registered already: pick another name"),
        )),
        Err(e) => Err(e.into()),
    }
}
