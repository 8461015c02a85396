//! What players agree on: a draw, a rematch; and which seat a token holds.

use crate::seat::Seat;
use axum::http::StatusCode;
use axum::Json;
use virus_wars_rules::Side;

use super::error::ApiError;
use super::games::act;
use super::refusals::{GameId, GameRefusals, SeatRefusals};
use super::{bearer, seat_of};
use super::{limit, GameRequest};
use crate::code::Code;
use crate::games::create::{created, prepare, Sitter};
use crate::games::settings::Settings;
use crate::live;
use crate::live::LiveError;
use crate::view::{ErrorBody, GameState, SeatHeld, SeatTaken};

/// Which seat a token holds in a game: lets a client check a seat link's
/// token before it keeps it.
#[utoipa::path(get, path = "/api/games/{id}/seat", tag = "games", params(GameId),
    security(("seat_token" = [])),
    responses((status = 200, description = "The token's seat", body = SeatHeld), SeatRefusals, GameRefusals)
)]
pub async fn seat(req: GameRequest) -> Result<Json<SeatHeld>, ApiError> {
    let shared = req.game().await?;
    let mut g = shared.lock().await;
    let side = seat_of(&req.app, &req.headers, &mut g).await?;
    Ok(Json(SeatHeld {
        id: g.id.clone(),
        seat: crate::view::side_name(side),
    }))
}

/// Offer a draw, or accept the other side's offer (the game ends drawn).
///
/// Only where the end rule allows a draw (the pass rule). Playing a step
/// declines the other side's offer.
#[utoipa::path(post, path = "/api/games/{id}/draw", tag = "games", params(GameId),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The new state: `draw_offer` set, or the game drawn", body = GameState),
        (status = 409, description = "`no_draws`, `game_over`", body = ErrorBody),
        SeatRefusals, GameRefusals,
    )
)]
pub async fn draw(req: GameRequest) -> Result<Json<GameState>, ApiError> {
    act(&req, |_, d, side| {
        if d.contest.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::GameOver,
                "the game is over",
            ));
        }
        Ok(d.offer_draw(side)?)
    })
    .await
}

/// Ask for a rematch of a finished game, colours swapped. Both players
/// keep their tokens; the first to ask creates the game, the other finds
/// its id in the old game's `rematch` and gets the same answer.
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "games",
    params(("id" = String, Path, description = "The finished game's id")),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "Your seat in the rematch (the same token)", body = SeatTaken),
        (status = 409, description = "`not_over`: the game is still being played; `no_opponent`: nobody took the other seat", body = ErrorBody),
        SeatRefusals, GameRefusals,
    )
)]
pub async fn rematch(req: GameRequest) -> Result<Json<SeatTaken>, ApiError> {
    let GameRequest {
        app,
        headers,
        client,
        ..
    } = &req;
    // Finding the rematch the other player made is a request on the game;
    // only making one counts as a new game.
    let shared = req.game().await?;
    let mut g = shared.lock().await;
    let side = seat_of(app, headers, &mut g).await?;
    let token = bearer(headers).unwrap_or_default().to_string();
    let answer = |id: String| SeatTaken::new(headers, id, !side, token.clone());
    if let Some(new_id) = &g.rematch {
        return Ok(Json(answer(new_id.clone())));
    }
    if !g.table.contest.finished() {
        // Decided on a fresh load: the game may have ended through another process.
        live::refresh(app, &mut g).await?;
    }
    if let Some(new_id) = &g.rematch {
        return Ok(Json(answer(new_id.clone())));
    }
    if !g.table.contest.finished() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotOver,
            "a rematch starts once this game is over",
        ));
    }
    if g.waiting() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NoOpponent,
            "nobody took the other seat of this game: there is no one to play a rematch with",
        ));
    }
    limit(&app.limits.create, *client, "new games")?;
    if g.table.seats.iter().any(|p| matches!(p, Seat::Computer(_))) {
        crate::computer::admit_computer_game(app)?;
    }
    let settings = Settings {
        variant: crate::games::settings::laid_out_anew(g.variant().clone()),
        opponent: g.table.seats[(!side).index()].clone(),
        side: Some(!side),
        clock: g.table.contest.clocks.map(|c| c.control),
        listed: false,
        name: g.holder(side).name.clone().unwrap_or_default(),
        rated: g.rated,
        seeker: String::new(),
    };
    // Colours swapped: each player keeps a seat, its token and name.
    let seat = |k: Side| Sitter {
        seat: g.table.seats[k.index()].clone(),
        holder: g.holder(k).clone(),
    };
    let (game, mut row) = prepare(app, &settings, [seat(Side::O), seat(Side::X)])?;
    row.rematch_of = g.id.clone();
    let new_id = game.id.clone();
    match live::commit_rematch(app, &mut g, &row).await {
        Ok(_) => {}
        // Asked on the other seat (here or in another process) at the same
        // moment: the first rematch is the one, for both.
        Err(e @ LiveError::Changed) => {
            return match &g.rematch {
                Some(first) => Ok(Json(answer(first.clone()))),
                None => Err(e.into()),
            }
        }
        Err(e) => return Err(e.into()),
    }
    created(app, game, &row);
    Ok(Json(answer(new_id)))
}
