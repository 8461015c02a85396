//! `GET /api/me/live`: a signed-in page's socket, which brings the
//! player's notifications the moment they are stored, on whichever process
//! stored them (docs/api.md, Notifications). It says
//! `{"type":"hello","unread":N,"last":ID}` first; then each new
//! notification as `{"type":"notification","id",…,"unread":N}`, and
//! `{"type":"unread","unread":N}` when the count changes otherwise (read in
//! another tab). With `?after=ID` those numbered after `ID` come first
//! (a page that reconnects misses none). The page may send
//! `{"type":"ping"}` (answered `{"type":"pong"}`); while it hears from the
//! page, the player is online. A session that ends closes it (4401).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::Query;
use axum::response::Response;
use serde_json::json;

use super::error::ApiError;
use super::socket::{drain, error_message, send, IDLE, MAX_MESSAGE};
use super::SignedIn;
use crate::ratelimit::PerSocket;
use crate::{inbox, session, App};

/// Most user sockets one account may hold on a process (its pages, tabs
/// and devices): each look at a notification is a few reads for each.
pub const MOST_SOCKETS: usize = 20;

/// Most notifications one look sends (a page that was away long reads the
/// rest from the list).
const MOST_A_LOOK: i64 = 50;

/// Your notifications, live (WebSocket, signed in).
#[utoipa::path(get, path = "/api/me/live", tag = "people",
    params(("after" = Option<i64>, Query, description = "Send the notifications numbered after this first")),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol"),
        (status = 400, description = "`malformed`: a bad `after`", body = crate::view::ErrorBody),
        (status = 401, description = "`login_needed`", body = crate::view::ErrorBody),
        (status = 403, description = "`cross_origin`", body = crate::view::ErrorBody),
    ))]
pub async fn live(
    SignedIn {
        app, viewer: me, ..
    }: SignedIn,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let after = match query.get("after") {
        None => None,
        Some(a) => Some(a.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
            ApiError::bad_request(format!(
                "after is a notification's id (0 or more), not '{}'",
                a.chars().take(40).collect::<String>()
            ))
        })?),
    };
    if let Some(other) = query.keys().find(|k| *k != "after") {
        return Err(ApiError::bad_request(format!(
            "unknown parameter '{}': the user socket takes only after",
            other.chars().take(40).collect::<String>()
        )));
    }
    let (account, session) = (me.account.id, me.session);
    // The session was read and the account marked seen now.
    let opened_ms = app.clock.now_ms() as i64;
    // Counted and taken at once, before the upgrade (upgrades at once
    // never pass the cap); let go if the upgrade never completes.
    let Some(bell) = app.doorbells.try_hold(&account, MOST_SOCKETS) else {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            crate::code::Code::TooMany,
            format!(
                "{MOST_SOCKETS} pages of this account hold a user socket here already: close one"
            ),
        ));
    };
    Ok(upgrade
        .max_message_size(MAX_MESSAGE * 4)
        .write_buffer_size(4 * 1024)
        .read_buffer_size(4 * 1024)
        .max_write_buffer_size(super::socket::MAX_QUEUED)
        .on_upgrade(move |socket| run(app, (account, session, opened_ms), after, bell, socket)))
}

async fn run(
    app: Arc<App>,
    (account, session, opened_ms): (String, String, i64),
    after: Option<i64>,
    mut bell: crate::inbox::Doorbell,
    mut socket: WebSocket,
) {
    app.metrics.sockets.inc();
    // Held before the first read: nothing stored after it goes unheard.
    if let Ok((last, _, unread)) = app.store.note_counts(&account).await {
        let hello = json!({"type": "hello", "unread": unread, "last": last}).to_string();
        if send(&app, &mut socket, Message::Text(hello.into())).await {
            // A page away for long reads the older ones from the list.
            let from = after.map_or(last, |a| a.clamp(last - MOST_A_LOOK, last));
            let who = (account.as_str(), session.as_str(), opened_ms);
            serve(&app, who, from, unread, &mut bell, &mut socket).await;
        }
    }
    app.metrics.sockets.dec();
}

