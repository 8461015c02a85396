//! A game's invite as a QR code: the link `{origin}/#/join/{id}` that the
//! friend across the table scans with a phone's camera, drawn as SVG by
//! the `qrcode` crate. The page gives its own origin (the server may sit
//! behind a proxy that alone knows the address players use).

use axum::extract::Query;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::refusals::{GameId, GameRefusals};
use super::GameRequest;
use crate::error::ApiError;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct InviteQuery {
    /// The page's origin, `https://host[:port]` (`location.origin`).
    pub origin: String,
}

/// The longest origin taken: a host name's 253 characters, a scheme and a
/// port.
const LONGEST_ORIGIN: usize = 300;

/// `origin` if it reads as `http(s)://host[:port]` and nothing else.
fn checked_origin(origin: &str) -> Result<&str, String> {
    if origin.len() > LONGEST_ORIGIN {
        return Err(format!(
            "origin is {} characters: at most {LONGEST_ORIGIN}",
            origin.len()
        ));
    }
    let rest = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .ok_or_else(|| format!("origin '{origin}' must start with https:// or http://"))?;
    let host_ok = !rest.is_empty()
        && rest
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
    if !host_ok {
        return Err(format!(
            "origin '{origin}' must be a scheme, a host and a port only (no path, query or other characters)"
        ));
    }
    Ok(origin)
}

/// The invite link of the game as a QR code (SVG): `{origin}/#/join/{id}`.
#[utoipa::path(get, path = "/api/games/{id}/invite.svg", tag = "games",
    params(GameId, InviteQuery),
    responses(
        (status = 200, description = "The QR code, `image/svg+xml`", content_type = "image/svg+xml", body = String),
        (status = 400, description = "`malformed`: no origin, or one that is not `http(s)://host[:port]`", body = crate::view::ErrorBody),
        GameRefusals
    )
)]
pub async fn invite_qr(
    req: GameRequest,
    query: Result<Query<InviteQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let origin = checked_origin(&q.origin).map_err(ApiError::bad_request)?;
    // The game must exist (and the request is counted like any other).
    let shared = req.game().await?;
    let id = shared.lock().await.id.clone();
    let link = format!("{origin}/#/join/{id}");
    let code = qrcode::QrCode::with_error_correction_level(link.as_bytes(), qrcode::EcLevel::M)
        .map_err(|e| {
            ApiError::bad_request(format!("the invite link does not fit a QR code: {e}"))
        })?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build();
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "private, max-age=3600"),
        ],
        svg,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::checked_origin;

    #[test]
    fn only_a_scheme_host_and_port_is_an_origin() {
        for good in [
            "https://vw.example.org",
            "http://127.0.0.1:8080",
            "http://[::1]:8080",
        ] {
            assert_eq!(checked_origin(good), Ok(good));
        }
        for bad in [
            "",
            "ftp://x",
            "https://",
            "https://x/path",
            "https://x?q",
            "https://x#/join/other",
            "javascript:alert(1)",
            "https://a b",
        ] {
            assert!(checked_origin(bad).is_err(), "{bad}");
        }
        assert!(checked_origin(&format!("https://{}", "a".repeat(400))).is_err());
    }
}
