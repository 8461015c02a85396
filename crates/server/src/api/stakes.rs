//! What a rated game stakes: its category, and each account's rating in it,
//! as the game stands (before it ends) or what its end did to them (after),
//! for the game page's cards ("Ann 1512", "+12" at the end).

use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use virus_wars_rules::Side;

use super::error::ApiError;
use super::refusals::{GameId, GameRefusals};
use super::GameRequest;
use crate::rating::Category;

/// A rated game's stakes; `category` and both sides `null` for a game
/// that is not rated.
#[derive(Debug, Serialize, ToSchema)]
pub struct Stakes {
    /// The rating category, e.g. `classic-blitz`.
    pub category: Option<String>,
    pub x: Option<SideStake>,
    pub o: Option<SideStake>,
}

/// One account's rating in the game's category.
#[derive(Debug, Serialize, ToSchema)]
pub struct SideStake {
    /// Its rating before the game (rounded to a tenth).
    pub before: f64,
    /// After the game: `null` until the game's end has moved it.
    pub after: Option<f64>,
    /// Whether the rating is still provisional (few games: its RD is high).
    pub provisional: bool,
}

/// The ratings a rated game puts at stake: each account's rating in the
/// game's category, and, once the game has moved them, after.
#[utoipa::path(get, path = "/api/games/{id}/stakes", tag = "games", params(GameId),
    responses((status = 200, body = Stakes), GameRefusals)
)]
pub async fn stakes(req: GameRequest) -> Result<Json<Stakes>, ApiError> {
    let shared = req.game().await?;
    let (id, category, accounts) = {
        let g = shared.lock().await;
        let clock = g.table.contest.clocks.map(|c| c.control);
        let category = g
            .rated
            .then(|| Category::of(g.variant(), clock.as_ref()))
            .flatten();
        let accounts = Side::BOTH.map(|s| g.holder(s).account.clone());
        (g.id.clone(), category, accounts)
    };
    let Some(category) = category else {
        return Ok(Json(Stakes {
            category: None,
            x: None,
            o: None,
        }));
    };
    let name = category.name();
    let mut sides = [None, None];
    for (k, account) in accounts.iter().enumerate() {
        let Some(account) = account else { continue };
        let round = |r: f64| (r * 10.0).round() / 10.0;
        let moved = req
            .app
            .store
            .changes_in(account, std::slice::from_ref(&id))
            .await?;
        let now = req
            .app
            .store
            .ratings_of(account)
            .await?
            .into_iter()
            .find(|r| r.category == name)
            .map(|r| r.glicko)
            .unwrap_or_default();
        sides[k] = Some(match moved.first() {
            Some((_, before, after)) => SideStake {
                before: round(*before),
                after: Some(round(*after)),
                provisional: now.provisional(),
            },
            None => SideStake {
                before: round(now.rating),
                after: None,
                provisional: now.provisional(),
            },
        });
    }
    let [x, o] = sides;
    Ok(Json(Stakes {
        category: Some(name),
        x,
        o,
    }))
}
