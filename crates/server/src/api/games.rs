//! A game: its state, joining it, playing, resigning, aborting, its record.

use std::sync::Arc;
use virus_wars_pairing::Kind;

use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::Json;
use virus_wars_rules::fog::Viewer;
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::{Side, Step};

use super::create::taker;
use super::error::ApiError;
use super::refusals::{GameId, GameRefusals, SeatRefusals};
use super::GameRequest;
use super::{body, seat_of, viewer_of};
use crate::code::Code;
use crate::ids;
use crate::live::{self, LiveGame, Shared};
use crate::seat::{Seat, Table};
use crate::view::{ErrorBody, GameState, JoinRequest, SeatTaken, StepsRequest};
use crate::App;

/// The state of a game.
#[utoipa::path(get, path = "/api/games/{id}", tag = "games", params(GameId),
    responses((status = 200, body = GameState), GameRefusals))]
pub async fn show(req: GameRequest) -> Result<Json<GameState>, ApiError> {
    let shared = req.game().await?;
    let mut g = shared.lock().await;
    let viewer = viewer_of(&req.app, &req.headers, &mut g).await?;
    Ok(Json(crate::present::state(
        &g,
        viewer,
        req.app.clock.now_ms(),
    )))
}

/// Takes `side` of the game if it is free, for a person or the bot whose
/// token the request carries; the answer holds the seat's token.
pub async fn take(
    app: &Arc<App>,
    shared: &Shared,
    headers: &HeaderMap,
    name: &str,
) -> Result<SeatTaken, ApiError> {
    let mut taker = taker(app, headers).await?;
    let (who, token) = (&taker.seat, &taker.token);
    let hash = ids::token_hash(token);
    let mut g = shared.lock().await;
    if g.seat_where(|h| h.is_token(&hash)).is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::AlreadySeated,
            "this bot already sits in this game: it plays one side",
        ));
    }
    if g.rated && taker.account.is_empty() {
        return Err(super::create::account_needed());
    }
    if g.rated {
        let other = g
            .holders
            .iter()
            .find_map(|h| h.account.clone())
            .unwrap_or_default();
        if other != taker.account {
            super::create::rated_pair(app, &other, &taker.account).await?;
        }
    }
    if g.seat_where(|h| h.is_account(&taker.account)).is_some() {
        if g.rated {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::AlreadySeated,
                "your account already sits in this game: a rated game is played between two accounts",
            ));
        }
        // Both seats on one device (pass-and-play): the second is nobody's.
        taker.account.clear();
    }
    // A bot takes the seat it was challenged to, or else a free one.
    let challenged = Side::BOTH.into_iter().find(|s| {
        *who != Seat::Human && g.table.seats[s.index()] == *who && !g.holder(*s).seated()
    });
    let free = challenged.or_else(|| Side::BOTH.into_iter().find(|s| g.seat_free(*s)));
    let Some(side) = free else {
        let kept_for = g.table.seats.iter().find_map(|s| match s {
            Seat::Bot(name) => Some(name.clone()),
            _ => None,
        });
        let why = match kept_for {
            Some(bot) if g.waiting() => {
                format!("the free seat is kept for the bot {bot}, which this game challenges: you can watch the game live")
            }
            _ => "both seats are taken: you can watch the game live".to_string(),
        };
        return Err(ApiError::new(StatusCode::CONFLICT, Code::NoFreeSeat, why));
    };
    if g.table.contest.finished() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::GameOver,
            "the game is over: its seats can no longer be taken",
        ));
    }
    let sitter = taker.sitter(name);
    if !live::take_seat(app, &mut g, side, who, sitter.holder).await? {
        // Another request or server process ended the game or took the
        // seat a moment ago (the game has been reloaded).
        if g.table.contest.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::GameOver,
                "the game ended a moment ago: its seats can no longer be taken",
            ));
        }
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NoFreeSeat,
            "the seat was taken a moment ago",
        ));
    }
    Ok(SeatTaken::new(headers, g.id.clone(), side, token.clone()))
}

/// Take the free seat of a game (an invite, the open games list).
///
/// With a bot token as `Authorization: Bearer`, the bot takes the seat.
/// The body may be empty, or give the name you go by.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", params(GameId),
    request_body(content = Option<JoinRequest>),
    responses(
        (status = 200, description = "Your seat and its token", body = SeatTaken),
        (status = 409, description = "`no_free_seat`, `already_seated`, `game_over`", body = ErrorBody),
        GameRefusals,
    )
)]
pub async fn join(req: GameRequest, request: Bytes) -> Result<Json<SeatTaken>, ApiError> {
    let request: JoinRequest = if request.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        serde_json::from_slice(&request)
            .map_err(|e| ApiError::bad_request(format!("the body is not a join request: {e}")))?
    };
    let name = crate::names::chosen_name(request.name.as_deref())?;
    let shared = req
        .game_within(&req.app.limits.create, "seats taken")
        .await?;
    Ok(Json(take(&req.app, &shared, &req.headers, &name).await?))
}

