//! The browser UI (`web/`): plain ES modules and CSS, compiled into the
//! binary and served from it, so the page works with the machine offline.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// A file of `web/`, compiled in.
macro_rules! web_file {
    ($path:literal, $kind:expr) => {
        ($path, $kind, include_str!(concat!("../../../web/", $path)))
    };
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file of `web/`: its path under `/web/`, its type, its text.
/// (`tests/web.rs` checks that every file in `web/` is here.)
pub const FILES: &[(&str, &str, &str)] = &[
    web_file!("index.html", "text/html; charset=utf-8"),
    web_file!("style.css", "text/css; charset=utf-8"),
    web_file!("icon.svg", "image/svg+xml"),
    web_file!("js/api.js", JS),
    web_file!("js/board.js", JS),
    web_file!("js/app.js", JS),
    web_file!("js/home.js", JS),
    web_file!("js/game.js", JS),
    web_file!("js/settings.js", JS),
    web_file!("js/analysis.js", JS),
];

fn serve(path: &str) -> Response {
    match FILES.iter().find(|(p, _, _)| *p == path) {
        Some((_, kind, text)) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, *kind),
                // The files change with the binary: always ask.
                (header::CACHE_CONTROL, "no-cache"),
            ],
            *text,
        )
            .into_response(),
        None => ApiError::not_found("such file").into_response(),
    }
}

/// `/`: the page.
pub async fn index() -> Response {
    serve("index.html")
}

/// `/web/{*path}`: the page's scripts and styles.
pub async fn file(Path(path): Path<String>) -> Response {
    serve(&path)
}
