//! Errors as the API answers them: a status and a JSON body
//! `{"error":{"code":"stale_seq","message":"…"}}`. A refused request
//! changes nothing.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use virus_wars_rules::contest::RefusalError;
use virus_wars_rules::{Step, StepError};

use crate::code::Code;
use crate::store::StoreError;

/// An error answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: Code,
    pub message: String,
    /// Seconds to wait before trying again (a `Retry-After` header).
    pub retry_after: Option<u64>,
    /// What a client needs to say the refusal in its own words (a refused
    /// step's number, cell and reason code).
    pub detail: Option<serde_json::Value>,
}

impl ApiError {
    /// `503 unavailable`: the database cannot be reached; nothing changed.
    pub fn unavailable() -> Self {
        ApiError {
            retry_after: Some(5),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::Unavailable,
                "the server cannot reach its database just now, so nothing changed: try again in a moment",
            )
        }
    }

    pub fn new(status: StatusCode, code: Code, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
            detail: None,
        }
    }

    /// Too many requests of a kind (`what`) from one client.
    pub fn rate_limited(what: &str, wait: std::time::Duration) -> Self {
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        ApiError {
            retry_after: Some(secs),
            ..Self::new(
                StatusCode::TOO_MANY_REQUESTS,
                Code::RateLimited,
                format!("too many {what} from your address: try again in {secs} s"),
            )
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, Code::Malformed, message)
    }

    /// A fault of the server's own, said without its inner words.
    pub fn internal(what: &str) -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            Code::Internal,
            format!("{what}: the server's fault, try again"),
        )
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            format!("no {what} here"),
        )
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        let mut error = serde_json::json!({"code": self.code, "message": self.message});
        if let Some(detail) = &self.detail {
            error["detail"] = detail.clone();
        }
        serde_json::json!({ "error": error })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = (self.status, Json(self.body())).into_response();
        if let Some(secs) = self.retry_after {
            r.headers_mut().insert("retry-after", secs.into());
        }
        r
    }
}

impl From<RefusalError> for ApiError {
    fn from(e: RefusalError) -> Self {
        if let RefusalError::Illegal {
            number,
            step,
            error,
        } = &e
        {
            return ApiError::illegal_step(*number, step, error);
        }
        let (status, code) = match &e {
            RefusalError::Over(_) | RefusalError::Aborted => (StatusCode::CONFLICT, Code::GameOver),
            RefusalError::NotYourTurn { .. } => (StatusCode::FORBIDDEN, Code::NotYourTurn),
            RefusalError::StaleSeq { .. } => (StatusCode::CONFLICT, Code::StaleSeq),
            RefusalError::NoSteps => (StatusCode::BAD_REQUEST, Code::Malformed),
            RefusalError::Illegal { .. } | RefusalError::PastTurn { .. } => {
                (StatusCode::UNPROCESSABLE_ENTITY, Code::IllegalStep)
            }
            RefusalError::TooLateToAbort => (StatusCode::CONFLICT, Code::TooLate),
            RefusalError::NoDraws => (StatusCode::CONFLICT, Code::NoDraws),
        };
        let detail = match &e {
            RefusalError::PastTurn { number, step, .. } => {
                Some(step_detail(*number, step, "turn_over", None))
            }
            _ => None,
        };
        ApiError {
            detail,
            ..ApiError::new(status, code, e.to_string())
        }
    }
}

/// A refused step as data: its number, its cell, the reason's code, and
/// for `not_entry` where a first step may go (docs/api.md).
fn step_detail(number: u64, step: &Step, reason: &str, entry: Option<&str>) -> serde_json::Value {
    serde_json::json!({"step": number, "cell": step.to_string(), "reason": reason, "entry": entry})
}

impl ApiError {
    /// Step `number` (`step`) refused by the rules, with its detail: the
    /// one answer of every route that plays steps.
    pub fn illegal_step(number: u64, step: &Step, e: &StepError) -> Self {
        ApiError {
            detail: Some(step_detail(number, step, e.code(), e.entry())),
            ..Self::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                Code::IllegalStep,
                format!("step {number} ({step}): {e}"),
            )
        }
    }
}

impl From<crate::password::PasswordError> for ApiError {
    fn from(e: crate::password::PasswordError) -> Self {
        use crate::password::PasswordError;
        match e {
            PasswordError::Weak(message) => {
                ApiError::new(StatusCode::BAD_REQUEST, Code::WeakPassword, message)
            }
            e @ PasswordError::Busy => ApiError {
                retry_after: Some(2),
                ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Code::Busy, e.to_string())
            },
            PasswordError::Failed(what) => ApiError::internal(what),
        }
    }
}

