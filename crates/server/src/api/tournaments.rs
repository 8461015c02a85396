//! Tournaments (docs/tournaments.md): made by a signed-in player (or the
//! server's schedule), listed, shown with their standings, joined and
//! left. The task in `tournament/pairer.rs` pairs them.

use virus_wars_pairing::{Kind, State};

use super::{Limited, NewGames, SignedIn};
use crate::session::Viewer;
use axum::body::Bytes;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::{IntoParams, ToSchema};

use super::error::ApiError;
use crate::code::Code;
use crate::games::settings::{settings, Settings};
use crate::rating::Category;
use crate::tournament::{
    category_of, FURTHEST_START_S, MOST_IN_ROUND_ROBIN, MOST_MINUTES, MOST_OPEN, MOST_PLAYERS,
    MOST_ROUNDS,
};
use crate::tournament::{Joined, TournamentRow};
use crate::view::{self, ErrorBody, NewGame, TimeControlInfo, VariantInfo};
use crate::{ids, App};

/// Finished tournaments a page of the list gives.
const FINISHED_A_PAGE: i64 = 20;
/// Tournaments to come, and running, in one page of the list.
const LISTED_A_PAGE: i64 = 50;

/// A tournament as the lists show it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentCard {
    pub id: String,
    /// `arena`, `swiss` or `round-robin`.
    pub kind: String,
    pub name: String,
    /// `soon`, `running` or `finished`.
    pub state: String,
    pub variant: VariantInfo,
    /// As people read it (`3+2`).
    pub time_control: Option<String>,
    pub clock: Option<TimeControlInfo>,
    pub rated: bool,
    /// When it starts and when an arena stops pairing, ms since the Unix
    /// epoch; when it ended (0 before).
    pub starts_ms: i64,
    pub ends_ms: i64,
    pub finished_ms: i64,
    pub players: i64,
    pub max_players: i64,
    /// Bots may join.
    pub bots: bool,
    /// Most bots it takes (one of each owner's at most).
    pub max_bots: i64,
    /// A Swiss tournament's rounds (a round robin's: 1, all its games at
    /// once; an arena's 0) and the round paired last (0 before the first).
    pub rounds: i64,
    pub round: i64,
}

/// The games' settings of a stored tournament, checked again.
pub fn games_of(t: &TournamentRow) -> Result<Settings, ApiError> {
    let request: NewGame = serde_json::from_str(&t.settings)
        .map_err(|e| ApiError::bad_request(format!("the tournament's game options: {e}")))?;
    Ok(settings(&request)?)
}

pub fn card(t: &TournamentRow, players: i64) -> Result<TournamentCard, ApiError> {
    let s = games_of(t)?;
    Ok(TournamentCard {
        id: t.id.clone(),
        kind: t.kind.to_string(),
        name: t.name.clone(),
        state: t.state.to_string(),
        variant: view::variant_info(&s.variant),
        time_control: s.clock.map(|c| c.text_in(60_000.0)),
        clock: s.clock.map(TimeControlInfo::from),
        rated: s.rated,
        starts_ms: t.starts_ms,
        ends_ms: t.ends_ms,
        finished_ms: t.finished_ms,
        players,
        max_players: t.max_players,
        bots: t.bots,
        max_bots: t.max_bots,
        rounds: t.rounds,
        round: t.round,
    })
}

/// A tournament made.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentMade {
    pub id: String,
}

/// What `POST /api/tournaments` takes besides the games' options.
struct Asked {
    kind: Kind,
    rounds: i64,
    name: String,
    starts_ms: i64,
    minutes: i64,
    max_bots: i64,
    max_players: i64,
}

fn int(
    fields: &mut Map<String, Value>,
    key: &str,
    min: i64,
    max: i64,
) -> Result<Option<i64>, ApiError> {
    match fields.remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_i64() {
            Some(v) if (min..=max).contains(&v) => Ok(Some(v)),
            _ => Err(ApiError::bad_request(format!(
                "{key} must be a whole number from {min} to {max}, not {n}"
            ))),
        },
        Some(other) => Err(ApiError::bad_request(format!(
            "{key} must be a whole number from {min} to {max}, not {other}"
        ))),
    }
}

