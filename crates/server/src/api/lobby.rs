//! The lobby: the open games list and quick play.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::Query;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use utoipa::IntoParams;

use super::body;
use super::create::taker;
use super::error::ApiError;
use super::games::take;
use super::refusals::RateLimited;
use super::{Limited, NewGames, Requests};
use crate::code::Code;
use crate::games::create;
use crate::games::settings::{self, settings};
use crate::live::{self, from_row, LiveGame};
use crate::present;
use crate::rating::Category;
use crate::seat::Seat;
use crate::store::StoredClock;
use crate::view::{self, ErrorBody, NewGame, OpenGame, PlayingGame, SeatTaken};
use crate::App;
use virus_wars_rules::Side;

/// Most entries the open games list shows.
pub const MAX_LISTED: i64 = 100;

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// At most this many games (1–100, default 50).
    limit: Option<i64>,
}

/// A request for a list: allowed by the client's bucket, its `limit` checked.
pub struct Listing {
    app: Arc<App>,
    length: i64,
}

impl axum::extract::FromRequestParts<Arc<App>> for Listing {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<App>,
    ) -> Result<Self, ApiError> {
        Limited::<Requests>::from_request_parts(parts, app).await?;
        let query = Query::<ListQuery>::from_request_parts(parts, app)
            .await
            .map_err(|e| ApiError::bad_request(e.body_text()))?;
        let length = query.limit.unwrap_or(50);
        if !(1..=MAX_LISTED).contains(&length) {
            return Err(ApiError::bad_request(format!(
                "limit must be between 1 and {MAX_LISTED}, not {length}"
            )));
        }
        Ok(Listing {
            app: app.clone(),
            length,
        })
    }
}

impl Listing {
    /// The games `ids` names as they are now, each as `entry` shows it
    /// (those gone meanwhile, or that `entry` leaves out, are not listed).
    async fn entries<T>(
        &self,
        ids: impl IntoIterator<Item = String>,
        entry: impl Fn(&LiveGame, u64) -> Option<T>,
    ) -> Vec<T> {
        let now = self.app.clock.now_ms();
        let mut list = Vec::new();
        for id in ids {
            if let Ok(g) = live::get(&self.app, &id).await {
                list.extend(entry(&*g.lock().await, now));
            }
        }
        list
    }
}

/// The open games list: listed games waiting for a second player, newest first.
#[utoipa::path(get, path = "/api/games", tag = "lobby", params(ListQuery),
    responses((status = 200, body = Vec<OpenGame>), (status = 400, body = ErrorBody), RateLimited))]
pub async fn open_games(list: Listing) -> Result<Json<Vec<OpenGame>>, ApiError> {
    let rows = list.app.store.open_games(list.length).await?;
    let ids = rows.into_iter().map(|r| r.id);
    Ok(Json(list.entries(ids, present::open_game).await))
}

#[utoipa::path(get, path = "/api/watch", tag = "lobby", params(ListQuery),
    responses((status = 200, body = Vec<PlayingGame>), (status = 400, body = ErrorBody), RateLimited))]
pub async fn playing_games(list: Listing) -> Result<Json<Vec<PlayingGame>>, ApiError> {
    let rows = list.app.store.playing_games(list.length).await?;
    let ids = rows.into_iter().map(|r| r.id);
    Ok(Json(list.entries(ids, present::playing_game).await))
}

