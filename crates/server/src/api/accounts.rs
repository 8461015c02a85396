//! Accounts: sign up, who you are, a new password, deleting your account.
//! Anonymous play needs none of it.

use std::collections::BTreeMap;

use axum::extract::rejection::JsonRejection;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body;
use super::error::ApiError;
use super::guard::check_login;
use super::{limit, Caller, SignedIn, Unmetered};
use crate::code::Code;
use crate::store::{AccountRow, StoreError};
use crate::view::ErrorBody;
use crate::{ids, names, session, App};

/// A name and a password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    #[schema(example = "ann")]
    pub name: String,
    #[schema(example = "violet tram under paper")]
    pub password: String,
}

/// A rating in a category.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RatingView {
    #[schema(example = 1512.3)]
    pub rating: f64,
    /// The rating deviation: how unsure the rating is (45 to 500).
    pub rd: f64,
    pub volatility: f64,
    /// Rated games played in the category.
    pub games: i64,
    /// While the RD is 110 or more: shown with a "?", left off leaderboards.
    pub provisional: bool,
}

impl RatingView {
    pub fn of(r: &crate::store::RatingRow) -> RatingView {
        let round = |x: f64, places: i32| {
            let k = 10f64.powi(places);
            (x * k).round() / k
        };
        RatingView {
            rating: round(r.glicko.rating, 1),
            rd: round(r.glicko.rd, 1),
            volatility: round(r.glicko.volatility, 6),
            games: r.games,
            provisional: r.glicko.provisional(),
        }
    }
}

/// The account you are logged in as.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    #[schema(example = "ann")]
    pub name: String,
    /// `person` or `bot`.
    pub kind: String,
    pub created_ms: i64,
    /// Quick play never pairs you with a bot.
    pub no_bots: bool,
    /// You are never shown online (you are still counted).
    pub hide_online: bool,
    /// Who may challenge you: `everyone`, `following` (players you follow)
    /// or `nobody`.
    pub challenges: String,
    /// By category (`classic-blitz`, …; docs/api.md), those played rated.
    pub ratings: BTreeMap<String, RatingView>,
}

/// An account's ratings, by category, as the API shows them.
pub async fn ratings_view(
    app: &App,
    account: &str,
) -> Result<BTreeMap<String, RatingView>, ApiError> {
    Ok(app
        .store
        .ratings_of(account)
        .await?
        .iter()
        .map(|r| (r.category.clone(), RatingView::of(r)))
        .collect())
}

pub async fn me_of(app: &App, a: &AccountRow) -> Result<Me, ApiError> {
    let ratings = ratings_view(app, &a.id).await?;
    Ok(Me {
        name: a.name.clone(),
        kind: a.kind.clone(),
        created_ms: a.created_ms,
        no_bots: a.no_bots,
        hide_online: a.hide_online,
        challenges: a.challenges_from.clone(),
        ratings,
    })
}

/// Sign up: a new account, logged in on this device.
#[utoipa::path(post, path = "/api/accounts", tag = "accounts", request_body = Credentials,
    responses(
        (status = 201, description = "Signed up and logged in: the `vw_session` cookie is set", body = Me),
        (status = 400, description = "`malformed` (a bad name) or `weak_password`", body = ErrorBody),
        (status = 409, description = "`name_taken`", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address this hour", body = ErrorBody),
    )
)]
pub async fn sign_up(
    Caller { app, client, .. }: Caller,
    request: Result<Json<Credentials>, JsonRejection>,
) -> Result<Response, ApiError> {
    let c = body(request)?;
    // Cheap checks and the address's limit first, before any slow work:
    // the strength estimator and the hash.
    limit(&app.limits.create, client, "sign-ups")?;
    let name = names::account_name(&c.name)?;
    if app.store.account_named(&name).await?.is_some() {
        return Err(name_taken(&name));
    }
    names::unlike_others(&app, &name).await?;
    app.passwords.check_strength(&c.password, &name).await?;
    let now = app.clock.now_ms() as i64;
    let per_hour = app.limits.signups_per_hour;
    super::guard::per_hour(&app, &format!("signup:{}", client), per_hour, |secs| {
        format!(
            "{per_hour} accounts and bots were registered from your address this hour: try again in {secs} s"
        )
    })
    .await?;
    let account = AccountRow {
        id: ids::game_id(),
        name: name.clone(),
        password_hash: app.passwords.hash(&c.password).await?,
        kind: "person".into(),
        created_ms: now,
        deleted_ms: 0,
        no_bots: false,
        owner: String::new(),
        password_gen: 0,
        seen_ms: now,
        hide_online: false,
        challenges_from: "everyone".into(),
        muted_until_ms: 0,
        banned_ms: 0,
    };
    let token = ids::token();
    match app
        .store
        .create_account(&account, Some(&ids::token_hash(&token)))
        .await
    {
        Ok(()) => {}
        Err(StoreError::Conflict(_)) => {
            // Taken meanwhile: by this name, or (signed up at the same
            // moment) by one that looks like it.
            names::unlike_others(&app, &name).await?;
            return Err(name_taken(&name));
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(account = %account.id, "account signed up");
    let me = me_of(&app, &account).await?;
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, session::set_cookie(&app, &token))],
        Json(me),
    )
        .into_response())
}