/// The body of `POST /api/tournaments`: the tournament's own fields, and
/// the games' options (those of `POST /api/games`) as JSON text.
fn read_body(body: &[u8], now: i64) -> Result<(Asked, String, Settings), ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request(format!("the body is not JSON: {e}")))?;
    let Value::Object(mut fields) = value else {
        return Err(ApiError::bad_request(
            "the body is an object: {\"kind\": \"arena\", \"name\", \"minutes\", …the options of POST /api/games}",
        ));
    };
    let kind = match fields.remove("kind") {
        None | Some(Value::Null) => Kind::Arena,
        Some(other) => match other.as_str().map(str::parse::<Kind>) {
            Some(Ok(kind)) => kind,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "kind must be \"arena\", \"swiss\" or \"round-robin\", not {other}"
                )))
            }
        },
    };
    let name = match fields.remove("name") {
        None | Some(Value::Null) => None,
        Some(Value::String(n)) => Some(tournament_name(&n)?),
        Some(_) => return Err(ApiError::bad_request("name must be a string")),
    };
    let starts_in = int(&mut fields, "starts_in_s", 0, FURTHEST_START_S)?;
    let starts_at = int(&mut fields, "starts_at", now, now + FURTHEST_START_S * 1000)?;
    let starts_ms = match (starts_in, starts_at) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "give starts_in_s or starts_at (ms since the Unix epoch), not both",
            ))
        }
        (Some(s), None) => now + s * 1000,
        (None, Some(at)) => at,
        (None, None) => now + 60_000,
    };
    let (minutes, rounds) = match kind {
        Kind::Arena => (
            int(&mut fields, "minutes", 1, MOST_MINUTES)?.unwrap_or(45),
            0,
        ),
        Kind::Swiss => match int(&mut fields, "rounds", 1, MOST_ROUNDS)? {
            Some(r) => (0, r),
            None => {
                return Err(ApiError::bad_request(format!(
                    "rounds: a Swiss tournament needs its number of rounds, 1 to {MOST_ROUNDS}"
                )))
            }
        },
        Kind::RoundRobin => (0, 1),
    };
    let most_players = if kind == Kind::RoundRobin {
        MOST_IN_ROUND_ROBIN
    } else {
        MOST_PLAYERS
    };
    let max_players = int(&mut fields, "max_players", 2, most_players)?.unwrap_or(most_players);
    let bots = match fields.remove("bots") {
        None | Some(Value::Null) => true,
        Some(Value::Bool(b)) => b,
        Some(_) => return Err(ApiError::bad_request("bots must be true or false")),
    };
    // Bots take at most half the places unless the maker says otherwise:
    // people are never refused for a tournament full of bots.
    let max_bots = match int(&mut fields, "max_bots", 0, max_players)? {
        Some(n) if n > 0 && !bots => {
            return Err(ApiError::bad_request(format!(
                "max_bots: {n} bots, though bots is false: give one or the other"
            )))
        }
        Some(n) => n,
        None if bots => (max_players / 2).max(1),
        None => 0,
    };
    let (text, s) = games_options(fields, kind)?;
    let name = name.unwrap_or_else(|| {
        let v = view::variant_info(&s.variant).preset;
        let tc = s.clock.map(|c| c.text_in(60_000.0)).unwrap_or_default();
        format!("{v} {tc} {}", kind.in_words())
    });
    Ok((
        Asked {
            kind,
            rounds,
            name,
            starts_ms,
            minutes,
            max_bots,
            max_players,
        },
        text,
        s,
    ))
}