/// The socket's life: what the doorbell brings, the page's pings, the
/// server's stop.
async fn serve(
    app: &Arc<App>,
    (account, session, opened_ms): (&str, &str, i64),
    mut sent: i64,
    mut unread: i64,
    bell: &mut inbox::Doorbell,
    socket: &mut WebSocket,
) {
    let mut ping = tokio::time::interval(IDLE / 4);
    let mut heard = tokio::time::Instant::now();
    let mut presence = session::Heard::new(account, session, opened_ms);
    let limit = PerSocket::new(app.limits.messages, &app.clock);
    let mut stopping = app.stopping.subscribe();
    let stopped = async move {
        let _ = stopping.wait_for(|s| *s).await;
    };
    tokio::pin!(stopped);
    // Those after `sent` are looked for at once (a reconnecting page's).
    bell.rung.mark_changed();
    loop {
        tokio::select! {
            biased;
            rung = bell.rung.changed() => {
                if rung.is_err() {
                    return;
                }
                // A ban or a logout rings too: the session is read afresh.
                if !session::lasts(app, session, account).await {
                    send(app, socket, Message::Close(Some(CloseFrame {
                        code: 4401,
                        reason: "the session ended: log in again".into(),
                    }))).await;
                    return;
                }
                match look(app, account, &mut sent, &mut unread).await {
                    Ok(messages) => {
                        if messages.len() as i64 >= MOST_A_LOOK {
                            // More wait: looked for again after these.
                            bell.rung.mark_changed();
                        }
                        for m in messages {
                            if !send(app, socket, Message::Text(m.into())).await {
                                return;
                            }
                        }
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot read notifications"),
                }
            }
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
                // Logged out (here or everywhere): the socket ends.
                if !presence.heard(app).await {
                    send(app, socket, Message::Close(Some(CloseFrame {
                        code: 4401,
                        reason: "the session ended: log in again".into(),
                    }))).await;
                    return;
                }
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                    Some(Ok(_)) => continue,
                };
                let reply = match limit.take() {
                    Err(wait) => error_message(&ApiError::rate_limited("messages on this socket", wait)),
                    Ok(()) => match serde_json::from_str::<ClientMessage>(&text) {
                        Ok(ClientMessage::Ping {}) => Message::Text(r#"{"type":"pong"}"#.into()),
                        Err(e) => error_message(&ApiError::bad_request(format!(
                            "{e}: the user socket takes {{\"type\":\"ping\"}}"
                        ))),
                    },
                };
                if !send(app, socket, reply).await {
                    return;
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
                if !send(app, socket, Message::Ping(Vec::new().into())).await {
                    return;
                }
            }
        }
    }
}

/// What a page may send on its user socket.
#[derive(Debug, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Ping {},
}

/// Reads what is new since `sent`: the messages to send, oldest first.
async fn look(
    app: &App,
    account: &str,
    sent: &mut i64,
    unread: &mut i64,
) -> Result<Vec<String>, crate::StoreError> {
    // The list first, then the counts: a notification stored between the
    // two reads is counted (and sent at the next look), so a message's
    // count is never behind the notifications sent (it was, read the
    // other way round: "unread 0" with the first one).
    let notes = app.store.notes_after(account, *sent, MOST_A_LOOK).await?;
    let (last, read_up_to, now_unread) = app.store.note_counts(account).await?;
    let mut out = Vec::with_capacity(notes.len() + 1);
    for n in &notes {
        let mut shown = inbox::shown(n, read_up_to);
        shown["type"] = "notification".into();
        shown["unread"] = now_unread.into();
        out.push(shown.to_string());
        *sent = n.seq;
    }
    // A count changed by a read elsewhere is said alone; one changed by a
    // notification stored since the list was read is said with it, at the
    // next look (its doorbell rings after it is stored).
    if notes.is_empty() && now_unread != *unread && last <= *sent {
        out.push(json!({"type": "unread", "unread": now_unread}).to_string());
        *unread = now_unread;
    }
    if !notes.is_empty() {
        *unread = now_unread;
    }
    Ok(out)
}
