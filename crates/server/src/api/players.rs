//! Players: a player's page (ratings, counts, streak, games in progress),
//! the archive of their finished games, a rating's history, and the
//! leaderboards.

use std::collections::BTreeMap;
use virus_wars_pairing::Kind;

use super::Limited;
use crate::seat::Seat;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::accounts::RatingView;
use super::error::ApiError;
use crate::code::Code;
use crate::present::played;
use crate::rating::{Category, Family};
use crate::store::{AccountRow, ArchiveFilter, GameRow};
use crate::view::{ErrorBody, PlayedGame, RatingMove};
use crate::App;

/// A player's page.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerPage {
    pub name: String,
    /// `person` or `bot` (shown as BOT).
    pub kind: String,
    pub created_ms: i64,
    /// The account was deleted (its games stay under this name).
    pub deleted: bool,
    /// Seen within the last five minutes (a request, or a page open);
    /// false where the player hides it.
    pub online: bool,
    /// How many follow them.
    pub followers: i64,
    /// Whether you follow them (`null` when you are not logged in, or
    /// this is you).
    pub you_follow: Option<bool>,
    /// By category, those played rated.
    pub ratings: BTreeMap<String, RatingView>,
    /// Finished games (not those called off).
    pub played: i64,
    pub won: i64,
    pub lost: i64,
    pub drawn: i64,
    /// The current streak: its result (`won`, `lost`, `drawn`) and length.
    pub streak: Option<Streak>,
    /// Games in progress, the most recently active first.
    pub playing: Vec<PlayedGame>,
    /// The tournaments they played, the latest first (at most 20).
    pub tournaments: Vec<PlayerTournament>,
}

/// A tournament on a player's page.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerTournament {
    pub id: String,
    pub name: String,
    /// `soon`, `running`, `finished`.
    pub state: String,
    pub starts_ms: i64,
    /// An arena's points; a Swiss tournament's or round robin's (a win 1,
    /// a draw ½).
    #[serde(serialize_with = "virus_wars_pairing::standings::whole_or_half")]
    #[schema(value_type = f64)]
    pub points: f64,
    /// Their place at the end (`null` before).
    pub place: Option<i64>,
    pub players: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Streak {
    pub result: String,
    pub games: i64,
}

/// Whether anyone may watch the game from a player's page or list: listed,
/// or with no seat waiting for someone to take it (an unlisted game still
/// waiting is its invitation: only the invite link shows it).
pub(super) fn anyone_may_watch(row: &GameRow) -> bool {
    row.listed || !awaits_player(row)
}

/// Whether a seat of the game still waits for someone to take it.
fn awaits_player(row: &GameRow) -> bool {
    (0..2).any(|k| {
        !row.holders[k].seated() && !matches!(Seat::parse(&row.players[k]), Ok(Seat::Computer(_)))
    })
}

async fn account(app: &App, name: &str) -> Result<AccountRow, ApiError> {
    app.store
        .account_named(name)
        .await?
        .ok_or_else(|| ApiError::not_found(&format!("player named '{name}'")))
}

/// The rated games' rating moves of `account` among `rows`.
async fn with_moves(
    app: &App,
    account: &str,
    rows: &[GameRow],
) -> Result<Vec<PlayedGame>, ApiError> {
    let rated: Vec<String> = rows
        .iter()
        .filter(|r| r.rated)
        .map(|r| r.id.clone())
        .collect();
    let moves = app.store.changes_in(account, &rated).await?;
    Ok(rows
        .iter()
        .map(|r| {
            let m = moves
                .iter()
                .find(|(id, _, _)| *id == r.id)
                .map(|(_, before, after)| RatingMove {
                    before: (before * 10.0).round() / 10.0,
                    after: (after * 10.0).round() / 10.0,
                });
            played(r, account, m)
        })
        .collect())
}

