//! A player's games exported whole: one multi-game record file (`.vwr`)
//! or JSON lines, streamed a page of games at a time, so that neither the
//! server's memory nor the answer's start waits on a long history.

use axum::body::Body;
use axum::extract::{Path, Query};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use super::{limit, Caller};
use crate::live::from_row;
use crate::present::played;
use crate::store::ArchiveFilter;

/// Games read from the database at a time.
const PAGE: i64 = 50;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `vwr` (default): one record after another; `jsonl`: a JSON object
    /// a line (the game as the archive shows it, and its steps).
    pub format: Option<String>,
}

/// Every finished game of a player (not those called off), newest first,
/// streamed.
#[utoipa::path(get, path = "/api/players/{name}/export", tag = "players",
    params(("name" = String, Path), ExportQuery),
    responses(
        (status = 200, description = "The games, streamed", content_type = "text/plain", body = String),
        (status = 400, body = crate::view::ErrorBody),
        (status = 404, body = crate::view::ErrorBody),
    ))]
pub async fn export(
    Caller { app, client, .. }: Caller,
    Path(name): Path<String>,
    query: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    limit(&app.limits.create, client, "exports")?;
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let jsonl = match q.format.as_deref() {
        None | Some("vwr") => false,
        Some("jsonl") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "format is vwr or jsonl, not '{other}'"
            )))
        }
    };
    let account = app
        .store
        .account_named(&name)
        .await?
        .ok_or_else(|| ApiError::not_found(&format!("player named '{name}'")))?;
    let (kind, extension) = if jsonl {
        ("application/x-ndjson", "jsonl")
    } else {
        ("text/plain; charset=utf-8", "vwr")
    };
    let file = format!(
        "attachment; filename=\"virus-wars-{}.{extension}\"",
        account.name
    );
    let start = Some(ArchiveFilter::default());
    let pages = futures_util::stream::unfold(start, move |filter| {
        let (app, id) = (app.clone(), account.id.clone());
        async move {
            let mut filter = filter?;
            let (found, next) = match app.store.archive_ids(&id, &filter, PAGE).await {
                Ok(page) => page,
                Err(e) => return Some((Err(std::io::Error::other(e.to_string())), None)),
            };
            let mut out = String::new();
            for (game, _) in &found {
                let Ok(Some((row, steps))) = app.store.load(game).await else {
                    continue;
                };
                let steps: Vec<String> = steps.into_iter().map(|s| s.step).collect();
                if jsonl {
                    let mut line =
                        serde_json::to_value(played(&row, &id, None)).unwrap_or_default();
                    line["steps"] = serde_json::json!(steps);
                    out.push_str(&line.to_string());
                    out.push('\n');
                } else if let Ok(g) = from_row(&row, &steps, app.first_step_within_ms) {
                    out.push_str(&g.record().write());
                    out.push('\n');
                }
            }
            let next = next.map(|before| {
                filter.before = Some(before);
                filter
            });
            Some((Ok::<_, std::io::Error>(out), next))
        }
    });
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (header::CONTENT_DISPOSITION, file),
        ],
        Body::from_stream(pages),
    )
        .into_response())
}
