//! The HTTP routes (docs/api.md). The router and the OpenAPI document
//! served at `/api/openapi.json` are built from the same annotated
//! handlers, so the document cannot miss a route.

mod accounts;
mod analyze;
mod answers;
mod blocks;
mod operator;
mod origin;
pub use operator::serve_metrics;
use operator::{healthz, refuse_while_unreachable, security_headers};
mod bots;
pub(crate) mod error;
pub use error::ApiError;
mod extract;
pub mod web;
pub(crate) use extract::{
    limit, Caller, GameRequest, Limited, NewGames, Requests, SeatsTaken, SignedIn, Unmetered,
};
mod challenges;
mod chat;
pub(crate) mod create;
mod export;
mod games;
mod guard;
mod inbox;
mod leaderboard;
mod lobby;
mod login;
mod mine;
mod offers;
mod people;
mod players;
mod push;
mod puzzles;
mod refusals;
mod replay;
mod review;

mod invite;
mod socket;
mod stakes;
mod tournament_play;
mod tournament_trf;
pub(crate) mod tournament_view;
pub(crate) mod tournaments;
mod user_socket;

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use virus_wars_rules::fog::Viewer;
use virus_wars_rules::Side;

use crate::code::Code;
use crate::ids::token_hash;
use crate::live::LiveGame;
use crate::store::Holder;
use crate::App;

/// Largest request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;
/// Longest path, in bytes.
pub const MAX_PATH: usize = 4 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Virus Wars server",
        description = "Games of Virus Wars between people, bots and the computer, refereed by the rules engine. Errors are `{\"error\":{\"code\",\"message\"}}`; a refused request changes nothing. See docs/api.md."
    ),
    components(schemas(crate::view::ErrorBody))
)]
struct ApiDoc;

/// Every API route, annotated: the router and the document both come from here.
fn api_routes() -> OpenApiRouter<Arc<App>> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(create::create, lobby::open_games))
        .routes(routes!(lobby::playing_games))
        .routes(routes!(lobby::quick))
        .routes(routes!(games::show))
        .routes(routes!(games::join))
        .routes(routes!(games::steps))
        .routes(routes!(games::resign))
        .routes(routes!(games::abort))
        .routes(routes!(offers::seat))
        .routes(routes!(stakes::stakes))
        .routes(routes!(invite::invite_qr))
        .routes(routes!(offers::draw))
        .routes(routes!(offers::rematch))
        .routes(routes!(games::record))
        .routes(routes!(socket::live))
        .routes(routes!(bots::register))
        .routes(routes!(bots::games))
        .routes(routes!(analyze::analyze))
        .routes(routes!(replay::replay))
        .routes(routes!(review::ask, review::show))
        .routes(routes!(puzzles::next))
        .routes(routes!(puzzles::show))
        .routes(routes!(puzzles::attempt))
        .routes(routes!(accounts::sign_up))
        .routes(routes!(accounts::me, accounts::delete, mine::settings))
        .routes(routes!(mine::my_games))
        .routes(routes!(mine::claim))
        .routes(routes!(accounts::change_password))
        .routes(routes!(login::log_in, login::log_out))
        .routes(routes!(login::log_out_everywhere))
        .routes(routes!(players::player))
        .routes(routes!(people::follow, people::unfollow))
        .routes(routes!(people::following))
        .routes(routes!(people::online))
        .routes(routes!(people::followed_games))
        .routes(routes!(blocks::block, blocks::unblock))
        .routes(routes!(blocks::blocked))
        .routes(routes!(challenges::challenge))
        .routes(routes!(challenges::mine))
        .routes(routes!(answers::accept))
        .routes(routes!(answers::decline))
        .routes(routes!(answers::withdraw))
        .routes(routes!(chat::chat))
        .routes(routes!(chat::report))
        .routes(routes!(push::key))
        .routes(routes!(push::subscribe, push::unsubscribe))
        .routes(routes!(inbox::notifications))
        .routes(routes!(inbox::read))
        .routes(routes!(user_socket::live))
        .routes(routes!(players::games))
        .routes(routes!(players::rating_history))
        .routes(routes!(leaderboard::leaderboard))
        .routes(routes!(leaderboard::overview))
        .routes(routes!(export::export))
        .routes(routes!(tournaments::create, tournaments::list))
        .routes(routes!(tournament_view::show))
        .routes(routes!(tournament_view::live))
        .routes(routes!(tournament_trf::trf_of))
        .routes(routes!(tournaments::join))
        .routes(routes!(tournaments::withdraw))
        .routes(routes!(tournament_play::game_tournament))
        .routes(routes!(tournament_play::berserk))
}

