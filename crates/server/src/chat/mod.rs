//! Chat in games (docs/api.md, Chat): two rooms a game, `players` (its two
//! seats, also after the game) and `watchers` (everyone else; the players
//! too once the game is over). A line is stored, then reaches the game's
//! sockets on this process through its room's channel here, and those of
//! the other processes through PostgreSQL's NOTIFY (`vw_chat`). Each socket
//! shows a line only to a viewer who may see its room, and never a line of
//! a player the viewer blocks. A line carries no more than who said what
//! and when: nothing in it tells a fog game's hidden cells.

mod say;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

pub use say::{history, say, ChatError, SPEAK_RATE};

use crate::store::ChatRow;

/// The two rooms of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    Players,
    Watchers,
}

impl Room {
    pub fn parse(text: &str) -> Option<Room> {
        match text {
            "players" => Some(Room::Players),
            "watchers" => Some(Room::Watchers),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Watchers => "watchers",
        }
    }
}

/// Who looks at a game's chat: whether they hold a seat, and whether the
/// game is over (the players see the watchers' room only then).
#[derive(Clone, Copy, Debug)]
pub struct Listener {
    pub seated: bool,
    pub over: bool,
}

impl Listener {
    /// Whether this listener may read `room`.
    pub fn reads(self, room: Room) -> bool {
        match room {
            Room::Players => self.seated,
            Room::Watchers => !self.seated || self.over,
        }
    }
}

/// The line as a socket sends it.
pub fn message(line: &ChatRow) -> String {
    serde_json::json!({
        "type": "chat",
        "room": line.room,
        "from": line.name,
        "text": line.text,
        "at": line.at_ms,
    })
    .to_string()
}

/// The games' chat channels on this process, while a socket listens.
#[derive(Clone, Default)]
pub struct Rooms {
    games: Arc<Mutex<HashMap<String, broadcast::Sender<Arc<ChatRow>>>>>,
}

/// A socket's hold on its game's channel.
pub struct Hold {
    pub lines: broadcast::Receiver<Arc<ChatRow>>,
    game: String,
    games: Arc<Mutex<HashMap<String, broadcast::Sender<Arc<ChatRow>>>>>,
}

impl Drop for Hold {
    fn drop(&mut self) {
        let Ok(mut games) = self.games.lock() else {
            return;
        };
        if games
            .get(&self.game)
            .is_some_and(|g| g.receiver_count() <= 1)
        {
            games.remove(&self.game);
        }
    }
}

impl Rooms {
    /// A socket of `game` listens.
    pub fn hold(&self, game: &str) -> Hold {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let lines = games
            .entry(game.to_string())
            .or_insert_with(|| broadcast::channel(32).0)
            .subscribe();
        Hold {
            lines,
            game: game.to_string(),
            games: self.games.clone(),
        }
    }

    /// A line reaches the sockets of its game on this process.
    pub fn deliver(&self, line: Arc<ChatRow>) {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = games.get(&line.game) {
            let _ = g.send(line);
        }
    }
}

/// A line as a game socket shows it to its viewer (`viewer`, and its
/// account, which may hold a seat without the socket playing it), or
/// nothing: a room it may not read, or a player the account blocks.
pub async fn for_socket(
    shared: &crate::live::Shared,
    viewer: virus_wars_rules::fog::Viewer,
    account: Option<&str>,
    blocked: &[String],
    line: &ChatRow,
) -> Option<String> {
    if blocked.contains(&line.account) {
        return None;
    }
    let room = Room::parse(&line.room)?;
    let listener = {
        let g = shared.lock().await;
        Listener {
            seated: matches!(viewer, virus_wars_rules::fog::Viewer::Player(_))
                || account.is_some_and(|a| g.seat_where(|h| h.is_account(a)).is_some()),
            over: g.table.contest.finished(),
        }
    };
    listener.reads(room).then(|| message(line))
}

/// A socket's chat line: said as the account of its session (`session`,
/// the token's hash), read afresh (a ban or a logout ends it at once).
pub async fn speak(
    app: &crate::App,
    shared: &crate::live::Shared,
    session: Option<&str>,
    room: &str,
    text: &str,
) -> Result<(), say::ChatError> {
    let speaker = match session {
        Some(hash) => app.store.session_account(hash).await?.map(|(a, _)| a),
        None => None,
    };
    say(app, shared, speaker, room, text).await
}
