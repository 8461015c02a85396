//! `POST /api/games`: a new game against a person, a bot or the computer.

use super::{Limited, NewGames};
use crate::seat::Seat;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;

use super::error::ApiError;
use super::refusals::RateLimited;
use super::{bearer, body};
use crate::code::Code;
use crate::ids;
use crate::store::Holder;
use crate::view::{ErrorBody, NewGame, SeatTaken};
use crate::App;

use crate::games::create::{random_side, seating, start, Sitter};
use crate::games::settings::{settings, Settings};

/// Who takes a seat: a person (with a new seat token, and their account
/// when logged in) or a registered bot (its bot token, its account), by
/// the request's `Authorization` header and session cookie.
pub struct Taker {
    pub seat: Seat,
    pub token: String,
    /// The account's id and name ('' for none).
    pub account: String,
    pub account_name: String,
}

impl Taker {
    /// The sitter this taker makes, going by `chosen` unless an account
    /// names it.
    pub fn sitter(&self, chosen: &str) -> Sitter {
        let name = if self.account.is_empty() || matches!(self.seat, Seat::Bot(_)) {
            chosen
        } else {
            &self.account_name
        };
        Sitter {
            seat: self.seat.clone(),
            holder: Holder::new(&ids::token_hash(&self.token), name, &self.account),
        }
    }
}

pub async fn taker(app: &App, headers: &HeaderMap) -> Result<Taker, ApiError> {
    if let Some(e) = super::bad_authorization(headers) {
        return Err(e);
    }
    let Some(token) = bearer(headers) else {
        let viewer = crate::session::viewer(app, headers).await?;
        return Ok(Taker {
            seat: Seat::Human,
            token: ids::token(),
            account: viewer
                .as_ref()
                .map_or_else(String::new, |v| v.account.id.clone()),
            account_name: viewer.map_or_else(String::new, |v| v.account.name),
        });
    };
    match super::bot_by_token(app, token).await? {
        Some((name, _)) => Ok(Taker {
            seat: Seat::Bot(name.clone()),
            token: token.to_string(),
            account: format!("bot:{name}"),
            account_name: name,
        }),
        None => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::WrongToken,
            "this is not a bot token: people take seats without an Authorization header",
        )),
    }
}

/// Whether accounts `a` and `b` may play a rated game together: a bot
/// only if a player registered it, and never against its owner (or
/// another bot of the same owner), so that nobody rates a game against
/// themselves.
pub async fn rated_pair(app: &App, a: &str, b: &str) -> Result<(), ApiError> {
    let owner = |id: String| async move {
        if !id.starts_with("bot:") {
            return Ok::<_, ApiError>(id);
        }
        bot_owner(app, &id).await
    };
    let (a_owner, b_owner) = (owner(a.to_string()).await?, owner(b.to_string()).await?);
    if a_owner == b_owner {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::AlreadySeated,
            "a rated game is never played against your own bot",
        ));
    }
    Ok(())
}

/// The account that registered bot account `bot` (`bot:NAME`); `403
/// account_needed` where none did: such a bot plays no rated game.
pub async fn bot_owner(app: &App, bot: &str) -> Result<String, ApiError> {
    let owner = app
        .store
        .account(bot)
        .await?
        .map(|r| r.owner)
        .unwrap_or_default();
    if owner.is_empty() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::AccountNeeded,
            "a bot plays rated games only when a logged-in player registered it",
        ));
    }
    Ok(owner)
}

/// `401 account_needed`: a rated game is played between accounts.
pub fn account_needed() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        Code::AccountNeeded,
        "a rated game is played between accounts: log in or sign up first",
    )
}

/// Create a game; the answer holds your seat and its secret token.
///
/// With a bot token as `Authorization: Bearer`, the bot takes the seat.
#[utoipa::path(post, path = "/api/games", tag = "games", request_body = NewGame,
    responses(
        (status = 201, description = "The game, your seat and its token", body = SeatTaken),
        (status = 400, description = "A bad field or variant option", body = ErrorBody),
        (status = 413, description = "The body is over 16 KiB", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn create(
    Limited { app, headers, .. }: Limited<NewGames>,
    request: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    let s = settings(&body(request)?)?;
    if let Seat::Bot(name) = &s.opponent {
        // A challenge: the seat waits for that bot (`GET /api/bots/games`).
        if !app.store.bot_exists(name).await? {
            return Err(ApiError::bad_request(format!(
                "opponent: no bot named '{name}' is registered here"
            )));
        }
        if s.listed {
            return Err(ApiError::bad_request(
                "a challenge to a bot is not listed: its seat waits for that bot",
            ));
        }
    }
    let who = taker(&app, &headers).await?;
    if s.rated {
        rated_settings(&s)?;
        if who.account.is_empty() {
            return Err(account_needed());
        }
        // A bot creating a rated game must have an owner.
        rated_pair(&app, &who.account, "").await?;
    }
    if matches!(s.opponent, Seat::Computer(_)) {
        crate::computer::admit_computer_game(&app)?;
    }
    if who.seat != Seat::Human && who.seat == s.opponent {
        return Err(ApiError::bad_request(
            "opponent: a bot cannot challenge itself; challenge another bot, or play a person",
        ));
    }
    let side = s.side.unwrap_or_else(random_side);
    let seats = seating(side, who.sitter(&s.name), Sitter::empty(s.opponent.clone()));
    let (id, _) = start(&app, &s, seats).await?;
    Ok((
        StatusCode::CREATED,
        Json(SeatTaken::new(&headers, id, side, who.token)),
    ))
}

/// What a rated game needs of its settings: a clock (its category's
/// speed), and no computer (it has no account).
pub fn rated_settings(s: &Settings) -> Result<(), ApiError> {
    if matches!(s.opponent, Seat::Computer(_)) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            Code::AccountNeeded,
            "the computer has no account: a rated game is played between two accounts",
        ));
    }
    if s.clock.is_none() {
        return Err(ApiError::bad_request(
            "a rated game needs a clock (its speed is its rating category): give clock",
        ));
    }
    Ok(())
}
