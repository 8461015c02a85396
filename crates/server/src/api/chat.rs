//! A game's chat read back (`GET /api/games/{id}/chat`), and reports of a
//! player to the server's operators (`POST /api/reports`). Lines are said
//! on the game's socket (docs/api.md, Chat).

use super::{Limited, SignedIn};
use crate::session::Viewer;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::error::ApiError;
use super::{bearer, body, seat_of_token};
use crate::chat::{history, Listener};
use crate::view::ErrorBody;
use crate::{ids, live, session};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ChatQuery {
    /// `players` or `watchers`.
    pub room: String,
}

/// A line said in a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChatLine {
    pub room: String,
    pub from: String,
    pub text: String,
    /// When, ms since the Unix epoch.
    pub at: i64,
}

/// A room's newest 100 lines, oldest first: the players' room to the two
/// seats only (their seat token, or their account), also after the game;
/// the watchers' room to anyone but the players while they play. Lines of
/// players you block are left out.
#[utoipa::path(get, path = "/api/games/{id}/chat", tag = "games",
    params(("id" = String, Path, description = "The game's id"), ChatQuery),
    responses(
        (status = 200, body = Vec<ChatLine>),
        (status = 400, description = "`malformed`: no such room", body = ErrorBody),
        (status = 403, description = "`not_your_room`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
    ))]
pub async fn chat(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
    query: Result<Query<ChatQuery>, QueryRejection>,
) -> Result<Json<Vec<ChatLine>>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let shared = live::get(&app, &id).await?;
    let viewer = session::viewer(&app, &headers).await?;
    let listener = {
        let mut g = shared.lock().await;
        let by_token = match bearer(&headers) {
            Some(token) => seat_of_token(&app, token, &mut g).await.is_ok(),
            None => false,
        };
        let by_account = viewer
            .as_ref()
            .is_some_and(|v| g.seat_where(|h| h.is_account(&v.account.id)).is_some());
        Listener {
            seated: by_token || by_account,
            over: g.table.contest.finished(),
        }
    };
    let blocked = match &viewer {
        Some(v) => app.store.blocked_ids(&v.account.id).await?,
        None => Vec::new(),
    };
    let lines = history(&app, &id, &q.room, listener, &blocked).await?;
    Ok(Json(
        lines
            .into_iter()
            .map(|l| ChatLine {
                room: l.room,
                from: l.name,
                text: l.text,
                at: l.at_ms,
            })
            .collect(),
    ))
}

/// The reasons a player may be reported for.
pub const REPORT_REASONS: [&str; 4] = ["abuse", "cheating", "spam", "other"];
/// Most reports one account may make in an hour.
pub const REPORTS_AN_HOUR: u32 = 10;
/// Longest text a report may carry, in characters.
pub const REPORT_TEXT: usize = 500;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReport {
    /// The player's name.
    pub player: String,
    /// `abuse`, `cheating`, `spam` or `other`.
    pub reason: String,
    /// The game it happened in (its chat lines are shown to operators).
    pub game: Option<String>,
    /// What happened, up to 500 characters.
    pub text: Option<String>,
}

/// Report a player to the server's operators (`virus-wars admin reports`
/// lists them, with the lines they said in the game named).
#[utoipa::path(post, path = "/api/reports", tag = "people", request_body = NewReport,
    responses(
        (status = 204, description = "Reported"),
        (status = 400, description = "`malformed`", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such player or game", body = ErrorBody),
        (status = 429, description = "`rate_limited`: 10 reports an hour", body = ErrorBody),
    ))]
pub async fn report(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    request: Result<Json<NewReport>, JsonRejection>,
) -> Result<StatusCode, ApiError> {
    let r = body(request)?;
    if !REPORT_REASONS.contains(&r.reason.as_str()) {
        return Err(ApiError::bad_request(format!(
            "reason is one of {}, not '{}'",
            REPORT_REASONS.join(", "),
            r.reason.chars().take(40).collect::<String>()
        )));
    }
    let text = r.text.unwrap_or_default();
    if text.chars().count() > REPORT_TEXT {
        return Err(ApiError::bad_request(format!(
            "text is at most {REPORT_TEXT} characters"
        )));
    }
    let them = super::people::living(&app, &r.player).await?;
    if them.id == me.id {
        return Err(ApiError::bad_request("you cannot report yourself"));
    }
    let game = r.game.unwrap_or_default();
    if !game.is_empty() {
        live::get(&app, &game).await?;
    }
    super::guard::per_hour(
        &app,
        &format!("report:{}", me.id),
        REPORTS_AN_HOUR,
        |secs| format!("{REPORTS_AN_HOUR} reports an hour at most: the next in {secs} s"),
    )
    .await?;
    app.store
        .add_report(&crate::store::ReportRow {
            id: ids::game_id(),
            reporter: me.id,
            player: them.id,
            reason: r.reason,
            game,
            text,
            created_ms: app.clock.now_ms() as i64,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
