//! The leaderboards: the best players of a rating category whose ratings
//! are settled, and, apart, those still provisional; and the overview of
//! every category anybody is rated in, with its top few.

use axum::extract::{Path, Query};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::accounts::RatingView;
use super::error::ApiError;
use super::players::known_category;
use super::Limited;
use crate::rating::{Category, PROVISIONAL_RD};
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
    Limited { app, .. }: Limited,
    Path(category): Path<String>,
    query: Result<Query<LeaderboardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<Leader>>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let category = known_category(&category)?;
    let (min_rd, max_rd) = if q.provisional.unwrap_or(false) {
        (PROVISIONAL_RD, f64::MAX)
    } else {
        (0.0, PROVISIONAL_RD)
    };
    Ok(Json(leaders(&app, &category, min_rd, max_rd, 100).await?))
}

/// The best `limit` of `category` with an RD in `min_rd..max_rd`, ranked.
async fn leaders(
    app: &crate::App,
    category: &str,
    min_rd: f64,
    max_rd: f64,
    limit: i64,
) -> Result<Vec<Leader>, ApiError> {
    let rows = app
        .store
        .leaderboard(category, min_rd, max_rd, limit)
        .await?;
    Ok(rows
        .into_iter()
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
        .collect())
}

/// A category's top few, for the overview.
#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryTop {
    /// `classic-blitz`, …, `puzzles`.
    pub category: String,
    /// The best three whose rating is settled.
    pub leaders: Vec<Leader>,
    /// The best three still provisional.
    pub provisional: Vec<Leader>,
}

/// How many players each category's overview shows.
const TOP: i64 = 3;

/// How long one read of the overview is given to every asker.
const OVERVIEW_KEPT: std::time::Duration = std::time::Duration::from_secs(5);

/// Every category somebody is rated in (settled or provisional), in the
/// order of the families and speeds and then puzzles, each with its best
/// three settled players and its best three provisional ones (read again
/// at most every 5 seconds).
#[utoipa::path(get, path = "/api/leaderboard", tag = "players",
    responses((status = 200, body = [CategoryTop])))]
pub async fn overview(Limited { app, .. }: Limited) -> Result<Json<serde_json::Value>, ApiError> {
    // One read at a time, kept for [`OVERVIEW_KEPT`]: however many ask, the
    // database answers 64 small queries at most that often.
    let mut kept = app.leaderboard_overview.lock().await;
    if let Some((at, tops)) = kept.as_ref() {
        if at.elapsed() < OVERVIEW_KEPT {
            return Ok(Json(tops.clone()));
        }
    }
    let names = Category::all()
        .map(Category::name)
        .chain([crate::store::PUZZLES.to_string()]);
    let mut tops = Vec::new();
    // Two queries of three rows a category, each on the (category, rating)
    // index: bounded whatever the number of players.
    for category in names {
        let settled = leaders(&app, &category, 0.0, PROVISIONAL_RD, TOP).await?;
        let provisional = leaders(&app, &category, PROVISIONAL_RD, f64::MAX, TOP).await?;
        if settled.is_empty() && provisional.is_empty() {
            continue;
        }
        tops.push(CategoryTop {
            category,
            leaders: settled,
            provisional,
        });
    }
    let tops = serde_json::to_value(tops).map_err(|e| ApiError::internal(&e.to_string()))?;
    *kept = Some((std::time::Instant::now(), tops.clone()));
    Ok(Json(tops))
}