/// The games' options of a tournament's body (what is left of it once the
/// tournament's own fields are taken), checked as `POST /api/games`
/// checks them and for what a tournament of `kind` needs of its clock:
/// their JSON text, and the settings.
fn games_options(fields: Map<String, Value>, kind: Kind) -> Result<(String, Settings), ApiError> {
    for (key, why) in [
        ("opponent", "the tournament pairs its players"),
        ("side", "the tournament gives X and O"),
        ("listed", "the tournament's games are its own"),
        (
            "rounds",
            "rounds are a Swiss tournament's; an arena has minutes",
        ),
        (
            "minutes",
            "minutes are an arena's; a Swiss has rounds, a round robin all its games at once",
        ),
    ] {
        if fields.contains_key(key) {
            return Err(ApiError::bad_request(format!("{key}: {why}")));
        }
    }
    let text = Value::Object(fields).to_string();
    // The field that was wrong is named (`rated: invalid type…`), with
    // no line and column: those would be of this rebuilt text, not of
    // the body sent.
    let request: NewGame = serde_path_to_error::deserialize(
        &mut serde_json::Deserializer::from_str(&text),
    )
    .map_err(|e| {
        let why = e.inner().to_string();
        let why = why
            .rsplit_once(" at line ")
            .map_or(why.as_str(), |(w, _)| w);
        ApiError::bad_request(format!("the games' options: {}: {why}", e.path()))
    })?;
    let s = settings(&request)?;
    match s.clock {
        Some(c) if !c.per_turn && (c.base_ms > 3_600_000 || c.increment_ms > 60_000) => {
            return Err(ApiError::bad_request(
                "clock: a tournament's games with a Fischer clock: base_s up to 3600, inc_s up to 60",
            ))
        }
        Some(c) if kind == Kind::RoundRobin && !c.per_turn => {
            return Err(ApiError::bad_request(
                "clock: a round robin's games are all played at once, by correspondence: days a turn, {\"days_per_turn\":2}",
            ))
        }
        Some(c) if !c.per_turn || kind != Kind::Arena => {}
        _ if kind == Kind::Arena => {
            return Err(ApiError::bad_request(
                "clock: an arena's games need a Fischer clock, {\"base_s\":180,\"inc_s\":2}",
            ))
        }
        _ => {
            return Err(ApiError::bad_request(
                "clock: a tournament's games need a clock: Fischer {\"base_s\":180,\"inc_s\":2} or days a turn {\"days_per_turn\":2}",
            ))
        }
    }
    if s.rated {
        super::create::rated_settings(&s)?;
    }
    Ok((text, s))
}

/// A tournament's name: 2 to 40 letters, digits, spaces and `+ - _ . ' :`.
fn tournament_name(n: &str) -> Result<String, ApiError> {
    let n = n.trim();
    let count = n.chars().count();
    let bad = n
        .chars()
        .find(|c| !(c.is_alphanumeric() || " +-_.':".contains(*c)));
    match bad {
        Some(c) => Err(ApiError::bad_request(format!(
            "name: {c:?} may not be in a tournament's name (letters, digits, spaces and + - _ . ' :)"
        ))),
        None if !(2..=40).contains(&count) => Err(ApiError::bad_request(format!(
            "name: 2 to 40 characters, not {count}"
        ))),
        None => Ok(n.to_string()),
    }
}

/// Make an arena: `{"kind":"arena","name","minutes","starts_in_s" | "starts_at",
/// "max_players","bots","max_bots"}` and the games' options of `POST /api/games`
/// (`variant`…, `clock` (Fischer), `rated`).
#[utoipa::path(post, path = "/api/tournaments", tag = "tournaments",
    request_body(content = Object, description = "The tournament's fields and the games' options"),
    responses(
        (status = 201, body = TournamentMade),
        (status = 400, description = "`malformed`: a field out of its range (the message says which)", body = ErrorBody),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 409, description = "`too_many`: 3 of yours are not over", body = ErrorBody),
    ))]
