//! Notifications: stored first, in the transaction of the change that
//! raises them (a step, a challenge, a chat line: durable, numbered for
//! each account, see `store::inbox`), then the account's open pages are
//! told. Each page's user socket (`GET /api/me/live`) waits on its
//! account's doorbell here;
//! a notification stored by any process rings it (PostgreSQL's NOTIFY on
//! `vw_notes` carries it between processes), and the socket reads from
//! the database what it has not sent yet. A doorbell rung twice, or rung
//! for nothing new, costs one read: nothing is sent twice.

mod turns;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::watch;

pub use turns::raised_by_change;

use crate::store::{NewNote, Store};
use crate::App;

/// The kinds of notification (docs/api.md, Notifications).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Challenge,
    ChallengeAccepted,
    ChallengeDeclined,
    YourTurn,
    GameOver,
    Message,
    TournamentGame,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Challenge => "challenge",
            Kind::ChallengeAccepted => "challenge_accepted",
            Kind::ChallengeDeclined => "challenge_declined",
            Kind::YourTurn => "your_turn",
            Kind::GameOver => "game_over",
            Kind::Message => "message",
            Kind::TournamentGame => "tournament_game",
        }
    }
}

/// The doorbells of the accounts whose pages hold a user socket on this
/// process.
#[derive(Clone, Default)]
pub struct Doorbells {
    bells: Arc<Mutex<HashMap<String, watch::Sender<u64>>>>,
}

/// One socket's hold on its account's doorbell: `changed()` wakes it.
pub struct Doorbell {
    pub rung: watch::Receiver<u64>,
    account: String,
    bells: Arc<Mutex<HashMap<String, watch::Sender<u64>>>>,
}

impl Drop for Doorbell {
    fn drop(&mut self) {
        let Ok(mut bells) = self.bells.lock() else {
            return;
        };
        // The last socket of the account leaves: its bell goes.
        if bells
            .get(&self.account)
            .is_some_and(|b| b.receiver_count() <= 1)
        {
            bells.remove(&self.account);
        }
    }
}

impl Doorbells {
    /// A socket of `account` listens, unless `most` of its sockets listen
    /// on this process already: counted and taken under one lock, so that
    /// upgrades at once never pass `most`.
    pub fn try_hold(&self, account: &str, most: usize) -> Option<Doorbell> {
        let mut bells = self.bells.lock().unwrap_or_else(|e| e.into_inner());
        let bell = bells
            .entry(account.to_string())
            .or_insert_with(|| watch::channel(0).0);
        if bell.receiver_count() >= most {
            return None;
        }
        Some(Doorbell {
            rung: bell.subscribe(),
            account: account.to_string(),
            bells: self.bells.clone(),
        })
    }

    /// Something new for `account`: its sockets on this process look.
    pub fn ring(&self, account: &str) {
        let bells = self.bells.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bell) = bells.get(account) {
            bell.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// Every socket looks (after missing other processes' news a while).
    pub fn ring_all(&self) {
        let bells = self.bells.lock().unwrap_or_else(|e| e.into_inner());
        for bell in bells.values() {
            bell.send_modify(|n| *n = n.wrapping_add(1));
        }
    }
}

/// What telling of a stored notification needs.
#[derive(Clone)]
pub struct Raiser {
    store: Store,
    doorbells: Doorbells,
    pusher: std::sync::Arc<crate::push::Pusher>,
}

impl Raiser {
    pub fn of(app: &App) -> Raiser {
        Raiser {
            store: app.store.clone(),
            doorbells: app.doorbells.clone(),
            pusher: app.pusher.clone(),
        }
    }

    /// `notes`, stored under the numbers `seqs` (`None`: not stored) with
    /// the change that raised them (in its transaction: none is lost to a
    /// process killed in between), are told: the account's sockets on this
    /// process look (other processes hear of it from the database), and a
    /// challenge or a turn to play is pushed to its browsers.
    pub fn stored(&self, notes: &[NewNote], seqs: &[Option<i64>]) {
        for (note, seq) in notes.iter().zip(seqs) {
            let Some(id) = seq else { continue };
            self.doorbells.ring(&note.account);
            // A challenge and a turn to play reach a browser with no
            // page open too (its service worker shows them only then).
            if [Kind::Challenge.name(), Kind::YourTurn.name()].contains(&note.kind) {
                let mut payload = note.body.clone();
                payload["kind"] = note.kind.into();
                payload["id"] = (*id).into();
                self.pusher.push(&self.store, &note.account, payload);
            }
        }
    }
}

/// A notification of `kind` for `account` about `game` (or none: empty).
pub fn note(account: &str, kind: Kind, game: &str, body: Value) -> NewNote {
    NewNote {
        account: account.to_string(),
        kind: kind.name(),
        game: game.to_string(),
        body,
        once: false,
        read: false,
    }
}

/// A notification as the API shows it: `{"id","kind","at",…}` and the
/// kind's own fields.
pub fn shown(note: &crate::store::NoteRow, read_up_to: i64) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("id".into(), note.seq.into());
    out.insert("kind".into(), note.kind.clone().into());
    out.insert("at".into(), note.at_ms.into());
    out.insert("read".into(), (note.seq <= read_up_to).into());
    if let Value::Object(fields) = &note.body {
        for (k, v) in fields {
            out.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    Value::Object(out)
}
