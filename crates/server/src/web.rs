//! The browser UI (`web/`): plain ES modules, CSS and icons, compiled into
//! the binary and served from it, so the page works with the machine
//! offline; with its service worker (`/sw.js`) and manifest it installs
//! as an app and opens with the server out of reach.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// A file of `web/`, compiled in.
macro_rules! web_file {
    ($path:literal, $kind:expr) => {
        (
            $path,
            $kind,
            include_bytes!(concat!("../../../web/", $path)),
        )
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of `web/`: its path under `/web/`, its type, its bytes.
/// (`tests/it/web.rs` checks that every file in `web/` is here.)
pub const FILES: &[(&str, &str, &[u8])] = &[
    web_file!("index.html", "text/html; charset=utf-8"),
    web_file!("style.css", "text/css; charset=utf-8"),
    web_file!("icon.svg", "image/svg+xml"),
    web_file!("icon-192.png", "image/png"),
    web_file!("icon-512.png", "image/png"),
    web_file!("manifest.webmanifest", "application/manifest+json"),
    web_file!("sw.js", JS),
    web_file!("js/api.js", JS),
    web_file!("js/board.js", JS),
    web_file!("js/app.js", JS),
    web_file!("js/home.js", JS),
    web_file!("js/game.js", JS),
    web_file!("js/gamestore.js", JS),
    web_file!("js/history.js", JS),
    web_file!("js/i18n.js", JS),
    web_file!("js/rules.js", JS),
    web_file!("js/settings.js", JS),
    web_file!("js/analysis.js", JS),
];

/// Where the page's files are fetched from: `/` for the page, `/sw.js`
/// and `/manifest.webmanifest` at the root (a service worker's scope is
/// its folder), `/web/…` for the rest.
pub fn url_of(path: &str) -> String {
    match path {
        "index.html" => "/".to_string(),
        "sw.js" | "manifest.webmanifest" => format!("/{path}"),
        _ => format!("/web/{path}"),
    }
}

/// The service worker as served: a line naming this build's UI (a hash
/// of every file) and the files to keep, then `web/sw.js`.
pub fn service_worker() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut hash = std::collections::hash_map::DefaultHasher::new();
        FILES.hash(&mut hash);
        let kept: Vec<String> = FILES
            .iter()
            .filter(|(p, _, _)| *p != "sw.js")
            .map(|(p, _, _)| url_of(p))
            .collect();
        let body = FILES
            .iter()
            .find(|(p, _, _)| *p == "sw.js")
            .map_or("", |(_, _, b)| std::str::from_utf8(b).unwrap_or(""));
        format!(
            "self.VW_VERSION = '{:016x}'; self.VW_FILES = {};\n{body}",
            hash.finish(),
            serde_json::to_string(&kept).unwrap_or_else(|_| "[]".into())
        )
    })
}

fn reply(kind: &'static str, body: &'static [u8]) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            // The files change with the binary: always ask.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        axum::body::Body::from(body),
    )
        .into_response()
}

fn serve(path: &str) -> Response {
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, kind, bytes)) => reply(kind, bytes),
        None => ApiError::not_found("such file").into_response(),
    }
}

/// `/`: the page.
pub async fn index() -> Response {
    serve("index.html")
}

/// `/manifest.webmanifest`: what installing the app needs.
pub async fn manifest() -> Response {
    serve("manifest.webmanifest")
}

/// `/sw.js`: the service worker, which keeps the UI's files.
pub async fn worker() -> Response {
    reply(JS, service_worker().as_bytes())
}

/// `/web/{*path}`: the page's scripts, styles and icons.
pub async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}
