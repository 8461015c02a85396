//! What a handler is given about who asks: the caller ([`Caller`]), a
//! request the client's bucket allowed ([`Limited`]), a signed-in player
//! ([`SignedIn`]), a request about one game ([`GameRequest`]). A handler
//! names what it needs in its arguments, and no handler repeats the
//! reading, the limit or the login check.

use std::marker::PhantomData;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;

use super::error::ApiError;
use crate::code::Code;
use crate::ratelimit::Limiter;
use crate::session::{self, Viewer};
use crate::App;

/// Who asks: the server, the client's address as per-address limits count
/// it (an IPv6 client's /64, `proxy::limited_as`) and the request's headers
/// (a session cookie, a token).
pub(crate) struct Caller {
    pub app: Arc<App>,
    pub client: IpAddr,
    pub headers: HeaderMap,
}

impl FromRequestParts<Arc<App>> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        // Set for every request by the connection loop (listen.rs); a
        // router served some other way counts its connection's address.
        let client = match parts.extensions.get::<crate::listen::Client>() {
            Some(c) => crate::proxy::limited_as(c.0),
            None => {
                let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, app)
                    .await
                    .map_err(|e| {
                        ApiError::new(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            Code::Server,
                            e.to_string(),
                        )
                    })?;
                crate::proxy::limited_as(peer.ip())
            }
        };
        Ok(Caller {
            app: app.clone(),
            client,
            headers: parts.headers.clone(),
        })
    }
}

/// What a request about one game carries: who asks, and the game's id
/// (from the path).
pub(crate) struct GameRequest {
    pub app: Arc<App>,
    pub client: IpAddr,
    pub id: String,
    pub headers: HeaderMap,
}

impl FromRequestParts<Arc<App>> for GameRequest {
    type Rejection = axum::response::Response;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(id) = axum::extract::Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let Caller {
            app,
            client,
            headers,
        } = Caller::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(GameRequest {
            app,
            client,
            id,
            headers,
        })
    }
}

impl GameRequest {
    /// The game, once the client's bucket of requests allows this one.
    pub async fn game(&self) -> Result<crate::live::Shared, ApiError> {
        self.game_within(&self.app.limits.actions, "requests").await
    }

    /// The game, once `limiter`'s bucket of `what` allows this request.
    pub async fn game_within(
        &self,
        limiter: &Limiter,
        what: &str,
    ) -> Result<crate::live::Shared, ApiError> {
        limit(limiter, self.client, what)?;
        Ok(crate::live::get(&self.app, &self.id).await?)
    }
}

/// Takes one request of a kind from the client's bucket.
pub(crate) fn limit(limiter: &Limiter, client: IpAddr, what: &str) -> Result<(), ApiError> {
    limiter
        .check(client)
        .map_err(|wait| ApiError::rate_limited(what, wait))
}

/// The bucket of a client's requests that a kind of request takes one
/// from, and what the refusal calls them.
pub(crate) trait Bucket: Send + Sync {
    /// Takes one from `client`'s bucket, or says how long to wait.
    fn take(app: &App, client: IpAddr) -> Result<(), ApiError>;
}

/// Any request: the bucket of `requests`.
pub(crate) struct Requests;
/// A request that makes a game or takes a seat: the bucket of `new games`.
pub(crate) struct NewGames;
/// A claim of seats: the bucket of new games, as `seats taken`.
pub(crate) struct SeatsTaken;
/// A request counted by a bucket of its own, or by none (reading who you
/// are, a password change, which counts logins itself).
pub(crate) struct Unmetered;

impl Bucket for Requests {
    fn take(app: &App, client: IpAddr) -> Result<(), ApiError> {
        limit(&app.limits.actions, client, "requests")
    }
}

impl Bucket for NewGames {
    fn take(app: &App, client: IpAddr) -> Result<(), ApiError> {
        limit(&app.limits.create, client, "new games")
    }
}

impl Bucket for SeatsTaken {
    fn take(app: &App, client: IpAddr) -> Result<(), ApiError> {
        limit(&app.limits.create, client, "seats taken")
    }
}

impl Bucket for Unmetered {
    fn take(_: &App, _: IpAddr) -> Result<(), ApiError> {
        Ok(())
    }
}

/// A caller whose request its client's bucket `B` allowed (else `429`).
pub(crate) struct Limited<B: Bucket = Requests> {
    pub app: Arc<App>,
    pub client: IpAddr,
    pub headers: HeaderMap,
    bucket: PhantomData<B>,
}

impl<B: Bucket> FromRequestParts<Arc<App>> for Limited<B> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Caller {
            app,
            client,
            headers,
        } = Caller::from_request_parts(parts, app).await?;
        B::take(&app, client)?;
        Ok(Limited {
            app,
            client,
            headers,
            bucket: PhantomData,
        })
    }
}

/// A signed-in player's request that its client's bucket `B` allowed:
/// `429` first, then `401 login_needed` without a session.
pub(crate) struct SignedIn<B: Bucket = Requests> {
    pub app: Arc<App>,
    pub client: IpAddr,
    pub headers: HeaderMap,
    /// Who is signed in, and the session.
    pub viewer: Viewer,
    bucket: PhantomData<B>,
}

impl<B: Bucket> FromRequestParts<Arc<App>> for SignedIn<B> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Self, ApiError> {
        let Limited::<B> {
            app,
            client,
            headers,
            ..
        } = Limited::from_request_parts(parts, app).await?;
        let viewer = session::logged_in(&app, &headers).await?;
        Ok(SignedIn {
            app,
            client,
            headers,
            viewer,
            bucket: PhantomData,
        })
    }
}
