//! A Swiss tournament's rounds as a TRF16 file (FIDE's Tournament Report
//! File, which every pairing program reads): anyone can pair its rounds
//! again with another Dutch program and compare (scripts/swiss-check.py).

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use virus_wars_pairing::history::History;
use virus_wars_pairing::standings::standings_of;
use virus_wars_pairing::swiss::{trf, Colour};
use virus_wars_pairing::Kind;

use super::error::ApiError;
use super::tournaments::tournament_or_404;
use super::Limited;
use crate::code::Code;
use crate::view::ErrorBody;

/// `yyyy/mm/dd` of a moment (ms since the Unix epoch), in UTC.
fn date(ms: i64) -> String {
    let t = time::OffsetDateTime::from_unix_timestamp(ms.max(0) / 1000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!("{:04}/{:02}/{:02}", t.year(), u8::from(t.month()), t.day())
}

/// The tournament as TRF16: one `001` line a player in pairing-number
/// order (rating at joining, then name) with every round it was paired
/// in, `XXR` its rounds and `XXC white1` (pairing number 1 took X, the
/// white role, in round 1).
#[utoipa::path(get, path = "/api/tournaments/{id}/trf", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, description = "The TRF16 text (text/plain)", body = String),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`not_open`: not a Swiss tournament", body = ErrorBody),
    ))]
pub async fn trf_of(
    Limited { app, .. }: Limited,
    Path(id): Path<String>,
) -> Result<impl IntoResponse, ApiError> {
    let t = tournament_or_404(&app, &id).await?;
    if t.kind != Kind::Swiss {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotOpen,
            format!("a TRF is a Swiss tournament's; this is {}", t.kind),
        ));
    }
    let entrants = app.store.entrants(&id).await?;
    let pairings = app.store.pairings(&id).await?;
    let byes = app.store.byes(&id).await?;
    let history = History::new(&entrants, &pairings, &byes, t.round, t.starts_ms);
    let lines = standings_of(t.kind, &entrants, &pairings, &byes);
    let ranks: Vec<u32> = history
        .order
        .iter()
        .map(|e| {
            lines
                .iter()
                .find(|l| l.account == e.account)
                .map_or(0, |l| l.rank as u32)
        })
        .collect();
    let clock = super::tournaments::games_of(&t)?
        .clock
        .map(|c| c.text_in(60_000.0))
        .unwrap_or_default();
    let end = if t.finished_ms > 0 {
        t.finished_ms
    } else {
        app.clock.now_ms() as i64
    };
    let text = history.trf(
        trf::Tournament {
            name: t.name.clone(),
            start: date(t.starts_ms),
            end: date(end),
            rounds: t.rounds.max(0) as u32,
            clock,
            initial: Colour::White,
            players: Vec::new(),
        },
        &ranks,
    );
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text))
}
