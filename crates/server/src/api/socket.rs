//! `GET /api/games/{id}/live`: a WebSocket that receives the game's state
//! on connect and on every change, and may send steps:
//! `{"type":"steps","seq":N,"steps":[…]}` with the seat token given as
//! `?token=` when connecting, or as the message's `token` (both seats on
//! one device play on one socket), or named after connecting with
//! `{"type":"seat","token":…}` (which also chooses whose view of a fog
//! game the socket is shown). Errors come back as
//! `{"type":"error","error":{…}}`; the socket stays open.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query};
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;
use virus_wars_rules::fog::Viewer;

use super::error::ApiError;
use super::games::parse_steps;
use super::Limited;
use super::{seat_of_account, seat_of_token};
use crate::code::Code;
use crate::live::{self, Shared};
use crate::present::{self, Shown, SocketMessage};
use crate::ratelimit::PerSocket;
use crate::App;

/// Largest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// A socket that sends nothing (not even a pong) for this long is closed.
pub const IDLE: Duration = Duration::from_secs(120);
/// Most bytes a socket's outgoing messages may queue in the server.
pub const MAX_QUEUED: usize = 64 * 1024;

/// Sends `message`, unless the client takes nothing for the write timeout
/// (the socket is then closed): false if the socket is done.
pub(super) async fn send(app: &App, socket: &mut WebSocket, message: Message) -> bool {
    match tokio::time::timeout(app.write_timeout, socket.send(message)).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            app.metrics.slow_clients_closed.inc();
            tracing::debug!("closed a socket whose client took nothing for too long");
            false
        }
    }
}

/// The game live (WebSocket): its state on connect and after every change.
///
/// With `?token=` the socket may play: `{"type":"steps","seq":N,"steps":[…]}`
/// (a message's own `"token"` plays that seat instead);
/// `{"type":"ping"}` is answered `{"type":"pong"}`. Errors come back as
/// `{"type":"error","error":{…}}` and the socket stays open.
#[utoipa::path(
    get,
    path = "/api/games/{id}/live",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game's id"),
        ("token" = Option<String>, Query, description = "The seat token, to play on this socket"),
    ),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        super::refusals::GameRefusals,
    )
)]
pub async fn live(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let shared = live::get(&app, &id).await?;
    let token = query.get("token").cloned();
    let mut viewer = Viewer::Watcher;
    if let Some(t) = &token {
        // A wrong token is refused now, not at the first step.
        viewer = Viewer::Player(seat_of_token(&app, t, &mut *shared.lock().await).await?);
    }
    // Without a token, the logged-in account plays the seat it holds,
    // while its session lasts (checked at each message); with one, the
    // session still speaks in the chat.
    let session = crate::session::viewer(&app, &headers).await?;
    if let (Some(v), None) = (&session, &token) {
        let g = shared.lock().await;
        if let Some(side) = g.seat_where(|h| h.is_account(&v.account.id)) {
            viewer = Viewer::Player(side);
        }
    }
    // In a fog game the socket is shown its seat's view (the watchers'
    // without a seat) for as long as it is open.
    let at_board = match viewer {
        Viewer::Player(side) => Some(live::AtBoard::new(&*shared.lock().await, side)),
        _ => None,
    };
    let who = Who {
        opened_ms: app.clock.now_ms() as i64,
        token,
        account: session.as_ref().map(|v| v.account.id.clone()),
        session: session.map(|v| v.session),
        viewer,
        at_board,
    };
    // Frames far over the limit are cut by the library; those just over it
    // get an error message from us first.
    Ok(upgrade
        .max_message_size(MAX_MESSAGE * 4)
        // A state message is about 1–3 KB: small buffers keep thousands of
        // sockets cheap.
        .write_buffer_size(8 * 1024)
        .read_buffer_size(8 * 1024)
        // What waits to be sent is bounded: past it a send fails, and a
        // client that takes nothing for `write_timeout` is closed (see send).
        .max_write_buffer_size(MAX_QUEUED)
        .on_upgrade(move |socket| run(app, shared, who, socket)))
}

pub(super) fn error_message(e: &ApiError) -> Message {
    let body = e.body();
    let text = SocketMessage::Error {
        error: &body["error"],
    }
    .text();
    Message::Text(text.into())
}

/// Who may play on a socket: its seat token, or the logged-in account's
/// session (the hash of its token).
struct Who {
    token: Option<String>,
    session: Option<String>,
    /// The logged-in account whose page holds the socket: seen (online)
    /// while it is open.
    account: Option<String>,
    /// Whose view of a fog game the socket is sent.
    viewer: Viewer,
    /// When the socket was asked for (its session read, its account marked
    /// seen): the next mark is a minute on from then.
    opened_ms: i64,
    /// Its seat's player is at the board while it is open.
    at_board: Option<live::AtBoard>,
}

