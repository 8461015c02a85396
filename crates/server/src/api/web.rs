//! The browser UI (`web/`): plain ES modules, CSS and icons, compiled into
//! the binary and served from it, so the page works with the machine
//! offline; with its service worker (`/sw.js`) and manifest it installs
//! as an app and opens with the server out of reach.

use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use super::error::ApiError;

/// Files of `web/`, compiled in: each as (path, type, bytes), its type
/// from its extension.
macro_rules! web_files {
    ($($path:literal),* $(,)?) => {
        &[$(($path, kind_of($path), include_bytes!(concat!("../../../../web/", $path)))),*]
    };
}

/// A web file's content type, from its extension.
const fn kind_of(path: &str) -> &'static str {
    const KINDS: [(&[u8], &str); 6] = [
        (b".html", "text/html; charset=utf-8"),
        (b".css", "text/css; charset=utf-8"),
        (b".svg", "image/svg+xml"),
        (b".png", "image/png"),
        (b".webmanifest", "application/manifest+json"),
        (b".js", "text/javascript; charset=utf-8"),
    ];
    let path = path.as_bytes();
    let mut k = 0;
    while k < KINDS.len() {
        let (ext, kind) = KINDS[k];
        if ends_with(path, ext) {
            return kind;
        }
        k += 1;
    }
    panic!("a web file of a type the server does not know")
}

const fn ends_with(text: &[u8], end: &[u8]) -> bool {
    if end.len() > text.len() {
        return false;
    }
    let mut k = 0;
    while k < end.len() {
        if text[text.len() - end.len() + k] != end[k] {
            return false;
        }
        k += 1;
    }
    true
}

/// Every file of `web/`: its path under `/web/`, its type, its bytes.
/// (`tests/it/web.rs` checks that every file in `web/` is here.)
#[rustfmt::skip]
pub const FILES: &[(&str, &str, &[u8])] = web_files![
    "index.html", "style.css", "icon.svg", "icon-192.png", "icon-512.png",
    "manifest.webmanifest", "sw.js",
    "js/api.js", "js/board.js", "js/app.js", "js/home.js", "js/game.js", "js/gamestore.js",
    "js/history.js", "js/i18n.js", "js/rules.js", "js/settings.js", "js/analysis.js", "js/analysisstore.js", "js/puzzlestore.js",
    "js/newgame.js", "js/gameparts.js", "js/searching.js",
    "js/variation.js", "js/account.js", "js/player.js", "js/ownaccount.js", "js/leaderboard.js",
    "js/exercises.js", "js/uk.js", "js/cs.js", "js/ru.js", "js/following.js", "js/bell.js", "js/challenge.js", "js/chat.js",
    "js/puzzles.js",
    "js/review.js",
    "js/stored.js", "js/liveboard.js", "js/gamelink.js", "js/gameclock.js",
    "js/tournament.js", "js/tournaments.js", "js/gametournament.js",
    "js/gamepage.js", "js/gamestatus.js", "js/gamelook.js", "js/gameactions.js", "js/gamefacts.js",
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
    reply(kind_of("sw.js"), service_worker().as_bytes())
}

/// `/web/{*path}`: the page's scripts, styles and icons.
pub async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}
