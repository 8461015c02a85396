//! The notifications a game's change raises: `your_turn` to the player
//! whose turn it now is, `game_over` to both players. In games played over
//! days (a correspondence clock, or none) always; in a real-time game only
//! to a player whose page of the game is not open (no socket of its seat
//! on this process): one at the board needs none, and one after every turn
//! of a blitz game would bury the others. Never in a game against the
//! computer, which answers at once.

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
    if computer || g.waiting() {
        return Vec::new();
    }
    // Who is told: everyone over days; in real time, who is not at the board.
    let away = |side: Side| {
        over_days || g.at_board[side.index()].load(std::sync::atomic::Ordering::Relaxed) == 0
    };
    let ended = next.contest.finished() && !g.table.contest.finished();
    // An anonymous player without a chosen name is `null`, not "".
    let name = |side: Side| g.holder(side).name.clone().filter(|n| !n.is_empty());
    let note = |side: Side, kind: Kind, once: bool, body| NewNote {
        account: g.holder(side).account.clone().unwrap_or_default(),
        kind: kind.name(),
        game: g.id.clone(),
        body,
        once,
        read: false,
    };
    let mut notes = Vec::new();
    if ended {
        for side in Side::BOTH.into_iter().filter(|s| away(*s)) {
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
        if to_move != g.table.contest.side_to_move() && next.contest.seq() > 0 && away(to_move) {
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
