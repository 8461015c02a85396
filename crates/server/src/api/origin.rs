//! The check that a request the session cookie authenticates comes from
//! the server's own pages (a layer over every route).

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use crate::code::Code;
use crate::session::{cookie_token, origin_of, own_origin};
use crate::App;

/// Refuses (`403 cross_origin`) a state-changing request, or a socket,
/// that the session cookie would authenticate but that another site's page
/// sent. A request carrying a seat or bot token as `Authorization: Bearer`
/// goes on, without the cookie.
pub async fn same_origin(
    State(app): State<Arc<App>>,
    mut request: Request,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) && !request.headers().contains_key(header::UPGRADE);
    let headers = request.headers();
    if safe || cookie_token(&app, headers).is_none() {
        return next.run(request).await;
    }
    let foreign = origin_of(headers).is_some_and(|o| !own_origin(&app, &o, headers));
    if foreign {
        if headers.contains_key(header::AUTHORIZATION) {
            request.headers_mut().remove(header::COOKIE);
            return next.run(request).await;
        }
        return ApiError::new(
            StatusCode::FORBIDDEN,
            Code::CrossOrigin,
            "this request came from another site's page: sign-in cookies work only on this server's own pages",
        )
        .into_response();
    }
    next.run(request).await
}
