//! A tournament as its page shows it (`GET /api/tournaments/{id}`), and
//! the same live (`GET /api/tournaments/{id}/live`, a WebSocket that sends
//! it again whenever it changes: a join, a pairing, a result, the end).
//! Built once a version on each process, whoever looks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use virus_wars_pairing::{Kind, State};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use virus_wars_pairing::standings::{standings_of, Line};

use super::bearer;
use super::error::ApiError;
use super::socket::{drain, send, IDLE, MAX_MESSAGE};
use super::tournaments::{card, tournament_or_404, TournamentCard};
use super::Limited;
use crate::view::ErrorBody;
use crate::App;

/// Players a page of the standings shows.
pub const A_PAGE: usize = 50;
/// A process reads a tournament's version at most this often.
const FRESH_FOR: Duration = Duration::from_millis(500);
/// Tournaments whose view a process keeps.
const KEPT: usize = 256;

/// A game being played in the tournament.
#[derive(Clone, Debug, Serialize, ToSchema, PartialEq)]
pub struct Pairing {
    pub game: String,
    /// X's and O's names.
    pub x: String,
    pub o: String,
    /// Who berserked: X, O.
    pub berserk: [bool; 2],
}

/// What everyone sees of a tournament.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentShown {
    #[serde(flatten)]
    pub card: TournamentCard,
    /// Bumped by every change: the live socket sends the tournament again.
    pub version: i64,
    /// This page of the standings (`?page=`, 50 a page).
    pub standings: Vec<Line>,
    pub page: usize,
    pub pages: usize,
    /// The games being played.
    pub games: Vec<Pairing>,
    /// Once it is over: the first three, first first.
    pub podium: Vec<String>,
}

/// Your part in it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct You {
    /// `in` or `paused`.
    pub state: String,
    pub rank: usize,
    #[serde(serialize_with = "virus_wars_pairing::standings::whole_or_half")]
    #[schema(value_type = f64)]
    pub points: f64,
    /// Your game being played, and your seat in it (`x`, `o`).
    pub game: Option<String>,
    pub seat: Option<String>,
}

/// A tournament's page.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TournamentPage {
    #[serde(flatten)]
    pub shown: TournamentShown,
    /// `null` when you are not in it (or not signed in).
    pub you: Option<You>,
    /// The server's time (ms since the Unix epoch), for the countdown.
    pub now_ms: i64,
}

/// A tournament built from the database at one version.
pub struct Built {
    card: TournamentCard,
    version: i64,
    lines: Vec<Line>,
    games: Vec<Pairing>,
    /// Account → seat of its game in play.
    seats: HashMap<String, (String, String)>,
}

/// The views this process built, by tournament, with when its version was
/// last read.
#[derive(Default)]
pub struct Views(Mutex<HashMap<String, (Instant, Arc<Built>)>>);

impl Views {
    /// Tournament `id` changed through this process: the next look reads
    /// it again (a player sees its own join or pause at once).
    pub fn forget(&self, id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }
}

async fn build(app: &App, id: &str) -> Result<Arc<Built>, ApiError> {
    let t = tournament_or_404(app, id).await?;
    let entrants = app.store.entrants(id).await?;
    let pairings = app.store.pairings(id).await?;
    let byes = if t.kind == Kind::Swiss {
        app.store.byes(id).await?
    } else {
        Vec::new()
    };
    let name: HashMap<&str, &str> = entrants
        .iter()
        .map(|e| (e.account.as_str(), e.name.as_str()))
        .collect();
    let mut seats = HashMap::new();
    let games = pairings
        .iter()
        .filter(|p| !p.scored)
        .map(|p| {
            seats.insert(p.x_account.clone(), (p.game.clone(), "x".to_string()));
            seats.insert(p.o_account.clone(), (p.game.clone(), "o".to_string()));
            Pairing {
                game: p.game.clone(),
                x: name.get(p.x_account.as_str()).unwrap_or(&"?").to_string(),
                o: name.get(p.o_account.as_str()).unwrap_or(&"?").to_string(),
                berserk: p.berserk,
            }
        })
        .collect();
    Ok(Arc::new(Built {
        card: card(&t, entrants.len() as i64)?,
        version: t.version,
        lines: standings_of(t.kind, &entrants, &pairings, &byes),
        games,
        seats,
    }))
}

/// Tournament `id` as this process last built it, read again when its
/// version moved.
pub async fn built(app: &App, id: &str) -> Result<Arc<Built>, ApiError> {
    let kept = {
        let views = app
            .tournament_views
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        views.get(id).cloned()
    };
    if let Some((read, b)) = &kept {
        if read.elapsed() < FRESH_FOR {
            return Ok(b.clone());
        }
    }
    let version = app.store.tournament_version(id).await?;
    let b = match (kept, version) {
        (_, None) => return Err(ApiError::not_found("tournament with that id")),
        (Some((_, b)), Some(v)) if b.version == v => b,
        _ => build(app, id).await?,
    };
    let mut views = app
        .tournament_views
        .0
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if views.len() >= KEPT && !views.contains_key(id) {
        views.clear();
    }
    views.insert(id.to_string(), (Instant::now(), b.clone()));
    Ok(b)
}

