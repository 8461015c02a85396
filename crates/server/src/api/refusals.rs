//! What the OpenAPI document says once for many routes: a game's id in the
//! path, and the refusals that many requests can meet. Each route lists
//! these by name beside the answers that are its own.

use utoipa::{IntoParams, IntoResponses};

use crate::view::ErrorBody;

/// A game's id in the path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by the OpenAPI document only: the handlers take a `GameRequest`
pub struct GameId {
    /// The game's id (its invite code).
    id: String,
}

/// What a request about a game can meet besides its own refusals.
#[derive(IntoResponses)]
#[allow(dead_code)] // the document's answers: the handlers answer with an `ApiError`
pub enum GameRefusals {
    /// `not_found`: no such game.
    #[response(status = 404)]
    NotFound(ErrorBody),
    /// `rate_limited`: too many requests from the address; wait as long as
    /// the `retry-after` header says.
    #[response(status = 429)]
    RateLimited(ErrorBody),
}

/// What a request that needs a seat token can meet besides its own refusals
/// and [`GameRefusals`].
#[derive(IntoResponses)]
#[allow(dead_code)] // the document's answers: the handlers answer with an `ApiError`
pub enum SeatRefusals {
    /// `no_token`: no seat token was sent as `Authorization: Bearer <token>`.
    #[response(status = 401)]
    NoToken(ErrorBody),
    /// `wrong_token`: the token holds no seat in this game; `not_your_turn`
    /// for steps sent out of turn.
    #[response(status = 403)]
    WrongToken(ErrorBody),
}

/// What any request can meet: too many from one address.
#[derive(IntoResponses)]
#[response(
    status = 429,
    description = "`rate_limited`: too many requests from the address; wait as long as the `retry-after` header says"
)]
#[allow(dead_code)] // the document's answer: the handlers answer with an `ApiError`
pub struct RateLimited(ErrorBody);
