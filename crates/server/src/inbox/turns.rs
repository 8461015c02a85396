//! The notifications a game's change raises: `your_turn` to the player
//! whose turn it now is, `game_over` to both players. Only in games played
//! over days (a correspondence clock, or none): a real-time game is played
//! at its board, with its clock running, and a notification after every
//! turn of a blitz game would only bury the others; nor in a game against
//! the computer, which answers at once.

use serde_json::json;
use virus_wars_rules::Side;

use super::Kind;
use crate::live::LiveGame;
use crate::seat::Table;
use crate::store::{GameResult, NewNote};

/// What a change of `g` to `next` raises (stored with the change, in its
/// transaction).
pub fn raised_by_change(g: &LiveGame, next: &Table, result: Option<GameResult>) -> Vec<NewNote> {
    let over_days = next
        .contest
        .clocks
        .as_ref()
        .is_none_or(|c| c.control.per_turn);
    // Against the computer the player is at the board: it answers at once.
    let computer = g
        .table
        .seats
        .iter()
        .any(|s| matches!(s, crate::seat::Seat::Computer(_)));
    if !over_days || computer || g.waiting() {
        return Vec::new();
    }
    let ended = next.contest.finished() && !g.table.contest.finished();
    // An anonymous player without a chosen name is `null`, not "".
    let name = |side: Side| g.holder(side).name.clone().filter(|n| !n.is_empty());
    let note = |side: Side, kind: Kind, once: bool, body| NewNote {
        account: g.holder(side).account.clone().unwrap_or_default(),
        kind: kind.name(),
        game: g.id.clone(),
        body,
        once,
    };
    let mut notes = Vec::new();
    if ended {
        for side in Side::BOTH {
            let result = result.map_or("", |r| r.for_seat(side));
            notes.push(note(
                side,
                Kind::GameOver,
                false,
                json!({"game": g.id, "opponent": name(!side), "result": result}),
            ));
        }
    } else if !next.contest.finished() {
        let to_move = next.contest.side_to_move();
        if to_move != g.table.contest.side_to_move() && next.contest.seq() > 0 {
            notes.push(note(
                to_move,
                Kind::YourTurn,
                true,
                json!({"game": g.id, "opponent": name(!to_move)}),
            ));
        }
    }
    notes
}
