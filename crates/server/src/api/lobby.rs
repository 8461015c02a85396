//! The lobby: the open games list and quick play.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;

use super::create::{self, settings, taker};
use super::games::take;
use super::{body, limit, Client};
use crate::error::ApiError;
use crate::ids;
use crate::live::{self, from_row, now_ms, seat_info};
use crate::store::StoredClock;
use crate::view::{self, ErrorBody, NewGame, OpenGame, PlayingGame, SeatTaken};
use crate::App;
use virus_wars_ai::Seat;

/// Most entries the open games list shows.
pub const MAX_LISTED: i64 = 100;

#[derive(Deserialize, IntoParams)]
pub struct ListQuery {
    /// At most this many games (1–100, default 50).
    limit: Option<i64>,
}

/// The open games list: listed games waiting for a second player, newest first.
#[utoipa::path(
    get,
    path = "/api/games",
    tag = "lobby",
    params(ListQuery),
    responses((status = 200, body = Vec<OpenGame>), (status = 400, body = ErrorBody))
)]
pub async fn open_games(
    State(app): State<Arc<App>>,
    client: Client,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<OpenGame>>, ApiError> {
    limit(&app.limits.actions, client.0.ip(), "requests")?;
    let n = list_length(query)?;
    let now = now_ms();
    let rows = app.store.open_games(n, None).await?;
    let mut games = Vec::new();
    for row in rows {
        // A listed game has no steps yet while it waits, but may have.
        let Ok(g) = live::get(&app, &row.id).await else {
            continue;
        };
        let g = g.lock().await;
        let Some(free) = virus_wars_rules::Side::BOTH
            .into_iter()
            .find(|s| g.seat_free(*s))
        else {
            continue;
        };
        games.push(OpenGame {
            id: g.id.clone(),
            variant: view::variant_info(g.variant()),
            free_seat: view::side_name(free),
            waiting: seat_info(&g.table.seats[(!free).index()]),
            clock: g.clock_state(now),
            created_ms: g.created_ms,
        });
    }
    Ok(Json(games))
}

/// The games to watch: listed games in play, the most recently active first.
#[utoipa::path(
    get,
    path = "/api/watch",
    tag = "lobby",
    params(ListQuery),
    responses((status = 200, body = Vec<PlayingGame>), (status = 400, body = ErrorBody))
)]
pub async fn playing_games(
    State(app): State<Arc<App>>,
    client: Client,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<PlayingGame>>, ApiError> {
    limit(&app.limits.actions, client.0.ip(), "requests")?;
    let n = list_length(query)?;
    let now = now_ms();
    let mut games = Vec::new();
    for row in app.store.playing_games(n).await? {
        let Ok(g) = live::get(&app, &row.id).await else {
            continue;
        };
        let g = g.lock().await;
        // The row was read before the game was: it may have ended since.
        if g.table.contest.finished() {
            continue;
        }
        games.push(PlayingGame {
            id: g.id.clone(),
            variant: view::variant_info(g.variant()),
            players: view::BySide {
                x: seat_info(&g.table.seats[0]),
                o: seat_info(&g.table.seats[1]),
            },
            to_move: view::side_name(g.table.contest.side_to_move()),
            seq: g.table.contest.seq(),
            status: format!("{} to move", g.table.contest.game.position().side()),
            clock: g.clock_state(now),
            last_active_ms: g.last_active_ms,
        });
    }
    Ok(Json(games))
}

/// The `limit` of a list request, checked.
fn list_length(
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<i64, ApiError> {
    let query = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let n = query.limit.unwrap_or(50);
    if !(1..=MAX_LISTED).contains(&n) {
        return Err(ApiError::bad_request(format!(
            "limit must be between 1 and {MAX_LISTED}, not {n}"
        )));
    }
    Ok(n)
}

/// Quick play: takes the free seat of the oldest listed game with the same
/// variant and clock (200), or lists a new one and waits there for the
/// next player who asks for the same (201).
#[utoipa::path(
    post,
    path = "/api/quick",
    tag = "lobby",
    request_body = NewGame,
    responses(
        (status = 200, description = "Paired: a seat in a waiting game", body = SeatTaken),
        (status = 201, description = "A new listed game: wait on its live socket for the opponent", body = SeatTaken),
        (status = 400, body = ErrorBody),
        (status = 429, body = ErrorBody),
    )
)]
pub async fn quick(
    State(app): State<Arc<App>>,
    client: Client,
    headers: HeaderMap,
    request: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    limit(&app.limits.create, client.0.ip(), "new games")?;
    let request = body(request)?;
    if request.opponent.as_deref().is_some_and(|o| o != "human") || request.listed.is_some() {
        return Err(ApiError::bad_request(
            "quick play pairs people and bots: it takes a variant, its options and a clock",
        ));
    }
    let mut s = settings(&request)?;
    s.listed = true;
    // One pairing at a time in this process and, on PostgreSQL, in all
    // processes, so that two players asking at once meet instead of both
    // waiting.
    let _here = app.quick.lock().await;
    let Some(pairing) = app.store.lock_pairing(PAIRING_WAIT).await? else {
        return Err(ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "quick play is pairing many players at once: try again in a second",
            )
        });
    };
    let paired = pair(&app, &headers, &s).await;
    pairing.release().await;
    paired
}

/// Longest a quick play request waits for its turn to pair.
const PAIRING_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Takes the free seat of the oldest open game like `s`, or lists a new one.
async fn pair(
    app: &Arc<App>,
    headers: &HeaderMap,
    s: &create::Settings,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    let variant = view::variant_text(&s.variant);
    let clock = s.clock.map(|c| StoredClock {
        base_ms: c.base_ms as i64,
        increment_ms: c.increment_ms as i64,
        per_turn: c.per_turn,
    });
    for row in app.store.open_games(5, Some((&variant, clock))).await? {
        // Only games of the same kind: human seats on both sides.
        let Ok(g) = from_row(&row, &[]) else {
            continue;
        };
        if g.table.seats.iter().any(|p| matches!(p, Seat::Computer(_))) {
            continue;
        }
        let shared = live::get(app, &row.id).await?;
        match take(app, &shared, headers).await {
            Ok(seat) => return Ok((StatusCode::OK, Json(seat))),
            // Taken meanwhile, or this bot's own game: try the next.
            Err(e) if e.status == StatusCode::CONFLICT => continue,
            Err(e) => return Err(e),
        }
    }
    let (who, token) = taker(app, headers).await?;
    let side = s.side.unwrap_or_else(create::random_side);
    let other = (Seat::Human, String::new());
    let (id, _) = create::start(app, s, side, who, ids::token_hash(&token), other).await?;
    Ok((
        StatusCode::CREATED,
        Json(SeatTaken::new(headers, id, side, token)),
    ))
}
