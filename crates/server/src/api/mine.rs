//! What a logged-in player has on any device: their games in progress
//! (those waiting for their move first), the seats this browser held
//! before logging in, and their settings.

use axum::extract::rejection::JsonRejection;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::accounts::{me_of, Me};
use super::body;
use super::error::ApiError;
use super::{SeatsTaken, SignedIn, Unmetered};
use crate::ids;
use crate::live;
use crate::present::played;
use crate::view::ErrorBody;
use crate::view::PlayedGame;

/// One of your games in progress.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyGame {
    #[serde(flatten)]
    pub game: PlayedGame,
    /// It waits for your move.
    pub your_turn: bool,
}

/// Your games in progress.
#[derive(Debug, Serialize, ToSchema)]
pub struct MyGames {
    /// Those waiting for your move first (correspondence before real
    /// time), then the most recently active.
    pub games: Vec<MyGame>,
    /// How many wait for your move.
    pub your_turn: usize,
}

/// Your games in progress, on any device (play them logged in: the
/// account holds the seat).
/// Most games waiting for the player's move `GET /api/me/games` lists.
pub const MY_MOVE: i64 = 200;
/// Most of the player's other games in progress it lists.
const OTHERS: i64 = 50;

#[utoipa::path(get, path = "/api/me/games", tag = "accounts",
    responses(
        (status = 200, body = MyGames),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn my_games(SignedIn { app, viewer, .. }: SignedIn) -> Result<Json<MyGames>, ApiError> {
    let account = &viewer.account.id;
    // Every game waiting for the player's move (up to MY_MOVE), and the
    // most recently active others.
    let mut rows = app.store.my_move(account, MY_MOVE).await?;
    for row in app.store.playing(account, OTHERS).await? {
        if !rows.iter().any(|r| r.id == row.id) {
            rows.push(row);
        }
    }
    let mut games = Vec::with_capacity(rows.len());
    for row in &rows {
        let shared = live::get(&app, &row.id).await?;
        let your_turn = {
            let g = shared.lock().await;
            let c = &g.table.contest;
            !c.finished() && !g.waiting() && g.holder(c.side_to_move()).is_account(account)
        };
        games.push(MyGame {
            game: played(row, account, None),
            your_turn,
        });
    }
    // Your move first, correspondence first among those; the rest as listed.
    games.sort_by_key(|g| {
        let correspondence = g
            .game
            .time_control
            .as_deref()
            .is_some_and(|t| t.ends_with("/turn"));
        (!g.your_turn, !(g.your_turn && correspondence))
    });
    let your_turn = games.iter().filter(|g| g.your_turn).count();
    Ok(Json(MyGames { games, your_turn }))
}

/// Seats this browser holds, by their tokens.
/// Most seat tokens one `POST /api/me/seats` may carry.
pub const MAX_SEAT_TOKENS: usize = 100;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatTokens {
    /// At most 500.
    pub tokens: Vec<String>,
}

/// The games whose seats your account now holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct Claimed {
    pub games: Vec<String>,
}

/// Keep the games this browser sits in: the seats of these tokens, held by
/// nobody's account, become your account's (not rated: a game is rated
/// from its start).
#[utoipa::path(post, path = "/api/me/seats", tag = "accounts", request_body = SeatTokens,
    responses(
        (status = 200, body = Claimed),
        (status = 400, body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn claim(
    SignedIn { app, viewer, .. }: SignedIn<SeatsTaken>,
    request: Result<Json<SeatTokens>, JsonRejection>,
) -> Result<Json<Claimed>, ApiError> {
    let r = body(request)?;
    if r.tokens.len() > MAX_SEAT_TOKENS {
        return Err(ApiError::bad_request(format!(
            "tokens: at most {MAX_SEAT_TOKENS} in one request, not {} (send the rest in another)",
            r.tokens.len()
        )));
    }
    let hashes: Vec<String> = r.tokens.iter().map(|t| ids::token_hash(t.trim())).collect();
    let games = app
        .store
        .claim_seats(&viewer.account.id, &viewer.account.name, &hashes)
        .await?;
    // Copies in memory, and their watchers, learn of the new names.
    for id in &games {
        if let Ok(shared) = live::get(&app, id).await {
            live::refresh(&app, &mut *shared.lock().await).await?;
        }
    }
    Ok(Json(Claimed { games }))
}

/// Your settings.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Quick play never pairs you with a bot.
    pub no_bots: Option<bool>,
    /// You are never shown online (on your page, to those who follow you,
    /// in `GET /api/online`'s names); you are still counted.
    pub hide_online: Option<bool>,
    /// Who may challenge you: `everyone` (default), `following` (players
    /// you follow) or `nobody`.
    pub challenges: Option<String>,
}

/// Change your settings.
#[utoipa::path(patch, path = "/api/me", tag = "accounts", request_body = Settings,
    responses(
        (status = 200, body = Me),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn settings(
    SignedIn { app, viewer, .. }: SignedIn<Unmetered>,
    request: Result<Json<Settings>, JsonRejection>,
) -> Result<Json<Me>, ApiError> {
    let r = body(request)?;
    if let Some(c) = &r.challenges {
        if !["everyone", "following", "nobody"].contains(&c.as_str()) {
            return Err(ApiError::bad_request(format!(
                "challenges is everyone, following or nobody, not '{}'",
                c.chars().take(40).collect::<String>()
            )));
        }
    }
    let mut account = viewer.account;
    if let Some(no_bots) = r.no_bots {
        app.store.set_no_bots(&account.id, no_bots).await?;
        account.no_bots = no_bots;
    }
    if let Some(hide) = r.hide_online {
        app.store.set_hide_online(&account.id, hide).await?;
        account.hide_online = hide;
    }
    if let Some(from) = r.challenges {
        app.store.set_challenges_from(&account.id, &from).await?;
        account.challenges_from = from;
    }
    Ok(Json(me_of(&app, &account).await?))
}
