//! Challenges by name (docs/api.md, Challenges): a signed-in player asks
//! another for a game with the options of `POST /api/games`; the other is
//! told at once on every page they have open, and accepts (the game starts,
//! both seats taken, both told) or declines with a reason (the challenger
//! told). A challenge lapses after 24 hours, and a real-time one as soon as
//! its challenger has been gone two minutes. A challenge to a bot makes its
//! game at once: the seat waits for the bot (`GET /api/bots/games`). The
//! answers to a challenge are in `answers.rs`.

use super::{NewGames, SignedIn};
use crate::session::Viewer;
use axum::body::Bytes;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use serde_json::{json, Value};
use utoipa::ToSchema;

use super::create::{rated_pair, rated_settings};
use super::error::ApiError;
use crate::code::Code;
use crate::games::create::{self, random_side, seating, Sitter};
use crate::games::settings::{settings, Settings};
use crate::inbox::{self, Kind, Raiser};
use crate::seat::Seat;
use crate::store::{AccountRow, ChallengeRow, Holder, Sent};
use crate::view::{self, ErrorBody, NewGame, TimeControlInfo, VariantInfo};
use crate::{ids, App};

/// A challenge lapses this long after it was made.
pub const LASTS_MS: i64 = 24 * 3_600_000;
/// Most challenges one player may have open at once.
pub const MOST_OPEN: i64 = 10;
/// Most challenges one player may make in an hour.
pub const MOST_AN_HOUR: u32 = 20;
/// Most challenges each list of `GET /api/me/challenges` gives.
const MOST_LISTED: i64 = 50;

/// A challenge as the lists show it.
#[derive(Debug, Serialize, ToSchema)]
pub struct Challenge {
    pub id: String,
    pub from: String,
    pub to: String,
    pub variant: VariantInfo,
    /// As people read it (`3+2`, `3 d/turn`); `null`: untimed.
    pub time_control: Option<String>,
    pub clock: Option<TimeControlInfo>,
    pub rated: bool,
    /// The side the challenger asked for: `x`, `o` or `random`.
    pub side: String,
    /// When it was made and when it lapses, ms since the Unix epoch (a
    /// real-time one lapses sooner once its challenger is gone).
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// Your open challenges.
#[derive(Debug, Serialize, ToSchema)]
pub struct Challenges {
    /// To you, newest first.
    pub incoming: Vec<Challenge>,
    /// From you, newest first.
    pub outgoing: Vec<Challenge>,
}

/// A challenge sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChallengeSent {
    pub id: String,
    /// A bot's game, made at once (its seat waits for the bot); `null` for
    /// a person, whose answer makes it.
    pub game: Option<String>,
}

/// The game options of a stored challenge, checked again (a fog game is
/// laid out now, unseen).
pub(super) fn settings_of(text: &str) -> Result<(NewGame, Settings), ApiError> {
    let request: NewGame = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request(format!("the challenge's options: {e}")))?;
    let s = settings(&request)?;
    Ok((request, s))
}

/// `to` and the game options of a challenge's body, checked.
fn read_body(body: &[u8]) -> Result<(String, String, Settings), ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the body is not JSON: {e}")))?;
    let Value::Object(mut fields) = value else {
        return Err(ApiError::bad_request(
            "the body is an object: {\"to\": NAME, …the options of POST /api/games}",
        ));
    };
    let to = fields.remove("to");
    for (key, why) in [
        ("opponent", "the opponent is the player named by to"),
        (
            "name",
            "a challenge is between accounts: their names are shown",
        ),
    ] {
        if fields.contains_key(key) {
            return Err(ApiError::bad_request(format!("{key}: {why}")));
        }
    }
    if fields.get("listed") == Some(&Value::Bool(true)) {
        return Err(ApiError::bad_request(
            "listed: a challenge's game is for the two of you, not the open games list",
        ));
    }
    let text = Value::Object(fields).to_string();
    let (_, s) = settings_of(&text)?;
    let to = match to {
        Some(Value::String(to)) if !to.is_empty() && to.len() <= 64 => to,
        Some(_) => {
            return Err(ApiError::bad_request(
                "to is a player's name (1 to 64 bytes)",
            ))
        }
        None => return Err(ApiError::bad_request("to: whom you challenge, by name")),
    };
    Ok((to, text, s))
}

/// The challenge as lists show it.
fn shown(c: &ChallengeRow, from: &str, to: &str) -> Result<Challenge, ApiError> {
    let (request, s) = settings_of(&c.settings)?;
    Ok(Challenge {
        id: c.id.clone(),
        from: from.to_string(),
        to: to.to_string(),
        variant: view::variant_info(&s.variant),
        time_control: s.clock.map(|t| t.text_in(60_000.0)),
        clock: s.clock.map(TimeControlInfo::from),
        rated: s.rated,
        side: request.side.unwrap_or_else(|| "random".into()),
        created_ms: c.created_ms,
        expires_ms: c.expires_ms,
    })
}

/// Refuses a challenge from `me` to `them` that they do not take.
async fn may_challenge(app: &App, me: &AccountRow, them: &AccountRow) -> Result<(), ApiError> {
    if them.id == me.id {
        return Err(ApiError::bad_request("you cannot challenge yourself"));
    }
    // A banned player takes no challenge (said as for a deleted one).
    if them.banned_ms != 0 {
        return Err(ApiError::not_found(&format!(
            "player named '{}'",
            them.name
        )));
    }
    if app.store.blocked_between(&me.id, &them.id).await? {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::Blocked,
            format!(
                "you cannot challenge {}: one of you blocks the other",
                them.name
            ),
        ));
    }
    let takes = match them.challenges_from.as_str() {
        "nobody" => false,
        "following" => app.store.follows(&them.id, &me.id).await?,
        _ => true,
    };
    if !takes {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::NotTaking,
            format!("{} takes no challenges from you", them.name),
        ));
    }
    Ok(())
}

