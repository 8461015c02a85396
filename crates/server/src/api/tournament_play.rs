//! Playing in a tournament: who joins (a signed-in player, or a bot with
//! its token), a game's tournament as its page shows it, and berserk
//! (halving your own clock before your first step for a point more).

use axum::extract::Path;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use virus_wars_pairing::Kind;
use virus_wars_rules::Side;

use super::error::ApiError;
use super::Limited;
use super::{bearer, seat_of};
use crate::code::Code;
use crate::tournament::TournamentRow;
use crate::view::{self, ErrorBody};
use crate::{live, session, App};

/// The account that joins or leaves `t` through this request, and the
/// name it plays under: a bot by its token (where bots may play), else
/// the signed-in player.
pub async fn entrant(
    app: &App,
    headers: &HeaderMap,
    t: &TournamentRow,
) -> Result<(String, String), ApiError> {
    let Some(token) = bearer(headers) else {
        let me = session::logged_in(app, headers).await?.account;
        return Ok((me.id, me.name));
    };
    let Some((name, _)) = super::bot_by_token(app, token).await? else {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::WrongToken,
            "this is not a bot token: people join signed in, without an Authorization header",
        ));
    };
    if !t.bots {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotTaking,
            "this tournament is for people only: bots may not join",
        ));
    }
    let account = format!("bot:{name}");
    if !t.category.is_empty() {
        super::create::bot_owner(app, &account).await?;
    }
    Ok((account, name))
}

/// A game's tournament, as its page shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameTournament {
    /// The tournament's id and name.
    pub id: String,
    pub name: String,
    /// When it stops pairing (ms since the Unix epoch).
    pub ends_ms: i64,
    /// Who berserked: X, O.
    pub berserk: [bool; 2],
    /// Your seat may berserk now (you sit here, have made no step, and
    /// have not berserked).
    pub may_berserk: bool,
}

#[utoipa::path(get, path = "/api/games/{id}/tournament", tag = "tournaments",
    params(("id" = String, Path, description = "The game's id")),
    responses(
        (status = 200, body = GameTournament),
        (status = 404, description = "`not_found`: no such game, or none of a tournament", body = ErrorBody),
    ))]
pub async fn game_tournament(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
) -> Result<Json<GameTournament>, ApiError> {
    let (t, berserk) = of_game(&app, &id).await?;
    let shared = live::get(&app, &id).await?;
    let mut g = shared.lock().await;
    // Only a seat's own request may berserk: a watcher is told false.
    let side = if bearer(&headers).is_some() || session::viewer(&app, &headers).await?.is_some() {
        seat_of(&app, &headers, &mut g).await.ok()
    } else {
        None
    };
    let may_berserk =
        t.kind == Kind::Arena && side.is_some_and(|s| !berserk[s.index()] && may_berserk(&g, s));
    Ok(Json(GameTournament {
        id: t.id,
        name: t.name,
        ends_ms: t.ends_ms,
        berserk,
        may_berserk,
    }))
}

/// The tournament of game `id` and who berserked in it.
async fn of_game(app: &App, id: &str) -> Result<(TournamentRow, [bool; 2]), ApiError> {
    let none = || ApiError::not_found("tournament game with that id");
    if id.len() > 64 {
        return Err(none());
    }
    let (tournament, p) = app.store.pairing(id).await?.ok_or_else(none)?;
    let t = app.store.tournament(&tournament).await?.ok_or_else(none)?;
    Ok((t, p.berserk))
}

/// Whether `side` may still berserk in `g` (not whether it did).
fn may_berserk(g: &live::LiveGame, side: Side) -> bool {
    live::berserk_refused(&g.table.contest, side).is_none()
}

/// Berserk: halve the time your seat has left, before your first step;
/// a win of 7 turns or more then scores one point more.
#[utoipa::path(post, path = "/api/games/{id}/berserk", tag = "tournaments",
    params(("id" = String, Path, description = "The game's id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Your new time left, in ms", body = Berserked),
        (status = 404, description = "`not_found`: no such game, or none of a tournament", body = ErrorBody),
        (status = 409, description = "`no_berserk`: after your first step, or twice; `changed`", body = ErrorBody),
    ))]
pub async fn berserk(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
) -> Result<Json<Berserked>, ApiError> {
    let shared = live::get(&app, &id).await?;
    let mut g = shared.lock().await;
    let side = seat_of(&app, &headers, &mut g).await?;
    // Read under the game's lock: a berserk of this process a moment ago
    // is seen; one of another process is refused by the database.
    let (t, berserk) = of_game(&app, &id).await?;
    if t.kind != Kind::Arena {
        return Err(live::LiveError::NoBerserk(
            "a Swiss or round robin game (berserk is an arena's)",
        )
        .into());
    }
    if berserk[side.index()] {
        return Err(live::LiveError::NoBerserk("a game you berserked in already").into());
    }
    live::commit_berserk(&app, &mut g, side).await?;
    app.tournament_views.forget(&t.id);
    let now = app.clock.now_ms();
    Ok(Json(Berserked {
        seat: view::side_name(side),
        left_ms: g.table.contest.time_left(side, now).unwrap_or(0),
    }))
}

/// A berserk made.
#[derive(Debug, Serialize, ToSchema)]
pub struct Berserked {
    pub seat: String,
    pub left_ms: u64,
}
