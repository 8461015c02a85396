//! `POST /api/games/{id}/analysis` queues the engine's analysis of a
//! finished game; `GET` answers it as it stands: every turn judged so far
//! (X's win chance before and after, the best turn, a judgement) and each
//! side's accuracy. The analyses run in the background
//! (`computer::run_reviews`); docs/api.md, Analysis of a game.

use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use virus_wars_ai::review;
use virus_wars_rules::Game;

use super::error::ApiError;
use super::refusals::{GameId, GameRefusals};
use super::GameRequest;
use crate::code::Code;
use crate::computer::read_judged;
use crate::store::AnalysisRow;
use crate::view::{self, ErrorBody};

/// Analyses that may wait at once on the whole service: one more is
/// answered 503 (the game's own analysis, once queued, is always answered).
pub const MAX_ANALYSES_QUEUED: i64 = 500;
/// Most analyses one requester (an account, or an address without one)
/// may have waiting or running.
pub const MAX_ANALYSES_EACH: i64 = 20;

/// One turn as the engine judged it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TurnJudged {
    /// Counted over both sides (1 = X's first turn).
    pub turn: u32,
    /// `x` or `o`.
    pub side: String,
    pub steps: Vec<String>,
    /// X's chance to win before the turn, 0 to 1.
    pub x_win_before: f64,
    /// X's chance to win after it (the result, 1, 0 or ½, if the game
    /// ended on the board with it).
    pub x_win_after: f64,
    /// The best whole turn from the position before the turn.
    pub best: Vec<String>,
    /// `inaccuracy`, `mistake`, `blunder`, or `null`.
    pub judgement: Option<String>,
}

/// Each side's accuracy, 0 to 100.
#[derive(Debug, Serialize, ToSchema)]
pub struct Accuracy {
    pub x: f64,
    pub o: f64,
}

/// The analysis of a game as it stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameAnalysis {
    /// `queued`, `running` or `done`.
    pub status: String,
    /// The turns judged so far, in order (all of them once `done`).
    pub turns: Vec<TurnJudged>,
    /// Over the turns judged so far.
    pub accuracy: Accuracy,
    /// How many of the game's turns are judged, of how many.
    pub judged: usize,
    pub of: usize,
}

/// The analysis stored in `row`, of `game`.
fn answer(game: &Game, row: AnalysisRow) -> GameAnalysis {
    let r = review::assemble(game, &read_judged(&row.judged));
    let cells = |steps: &[virus_wars_rules::Step]| steps.iter().map(|s| s.to_string()).collect();
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    let round1 = |x: f64| (x * 10.0).round() / 10.0;
    GameAnalysis {
        status: row.status,
        judged: r.turns.len(),
        of: game.turns().len(),
        turns: r
            .turns
            .iter()
            .map(|t| TurnJudged {
                turn: t.turn,
                side: view::side_name(t.side),
                steps: cells(&t.steps),
                x_win_before: round(t.x_win_before),
                x_win_after: round(t.x_win_after),
                best: cells(&t.best),
                judgement: t.judgement.map(|j| j.name().to_string()),
            })
            .collect(),
        accuracy: Accuracy {
            x: round1(r.accuracy[0]),
            o: round1(r.accuracy[1]),
        },
    }
}

/// Asks for the engine's analysis of a finished game (idempotent: asking
/// again answers the analysis as it stands). Each position that starts a
/// turn is searched by level 9's search on one thread for 300 ms, in the
/// background at the lowest priority.
#[utoipa::path(post, path = "/api/games/{id}/analysis", tag = "analysis", params(GameId),
    responses(
        (status = 202, description = "Queued or running", body = GameAnalysis),
        (status = 200, description = "Done already", body = GameAnalysis),
        (status = 409, description = "`not_over`: the game is being played; `no_turns`: it ended before a turn was played", body = ErrorBody),
        (status = 503, description = "`busy`: too many analyses wait", body = ErrorBody),
        GameRefusals,
    )
)]
pub async fn ask(req: GameRequest) -> Result<impl IntoResponse, ApiError> {
    let shared = req.game_within(&req.app.limits.analyze, "analyses").await?;
    {
        let g = shared.lock().await;
        if !g.table.contest.finished() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::NotOver,
                "the game is being played: ask for its analysis once it is over",
            ));
        }
        if g.table.contest.game.steps().is_empty() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                Code::NoTurns,
                "the game ended before a turn was played: there is nothing to analyse",
            ));
        }
    }
    let store = &req.app.store;
    let row = match store.analysis(&req.id).await? {
        Some(row) => row,
        None => {
            let requester = match crate::session::viewer(&req.app, &req.headers).await? {
                Some(v) => v.account.id,
                None => crate::ids::address_key(req.client),
            };
            let mine = store.analyses_of(&requester).await?;
            if mine >= MAX_ANALYSES_EACH {
                return Err(ApiError {
                    retry_after: Some(60),
                    ..ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        Code::RateLimited,
                        format!("{mine} of your analyses are waiting or running: ask again once they are done"),
                    )
                });
            }
            let waiting = store.analyses_waiting().await?;
            if waiting >= MAX_ANALYSES_QUEUED {
                return Err(ApiError {
                    retry_after: Some(60),
                    ..ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        Code::Busy,
                        format!("{waiting} analyses are waiting already: ask again in a minute"),
                    )
                });
            }
            let row = store
                .queue_analysis(&req.id, &requester, req.app.clock.now_ms() as i64)
                .await?;
            req.app.reviews_wake.notify_one();
            row
        }
    };
    let status = if row.status == "done" {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    let g = shared.lock().await;
    Ok((status, Json(answer(&g.table.contest.game, row))))
}

/// The engine's analysis of a game as it stands: the turns judged so far
/// and each side's accuracy over them (poll until `status` is `done`).
#[utoipa::path(get, path = "/api/games/{id}/analysis", tag = "analysis", params(GameId),
    responses(
        (status = 200, body = GameAnalysis),
        (status = 404, description = "`not_found`: no such game; `no_analysis`: nobody asked for one (POST first)", body = ErrorBody),
        (status = 429, description = "`rate_limited`", body = ErrorBody),
    )
)]
pub async fn show(req: GameRequest) -> Result<Json<GameAnalysis>, ApiError> {
    let shared = req.game().await?;
    let Some(row) = req.app.store.analysis(&req.id).await? else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NoAnalysis,
            "nobody asked for this game's analysis: POST to this address to ask (once it is over)",
        ));
    };
    // Assembled under the game's lock: the game is over, nothing waits on it.
    let g = shared.lock().await;
    Ok(Json(answer(&g.table.contest.game, row)))
}
