//! The notifications a game's change raises: `your_turn` to the player
//! whose turn it now is, `game_over` to both players. Only in games played
//! over days (a correspondence clock, or none): a real-time game is played
//! at its board, with its clock running, and a notification after every
//! turn of a blitz game would only bury the others; nor in a game against
//! the computer, which answers at once.

use serde_json::json;
use virus_wars_rules::Side;

use super::{Kind, Raiser};
use crate::live::LiveGame;
use crate::seat::Table;
use crate::store::GameResult;
use crate::App;

/// After `g` changed to `next` (stored): raises what the change calls for,
/// on a task of its own (the step's answer waits for none of it).
pub fn after_change(app: &App, g: &LiveGame, next: &Table, result: Option<GameResult>) {
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
        return;
    }
    let ended = next.contest.finished() && !g.table.contest.finished();
    let name = |side: Side| g.holder(side).name.clone().unwrap_or_default();
    let account = |side: Side| g.holder(side).account.clone().unwrap_or_default();
    let mut notes = Vec::new();
    if ended {
        for side in Side::BOTH {
            let result = result.map_or("", |r| r.for_seat(side));
            notes.push((
                account(side),
                Kind::GameOver,
                false,
                json!({"game": g.id, "opponent": name(!side), "result": result}),
            ));
        }
    } else if !next.contest.finished() {
        let to_move = next.contest.side_to_move();
        if to_move != g.table.contest.side_to_move() && next.contest.seq() > 0 {
            notes.push((
                account(to_move),
                Kind::YourTurn,
                true,
                json!({"game": g.id, "opponent": name(!to_move)}),
            ));
        }
    }
    if notes.is_empty() {
        return;
    }
    let raiser = Raiser::of(app);
    let (game, now) = (g.id.clone(), app.clock.now_ms() as i64);
    tokio::spawn(async move {
        for (account, kind, once, body) in notes {
            raiser.raise(&account, kind, &game, body, now, once).await;
        }
    });
}