/// Quick play: takes the free seat of the oldest listed game with the same
/// variant and clock (200), or lists a new one and waits there for the
/// next player who asks for the same (201).
#[utoipa::path(
    post,
    path = "/api/quick",
    tag = "lobby",
    request_body = NewGame,
    responses(
        (status = 200, description = "Paired: a seat in a waiting game", body = SeatTaken),
        (status = 201, description = "A new listed game: wait on its live socket for the opponent", body = SeatTaken),
        (status = 400, body = ErrorBody),
        RateLimited,
    )
)]
pub async fn quick(
    Limited {
        app,
        client,
        headers,
        ..
    }: Limited<NewGames>,
    request: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    let request = body(request)?;
    if request.opponent.as_deref().is_some_and(|o| o != "human") || request.listed.is_some() {
        return Err(ApiError::bad_request(
            "quick play pairs people and bots: it takes a variant, its options and a clock",
        ));
    }
    let mut s = settings(&request)?;
    if s.variant.hides_layout() {
        // Each such game's layout is drawn apart: no two are alike to pair.
        return Err(ApiError::bad_request(
            "quick play does not pair fog games with trenches or random bases (each is laid out apart): create a game and send the invite",
        ));
    }
    s.listed = true;
    // One pairing at a time in this process and, on PostgreSQL, in all
    // processes, so that two players asking at once meet instead of both
    // waiting.
    let _here = app.quick.lock().await;
    let Some(pairing) = app.store.lock_pairing(PAIRING_WAIT).await? else {
        return Err(ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                Code::Busy,
                "quick play is pairing many players at once: try again in a second",
            )
        });
    };
    let paired = pair(&app, &headers, &client, &s).await;
    pairing.release().await;
    paired
}

/// Longest a quick play request waits for its turn to pair.
const PAIRING_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Takes the free seat of the oldest open game like `s`, or lists a new one.
async fn pair(
    app: &Arc<App>,
    headers: &HeaderMap,
    client: &std::net::IpAddr,
    s: &settings::Settings,
) -> Result<(StatusCode, Json<SeatTaken>), ApiError> {
    let variant = view::variant_text(&s.variant);
    let clock = s.clock.map(|c| StoredClock {
        base_ms: c.base_ms as i64,
        increment_ms: c.increment_ms as i64,
        per_turn: c.per_turn,
    });
    let me = taker(app, headers).await?;
    let my_account = match me.account.as_str() {
        "" => None,
        id => app.store.account(id).await?,
    };
    // One seek an account: a new one calls off the one still waiting.
    // Players without one are known by their address only, which a family
    // or a classroom may share: a few seeks an address.
    let (seeker, keep) = match me.account.as_str() {
        "" => (crate::ids::address_key(*client), SEEKS_AN_ADDRESS - 1),
        id => (id.to_string(), 0),
    };
    call_off_seeks(app, &seeker, keep).await?;
    let category = Category::of(&s.variant, s.clock.as_ref()).map(Category::name);
    let my_rating = match (&category, &my_account) {
        (Some(c), Some(a)) if s.rated => rating_in(app, &a.id, c).await?,
        _ => 1500.0,
    };
    let asker = Asker {
        taker: &me,
        account: my_account,
        category,
        rating: my_rating,
    };
    for row in app
        .store
        .seeks(SEEKS_LOOKED_AT, &variant, clock, s.rated)
        .await?
    {
        // Only games of the same kind: human seats on both sides.
        let Ok(g) = from_row(&row, &[], app.first_step_within_ms) else {
            continue;
        };
        if !fits(app, &g, &asker, s).await? {
            continue;
        }
        let shared = live::get(app, &row.id).await?;
        match take(app, &shared, headers, &s.name).await {
            Ok(seat) => return Ok((StatusCode::OK, Json(seat))),
            // Taken meanwhile, or this bot's own game: try the next.
            Err(e) if e.status == StatusCode::CONFLICT => continue,
            Err(e) => return Err(e),
        }
    }
    let who = me;
    if s.rated && who.account.is_empty() {
        return Err(super::create::account_needed());
    }
    let side = s.side.unwrap_or_else(create::random_side);
    let s = &settings::Settings {
        seeker,
        ..s.clone()
    };
    let seats = create::seating(
        side,
        who.sitter(&s.name),
        create::Sitter::empty(Seat::Human),
    );
    let (id, _) = create::start(app, s, seats).await?;
    Ok((
        StatusCode::CREATED,
        Json(SeatTaken::new(headers, id, side, who.token)),
    ))
}

/// Who asks quick play for a game: the seat's taker, its account, the
/// game's rating category and the asker's rating in it.
struct Asker<'a> {
    taker: &'a super::create::Taker,
    account: Option<crate::store::AccountRow>,
    category: Option<String>,
    rating: f64,
}

