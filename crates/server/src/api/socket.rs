//! `GET /api/games/{id}/live`: a WebSocket that receives the game's state
//! on connect and on every change, and may send steps:
//! `{"type":"steps","seq":N,"steps":[…]}` with the seat token given as
//! `?token=` when connecting. Errors come back as
//! `{"type":"error","error":{…}}`; the socket stays open.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use serde_json::{json, Value};
use tokio::sync::broadcast::error::RecvError;

use super::games::parse_steps;
use super::seat_of_token;
use crate::error::ApiError;
use crate::live::{self, now_ms, Shared};
use crate::ratelimit::Bucket;
use crate::view;
use crate::App;

/// Largest message a client may send, in bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;
/// A socket that sends nothing (not even a pong) for this long is closed.
pub const IDLE: Duration = Duration::from_secs(120);

/// The game live (WebSocket): its state on connect and after every change.
///
/// With `?token=` the socket may play: `{"type":"steps","seq":N,"steps":[…]}`;
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
        (status = 404, body = crate::view::ErrorBody),
    )
)]
pub async fn live(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let shared = live::get(&app, &id).await?;
    let token = query.get("token").cloned();
    if let Some(t) = &token {
        // A wrong token is refused now, not at the first step.
        seat_of_token(t, &*shared.lock().await)?;
    }
    // Frames far over the limit are cut by the library; those just over it
    // get an error message from us first.
    Ok(upgrade
        .max_message_size(MAX_MESSAGE * 4)
        // A state message is about 1–3 KB: small buffers keep thousands of
        // sockets cheap.
        .write_buffer_size(8 * 1024)
        .read_buffer_size(8 * 1024)
        .on_upgrade(move |socket| run(app, shared, token, socket)))
}

fn error_message(e: &ApiError) -> Message {
    let mut m = e.body();
    m["type"] = json!("error");
    Message::Text(m.to_string().into())
}

async fn run(app: Arc<App>, shared: Shared, token: Option<String>, mut socket: WebSocket) {
    app.metrics.sockets.fetch_add(1, Ordering::Relaxed);
    let (first, mut updates) = {
        let g = shared.lock().await;
        (
            view::state_message(&view::state(&g, now_ms())),
            g.updates.subscribe(),
        )
    };
    if socket.send(Message::Text(first.into())).await.is_ok() {
        serve(&app, &shared, token, &mut socket, &mut updates).await;
    }
    app.metrics.sockets.fetch_sub(1, Ordering::Relaxed);
}

async fn serve(
    app: &Arc<App>,
    shared: &Shared,
    token: Option<String>,
    socket: &mut WebSocket,
    updates: &mut tokio::sync::broadcast::Receiver<Arc<str>>,
) {
    let mut ping = tokio::time::interval(IDLE / 4);
    let mut heard = tokio::time::Instant::now();
    let rate = app.limits.messages;
    let mut bucket = Bucket::new(rate, std::time::Instant::now());
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text: String = match update {
                    Ok(s) => (*s).to_string(),
                    // Too slow to keep up: send the latest state instead.
                    Err(RecvError::Lagged(_)) => {
                        view::state_message(&view::state(&*shared.lock().await, now_ms()))
                    }
                    Err(RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            incoming = socket.recv() => {
                heard = tokio::time::Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t.to_string(),
                    Some(Ok(Message::Binary(_))) => {
                        let e = ApiError::bad_request("send JSON text messages");
                        if socket.send(error_message(&e)).await.is_err() { return; }
                        continue;
                    }
                    Some(Ok(Message::Close(_))) => {
                        // Answer the client's close, as the protocol asks.
                        let _ = socket.send(Message::Close(None)).await;
                        return;
                    }
                    None => return,
                    Some(Ok(_)) => continue,
                    Some(Err(e)) => {
                        // A frame the protocol refuses: say why as we close.
                        let text = e.to_string();
                        let (code, reason) = if text.contains("UTF-8") || text.contains("utf-8") {
                            (1007, "a text frame that is not UTF-8")
                        } else if text.contains("too long") || text.contains("size") {
                            (1009, "a message over the size limit")
                        } else {
                            (1002, "a frame the WebSocket protocol does not allow")
                        };
                        let _ = socket.send(Message::Close(Some(CloseFrame {
                            code,
                            reason: reason.into(),
                        }))).await;
                        return;
                    }
                };
                let reply = match bucket.take(rate, std::time::Instant::now()) {
                    Ok(()) => answer(app, shared, token.as_deref(), &text).await,
                    Err(wait) => {
                        app.metrics.requests_refused.fetch_add(1, Ordering::Relaxed);
                        Some(error_message(&ApiError::rate_limited("messages on this socket", wait)))
                    }
                };
                if let Some(m) = reply {
                    if socket.send(m).await.is_err() { return; }
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() > IDLE {
                    let _ = socket.send(Message::Close(Some(CloseFrame {
                        code: 1000,
                        reason: "idle for too long".into(),
                    }))).await;
                    return;
                }
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() { return; }
            }
        }
    }
}

/// What a client's message gets back directly (its state change reaches
/// every socket through the broadcast).
async fn answer(
    app: &Arc<App>,
    shared: &Shared,
    token: Option<&str>,
    text: &str,
) -> Option<Message> {
    if text.len() > MAX_MESSAGE {
        let e = ApiError::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("messages are at most {MAX_MESSAGE} bytes"),
        );
        return Some(error_message(&e));
    }
    let result =
        async {
            let m: Value = serde_json::from_str(text)
                .map_err(|e| ApiError::bad_request(format!("not JSON: {e}")))?;
            match m.get("type").and_then(Value::as_str) {
            Some("ping") => Ok(Some(Message::Text(json!({"type": "pong"}).to_string().into()))),
            Some("steps") => {
                let request: crate::view::StepsRequest = serde_json::from_value({
                    let mut m = m.clone();
                    if let Some(o) = m.as_object_mut() {
                        o.remove("type");
                    }
                    m
                })
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
                let token = token.ok_or_else(|| {
                    ApiError::new(
                        axum::http::StatusCode::UNAUTHORIZED,
                        "no_token",
                        "connect with ?token=<seat token> to play on this socket",
                    )
                })?;
                let side = seat_of_token(token, &*shared.lock().await)?;
                let steps = parse_steps(&request.steps)?;
                live::play(app, shared, side, request.seq, &steps).await?;
                Ok(None)
            }
            _ => Err(ApiError::bad_request(
                "a message is {\"type\":\"steps\",\"seq\":N,\"steps\":[…]} or {\"type\":\"ping\"}",
            )),
        }
        }
        .await;
    match result {
        Ok(m) => m,
        Err(e) => {
            app.metrics.requests_refused.fetch_add(1, Ordering::Relaxed);
            Some(error_message(&e))
        }
    }
}