/// The page `page` (from 1) as `account` sees it.
pub fn page_of(app: &App, b: &Built, page: usize, account: Option<&str>) -> TournamentPage {
    let pages = b.lines.len().div_ceil(A_PAGE).max(1);
    let page = page.clamp(1, pages);
    let you = account.and_then(|a| {
        let line = b.lines.iter().find(|l| l.account == a)?;
        let seat = b.seats.get(a);
        Some(You {
            state: line.state.clone(),
            rank: line.rank,
            points: line.points,
            game: seat.map(|s| s.0.clone()),
            seat: seat.map(|s| s.1.clone()),
        })
    });
    let finished = b.card.state == State::Finished.as_str();
    TournamentPage {
        shown: TournamentShown {
            card: b.card.clone(),
            version: b.version,
            standings: b
                .lines
                .iter()
                .skip((page - 1) * A_PAGE)
                .take(A_PAGE)
                .cloned()
                .collect(),
            page,
            pages,
            games: b.games.clone(),
            // The first three who played (a game, or a Swiss's bye): a
            // tournament nobody played in has none.
            podium: if finished {
                b.lines
                    .iter()
                    .filter(|l| !l.sheet.is_empty())
                    .take(3)
                    .map(|l| l.name.clone())
                    .collect()
            } else {
                Vec::new()
            },
        },
        you,
        now_ms: app.clock.now_ms() as i64,
    }
}

/// Who looks: a signed-in player's account, a bot's, or nobody.
async fn looker(app: &App, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    if let Some(token) = bearer(headers) {
        return Ok(super::bot_by_token(app, token)
            .await?
            .map(|(name, _)| format!("bot:{name}")));
    }
    Ok(crate::session::viewer(app, headers)
        .await?
        .map(|v| v.account.id))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// The page of the standings, from 1.
    pub page: Option<usize>,
}

/// A tournament: its settings, standings (50 a page, each player's games
/// with results), the games being played, the podium once over, and your
/// part in it.
#[utoipa::path(get, path = "/api/tournaments/{id}", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"), PageQuery),
    responses(
        (status = 200, body = TournamentPage),
        (status = 404, description = "`not_found`", body = ErrorBody),
    ))]
pub async fn show(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
) -> Result<Json<TournamentPage>, ApiError> {
    let b = built(&app, &id).await?;
    let me = looker(&app, &headers).await?;
    Ok(Json(page_of(&app, &b, q.page.unwrap_or(1), me.as_deref())))
}

/// The tournament, live: `{"type":"tournament", …as GET gives it}` at
/// once and after every change; the page may send `{"type":"ping"}`.
#[utoipa::path(get, path = "/api/tournaments/{id}/live", tag = "tournaments",
    params(("id" = String, Path, description = "The tournament's id"), PageQuery),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 404, description = "`not_found`", body = ErrorBody),
    ))]
pub async fn live(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let first = built(&app, &id).await?;
    let me = looker(&app, &headers).await?;
    let page = q.page.unwrap_or(1);
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .write_buffer_size(4 * 1024)
        .read_buffer_size(4 * 1024)
        .max_write_buffer_size(super::socket::MAX_QUEUED)
        .on_upgrade(move |socket| run(app, id, me, page, first, socket)))
}

/// How often a page's socket looks for a change.
const LOOK_EVERY: Duration = Duration::from_secs(1);

async fn run(
    app: Arc<App>,
    id: String,
    me: Option<String>,
    page: usize,
    first: Arc<Built>,
    mut socket: WebSocket,
) {
    app.metrics.sockets.inc();
    let mut sent: Option<(i64, Option<String>)> = None;
    let mut current = first;
    let mut look = tokio::time::interval(LOOK_EVERY);
    let mut heard = tokio::time::Instant::now();
    let mut stopping = app.stopping.subscribe();
    let stopped = async move {
        let _ = stopping.wait_for(|s| *s).await;
    };
    tokio::pin!(stopped);
    loop {
        // Sent again when it changed, or when the viewer's game did.
        let mine = me
            .as_deref()
            .and_then(|a| current.seats.get(a).map(|s| s.0.clone()));
        if sent.as_ref() != Some(&(current.version, mine.clone())) {
            let mut message = serde_json::to_value(page_of(&app, &current, page, me.as_deref()))
                .unwrap_or_default();
            message["type"] = "tournament".into();
            if !send(&app, &mut socket, Message::Text(message.to_string().into())).await {
                break;
            }
            sent = Some((current.version, mine));
        }
        tokio::select! {
            _ = look.tick() => {
                if heard.elapsed() > IDLE {
                    break;
                }
                match built(&app, &id).await {
                    Ok(b) => current = b,
                    Err(_) => break,
                }
            }
            () = &mut stopped => {
                send(&app, &mut socket, Message::Close(Some(CloseFrame {
                    code: 1012,
                    reason: "service restart: connect again".into(),
                }))).await;
                drain(&mut socket).await;
                break;
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(t))) => {
                    heard = tokio::time::Instant::now();
                    if t.as_str().contains("\"ping\"")
                        && !send(&app, &mut socket, Message::Text(r#"{"type":"pong"}"#.into())).await
                    {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => heard = tokio::time::Instant::now(),
            },
        }
    }
    app.metrics.sockets.dec();
}
