//! Registering a bot: a name and one secret token it plays all its games
//! with (quick play, the open games list, invites), over the same API.

use super::{limit, Caller, Limited};
use crate::seat::Seat;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use virus_wars_ai::Sitting;

use super::body;
use super::error::ApiError;
use super::refusals::RateLimited;
use crate::code::Code;
use crate::ids;
use crate::store::StoreError;
use crate::view::ErrorBody;

/// Most bots one account registers (docs/api.md, Bots).
pub const MOST_BOTS_PER_ACCOUNT: i64 = 5;

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
#[utoipa::path(post, path = "/api/bots", tag = "bots", request_body = BotRequest,
    responses(
        (status = 201, body = BotToken),
        (status = 400, description = "A bad name", body = ErrorBody),
        (status = 403, description = "`banned`: the signed-in account is banned", body = ErrorBody),
        (status = 409, description = "`name_taken`; `too_many`: the account has its 5 bots", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn register(
    Caller {
        app,
        client,
        headers,
    }: Caller,
    request: Result<Json<BotRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<BotToken>), ApiError> {
    limit(&app.limits.create, client, "registrations")?;
    // Registered while logged in, the bot is that player's: it may then
    // play rated games (never against its owner).
    let owner = crate::session::viewer(&app, &headers)
        .await?
        .map_or_else(String::new, |v| v.account.id);
    let name = body(request)?.name;
    let ok = (3..=24).contains(&name.len())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if !ok {
        return Err(ApiError::bad_request(
            "a bot's name is 3 to 24 lowercase letters, digits, '-' and '_'",
        ));
    }
    crate::names::unlike_others(&app, &name).await?;
    // A bot's name is a name taken like an account's: counted with the
    // sign-ups of the address.
    let per_hour = app.limits.signups_per_hour;
    super::guard::per_hour(&app, &format!("signup:{client}"), per_hour, |secs| {
        format!(
            "{per_hour} accounts and bots were registered from your address this hour: \
             try again in {secs} s"
        )
    })
    .await?;
    let token = format!("bot-{}", ids::token());
    match app
        .store
        .register_bot(
            &name,
            &ids::token_hash(&token),
            &owner,
            MOST_BOTS_PER_ACCOUNT,
            app.clock.now_ms() as i64,
        )
        .await
    {
        Ok(()) => Ok((StatusCode::CREATED, Json(BotToken { name, token }))),
        // Counted in the registration's own transaction, under a lock of
        // the owner's row: registrations at once never pass the cap.
        Err(StoreError::TooMany(most)) => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!("an account registers at most {most} bots, and yours has them"),
        )),
        Err(StoreError::Conflict(_)) => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NameTaken,
            format!("the name '{name}' is taken by a bot or an account: pick another name"),
        )),
        Err(e) => Err(e.into()),
    }
}

/// A game a bot sits in or is challenged to.
#[derive(Debug, Serialize, ToSchema)]
pub struct BotGame {
    pub id: String,
    /// The bot's side: `x` or `o`.
    pub seat: String,
    /// Whether the bot has taken the seat (a challenge waits for `join`).
    pub seated: bool,
    pub status: String,
}

/// The bot's unfinished games and challenges (a person created a game with
/// `"opponent":"bot:NAME"`), oldest first.
#[utoipa::path(get, path = "/api/bots/games", tag = "bots", security(("bot_token" = [])),
    responses(
        (status = 200, body = Vec<BotGame>),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Not a bot token", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn games(Limited { app, headers, .. }: Limited) -> Result<Json<Vec<BotGame>>, ApiError> {
    let token = super::bearer(&headers).ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            Code::NoToken,
            "send the bot token as 'Authorization: Bearer <token>'",
        )
    })?;
    let hash = ids::token_hash(token);
    let Some((name, seen_ms)) = super::bot_by_token(&app, token).await? else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::WrongToken,
            "this is not a bot token",
        ));
    };
    // A bot that asks for its games is online, as a person whose page asks
    // is (written once a minute).
    let now = app.clock.now_ms() as i64;
    if now - seen_ms >= crate::store::SEEN_EVERY_MS {
        crate::session::mark_seen(&app, &format!("bot:{name}"), now).await;
    }
    let player = Seat::Bot(name);
    let mut out = Vec::new();
    for id in app.store.games_of(&player.name()).await? {
        let shared = crate::live::get(&app, &id).await?;
        let g = shared.lock().await;
        if g.table.contest.finished() {
            continue;
        }
        for side in virus_wars_rules::Side::BOTH {
            let k = side.index();
            let holder = g.holder(side);
            if g.table.seats[k] == player && (!holder.seated() || holder.is_token(&hash)) {
                out.push(BotGame {
                    id: g.id.clone(),
                    seat: crate::view::side_name(side),
                    seated: holder.seated(),
                    status: crate::present::status_words(&g.table.contest),
                });
            }
        }
    }
    Ok(Json(out))
}
