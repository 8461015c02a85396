//! People finding each other (docs/api.md, People): following a player,
//! the players you follow (who is online, who is playing), and who is
//! online. Online: a request with the account's session, or a socket its
//! page holds open, within the last five minutes; an account may hide it
//! (`PATCH /api/me {"hide_online": true}`): it is still counted.

use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::error::ApiError;
use super::{Limited, SignedIn};
use crate::code::Code;
use crate::session::Viewer;
use crate::store::{shown_online, Follow};
use crate::view::ErrorBody;
use crate::App;

/// Most players one account may follow.
pub const MOST_FOLLOWED: i64 = 1000;
/// Most names `GET /api/online` gives.
pub const MOST_ONLINE_NAMES: i64 = 100;

/// The player named `name` (any case), living, or `404 not_found`.
pub(super) async fn living(app: &App, name: &str) -> Result<crate::store::AccountRow, ApiError> {
    match app.store.account_named(name).await? {
        Some(a) if a.deleted_ms == 0 => Ok(a),
        _ => Err(ApiError::not_found(&format!("player named '{name}'"))),
    }
}

/// What one player does to another (follow, block), or undoes.
pub(super) enum Toward {
    /// A new relation, named by its verb: only toward a living player
    /// other than yourself.
    Start(&'static str),
    /// Ending one: toward any player, a deleted one too.
    End,
}

/// The signed-in caller `me` and the player `name`, for a relation of one to
/// the other.
pub(super) async fn me_and(
    app: &App,
    me: crate::store::AccountRow,
    name: &str,
    toward: Toward,
) -> Result<(crate::store::AccountRow, crate::store::AccountRow), ApiError> {
    let them = match toward {
        Toward::Start(verb) => {
            let them = living(app, name).await?;
            if them.id == me.id {
                return Err(ApiError::bad_request(format!("you cannot {verb} yourself")));
            }
            them
        }
        Toward::End => app
            .store
            .account_named(name)
            .await?
            .ok_or_else(|| ApiError::not_found(&format!("player named '{name}'")))?,
    };
    Ok((me, them))
}

/// Follow a player: their games in progress show on your list of those you
/// follow, with whether they are online. Following again changes nothing.
#[utoipa::path(put, path = "/api/me/following/{name}", tag = "people",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You follow them"),
        (status = 400, description = "`malformed`: yourself", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no living player of that name", body = ErrorBody),
        (status = 409, description = "`too_many`: you follow 1,000 players already", body = ErrorBody),
    ))]
pub async fn follow(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (me, them) = me_and(&app, me, &name, Toward::Start("follow")).await?;
    let now = app.clock.now_ms() as i64;
    match app
        .store
        .follow(&me.id, &them.id, now, MOST_FOLLOWED)
        .await?
    {
        Follow::Following => Ok(StatusCode::NO_CONTENT),
        Follow::TooMany => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!("you follow {MOST_FOLLOWED} players already: unfollow one first"),
        )),
    }
}

/// Stop following a player (nothing if you did not).
#[utoipa::path(delete, path = "/api/me/following/{name}", tag = "people",
    params(("name" = String, Path, description = "The player's name (any case)")),
    responses(
        (status = 204, description = "You do not follow them"),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no player of that name", body = ErrorBody),
    ))]