/// A player's page: ratings, counts, streak and games in progress.
#[utoipa::path(get, path = "/api/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 200, body = PlayerPage),
        (status = 404, description = "No player of that name", body = ErrorBody),
    ))]
pub async fn player(
    Limited { app, headers, .. }: Limited,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ApiError> {
    let a = account(&app, &name).await?;
    let you_follow = match crate::session::viewer(&app, &headers).await? {
        Some(v) if v.account.id != a.id => Some(app.store.follows(&v.account.id, &a.id).await?),
        _ => None,
    };
    let now = app.clock.now_ms() as i64;
    let ratings = super::accounts::ratings_view(&app, &a.id).await?;
    let counts = app.store.counts(&a.id).await?;
    let latest = app.store.latest_results(&a.id, 200).await?;
    let streak = latest.first().map(|first| Streak {
        result: first.clone(),
        games: latest.iter().take_while(|r| *r == first).count() as i64,
    });
    // Only games anyone may see: listed, or with every seat taken (an
    // unlisted game waiting for its invited player is its creator's alone).
    let playing: Vec<GameRow> = app
        .store
        .playing(&a.id, 50)
        .await?
        .into_iter()
        .filter(anyone_may_watch)
        .collect();
    Ok(Json(PlayerPage {
        name: a.name.clone(),
        kind: a.kind.clone(),
        created_ms: a.created_ms,
        deleted: a.deleted_ms != 0,
        online: crate::store::shown_online(a.seen_ms, a.hide_online, a.deleted_ms != 0, now),
        followers: app.store.followers(&a.id).await?,
        you_follow,
        ratings,
        played: counts.played,
        won: counts.won,
        lost: counts.lost,
        drawn: counts.drawn,
        streak,
        playing: with_moves(&app, &a.id, &playing).await?,
        tournaments: app
            .store
            .tournaments_of(&a.id, 20)
            .await?
            .into_iter()
            .map(|p| PlayerTournament {
                id: p.tournament.id,
                name: p.tournament.name,
                state: p.tournament.state.to_string(),
                starts_ms: p.tournament.starts_ms,
                points: if p.tournament.kind == Kind::Arena {
                    p.points as f64
                } else {
                    p.points as f64 / 2.0
                },
                place: (p.place > 0).then_some(p.place),
                players: p.players,
            })
            .collect(),
    }))
}

/// The archive's filters and page.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ArchiveQuery {
    /// A rating family: `classic`, `paper-tactics`, `gcr`, `iggamecenter`,
    /// `korobkov`, `other`.
    pub variant: Option<String>,
    /// `won`, `lost`, `drawn` or `aborted` (called-off games are listed
    /// only when asked for).
    pub result: Option<String>,
    /// The opponent's name.
    pub opponent: Option<String>,
    /// `true`: rated games only; `false`: casual ones only.
    pub rated: Option<bool>,
    /// The `next` of the page before.
    pub before: Option<String>,
    /// 1 to 100, default 30.
    pub limit: Option<i64>,
}

/// A page of a player's archive.
#[derive(Debug, Serialize, ToSchema)]
pub struct ArchivePage {
    /// Newest first.
    pub games: Vec<PlayedGame>,
    /// Ask with `before` set to this for the next page; `null` at the end.
    pub next: Option<String>,
}

/// Every finished game of a player, newest first, a page at a time.
#[utoipa::path(get, path = "/api/players/{name}/games", tag = "players",
    params(("name" = String, Path, description = "The player's name"), ArchiveQuery),
    responses(
        (status = 200, body = ArchivePage),
        (status = 400, description = "A bad filter", body = ErrorBody),
        (status = 404, body = ErrorBody),
    ))]