/// Parses step texts; an error names the one that is not a step.
pub fn parse_steps(texts: &[String]) -> Result<Vec<Step>, ApiError> {
    texts
        .iter()
        .enumerate()
        .map(|(k, t)| parse_step(t).map_err(|e| ApiError::bad_request(format!("steps[{k}]: {e}"))))
        .collect()
}

/// Play steps of your current turn; all or none are played.
#[utoipa::path(post, path = "/api/games/{id}/steps", tag = "games", params(GameId),
    request_body = StepsRequest, security(("seat_token" = [])),
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 400, description = "Malformed", body = ErrorBody),
        (status = 409, description = "`stale_seq`, `game_over`", body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 422, description = "`illegal_step`: `step N (cell): reason`", body = ErrorBody),
        SeatRefusals, GameRefusals,
    )
)]
pub async fn steps(
    req: GameRequest,
    request: Result<Json<StepsRequest>, JsonRejection>,
) -> Result<Json<GameState>, ApiError> {
    let shared = req.game().await?;
    let side = seat_of(&req.app, &req.headers, &mut *shared.lock().await).await?;
    let request = body(request)?;
    let steps = parse_steps(&request.steps)?;
    let shown = live::play(&req.app, &shared, side, request.seq, &steps).await?;
    Ok(Json(shown.state(Viewer::Player(side)).clone()))
}

/// Changes the game for the token's seat with `how`, and stores it.
pub async fn act(
    req: &GameRequest,
    how: impl Fn(&LiveGame, &mut Table, Side) -> Result<(), ApiError>,
) -> Result<Json<GameState>, ApiError> {
    let app = &req.app;
    let shared = req.game().await?;
    let mut g = shared.lock().await;
    let side = seat_of(app, &req.headers, &mut g).await?;
    let mut next = g.table.clone();
    if let Err(e) = how(&g, &mut next, side) {
        // Refused on this process's copy: decided again on a fresh load,
        // where another process may have changed the game a moment ago.
        let version = g.version;
        live::refresh(app, &mut g).await?;
        if g.version == version {
            return Err(e);
        }
        next = g.table.clone();
        how(&g, &mut next, side)?;
    }
    if next == g.table {
        // Nothing changes (an offer that stands already): nothing is written.
        return Ok(Json(crate::present::state(
            &g,
            Viewer::Player(side),
            app.clock.now_ms(),
        )));
    }
    let shown = live::commit(app, &mut g, next, &[], app.clock.now_ms()).await?;
    Ok(Json(shown.state(Viewer::Player(side)).clone()))
}

/// Resign: the other side wins.
#[utoipa::path(post, path = "/api/games/{id}/resign", tag = "games", params(GameId),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 409, description = "`game_over`; `waiting`: the other seat is still free (abort instead)", body = ErrorBody),
        SeatRefusals, GameRefusals,
    )
)]
pub async fn resign(req: GameRequest) -> Result<Json<GameState>, ApiError> {
    act(&req, |g, d, side| {
        if g.waiting() && !g.table.contest.finished() {
            // Nobody to lose to: the game has not begun.
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::Waiting,
                "nobody has taken the other seat yet: abort the game instead of resigning",
            ));
        }
        d.contest.resign(side).map_err(ApiError::from)
    })
    .await
}

/// Call the game off: allowed until both sides have made a step.
#[utoipa::path(post, path = "/api/games/{id}/abort", tag = "games", params(GameId),
    security(("seat_token" = [])),
    responses(
        (status = 200, description = "The new state", body = GameState),
        (status = 409, description = "`too_late` (also: a Swiss's or round robin's game), `game_over`", body = ErrorBody),
        SeatRefusals, GameRefusals,
    )
)]
pub async fn abort(req: GameRequest) -> Result<Json<GameState>, ApiError> {
    // A Swiss's or round robin's game not begun is a forfeit of who did
    // not step in time (docs/tournaments.md): it is not called off by hand.
    if let Some((tournament, _)) = req.app.store.pairing(&req.id).await? {
        let kind = req.app.store.tournament(&tournament).await?.map(|t| t.kind);
        if kind.is_some_and(|k| k != Kind::Arena) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::TooLate,
                "a Swiss or round robin game is not aborted: resign it if you will not play it",
            ));
        }
    }
    act(&req, |_, d, _| d.contest.abort().map_err(ApiError::from)).await
}

/// The game's record (`.vwr`, docs/notation.md), finished or not.
#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", params(GameId),
    responses(
        (status = 200, description = "The record", content_type = "text/plain", body = String),
        GameRefusals,
    )
)]
pub async fn record(req: GameRequest) -> Result<impl IntoResponse, ApiError> {
    let shared = req.game().await?;
    let g = shared.lock().await;
    if g.fogged() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::HiddenUntilEnd,
            "this game is played in fog of war: its record shows every cell, so it is served once the game is over",
        ));
    }
    let r = g.record();
    Ok((
        [
            ("content-type", "text/plain; charset=utf-8".to_string()),
            (
                "content-disposition",
                format!("attachment; filename=\"virus-wars-{}.vwr\"", g.id),
            ),
        ],
        r.write(),
    ))
}