pub async fn unfollow(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    // A deleted player can still be unfollowed.
    let (me, them) = me_and(&app, me, &name, Toward::End).await?;
    app.store.unfollow(&me.id, &them.id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A page of the players you follow.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct FollowingQuery {
    /// The `next` of the page before.
    pub after: Option<String>,
    /// 1 to 100, default 50.
    pub limit: Option<i64>,
}

/// A player you follow.
#[derive(Debug, Serialize, ToSchema)]
pub struct FollowedPlayer {
    pub name: String,
    /// `person` or `bot`.
    pub kind: String,
    /// Seen within the last five minutes (false where they hide it).
    pub online: bool,
    /// The account was deleted.
    pub deleted: bool,
    /// A game of theirs in progress that anyone may watch (listed, or
    /// with both seats taken), the most recently active; `null`: none.
    pub playing: Option<String>,
}

/// The players you follow, by name.
#[derive(Debug, Serialize, ToSchema)]
pub struct FollowingPage {
    pub players: Vec<FollowedPlayer>,
    /// Ask with `after` set to this for the next page; `null` at the end.
    pub next: Option<String>,
}

/// The players you follow, by name, a page at a time, with who is online.
#[utoipa::path(get, path = "/api/me/following", tag = "people", params(FollowingQuery),
    responses(
        (status = 200, body = FollowingPage),
        (status = 400, description = "`malformed`: a bad limit or an unknown parameter", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn following(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
    query: Result<Query<FollowingQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<FollowingPage>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let size = q.limit.unwrap_or(50);
    if !(1..=100).contains(&size) {
        return Err(ApiError::bad_request(format!(
            "limit is 1 to 100, not {size}"
        )));
    }
    let after = q.after.unwrap_or_default();
    if after.len() > 64 || after.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "after is a player's name: at most 64 bytes, no control characters",
        ));
    }
    let now = app.clock.now_ms() as i64;
    // One more than asked says whether a next page exists.
    let mut rows = app
        .store
        .following(&me.account.id, &after, size + 1)
        .await?;
    let more = rows.len() as i64 > size;
    rows.truncate(size as usize);
    let next = more.then(|| rows.last().map(|r| r.name.clone())).flatten();
    let mut players = Vec::with_capacity(rows.len());
    for r in rows {
        // As their page shows it: not an unlisted game still waiting for
        // its invited player (that one is its creator's alone).
        let playing = app
            .store
            .playing(&r.id, 50)
            .await?
            .into_iter()
            .find(super::players::anyone_may_watch)
            .map(|g| g.id);
        players.push(FollowedPlayer {
            online: shown_online(r.seen_ms, r.hide_online, r.deleted, now),
            name: r.name,
            kind: r.kind,
            deleted: r.deleted,
            playing,
        });
    }
    Ok(Json(FollowingPage { players, next }))
}

/// Players looked at for `GET /api/me/followed-games`: those you follow
/// seen most recently.
const FOLLOWED_LOOKED_AT: i64 = 100;
/// Games of each looked at.
const GAMES_EACH: i64 = 5;
/// Most games it gives.
const MOST_FOLLOWED_GAMES: usize = 20;

/// Games in progress of players you follow that anyone may watch (listed,
/// or with both seats taken), the most recently active first: at most 20,
/// from the 100 of them seen most recently (5 games each), so that the
/// work is bounded whoever you follow.
#[utoipa::path(get, path = "/api/me/followed-games", tag = "people",
    responses(
        (status = 200, body = Vec<crate::view::PlayingGame>),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn followed_games(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
) -> Result<Json<Vec<crate::view::PlayingGame>>, ApiError> {
    let mut rows = Vec::new();
    for id in app
        .store
        .followed_recently_seen(&me.account.id, FOLLOWED_LOOKED_AT)
        .await?
    {
        rows.extend(
            app.store
                .playing(&id, GAMES_EACH)
                .await?
                .into_iter()
                .filter(super::players::anyone_may_watch),
        );
    }
    rows.sort_by(|a, b| {
        (b.progress.last_active_ms, &b.id).cmp(&(a.progress.last_active_ms, &a.id))
    });
    // A game between two players you follow comes once.
    rows.dedup_by(|a, b| a.id == b.id);
    let now = app.clock.now_ms();
    let mut games = Vec::new();
    for row in rows.into_iter().take(MOST_FOLLOWED_GAMES) {
        if let Ok(g) = crate::live::get(&app, &row.id).await {
            games.extend(crate::present::playing_game(&*g.lock().await, now));
        }
    }
    Ok(Json(games))
}

/// Who is online.
#[derive(Debug, Serialize, ToSchema)]
pub struct Online {
    /// Accounts seen within the last five minutes.
    pub count: i64,
    /// Those of them that let it be shown, the most recently seen first
    /// (at most 100).
    pub names: Vec<String>,
}

/// How many players are online, and the names of those who let it show.
#[utoipa::path(get, path = "/api/online", tag = "people",
    responses((status = 200, body = Online)))]
pub async fn online(Limited { app, .. }: Limited) -> Result<Json<Online>, ApiError> {
    let now = app.clock.now_ms() as i64;
    let (count, names) = app.store.online(now, MOST_ONLINE_NAMES).await?;
    Ok(Json(Online { count, names }))
}