impl From<crate::session::SessionError> for ApiError {
    fn from(e: crate::session::SessionError) -> Self {
        use crate::session::SessionError;
        match e {
            e @ SessionError::LoginNeeded => {
                ApiError::new(StatusCode::UNAUTHORIZED, Code::LoginNeeded, e.to_string())
            }
            e @ SessionError::PasswordChanged => {
                ApiError::new(StatusCode::UNAUTHORIZED, Code::WrongLogin, e.to_string())
            }
            SessionError::Store(e) => e.into(),
        }
    }
}

impl From<crate::chat::ChatError> for ApiError {
    fn from(e: crate::chat::ChatError) -> Self {
        use crate::chat::ChatError;
        let status = match &e {
            ChatError::Malformed(_) => StatusCode::BAD_REQUEST,
            ChatError::LoginNeeded => StatusCode::UNAUTHORIZED,
            ChatError::Muted(_) | ChatError::NotYourRoom(_) => StatusCode::FORBIDDEN,
            ChatError::TooFast { .. } => StatusCode::TOO_MANY_REQUESTS,
            ChatError::TooMany => StatusCode::CONFLICT,
            ChatError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let code = match &e {
            ChatError::Malformed(_) => Code::Malformed,
            ChatError::LoginNeeded => Code::LoginNeeded,
            ChatError::Muted(_) => Code::Muted,
            ChatError::NotYourRoom(_) => Code::NotYourRoom,
            ChatError::TooFast { .. } => Code::RateLimited,
            ChatError::TooMany => Code::TooMany,
            ChatError::Store(_) => Code::Server,
        };
        match e {
            ChatError::Store(e) => e.into(),
            ChatError::TooFast { secs } => ApiError {
                retry_after: Some(secs),
                ..ApiError::new(status, code, e.to_string())
            },
            e => ApiError::new(status, code, e.to_string()),
        }
    }
}

impl From<crate::names::NameError> for ApiError {
    fn from(e: crate::names::NameError) -> Self {
        use crate::names::NameError;
        match e {
            NameError::Malformed(message) => ApiError::bad_request(message),
            e @ NameError::Taken { .. } => {
                ApiError::new(StatusCode::CONFLICT, Code::NameTaken, e.to_string())
            }
            NameError::Store(e) => e.into(),
        }
    }
}

impl From<crate::games::settings::SettingsError> for ApiError {
    fn from(e: crate::games::settings::SettingsError) -> Self {
        ApiError::bad_request(e.0)
    }
}

impl From<crate::games::create::CreateError> for ApiError {
    fn from(e: crate::games::create::CreateError) -> Self {
        use crate::games::create::CreateError;
        match e {
            CreateError::Settings(e) => e.into(),
            CreateError::Store(e) => e.into(),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        if let StoreError::Barred(_) = &e {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                Code::Banned,
                "an operator banned this account (or the account that registered this bot), or it \
                 was deleted: it takes no seat, game or place",
            );
        }
        if let StoreError::Unavailable(why) = &e {
            // Logged once by the health probe, not at every request.
            tracing::warn!(error = %why, "a request found the database unreachable");
            return ApiError::unavailable();
        }
        // The database's own words stay in the log: a client learns no more.
        tracing::error!(error = %e, "storage failed");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            Code::Storage,
            "the game could not be stored, so nothing changed: try again in a moment",
        )
    }
}

impl From<crate::live::LiveError> for ApiError {
    fn from(e: crate::live::LiveError) -> Self {
        use crate::live::LiveError;
        match e {
            LiveError::Refused(e) => e.into(),
            LiveError::Store(e) => e.into(),
            LiveError::NotFound => ApiError::not_found("game with that id"),
            LiveError::WaitingForOpponent => ApiError::new(
                StatusCode::CONFLICT,
                Code::WaitingForOpponent,
                e.to_string(),
            ),
            LiveError::Changed => ApiError::new(StatusCode::CONFLICT, Code::Changed, e.to_string()),
            LiveError::NoBerserk(_) => {
                ApiError::new(StatusCode::CONFLICT, Code::NoBerserk, e.to_string())
            }
        }
    }
}

impl From<crate::computer::ComputerError> for ApiError {
    fn from(e: crate::computer::ComputerError) -> Self {
        use crate::computer::ComputerError;
        let message = e.to_string();
        match e {
            ComputerError::Busy { retry_after, .. } => ApiError {
                retry_after: Some(retry_after),
                ..ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Code::Busy, message)
            },
            ComputerError::Overran => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::SearchOverran,
                message,
            ),
            ComputerError::Failed => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                Code::SearchFailed,
                message,
            ),
            ComputerError::Live(e) => e.into(),
        }
    }
}
