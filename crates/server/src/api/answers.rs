//! Answers to a challenge (docs/api.md, Challenges): its challenged
//! player accepts (the game starts, both seats taken, both told) or
//! declines with a reason (the challenger told); its challenger withdraws
//! it. Each is one conditional write of the challenge's row: of two
//! answers at once, in one process or two, one wins.

use super::{NewGames, SignedIn};
use crate::session::Viewer;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::json;
use utoipa::ToSchema;

use super::challenges::settings_of;
use super::create::rated_pair;
use super::error::ApiError;
use crate::code::Code;
use crate::games::create::{self, random_side, seating, Sitter};
use crate::inbox::{self, Kind, Raiser};
use crate::seat::Seat;
use crate::store::{still_open, AccountRow, ChallengeRow, Holder, NewNote};
use crate::view::{self, ErrorBody, SeatTaken};
use crate::{ids, App};

/// The reasons a challenge may be declined with.
pub const REASONS: [&str; 7] = [
    "generic", "later", "too_fast", "too_slow", "casual", "rated", "variant",
];

fn not_open(c: &ChallengeRow) -> ApiError {
    let state = if c.state == "open" {
        "expired"
    } else {
        c.state.as_str()
    };
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NotOpen,
        format!("the challenge is not open: it was {state}"),
    )
}

/// The challenge `id` as one of its two players may see it, else `404`.
async fn challenge_for(
    app: &App,
    id: &str,
    me: &str,
    incoming: bool,
) -> Result<(ChallengeRow, i64), ApiError> {
    match app.store.challenge(id).await? {
        Some((c, seen))
            if (incoming && c.to_account == me) || (!incoming && c.from_account == me) =>
        {
            Ok((c, seen))
        }
        _ => Err(ApiError::not_found(&format!(
            "challenge '{}' {} you",
            id.chars().take(40).collect::<String>(),
            if incoming { "to" } else { "from" }
        ))),
    }
}

/// Accept a challenge to you: the game starts with both seats taken (yours
/// and the challenger's, held by your accounts); both of you are told.
#[utoipa::path(post, path = "/api/challenges/{id}/accept", tag = "people",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 201, description = "The game and your seat", body = SeatTaken),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 403, description = "`blocked`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such challenge to you", body = ErrorBody),
        (status = 409, description = "`not_open`: accepted, declined, withdrawn or lapsed", body = ErrorBody),
    ))]
pub async fn accept(
    SignedIn {
        app,
        headers,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn<NewGames>,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    let (c, seen) = challenge_for(&app, &id, &me.id, true).await?;
    let now = app.clock.now_ms() as i64;
    if !still_open(&c, seen, now) {
        return Err(not_open(&c));
    }
    let Some(them) = app.store.account(&c.from_account).await? else {
        return Err(not_open(&c));
    };
    if app.store.blocked_between(&me.id, &them.id).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::Blocked,
            "one of you blocks the other",
        ));
    }
    let (_, s) = settings_of(&c.settings)?;
    if s.rated {
        rated_pair(&app, &me.id, &them.id).await?;
    }
    let their_side = s.side.unwrap_or_else(random_side);
    let token = ids::token();
    let sitter = |a: &AccountRow, token: &str| Sitter {
        seat: Seat::Human,
        holder: Holder::new(&ids::token_hash(token), &a.name, &a.id),
    };
    let seats = seating(
        their_side,
        sitter(&them, &ids::token()),
        sitter(&me, &token),
    );
    let (live, row) = create::prepare(&app, &s, seats)?;
    let notes: Vec<NewNote> = [(&them, their_side), (&me, !their_side)]
        .into_iter()
        .map(|(who, side)| NewNote {
            // The one who accepted is told too (its other pages, its game's
            // side), read: it is its own doing.
            read: who.id == me.id,
            ..inbox::note(
                &who.id,
                Kind::ChallengeAccepted,
                &row.id,
                json!({"challenge": c.id, "game": row.id, "from": them.name, "by": me.name,
                       "side": view::side_name(side),
                       "real_time": c.real_time}),
            )
        })
        .collect();
    let Some(seqs) = app.store.accept_challenge(&c.id, &row, now, &notes).await? else {
        let c = app.store.challenge(&c.id).await?.map_or(c, |(c, _)| c);
        return Err(not_open(&c));
    };
    create::created(&app, live, &row);
    Raiser::of(&app).stored(&notes, &seqs);
    Ok((
        StatusCode::CREATED,
        Json(SeatTaken::new(&headers, row.id, !their_side, token)),
    ))
}

/// Declining: the body may be empty.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Decline {
    /// `generic` (default), `later`, `too_fast`, `too_slow`, `casual`,
    /// `rated` or `variant`: the challenger is told it.
    pub reason: Option<String>,
}

/// Decline a challenge to you, with a reason the challenger is told.
#[utoipa::path(post, path = "/api/challenges/{id}/decline", tag = "people",
    params(("id" = String, Path, description = "The challenge's id")),
    request_body = Decline,
    responses(
        (status = 204, description = "Declined"),
        (status = 400, description = "`malformed`: an unknown reason", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such challenge to you", body = ErrorBody),
        (status = 409, description = "`not_open`", body = ErrorBody),
    ))]
pub async fn decline(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(id): Path<String>,
    request: Bytes,
) -> Result<StatusCode, ApiError> {
    let d: Decline = if request.iter().all(u8::is_ascii_whitespace) {
        Decline::default()
    } else {
        serde_json::from_slice(&request).map_err(|e| ApiError::bad_request(e.to_string()))?
    };
    let reason = d.reason.unwrap_or_else(|| "generic".into());
    if !REASONS.contains(&reason.as_str()) {
        return Err(ApiError::bad_request(format!(
            "reason is one of {}, not '{}'",
            REASONS.join(", "),
            reason.chars().take(40).collect::<String>()
        )));
    }
    let (c, _) = challenge_for(&app, &id, &me.id, true).await?;
    let now = app.clock.now_ms() as i64;
    let notes = [inbox::note(
        &c.from_account,
        Kind::ChallengeDeclined,
        "",
        json!({"challenge": c.id, "by": me.name, "reason": reason}),
    )];
    let Some(seqs) = app
        .store
        .close_challenge(&c.id, "declined", &reason, now, &notes)
        .await?
    else {
        let c = app.store.challenge(&c.id).await?.map_or(c, |(c, _)| c);
        return Err(not_open(&c));
    };
    Raiser::of(&app).stored(&notes, &seqs);
    Ok(StatusCode::NO_CONTENT)
}

/// Withdraw a challenge of yours while it is open.
#[utoipa::path(delete, path = "/api/challenges/{id}", tag = "people",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 204, description = "Withdrawn"),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`: no such challenge from you", body = ErrorBody),
        (status = 409, description = "`not_open`", body = ErrorBody),
    ))]
pub async fn withdraw(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (c, _) = challenge_for(&app, &id, &me.id, false).await?;
    let now = app.clock.now_ms() as i64;
    if app
        .store
        .close_challenge(&c.id, "withdrawn", "", now, &[])
        .await?
        .is_none()
    {
        let c = app.store.challenge(&c.id).await?.map_or(c, |(c, _)| c);
        return Err(not_open(&c));
    }
    Ok(StatusCode::NO_CONTENT)
}
