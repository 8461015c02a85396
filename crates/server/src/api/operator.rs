//! What an operator and a browser rely on besides the API: `/healthz`,
//! `/metrics` on its own listener, the fast refusal while the database
//! cannot be reached, and the security headers of every answer.

use std::sync::Arc;

use axum::extract::State;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::error::ApiError;
use crate::App;

/// `/healthz`: `ok` while the database answers (probed within 2 s, at
/// most once a second), else `503 unavailable`.
pub(super) async fn healthz(State(app): State<Arc<App>>) -> axum::response::Response {
    if app.health.check(&app.store, &app.metrics, &app.clock).await {
        "ok".into_response()
    } else {
        ApiError::unavailable().into_response()
    }
}

/// What a page may load and who may frame it, on every answer: scripts,
/// styles, connections and workers from this origin alone (no inline
/// script or style, no other origin), images also as `data:` (the tab's
/// badge), never in a frame; content types as sent; no referrer to other
/// sites. HSTS is the TLS proxy's to set (docs/hosting.md).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; \
     worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

pub(super) async fn security_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::header::{
        HeaderValue, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
    };
    let mut answer = next.run(request).await;
    let headers = answer.headers_mut();
    for (name, value) in [
        (
            axum::http::header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ),
        (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (X_FRAME_OPTIONS, "DENY"),
        (REFERRER_POLICY, "same-origin"),
    ] {
        headers
            .entry(name)
            .or_insert(HeaderValue::from_static(value));
    }
    answer
}

/// While the database cannot be reached (`health`), an API request is
/// answered `503 unavailable` at once rather than held until its
/// connection times out; the page's own files are still served.
pub(super) async fn refuse_while_unreachable(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if !app.health.up() && request.uri().path().starts_with("/api/") {
        return ApiError::unavailable().into_response();
    }
    next.run(request).await
}

/// Serves `/metrics` (and `/healthz`) on `listener`, the operator's own
/// address (`serve --metrics-addr`): never on the public one.
pub async fn serve_metrics(listener: tokio::net::TcpListener, app: Arc<App>) {
    let router = Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .fallback(|| async {
            ApiError::not_found("such route: this address serves /metrics and /healthz")
        })
        .with_state(app);
    if let Err(e) = axum::serve(listener, router).await {
        tracing::error!(error = %e, "the metrics listener stopped");
    }
}

async fn metrics(State(app): State<Arc<App>>) -> impl IntoResponse {
    use std::sync::atomic::Ordering::Relaxed;
    (
        [("content-type", crate::metrics::CONTENT_TYPE)],
        app.metrics.render(
            app.games.len(),
            app.computer.queued.load(Relaxed) + app.computer.turns_waiting.load(Relaxed),
            app.computer.thinking.load(Relaxed),
        ),
    )
}
