//! The leaderboards: the best players of a rating category whose ratings
//! are settled, and, apart, those still provisional.

use axum::extract::{Path, Query};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::accounts::RatingView;
use super::players::known_category;
use super::{limit, Caller};
use crate::error::ApiError;
use crate::rating::PROVISIONAL_RD;
use crate::view::ErrorBody;

/// A leaderboard's line.
#[derive(Debug, Serialize, ToSchema)]
pub struct Leader {
    pub rank: usize,
    pub name: String,
    /// `person` or `bot`.
    pub kind: String,
    pub rating: f64,
    pub rd: f64,
    pub games: i64,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// `true`: the players whose rating is still provisional, best first
    /// (they are left off the leaderboard until it settles).
    pub provisional: Option<bool>,
}

/// The best 100 players of a category (provisional ratings left out, or
/// only those with `?provisional=true`).
#[utoipa::path(get, path = "/api/leaderboard/{category}", tag = "players",
    params(("category" = String, Path, description = "`classic-blitz`, …"), LeaderboardQuery),
    responses(
        (status = 200, body = [Leader]),
        (status = 400, body = ErrorBody),
        (status = 404, description = "No such category", body = ErrorBody),
    ))]
pub async fn leaderboard(
    Caller { app, client, .. }: Caller,
    Path(category): Path<String>,
    query: Result<Query<LeaderboardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<Leader>>, ApiError> {
    limit(&app.limits.actions, client, "requests")?;
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let category = known_category(&category)?;
    let (min_rd, max_rd) = if q.provisional.unwrap_or(false) {
        (PROVISIONAL_RD, f64::MAX)
    } else {
        (0.0, PROVISIONAL_RD)
    };
    let rows = app
        .store
        .leaderboard(&category, min_rd, max_rd, 100)
        .await?;
    Ok(Json(
        rows.into_iter()
            .enumerate()
            .map(|(k, (name, kind, r))| {
                let view = RatingView::of(&r);
                Leader {
                    rank: k + 1,
                    name,
                    kind,
                    rating: view.rating,
                    rd: view.rd,
                    games: view.games,
                }
            })
            .collect(),
    ))
}