/// The OpenAPI document of the API, as pretty JSON.
pub fn openapi_json() -> String {
    let (_, mut doc) = api_routes().split_for_parts();
    doc.info.version = env!("CARGO_PKG_VERSION").to_string();
    doc.to_pretty_json()
        .expect("the OpenAPI document serializes")
}

pub fn router(app: Arc<App>, connections: &crate::Connections) -> Router {
    let body_timeout = connections.body_timeout;
    let max_path = MAX_PATH;
    let (api, _) = api_routes().split_for_parts();
    let document = Arc::new(openapi_json());
    Router::new()
        .route("/healthz", get(healthz))
        .route("/", get(web::index))
        .route("/web/{*path}", get(web::file))
        .route("/sw.js", get(web::worker))
        .route("/manifest.webmanifest", get(web::manifest))
        .route(
            "/api/openapi.json",
            get(move || {
                let document = document.clone();
                async move { ([("content-type", "application/json")], (*document).clone()) }
            }),
        )
        .merge(api)
        .fallback(|| async { ApiError::not_found("such route") })
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            refuse_while_unreachable,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(move |request, next| {
            read_body(body_timeout, request, next)
        }))
        .layer(axum::middleware::from_fn(
            move |request: axum::extract::Request, next: axum::middleware::Next| async move {
                if request.uri().path().len() > max_path {
                    return ApiError::new(
                        StatusCode::URI_TOO_LONG,
                        Code::TooLarge,
                        format!("the path is over {max_path} bytes: the API's paths are short"),
                    )
                    .into_response();
                }
                next.run(request).await
            },
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            origin::same_origin,
        ))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            json_errors,
        ))
        // A span per request (method, path), under which handlers log.
        // A refusal a client can cause (a 503 busy, say) is no server fault:
        // logged at debug, so that no client can fill the log.
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                .make_span_with(request_span)
                .on_failure(
                    tower_http::trace::DefaultOnFailure::new().level(tracing::Level::DEBUG),
                ),
        )
        // Outermost: every answer the router gives carries them, the
        // framework's own refusals (405, 413, 414) included.
        .layer(axum::middleware::from_fn(security_headers))
        .with_state(app)
}

/// The span every log line of a request is written under: a request id
/// (to find all of one request's lines), the method, the path and the
/// client's address (a trusted proxy's client, see `proxy`).
fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    let client = request
        .extensions()
        .get::<crate::listen::Client>()
        .map(|c| c.0.to_string())
        .unwrap_or_default();
    tracing::info_span!(
        "request",
        id = %crate::ids::request_id(),
        method = %request.method(),
        path = %request.uri().path(),
        client = %client,
    )
}

/// Reads a request's whole body before any handler runs: within
/// `timeout` (a body trickled in byte by byte is cut off) and at most
/// [`MAX_BODY`] bytes. A request without a body passes as it is.
async fn read_body(
    timeout: std::time::Duration,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::body::HttpBody;
    if request.body().is_end_stream() {
        return next.run(request).await;
    }
    let declared = request
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        // Said at once: no need to wait for a body that would be refused.
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            Code::TooLarge,
            format!("the body is over the limit of {MAX_BODY} bytes"),
        )
        .into_response();
    }
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                Code::TooLarge,
                format!("the body is over the limit of {MAX_BODY} bytes (or was cut off)"),
            )
            .into_response()
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                Code::Timeout,
                format!(
                    "the request's body did not arrive within {} s",
                    timeout.as_secs_f64()
                ),
            )
            .into_response()
        }
    };
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// Every error answer is counted, and is JSON like ours even when it comes
/// from the framework (a wrong method, a path that is not UTF-8, a failed
/// WebSocket upgrade).
async fn json_errors(
    State(app): State<Arc<App>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    app.metrics.requests_refused.inc();
    let json = response
        .headers()
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body).trim().to_string();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text
    };
    let code = match status {
        StatusCode::METHOD_NOT_ALLOWED => Code::MethodNotAllowed,
        StatusCode::NOT_FOUND => Code::NotFound,
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::URI_TOO_LONG => Code::TooLarge,
        s if s.is_server_error() => Code::Server,
        _ => Code::Malformed,
    };
    ApiError::new(status, code, message).into_response()
}

/// A JSON body, or the error that says what is wrong with it.
pub(crate) fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    match b {
        Ok(Json(v)) => Ok(v),
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            Code::TooLarge,
            format!("the body is over the limit of {MAX_BODY} bytes"),
        )),
        Err(r) => Err(ApiError::bad_request(r.body_text())),
    }
}