pub async fn games(
    Limited { app, .. }: Limited,
    Path(name): Path<String>,
    query: Result<Query<ArchiveQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<ArchivePage>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let a = account(&app, &name).await?;
    let filter = archive_filter(&app, &q).await?;
    let size = q.limit.unwrap_or(30);
    if !(1..=100).contains(&size) {
        return Err(ApiError::bad_request(format!(
            "limit is 1 to 100, not {size}"
        )));
    }
    let page = app.store.archive(&a.id, &filter, size).await?;
    Ok(Json(ArchivePage {
        games: with_moves(&app, &a.id, &page.games).await?,
        next: page.next.map(|(ms, id)| format!("{ms}.{id}")),
    }))
}

/// The archive's filter from a query, each part checked.
pub async fn archive_filter(app: &App, q: &ArchiveQuery) -> Result<ArchiveFilter, ApiError> {
    let family = match q.variant.as_deref() {
        None | Some("") => String::new(),
        Some(f) if Family::ALL.iter().any(|k| k.name() == f) => f.to_string(),
        Some(f) => {
            return Err(ApiError::bad_request(format!(
                "variant is classic, paper-tactics, gcr, iggamecenter, korobkov or other, not '{f}'"
            )))
        }
    };
    let result = match q.result.as_deref() {
        None | Some("") => String::new(),
        Some(r @ ("won" | "lost" | "drawn" | "aborted")) => r.to_string(),
        Some(r) => {
            return Err(ApiError::bad_request(format!(
                "result is won, lost, drawn or aborted, not '{r}'"
            )))
        }
    };
    let opponent = match q.opponent.as_deref() {
        None | Some("") => String::new(),
        // Nobody of that name: no game matches.
        Some(name) => app
            .store
            .account_named(name)
            .await?
            .map_or_else(|| "-".to_string(), |a| a.id),
    };
    let before = match q.before.as_deref() {
        None | Some("") => None,
        Some(text) => {
            let parsed = text
                .split_once('.')
                .and_then(|(ms, id)| Some((ms.parse::<i64>().ok()?, id.to_string())));
            Some(parsed.ok_or_else(|| {
                ApiError::bad_request("before is the `next` of the page before, as it was given")
            })?)
        }
    };
    Ok(ArchiveFilter {
        family,
        result,
        opponent,
        rated: q.rated,
        before,
    })
}

/// A point of a rating's history.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingPoint {
    pub game_id: String,
    pub at_ms: i64,
    /// The rating before the game (the chart's first point: where the
    /// player started).
    pub before: f64,
    pub rating: f64,
    pub rd: f64,
}

/// A player's rating in a category over time, oldest first (the newest
/// 500 rated games).
#[utoipa::path(get, path = "/api/players/{name}/ratings/{category}", tag = "players",
    params(("name" = String, Path), ("category" = String, Path, description = "`classic-blitz`, …")),
    responses(
        (status = 200, body = [RatingPoint]),
        (status = 404, body = ErrorBody),
    ))]
pub async fn rating_history(
    Limited { app, .. }: Limited,
    Path((name, category)): Path<(String, String)>,
) -> Result<Json<Vec<RatingPoint>>, ApiError> {
    let category = known_category(&category)?;
    let a = account(&app, &name).await?;
    let changes = app.store.rating_changes(&a.id, &category, 500).await?;
    Ok(Json(
        changes
            .into_iter()
            .map(|c| RatingPoint {
                game_id: c.game_id,
                at_ms: c.at_ms,
                before: (c.before * 10.0).round() / 10.0,
                rating: (c.rating * 10.0).round() / 10.0,
                rd: (c.rd * 10.0).round() / 10.0,
            })
            .collect(),
    ))
}

pub(super) fn known_category(text: &str) -> Result<String, ApiError> {
    if text == crate::store::PUZZLES {
        return Ok(text.to_string());
    }
    Category::parse(text).map(Category::name).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            format!("no rating category '{text}': 'puzzles', or a family (classic, paper-tactics, gcr, iggamecenter, korobkov, other), '-' and a speed (bullet, blitz, rapid, classical, correspondence)"),
        )
    })
}
