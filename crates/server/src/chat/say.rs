//! Saying a line, and reading a room's lines: who may, and the bounds.

use std::sync::Arc;

use serde_json::json;

use super::{Listener, Room};
use crate::inbox::{self, Kind, Raiser};
use crate::live::Shared;
use crate::ratelimit::Rate;
use crate::store::{AccountRow, ChatRow, NewNote, StoreError};
use crate::{ids, App};

/// Longest line, in characters.
pub const MAX_CHARS: usize = 140;
/// Most lines one speaker says in one room: past it, that speaker is
/// refused there (and only that speaker: no crowd can fill a room and
/// silence the others).
pub const MOST_BY_ONE_IN_A_ROOM: i64 = 300;
/// Most lines a room's history gives.
pub const HISTORY: i64 = 100;
/// How fast one account may speak (in each process): 5 lines at once, then
/// one every 2 s.
pub const SPEAK_RATE: Rate = Rate {
    per_second: 0.5,
    burst: 5.0,
};

/// Why a line was not said, or a room not read.
#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    /// The line or the room named is wrong: what, and where.
    #[error("{0}")]
    Malformed(String),
    /// Chat needs an account.
    #[error("chat needs an account: log in (the page's session), then connect again")]
    LoginNeeded,
    /// An operator muted the speaker until then (ms since the Unix epoch).
    #[error("an operator muted you until {0} (ms since the Unix epoch)")]
    Muted(i64),
    /// The room is not the caller's, and why.
    #[error("{0}")]
    NotYourRoom(&'static str),
    /// The speaker speaks too fast: the next line in `secs`.
    #[error("5 lines at once, then one every 2 s: the next in {secs} s")]
    TooFast { secs: u64 },
    /// The speaker said the most lines one says in a room.
    #[error("you said {MOST_BY_ONE_IN_A_ROOM} lines in this room: that is the most one player says there")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a line may not be said as it is written, if it may not: a control
/// character or a line or paragraph separator (a line that looks like two,
/// the second forged), a character that changes the text's direction or
/// hides (bidirectional overrides and isolates, zero-width spaces, the
/// byte-order mark, soft hyphens, tag characters), more than 4 combining
/// marks on one letter, or nothing visible at all. The joiner of emoji
/// sequences (U+200D) and variation selectors stay.
pub fn unfit(text: &str) -> Option<String> {
    let hidden = |c: char| {
        matches!(c as u32,
            0x00AD | 0x061C | 0x180E | 0x200B | 0x200C | 0x200E | 0x200F
            | 0x2028..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF
            | 0xFFF9..=0xFFFB | 0x1D173..=0x1D17A | 0xE0000..=0xE007F)
    };
    if let Some(c) = text.chars().find(|c| c.is_control() || hidden(*c)) {
        return Some(format!(
            "a chat line holds no control, separator or invisible character (U+{:04X})",
            c as u32
        ));
    }
    let mut marks = 0;
    for c in text.chars() {
        marks = if unicode_normalization::char::is_combining_mark(c) {
            marks + 1
        } else {
            0
        };
        if marks > 4 {
            return Some("a chat line puts at most 4 combining marks on a letter".into());
        }
    }
    // The same rule as a chosen name's (`visible`): fillers such as
    // U+3164 and the Braille blank show nothing either.
    if !crate::visible::shows_something(text) {
        return Some(
            "a chat line shows something: not only spaces, marks, fillers or blanks".into(),
        );
    }
    None
}

/// The room named `room`, or why not.
fn room_of(room: &str) -> Result<Room, ChatError> {
    Room::parse(room).ok_or_else(|| {
        ChatError::Malformed(format!(
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
) -> Result<(), ChatError> {
    let room = room_of(room)?;
    let length = text.chars().count();
    if !(1..=MAX_CHARS).contains(&length) {
        return Err(ChatError::Malformed(format!(
            "a chat line is 1 to {MAX_CHARS} characters, not {length}"
        )));
    }
    if let Some(why) = unfit(text) {
        return Err(ChatError::Malformed(why));
    }
    let Some(me) = speaker else {
        return Err(ChatError::LoginNeeded);
    };
    let now = app.clock.now_ms() as i64;
    if me.muted_until_ms > now {
        return Err(ChatError::Muted(me.muted_until_ms));
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
        return Err(ChatError::NotYourRoom(match room {
            Room::Players => "the players' room is for the two seats' accounts",
            Room::Watchers => "a player speaks in the watchers' room once the game is over",
        }));
    }
    app.chat_rate
        .check(&me.id)
        .map_err(|wait| ChatError::TooFast {
            secs: wait.as_secs_f64().ceil().max(1.0) as u64,
        })?;
    let line = ChatRow {
        game: game.clone(),
        id: ids::game_id(),
        room: room.name().to_string(),
        account: me.id.clone(),
        name: me.name.clone(),
        text: text.to_string(),
        at_ms: now,
    };
    // A line to the opponent in a game played over days is a notification
    // too (stored with the line), unless one of them blocks the other:
    // nothing of a blocked player reaches the one who blocks them.
    let mut notes = Vec::new();
    if let (Room::Players, false, true, Some(opponent)) = (room, over, slow, opponent) {
        if !app.store.blocked_between(&me.id, &opponent).await? {
            notes.push(NewNote {
                once: true,
                ..inbox::note(
                    &opponent,
                    Kind::Message,
                    &game,
                    json!({"game": game, "from": me.name, "text": line.text}),
                )
            });
        }
    }
    let Some(seqs) = app
        .store
        .add_chat_line(&line, MOST_BY_ONE_IN_A_ROOM, &notes)
        .await?
    else {
        return Err(ChatError::TooMany);
    };
    app.store.announce_chat(&line).await?;
    app.rooms.deliver(Arc::new(line));
    Raiser::of(app).stored(&notes, &seqs);
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
) -> Result<Vec<ChatRow>, ChatError> {
    let room = room_of(room)?;
    if !listener.reads(room) {
        return Err(ChatError::NotYourRoom(match room {
            Room::Players => "the players' room is read by the two seats only",
            Room::Watchers => "a player reads the watchers' room once the game is over",
        }));
    }
    let mut lines = app.store.chat_lines(game, room.name(), HISTORY).await?;
    lines.retain(|l| !blocked.contains(&l.account));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::unfit;

    #[test]
    fn lines_that_forge_hide_or_smear_are_unfit() {
        for ok in [
            "good luck",
            "ГГ, спасибо",
            "👨‍👩‍👧 nice",
            "❤️",
            "e\u{301}te\u{301}",
            "a  b",
        ] {
            assert_eq!(unfit(ok), None, "{ok:?}");
        }
        for bad in [
            "two\nlines",
            "gg\u{2028}Bob: I resign",
            "a\u{2029}b",
            "\u{202e}evil\u{202c}",
            "x\u{2066}y",
            "\u{200b}",
            "\u{200b}\u{200c}\u{200d}\u{2060}",
            "\u{feff}",
            "\u{ad}\u{ad}",
            "tag\u{e0041}",
            "   ",
            "\u{301}\u{301}",
            "e\u{301}\u{301}\u{301}\u{301}\u{301}",
            // Fillers and blanks that a seat's name refuses too.
            "\u{3164}",
            "\u{3164}\u{3164}\u{3164}",
            "\u{115f}\u{1160}",
            "\u{ffa0}",
            "\u{2800}",
            "\u{2800}\u{2800}\u{2800}",
        ] {
            assert!(unfit(bad).is_some(), "{bad:?}");
        }
    }
}
