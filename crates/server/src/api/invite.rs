//! A game's invite as a QR code: the link `{origin}/#/join/{id}` that the
//! friend across the table scans with a phone's camera, drawn as SVG by
//! the `qrcode` crate. The page gives its own origin (the server may sit
//! behind a proxy that alone knows the address players use).

use axum::extract::Query;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::IntoParams;

use super::error::ApiError;
use super::refusals::{GameId, GameRefusals};
use super::GameRequest;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct InviteQuery {
    /// The page's origin, `https://host[:port]` (`location.origin`).
    pub origin: String,
}

/// The longest origin taken: a host name's 253 characters, a scheme and a
/// port.
const LONGEST_ORIGIN: usize = 300;

/// Whether `host` is a DNS name (labels of letters, digits and inner
/// hyphens, at most 63 each), an IPv4 address or a bracketed IPv6 one.
fn is_host(host: &str) -> bool {
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner.parse::<std::net::Ipv6Addr>().is_ok();
    }
    let name = host.strip_suffix('.').unwrap_or(host);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
}

/// `origin` if it reads as `http(s)://host[:port]` and nothing else: a
/// host as [`is_host`] takes it, a port of 1 to 65535.
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
    // The port is what follows the last ':' outside an IPv6 address's
    // brackets.
    let (host, port) = match rest.rfind(':') {
        Some(k) if !rest[k..].contains(']') => (&rest[..k], Some(&rest[k + 1..])),
        _ => (rest, None),
    };
    let port_ok = port.is_none_or(|p| {
        !p.is_empty()
            && p.chars().all(|c| c.is_ascii_digit())
            && p.parse::<u16>().is_ok_and(|n| n > 0)
    });
    if !is_host(host) || !port_ok {
        return Err(format!(
            "origin '{origin}' must be a scheme, a host and a port (1 to 65535) only, with no path, query or other characters"
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
            "http://[::1]",
            "https://xn--80ak6aa92e.com",
            "https://localhost.",
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
            "https://a:b",
            "https://::::",
            "https://.",
            "https://-",
            "https://x.org:99999999",
            "https://x.org:0",
            "https://x.org:",
            "https://[::1",
            "https://[zz]:80",
            "https://-a.org",
        ] {
            assert!(checked_origin(bad).is_err(), "{bad}");
        }
        assert!(checked_origin(&format!("https://{}", "a".repeat(400))).is_err());
    }
}