/// Challenge a player by name to a game with the options of `POST
/// /api/games` (less `opponent`, `name` and `listed`). They are told at
/// once; their answer makes the game. A bot's game is made at once.
#[utoipa::path(post, path = "/api/challenges", tag = "people",
    request_body(content = Object, description = "`{\"to\": NAME}` and the options of `POST /api/games`"),
    responses(
        (status = 201, body = ChallengeSent),
        (status = 400, description = "`malformed`: yourself, a bad option; `account_needed`", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 403, description = "`blocked`, `not_taking`", body = ErrorBody),
        (status = 404, description = "`not_found`: no living player of that name", body = ErrorBody),
        (status = 409, description = "`too_many`: 10 of yours are open", body = ErrorBody),
        (status = 429, description = "`rate_limited`: 20 challenges an hour", body = ErrorBody),
    ))]
pub async fn challenge(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn<NewGames>,
    request: Bytes,
) -> Result<(StatusCode, Json<ChallengeSent>), ApiError> {
    let (to, text, s) = read_body(&request)?;
    let them = super::people::living(&app, &to).await?;
    may_challenge(&app, &me, &them).await?;
    if s.rated {
        rated_settings(&s)?;
        rated_pair(&app, &me.id, &them.id).await?;
    }
    super::guard::per_hour(
        &app,
        &format!("challenge:{}", me.id),
        MOST_AN_HOUR,
        |secs| format!("{MOST_AN_HOUR} challenges an hour at most: the next in {secs} s"),
    )
    .await?;
    let now = app.clock.now_ms() as i64;
    let mut row = ChallengeRow {
        id: ids::game_id(),
        from_account: me.id.clone(),
        to_account: them.id.clone(),
        settings: text,
        real_time: s.clock.is_some_and(|c| !c.per_turn),
        created_ms: now,
        expires_ms: now + LASTS_MS,
        state: "open".into(),
        reason: String::new(),
        game: String::new(),
    };
    if them.kind == "bot" {
        // The bot's seat waits for it, as `opponent: "bot:NAME"` makes it.
        let s = Settings {
            opponent: Seat::Bot(them.name.clone()),
            ..s
        };
        let side = s.side.unwrap_or_else(random_side);
        let mine = Sitter {
            seat: Seat::Human,
            holder: Holder::new(&ids::token_hash(&ids::token()), &me.name, &me.id),
        };
        let seats = seating(side, mine, Sitter::empty(s.opponent.clone()));
        let (live, game) = create::prepare(&app, &s, seats)?;
        row.state = "accepted".into();
        row.game = game.id.clone();
        // The game is stored with the challenge, in one transaction: a
        // challenge refused makes no game.
        if app
            .store
            .send_challenge(&row, now, MOST_OPEN, Some(&game), &[])
            .await?
            == Sent::TooMany
        {
            return Err(too_many(&app, &me.id).await);
        }
        create::created(&app, live, &game);
        return Ok((
            StatusCode::CREATED,
            Json(ChallengeSent {
                id: row.id,
                game: Some(game.id),
            }),
        ));
    }
    let about = shown(&row, &me.name, &them.name)?;
    let notes = [inbox::note(
        &them.id,
        Kind::Challenge,
        "",
        json!({"challenge": row.id, "from": me.name, "variant": about.variant.preset,
               "time_control": about.time_control, "rated": about.rated}),
    )];
    match app
        .store
        .send_challenge(&row, now, MOST_OPEN, None, &notes)
        .await?
    {
        Sent::TooMany => return Err(too_many(&app, &me.id).await),
        Sent::Sent(seqs) => Raiser::of(&app).stored(&notes, &seqs),
    }
    Ok((
        StatusCode::CREATED,
        Json(ChallengeSent {
            id: row.id,
            game: None,
        }),
    ))
}

/// `409 too_many`; the refused challenge is not counted in the hour's.
async fn too_many(app: &App, account: &str) -> ApiError {
    if let Err(e) = app.store.count_down(&format!("challenge:{account}")).await {
        return e.into();
    }
    ApiError::new(
        StatusCode::CONFLICT,
        Code::TooMany,
        format!("{MOST_OPEN} of your challenges are open: withdraw one, or wait for answers"),
    )
}

/// Your open challenges: to you and from you.
#[utoipa::path(get, path = "/api/me/challenges", tag = "people",
    responses(
        (status = 200, body = Challenges),
        (status = 401, description = "`login_needed`", body = ErrorBody),
    ))]
pub async fn mine(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn,
) -> Result<Json<Challenges>, ApiError> {
    let now = app.clock.now_ms() as i64;
    let mut lists = [Vec::new(), Vec::new()];
    for (i, incoming) in [true, false].into_iter().enumerate() {
        for c in app
            .store
            .open_challenges(&me.id, incoming, now, MOST_LISTED)
            .await?
        {
            let other = if incoming {
                &c.from_account
            } else {
                &c.to_account
            };
            let name = app
                .store
                .account(other)
                .await?
                .map(|a| a.name)
                .unwrap_or_default();
            let (from, to) = if incoming {
                (&name, &me.name)
            } else {
                (&me.name, &name)
            };
            if let Ok(shown) = shown(&c, from, to) {
                lists[i].push(shown);
            }
        }
    }
    let [incoming, outgoing] = lists;
    Ok(Json(Challenges { incoming, outgoing }))
}
