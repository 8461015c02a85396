//! A game as each viewer is shown it: the one place that builds a
//! [`GameState`] (HTTP answers and every socket message) and the entries
//! of the lists (`lists.rs`).
//!
//! Closed by default: the state is built field by field from two sources
//! only, what the viewer knows ([`Knowledge`]: the board, the steps, the
//! position, the legal steps, the fog) and facts no viewer is denied (the
//! seats, the clocks, the offers, the ending). A field added to
//! [`GameState`] must be built here from one of them; nothing is built
//! whole and then cut down. A test walks every field of every answer a fog
//! seat, a watcher and a bot receive and checks each against the rules'
//! own view (`tests/it/presented.rs`).

mod knowledge;
mod lists;
mod seats;
pub(crate) mod shown;

pub use knowledge::Knowledge;
pub use lists::{open_game, played, playing_game};
pub use shown::Shown;

use serde::Serialize;
use virus_wars_rules::contest::Contest;
use virus_wars_rules::fog::{Known, Viewer};
use virus_wars_rules::{Side, Step};

use crate::live::LiveGame;
use crate::view::{side_name, variant_info, view_rows, BySide, EndingState, GameState};

/// The game as `viewer` is shown it, as of `now`.
pub fn state(g: &LiveGame, viewer: Viewer, now: u64) -> GameState {
    let c = &g.table.contest;
    let knowledge = if g.fogged() {
        Knowledge::under_fog(&c.game, &Known::of_game(&c.game), viewer)
    } else {
        Knowledge::everything(c)
    };
    build(g, knowledge, now)
}

/// The state as of `now` for every viewer, each rendered once (with its
/// socket message): one for all when nothing is hidden, else one for X's
/// seat, one for O's, one for the watchers.
pub fn shown(g: &LiveGame, now: u64) -> Shown {
    let c = &g.table.contest;
    let states = if g.fogged() {
        let known = Known::of_game(&c.game);
        [
            Viewer::Player(Side::X),
            Viewer::Player(Side::O),
            Viewer::Watcher,
        ]
        .into_iter()
        .map(|v| build(g, Knowledge::under_fog(&c.game, &known, v), now))
        .collect()
    } else {
        vec![build(g, Knowledge::everything(c), now)]
    };
    Shown {
        views: states
            .into_iter()
            .map(|s| {
                let message = message(&s).into();
                (s, message)
            })
            .collect(),
    }
}

/// `X to move`, `O to move`, the ending's words (`X wins`, `draw`) or
/// `aborted`: the words of a state's `status` and of the lists.
pub fn status_words(c: &Contest) -> String {
    match (c.aborted(), c.ending()) {
        (true, _) => "aborted".to_string(),
        (false, Some(e)) => e.outcome.to_string(),
        (false, None) => format!("{} to move", c.side_to_move()),
    }
}

fn step_words(steps: &[Option<Step>]) -> Vec<String> {
    steps
        .iter()
        .map(|s| s.map_or_else(|| "?".to_string(), |s| s.to_string()))
        .collect()
}

/// The state of `g` as of `now` for a viewer who knows `k`.
fn build(g: &LiveGame, k: Knowledge, now: u64) -> GameState {
    let c = &g.table.contest;
    let p = c.game.position();
    let to_move = (!c.finished()).then(|| c.side_to_move());
    let (last_turn, previous_turn) = k.last_turns(to_move);
    let (last_turn, previous_turn) = (step_words(last_turn), step_words(previous_turn));
    GameState {
        // What the viewer knows.
        board: view_rows(&k.cells, p.width(), p.height()),
        steps: k.turns.iter().flat_map(|(_, s)| step_words(s)).collect(),
        turns: k
            .turns
            .iter()
            .enumerate()
            .map(|(n, (side, steps))| format!("{}. {side} {}", n + 1, step_words(steps).join("-")))
            .collect(),
        last_turn,
        previous_turn,
        position: k.position,
        legal: k.legal.iter().map(Step::to_string).collect(),
        fog: k.fog,
        // What no viewer is denied.
        version: g.version,
        id: g.id.clone(),
        variant: variant_info(g.variant()),
        seq: c.seq(),
        to_move: to_move.map(side_name),
        status: status_words(c),
        ending: EndingState::of(c.ending(), c.aborted()),
        steps_left: p.steps_left(),
        abortable: !c.finished() && c.abortable(),
        clocks: g.clock_state(now),
        players: BySide {
            x: g.player(Side::X),
            o: g.player(Side::O),
        },
        seats_free: BySide {
            x: g.seat_free(Side::X),
            o: g.seat_free(Side::O),
        },
        rated: g.rated,
        listed: g.listed,
        draw_offer: g.table.draw_offer.map(side_name),
        draws_allowed: c.draws_allowed(),
        rematch: g.rematch.clone(),
    }
}

/// Every message the server sends on a live socket, tagged by `type`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SocketMessage<'a> {
    /// The game as this socket's viewer is shown it.
    State(&'a GameState),
    /// Why the client's last message was refused (`{"code", "message", …}`).
    Error { error: &'a serde_json::Value },
    /// The answer to a ping.
    Pong,
}

impl SocketMessage<'_> {
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The live socket's message for a state.
pub fn message(state: &GameState) -> String {
    SocketMessage::State(state).text()
}