/// Whether open game `g` may pair `asker` asking for `s`: a game between
/// people, rated as asked, not the asker's own, with nobody who asked not
/// to meet a bot, no block between them, and (rated) within a rating range
/// that widens while the other waits.
async fn fits(
    app: &App,
    g: &LiveGame,
    asker: &Asker<'_>,
    s: &settings::Settings,
) -> Result<bool, ApiError> {
    let me = asker.taker;
    if g.table.seats.iter().any(|p| matches!(p, Seat::Computer(_))) || g.rated != s.rated {
        return Ok(false);
    }
    // Never a game of one's own (a listed game one made, or a seek).
    if g.seat_where(|h| h.is_account(&me.account)).is_some() {
        return Ok(false);
    }
    let waiting = Side::BOTH.into_iter().find(|side| !g.seat_free(*side));
    let theirs = match waiting.and_then(|side| g.holder(side).account.clone()) {
        Some(id) => app.store.account(&id).await?,
        None => None,
    };
    // Nobody who asked not to is paired with a bot.
    let waiting_bot =
        waiting.is_some_and(|side| matches!(g.table.seats[side.index()], Seat::Bot(_)));
    let i_am_bot = matches!(me.seat, Seat::Bot(_));
    if (waiting_bot && asker.account.as_ref().is_some_and(|a| a.no_bots))
        || (i_am_bot && theirs.as_ref().is_some_and(|a| a.no_bots))
    {
        return Ok(false);
    }
    // Nobody is paired with a player who blocks them, or whom they block.
    if let (Some(mine), Some(theirs)) = (&asker.account, &theirs) {
        if app.store.blocked_between(&mine.id, &theirs.id).await? {
            return Ok(false);
        }
    }
    // Rated: within a rating range that widens while they wait.
    if let (true, Some(c), Some(a)) = (s.rated, &asker.category, &theirs) {
        let waited_s = app.clock.now_ms().saturating_sub(g.created_ms) as f64 / 1000.0;
        let range = (RANGE_START + RANGE_WIDENS_PER_S * waited_s).min(RANGE_WIDEST);
        if (rating_in(app, &a.id, c).await? - asker.rating).abs() > range {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Most waiting seeks one quick play request looks at (each player holds
/// one at a time, so these are that many players).
const SEEKS_LOOKED_AT: i64 = 200;

/// Most quick-play seeks players without an account may have waiting
/// from one address.
pub const SEEKS_AN_ADDRESS: usize = 5;

/// Calls off the seeks `seeker` still has waiting, but its newest `keep`.
async fn call_off_seeks(app: &Arc<App>, seeker: &str, keep: usize) -> Result<(), ApiError> {
    for id in app.store.seeks_of(seeker).await?.into_iter().skip(keep) {
        let shared = live::get(app, &id).await?;
        let mut g = shared.lock().await;
        if !g.waiting() || g.table.contest.finished() {
            continue;
        }
        let mut next = g.table.clone();
        if next.contest.abort().is_err() {
            continue;
        }
        match live::commit(app, &mut g, next, &[], app.clock.now_ms()).await {
            // Taken or changed meanwhile: it is a game now, not a seek.
            Err(live::LiveError::Changed) => {}
            other => {
                other?;
            }
        }
    }
    Ok(())
}

/// Rated quick play pairs ratings this far apart at first, widening by so
/// much a second the waiting player has waited, up to the widest.
const RANGE_START: f64 = 200.0;
const RANGE_WIDENS_PER_S: f64 = 20.0;
const RANGE_WIDEST: f64 = 1000.0;

/// An account's rating in a category (1500 before its first rated game).
async fn rating_in(app: &App, account: &str, category: &str) -> Result<f64, ApiError> {
    Ok(app
        .store
        .ratings_of(account)
        .await?
        .into_iter()
        .find(|r| r.category == category)
        .map_or(1500.0, |r| r.glicko.rating))
}
