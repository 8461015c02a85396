//! Saying a line, and reading a room's lines: who may, and the bounds.

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::json;

use super::{Listener, Room};
use crate::code::Code;
use crate::error::ApiError;
use crate::inbox::{Kind, Raiser};
use crate::live::Shared;
use crate::ratelimit::Rate;
use crate::store::{AccountRow, ChatRow};
use crate::{ids, App};

/// Longest line, in characters.
pub const MAX_CHARS: usize = 140;
/// Most lines a room keeps: past it, the room is full.
pub const MOST_IN_A_ROOM: i64 = 1000;
/// Most lines a room's history gives.
pub const HISTORY: i64 = 100;
/// How fast one account may speak (in each process): 5 lines at once, then
/// one every 2 s.
pub const SPEAK_RATE: Rate = Rate {
    per_second: 0.5,
    burst: 5.0,
};

fn not_yours(why: &str) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, Code::NotYourRoom, why)
}

/// The room named `room`, or why not.
fn room_of(room: &str) -> Result<Room, ApiError> {
    Room::parse(room).ok_or_else(|| {
        ApiError::bad_request(format!(
            "room is players or watchers, not '{}'",
            room.chars().take(40).collect::<String>()
        ))
    })
}

/// Says `text` in `room` of the game as `speaker` (an account whose
/// session lasts, read for this line): stored, then delivered to every
/// socket of the game on every process. A correspondence game's opponent
/// is told (`kind: "message"`).
pub async fn say(
    app: &App,
    shared: &Shared,
    speaker: Option<AccountRow>,
    room: &str,
    text: &str,
) -> Result<(), ApiError> {
    let room = room_of(room)?;
    let length = text.chars().count();
    if !(1..=MAX_CHARS).contains(&length) {
        return Err(ApiError::bad_request(format!(
            "a chat line is 1 to {MAX_CHARS} characters, not {length}"
        )));
    }
    if text.chars().any(char::is_control) {
        return Err(ApiError::bad_request(
            "a chat line holds no control characters (no line breaks)",
        ));
    }
    let Some(me) = speaker else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            Code::LoginNeeded,
            "chat needs an account: log in (the page's session), then connect again",
        ));
    };
    let now = app.clock.now_ms() as i64;
    if me.muted_until_ms > now {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            Code::Muted,
            format!(
                "an operator muted you until {} (ms since the Unix epoch)",
                me.muted_until_ms
            ),
        ));
    }
    let (game, seated, over, opponent, slow) = {
        let g = shared.lock().await;
        let side = g.seat_where(|h| h.is_account(&me.id));
        let slow = g
            .table
            .contest
            .clocks
            .as_ref()
            .is_none_or(|c| c.control.per_turn);
        let opponent = side.and_then(|s| g.holder(!s).account.clone());
        (
            g.id.clone(),
            side.is_some(),
            g.table.contest.finished(),
            opponent,
            slow,
        )
    };
    let listener = Listener { seated, over };
    if !listener.reads(room) {
        return Err(not_yours(match room {
            Room::Players => "the players' room is for the two seats' accounts",
            Room::Watchers => "a player speaks in the watchers' room once the game is over",
        }));
    }
    app.chat_rate
        .check(&me.id)
        .map_err(|wait| ApiError::rate_limited("chat lines", wait))?;
    let line = ChatRow {
        game: game.clone(),
        id: ids::game_id(),
        room: room.name().to_string(),
        account: me.id.clone(),
        name: me.name.clone(),
        text: text.to_string(),
        at_ms: now,
    };
    if !app.store.add_chat_line(&line, MOST_IN_A_ROOM).await? {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            Code::TooMany,
            format!("this room holds {MOST_IN_A_ROOM} lines: it takes no more"),
        ));
    }
    app.store.announce_chat(&line).await?;
    let line = Arc::new(line);
    app.rooms.deliver(line.clone());
    if let (Room::Players, false, true, Some(opponent)) = (room, over, slow, opponent) {
        Raiser::of(app)
            .raise(
                &opponent,
                Kind::Message,
                &game,
                json!({"game": game, "from": me.name, "text": line.text}),
                now,
                true,
            )
            .await;
    }
    Ok(())
}

/// A room's newest lines, oldest first, as `listener` may read them, less
/// those of players `blocked` (the viewer blocks them).
pub async fn history(
    app: &App,
    game: &str,
    room: &str,
    listener: Listener,
    blocked: &[String],
) -> Result<Vec<ChatRow>, ApiError> {
    let room = room_of(room)?;
    if !listener.reads(room) {
        return Err(not_yours(match room {
            Room::Players => "the players' room is read by the two seats only",
            Room::Watchers => "a player reads the watchers' room once the game is over",
        }));
    }
    let mut lines = app.store.chat_lines(game, room.name(), HISTORY).await?;
    lines.retain(|l| !blocked.contains(&l.account));
    Ok(lines)
}