/// The bearer token a request carries, if any (the scheme's case does
/// not matter).
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get("authorization")?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The bot whose token `token` is: its name and when it was last seen;
/// `None` for a token that is no bot's; `403 banned` for a bot whose
/// account, or whose owner's, was banned or deleted (a ban reaches
/// everything the account controls).
pub(crate) async fn bot_by_token(
    app: &crate::App,
    token: &str,
) -> Result<Option<(String, i64)>, ApiError> {
    match app.store.bot_of(&crate::ids::token_hash(token)).await? {
        Some(b) if b.barred => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::Banned,
            format!(
                "the bot '{}' may not play here: an operator banned it or the account that \
                 registered it, or that account was deleted",
                b.name
            ),
        )),
        Some(b) => Ok(Some((b.name, b.seen_ms))),
        None => Ok(None),
    }
}

/// An `Authorization` header that is there but holds no bearer token.
pub(crate) fn bad_authorization(headers: &HeaderMap) -> Option<ApiError> {
    (headers.contains_key("authorization") && bearer(headers).is_none()).then(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            Code::NoToken,
            "the Authorization header must be 'Bearer <token>'",
        )
    })
}

/// The seat whose token the request carries (`Authorization: Bearer …`),
/// or else the seat the logged-in account holds (on any device). A token
/// this process's copy does not know is looked for again in a fresh load
/// (the seat may have been taken through another process).
pub(crate) async fn seat_of(
    app: &App,
    headers: &HeaderMap,
    g: &mut LiveGame,
) -> Result<Side, ApiError> {
    if let Some(token) = bearer(headers) {
        return seat_of_token(app, token, g).await;
    }
    match crate::session::viewer(app, headers).await? {
        Some(v) => seat_of_account(app, &v.account.id, g).await,
        None => Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            Code::NoToken,
            "send your seat token as 'Authorization: Bearer <token>', or log in to the account that sits here",
        )),
    }
}

/// Who looks at `g` through a request: in a fog game being played, the
/// seat whose token it carries (a wrong token is refused) or that the
/// logged-in account holds, and else the watchers. Nothing is hidden in
/// any other game: everyone is a watcher there, and nothing is looked up.
pub(crate) async fn viewer_of(
    app: &App,
    headers: &HeaderMap,
    g: &mut LiveGame,
) -> Result<Viewer, ApiError> {
    if !g.fogged() {
        return Ok(Viewer::Watcher);
    }
    if let Some(token) = bearer(headers) {
        return seat_of_token(app, token, g).await.map(Viewer::Player);
    }
    if let Some(v) = crate::session::viewer(app, headers).await? {
        if let Some(side) = g.seat_where(|h| h.is_account(&v.account.id)) {
            return Ok(Viewer::Player(side));
        }
    }
    Ok(Viewer::Watcher)
}

/// The seat `account` holds in `g` (looked for again in a fresh load).
pub(crate) async fn seat_of_account(
    app: &App,
    account: &str,
    g: &mut LiveGame,
) -> Result<Side, ApiError> {
    let holds = |h: &Holder| h.is_account(account);
    seat_held_where(app, g, holds, "your account holds no seat in this game").await
}

/// The seat `token` holds in `g` (looked for again in a fresh load).
pub(crate) async fn seat_of_token(
    app: &App,
    token: &str,
    g: &mut LiveGame,
) -> Result<Side, ApiError> {
    // A bot's token is its identity: a bot banned (or whose owner is) is
    // refused in every game, those made while the ban was being written
    // included. Only bots' tokens are looked up (`bot-…`).
    if token.trim().starts_with("bot-") {
        bot_by_token(app, token.trim()).await?;
    }
    let hash = token_hash(token.trim());
    let holds = |h: &Holder| h.is_token(&hash);
    seat_held_where(app, g, holds, "this token holds no seat in this game").await
}

/// The seat of `g` that `holds`, looked for again in a fresh load (another
/// process may have seated it); `403 wrong_token` saying `none` if none.
async fn seat_held_where(
    app: &App,
    g: &mut LiveGame,
    holds: impl Fn(&Holder) -> bool,
    none: &str,
) -> Result<Side, ApiError> {
    if let Some(side) = g.seat_where(&holds) {
        return Ok(side);
    }
    crate::live::refresh(app, g).await?;
    g.seat_where(&holds)
        .ok_or_else(|| ApiError::new(StatusCode::FORBIDDEN, Code::WrongToken, none))
}