async fn run(app: Arc<App>, shared: Shared, who: Who, mut socket: WebSocket) {
    app.metrics.sockets.inc();
    // The first state is the stored one, whatever this process has heard.
    if let Err(e) = live::catch_up(&app, &shared).await {
        tracing::warn!(error = ?e, "cannot read a game's stored version");
    }
    // Held before the first state: no line said after it goes unheard.
    let mut chat = app.rooms.hold(&shared.lock().await.id);
    let blocked = match &who.account {
        Some(a) => app.store.blocked_ids(a).await.unwrap_or_default(),
        None => Vec::new(),
    };
    let (first, mut updates) = {
        let g = shared.lock().await;
        (
            present::message(&present::state(&g, who.viewer, app.clock.now_ms())),
            g.updates.subscribe(),
        )
    };
    if send(&app, &mut socket, Message::Text(first.into())).await {
        serve(
            &app,
            &shared,
            who,
            &mut socket,
            &mut updates,
            (&mut chat, &blocked),
        )
        .await;
    }
    app.metrics.sockets.dec();
}

async fn serve(
    app: &Arc<App>,
    shared: &Shared,
    mut who: Who,
    socket: &mut WebSocket,
    updates: &mut tokio::sync::broadcast::Receiver<Arc<Shown>>,
    (chat, blocked): (&mut crate::chat::Hold, &[String]),
) {
    let mut ping = tokio::time::interval(IDLE / 4);
    let mut heard = tokio::time::Instant::now();
    // The account was marked seen when the socket opened; again while it
    // hears from the page (logged out, an open page no longer shows it online).
    let mut presence = match (&who.account, &who.session) {
        (Some(account), Some(session)) => {
            Some(crate::session::Heard::new(account, session, who.opened_ms))
        }
        _ => None,
    };
    let limit = PerSocket::new(app.limits.messages, &app.clock);
    // Made once: a waiter registered for the socket's life, not anew for
    // each message.
    let mut stopping = app.stopping.subscribe();
    let stopped = async move {
        let _ = stopping.wait_for(|s| *s).await;
    };
    tokio::pin!(stopped);
    loop {
        // In this order: a state already announced (the answer to a step
        // just played, say) is sent before a stop closes the socket; the
        // client would otherwise not know its step was stored.
        tokio::select! {
            biased;
            update = updates.recv() => {
                let text: String = match update {
                    Ok(s) => s.message(who.viewer).to_string(),
                    // Too slow to keep up: send the latest state instead.
                    Err(RecvError::Lagged(_)) => {
                        present::message(&present::state(&*shared.lock().await, who.viewer, app.clock.now_ms()))
                    }
                    Err(RecvError::Closed) => return,
                };
                if !send(app, socket, Message::Text(text.into())).await {
                    return;
                }
            }
            line = chat.lines.recv() => {
                let Ok(line) = line else { continue };
                let account = who.account.as_deref();
                if let Some(text) = crate::chat::for_socket(shared, who.viewer, account, blocked, &line).await {
                    if !send(app, socket, Message::Text(text.into())).await {
                        return;
                    }
                }
            }
            // The server stops (a restart): what was being done is done (a
            // step in progress is finished before this is looked at), and
            // the client is told to connect again.
            () = &mut stopped => {
                send(app, socket, Message::Close(Some(CloseFrame {
                    code: 1012,
                    reason: "service restart: connect again".into(),
                }))).await;
                drain(socket).await;
                return;
            }
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                if let Some(presence) = presence.as_mut() {
                    presence.heard(app).await;
                }
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::bad_request("send JSON text messages");
                        if !send(app, socket, error_message(&e)).await { return; }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) => {
                        // Answer the client's close, as the protocol asks:
                        // the answer is queued as the close is read, and
                        // written here before the connection ends.
                        let _ = tokio::time::timeout(
                            app.write_timeout,
                            futures_util::SinkExt::flush(socket),
                        )
                        .await;
                        return;
                    }
                    None => return,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        // A frame the protocol refuses: say why as we close.
                        send(app, socket, Message::Close(Some(refused_frame(&e)))).await;
                        drain(socket).await;
                        return;
                    }
                };
                let reply = match limit.take() {
                    Ok(()) => reply_to(app, shared, &mut who, &text).await,
                    Err(wait) => {
                        app.metrics.requests_refused.inc();
                        Some(error_message(&ApiError::rate_limited("messages on this socket", wait)))
                    }
                };
                if let Some(m) = reply {
                    if !send(app, socket, m).await { return; }
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() > IDLE {
                    send(app, socket, Message::Close(Some(CloseFrame {
                        code: 1000,
                        reason: "idle for too long".into(),
                    }))).await;
                    return;
                }
                if !send(app, socket, Message::Ping(Vec::new().into())).await { return; }
            }
        }
    }
}

/// The answer to a message the page sent, if it has one: a seat taken,
/// a pong, a step refused, a chat line refused, or what was wrong with it.
async fn reply_to(app: &Arc<App>, shared: &Shared, who: &mut Who, text: &str) -> Option<Message> {
    match read(text) {
        Ok(ClientMessage::Seat { token }) => Some(sit(app, shared, who, token).await),
        Ok(ClientMessage::Ping {}) => Some(Message::Text(SocketMessage::Pong.text().into())),
        Ok(ClientMessage::Steps { seq, steps, token }) => {
            play(app, shared, who, seq, &steps, token).await
        }
        Ok(ClientMessage::Chat { room, text }) => {
            crate::chat::speak(app, shared, who.session.as_deref(), &room, &text)
                .await
                .err()
                .map(|e| {
                    app.metrics.requests_refused.inc();
                    error_message(&ApiError::from(e))
                })
        }
        Err(e) => {
            app.metrics.requests_refused.inc();
            Some(error_message(&e))
        }
    }
}