pub async fn create(
    SignedIn {
        app,
        viewer: Viewer { account: me, .. },
        ..
    }: SignedIn<NewGames>,
    request: Bytes,
) -> Result<(StatusCode, Json<TournamentMade>), ApiError> {
    let now = app.clock.now_ms() as i64;
    let (asked, text, s) = read_body(&request, now)?;
    let row = TournamentRow {
        id: ids::game_id(),
        kind: asked.kind,
        name: asked.name,
        settings: text,
        category: category_of(&s),
        created_by: me.id.clone(),
        created_ms: now,
        starts_ms: asked.starts_ms,
        // A Swiss or a round robin ends when its last game does.
        ends_ms: if asked.kind == Kind::Arena {
            asked.starts_ms + asked.minutes * 60_000
        } else {
            0
        },
        bots: asked.max_bots > 0,
        max_players: asked.max_players,
        max_bots: asked.max_bots,
        state: State::Soon,
        finished_ms: 0,
        version: 0,
        schedule: String::new(),
        rounds: asked.rounds,
        round: 0,
    };
    if !app.store.create_tournament(&row, MOST_OPEN).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!(
                "{MOST_OPEN} of your tournaments are not over yet: make the next when one ends"
            ),
        ));
    }
    tracing::info!(tournament = %row.id, name = %row.name, "tournament made");
    Ok((StatusCode::CREATED, Json(TournamentMade { id: row.id })))
}

/// The tournaments: those to come (the soonest first), those running and
/// those finished (the newest first), a page of each.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentList {
    /// The soonest to start first; the next page: `?soon_after=` the last
    /// one's `starts_ms` and `&soon_after_id=` its `id`.
    pub soon: Vec<TournamentCard>,
    /// The latest started first; the next page: `?running_before=` the
    /// last one's `starts_ms` and `&running_before_id=` its `id`.
    pub running: Vec<TournamentCard>,
    /// Newest first; the next page: `?finished_before=` the last one's
    /// `starts_ms` and `&finished_before_id=` its `id`.
    pub finished: Vec<TournamentCard>,
    /// Whether each list has a next page.
    pub soon_more: bool,
    pub running_more: bool,
    pub finished_more: bool,
    /// The server's time (ms since the Unix epoch), for the countdowns.
    pub now_ms: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Tournaments to come that start after this (ms since the Unix epoch)…
    pub soon_after: Option<i64>,
    /// …or at that time with an id after this one (the last one shown).
    pub soon_after_id: Option<String>,
    /// Running tournaments that started before this…
    pub running_before: Option<i64>,
    /// …or at that time with an id before this one.
    pub running_before_id: Option<String>,
    /// Finished tournaments that started before this…
    pub finished_before: Option<i64>,
    /// …or at that time with an id before this one.
    pub finished_before_id: Option<String>,
}

/// A page's cursor: a start and an id (ids are short: a longer one is cut,
/// and finds what a real one would). Unset: from the first.
fn cursor(at: Option<i64>, id: &Option<String>, newest_first: bool) -> (i64, String) {
    let id: String = id.as_deref().unwrap_or("").chars().take(64).collect();
    match at {
        Some(ms) if id.is_empty() && newest_first => (ms, String::new()),
        // Soonest first, no id: those starting after `ms` (no id is '').
        Some(ms) if id.is_empty() => (ms.saturating_add(1), String::new()),
        Some(ms) => (ms, id),
        None if newest_first => (i64::MAX, String::new()),
        None => (i64::MIN, String::new()),
    }
}

#[utoipa::path(get, path = "/api/tournaments", tag = "tournaments", params(ListQuery),
    responses(
        (status = 200, body = TournamentList),
        (status = 400, description = "`malformed`: a parameter not known or not a number", body = ErrorBody),
    ))]
pub async fn list(
    Limited { app, .. }: Limited,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<TournamentList>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let page = |state: State, from: (i64, String), newest_first: bool, most: i64| {
        let app = app.clone();
        async move {
            let mut rows = app
                .store
                .tournaments(state, (from.0, &from.1), newest_first, most + 1)
                .await?;
            let more = rows.len() as i64 > most;
            rows.truncate(most as usize);
            let cards = rows
                .iter()
                .map(|(t, n)| card(t, *n))
                .collect::<Result<Vec<_>, ApiError>>()?;
            Ok::<_, ApiError>((cards, more))
        }
    };
    let soon = cursor(q.soon_after, &q.soon_after_id, false);
    let running = cursor(q.running_before, &q.running_before_id, true);
    let finished = cursor(q.finished_before, &q.finished_before_id, true);
    let (soon, soon_more) = page(State::Soon, soon, false, LISTED_A_PAGE).await?;
    let (running, running_more) = page(State::Running, running, true, LISTED_A_PAGE).await?;
    let (finished, finished_more) = page(State::Finished, finished, true, FINISHED_A_PAGE).await?;
    Ok(Json(TournamentList {
        soon,
        running,
        finished,
        soon_more,
        running_more,
        finished_more,
        now_ms: app.clock.now_ms() as i64,
    }))
}