fn name_taken(name: &str) -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NameTaken,
        format!(
            "the name '{name}' is taken (names are the same whatever their case): choose another"
        ),
    )
}

/// Who you are: your name and ratings.
#[utoipa::path(get, path = "/api/me", tag = "accounts",
    responses(
        (status = 200, body = Me),
        (status = 401, description = "`login_needed`: no session cookie, or one that ended", body = ErrorBody),
    ))]
pub async fn me(SignedIn { app, viewer, .. }: SignedIn<Unmetered>) -> Result<Json<Me>, ApiError> {
    Ok(Json(me_of(&app, &viewer.account).await?))
}

/// A new password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    /// The password you have now.
    pub password: String,
    pub new_password: String,
}

/// Change your password: every other session of your account ends.
#[utoipa::path(put, path = "/api/me/password", tag = "accounts", request_body = NewPassword,
    responses(
        (status = 204, description = "Changed; you stay logged in here"),
        (status = 400, description = "`weak_password`", body = ErrorBody),
        (status = 401, description = "`login_needed`, `wrong_login` (the password you have now)", body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn change_password(
    SignedIn {
        app,
        client,
        viewer,
        ..
    }: SignedIn<Unmetered>,
    request: Result<Json<NewPassword>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let r = body(request)?;
    let name = &viewer.account.name;
    check_login(&app, &client, name, &r.password).await?;
    app.passwords.check_strength(&r.new_password, name).await?;
    let hash = app.passwords.hash(&r.new_password).await?;
    app.store
        .set_password(&viewer.account.id, &hash, &viewer.session)
        .await?;
    // The other sessions ended with the old password: their pages' user
    // sockets close now.
    session::sessions_ended(&app, &viewer.account.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Your password, to confirm.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirm {
    pub password: String,
}

/// Delete your account. Its games stay, under a name like `deleted-7f3a`;
/// its name is free again.
#[utoipa::path(delete, path = "/api/me", tag = "accounts", request_body = Confirm,
    responses(
        (status = 204, description = "Deleted and logged out everywhere"),
        (status = 401, description = "`login_needed`, `wrong_login`", body = ErrorBody),
        (status = 429, body = ErrorBody),
    ))]
pub async fn delete(
    SignedIn {
        app,
        client,
        headers: _,
        viewer,
        ..
    }: SignedIn<Unmetered>,
    request: Result<Json<Confirm>, JsonRejection>,
) -> Result<Response, ApiError> {
    let r = body(request)?;
    check_login(&app, &client, &viewer.account.name, &r.password).await?;
    let now = app.clock.now_ms() as i64;
    // A new name nobody has: a few random letters, more on a clash.
    for len in [4usize, 6, 8, 10, 12] {
        let id = ids::game_id();
        let new_name = format!("deleted-{}", &id[..len.min(id.len())]);
        match app
            .store
            .delete_account(&viewer.account.id, &new_name, now)
            .await
        {
            Ok(games) => {
                tracing::info!(account = %viewer.account.id, "account deleted");
                session::sessions_ended(&app, &viewer.account.id).await?;
                // Games held in memory, and their watchers, go by the new name.
                for id in &games {
                    if let Some(shared) = app.games.find(id) {
                        crate::live::refresh(&app, &mut *shared.lock().await).await?;
                    }
                }
                return Ok((
                    StatusCode::NO_CONTENT,
                    [(header::SET_COOKIE, session::set_cookie(&app, ""))],
                )
                    .into_response());
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("no free name for the deleted account"))
}