/// The close that says why a frame the WebSocket protocol refuses was
/// refused: not UTF-8 (1007), over the size limit (1009), or else (1002).
fn refused_frame(e: &axum::Error) -> CloseFrame {
    let text = e.to_string();
    let (code, reason) = if text.contains("UTF-8") || text.contains("utf-8") {
        (1007, "a text frame that is not UTF-8")
    } else if text.contains("too long") || text.contains("size") {
        (1009, "a message over the size limit")
    } else {
        (1002, "a frame the WebSocket protocol does not allow")
    };
    CloseFrame {
        code,
        reason: reason.into(),
    }
}

/// After closing on a frame it refused, reads what the client still
/// sends until it closes too (for at most 2 s, 64 reads): a connection
/// dropped with bytes unread is reset, and the client would never read
/// the close frame that says why.
pub(super) async fn drain(socket: &mut WebSocket) {
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        for _ in 0..64 {
            match socket.recv().await {
                None | Some(Ok(Message::Close(_))) => return,
                Some(_) => {}
            }
        }
    })
    .await;
}

/// What a client may send on a socket, read once (docs/api.md).
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    /// Steps for the mover's turn; `token` plays that seat instead of the
    /// socket's.
    Steps {
        seq: u64,
        steps: Vec<String>,
        #[serde(default)]
        token: Option<String>,
    },
    /// From now on this socket plays the seat of `token` (and, in a fog
    /// game, is shown its view).
    Seat { token: String },
    /// Answered `{"type":"pong"}`.
    Ping {},
    /// A line in the game's `players` or `watchers` room (docs/api.md, Chat).
    Chat { room: String, text: String },
}

/// A client's message, or why it is refused.
fn read(text: &str) -> Result<ClientMessage, ApiError> {
    if text.len() > MAX_MESSAGE {
        return Err(ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            Code::TooLarge,
            format!("messages are at most {MAX_MESSAGE} bytes"),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        ApiError::bad_request(format!(
            "{e}: a message is {{\"type\":\"steps\",\"seq\":N,\"steps\":[…]}}, \
             {{\"type\":\"seat\",\"token\":…}}, {{\"type\":\"chat\",\"room\":…,\"text\":…}} or {{\"type\":\"ping\"}}"
        ))
    })
}

/// A socket opened without a token names its seat: from now on it plays
/// that seat and, in a fog game, is shown that seat's view (the token
/// stays out of the URL, and so out of every log). The answer is the
/// state as the seat sees it, or why the token was refused.
async fn sit(app: &Arc<App>, shared: &Shared, who: &mut Who, token: String) -> Message {
    let seated = async {
        let mut g = shared.lock().await;
        let side = seat_of_token(app, &token, &mut g).await?;
        who.viewer = Viewer::Player(side);
        who.at_board = Some(live::AtBoard::new(&g, side));
        who.token = Some(token);
        Ok::<_, ApiError>(present::message(&present::state(
            &g,
            who.viewer,
            app.clock.now_ms(),
        )))
    }
    .await;
    match seated {
        Ok(state) => Message::Text(state.into()),
        Err(e) => {
            app.metrics.requests_refused.inc();
            error_message(&e)
        }
    }
}

/// Plays a socket's steps message: nothing comes back on success (the
/// state reaches every socket through the broadcast), else why not.
async fn play(
    app: &Arc<App>,
    shared: &Shared,
    who: &Who,
    seq: u64,
    steps: &[String],
    token: Option<String>,
) -> Option<Message> {
    let result = async {
                let side = match (token.as_deref().or(who.token.as_deref()), &who.session) {
                    (Some(token), _) => seat_of_token(app, token, &mut *shared.lock().await).await?,
                    (None, Some(session)) => {
                        // The session may have ended since the socket opened.
                        let Some((account, _)) = app.store.session_account(session).await? else {
                            return Err(ApiError::new(
                                axum::http::StatusCode::UNAUTHORIZED,
                                Code::LoginNeeded,
                                "the session this socket was opened with has ended: log in again",
                            ));
                        };
                        seat_of_account(app, &account.id, &mut *shared.lock().await).await?
                    }
                    (None, None) => {
                        return Err(ApiError::new(
                            axum::http::StatusCode::UNAUTHORIZED,
                            Code::NoToken,
                            "connect with ?token=<seat token> (or logged in), or send the message's token, to play on this socket",
                        ))
                    }
                };
                let steps = parse_steps(steps)?;
                live::play(app, shared, side, seq, &steps).await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => None,
        Err(e) => {
            app.metrics.requests_refused.inc();
            Some(error_message(&e))
        }
    }
}