/// The tournament `id`, or 404.
pub async fn tournament_or_404(app: &App, id: &str) -> Result<TournamentRow, ApiError> {
    if id.len() > 64 {
        return Err(ApiError::not_found("tournament with that id"));
    }
    app.store
        .tournament(id)
        .await?
        .ok_or_else(|| ApiError::not_found("tournament with that id"))
}

/// In or out.
#[derive(Debug, Serialize, ToSchema)]
pub struct Entry {
    /// `in`, `paused`, or `out` (withdrawn before the start).
    pub state: String,
}

/// Join, or come back from a pause. Signed in, or a bot with its token.
#[utoipa::path(post, path = "/api/tournaments/{id}/join", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, body = Entry),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 403, description = "`not_taking`: a bot where bots may not play; `account_needed`: a bot no player registered, in a rated one", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`full`; `not_open`: it is over", body = ErrorBody),
    ))]
pub async fn join(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
) -> Result<Json<Entry>, ApiError> {
    let t = tournament_or_404(&app, &id).await?;
    let (account, name) = super::tournament_play::entrant(&app, &headers, &t).await?;
    let s = games_of(&t)?;
    let rating = match Category::of(&s.variant, s.clock.as_ref()) {
        Some(c) => app
            .store
            .ratings_of(&account)
            .await?
            .into_iter()
            .find(|r| r.category == c.name())
            .map_or(1500.0, |r| r.glicko.rating),
        None => 1500.0,
    };
    let now = app.clock.now_ms() as i64;
    match app
        .store
        .join_tournament(&t.id, &account, &name, rating.round() as i64, now)
        .await?
    {
        Joined::In => {
            app.tournament_views.forget(&t.id);
            Ok(Json(Entry { state: "in".into() }))
        }
        Joined::Full => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::Full,
            format!("the tournament has its {} players already", t.max_players),
        )),
        Joined::Over => Err(over()),
        Joined::NoBotPlace => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::Full,
            format!(
                "the tournament takes {} bots at most, and has them: its other places are for people",
                t.max_bots
            ),
        )),
        Joined::OwnersBotIn => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::Full,
            "another bot of the same account is in this tournament: one bot an account",
        )),
        Joined::Closed => Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotOpen,
            if t.kind == Kind::RoundRobin {
                "a round robin's games were all paired at its start: it takes no one now"
            } else {
                "a Swiss tournament takes players until its last round is paired, and it is"
            },
        )),
    }
}

fn over() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        Code::NotOpen,
        "the tournament is over",
    )
}

/// Leave: before the start your entry goes; once it runs you are paused
/// (your points stay, you are not paired; join again to come back).
#[utoipa::path(post, path = "/api/tournaments/{id}/withdraw", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id")),
    responses(
        (status = 200, body = Entry),
        (status = 401, description = "`login_needed`", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`not_open`: you are not in it, or it is over", body = ErrorBody),
    ))]
pub async fn withdraw(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
) -> Result<Json<Entry>, ApiError> {
    let t = tournament_or_404(&app, &id).await?;
    let (account, _) = super::tournament_play::entrant(&app, &headers, &t).await?;
    if t.state == State::Finished {
        return Err(over());
    }
    if t.state == State::Running && t.kind == Kind::RoundRobin {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotOpen,
            "a round robin's games are all paired: resign those you will not play",
        ));
    }
    let Some(gone) = app.store.withdraw_tournament(&t.id, &account).await? else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::NotOpen,
            "you are not playing in this tournament (not in it, or paused already)",
        ));
    };
    app.tournament_views.forget(&t.id);
    let state = if gone { "out" } else { "paused" };
    Ok(Json(Entry {
        state: state.into(),
    }))
}
