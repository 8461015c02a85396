//! One game between two in-process players: the simplest match, used by
//! tests, tuning and the arena's built-in players.

use virus_wars_rules::{Game, Side, Step};

use crate::budget::Budget;
use crate::player::Player;
use crate::search::StopFlag;

/// Why a player lost without the board deciding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    #[error("{side} played an illegal step {step}: {reason}")]
    Illegal {
        side: Side,
        step: Step,
        reason: String,
    },
    #[error("{side} returned no step although the game is not over")]
    NoStep { side: Side },
}

/// Plays `game` to its end: `players[0]` is X, `players[1]` is O, each with
/// its budget. A turn cut off mid-way by the end of the game is fine.
pub fn play_out(
    game: &mut Game,
    players: &mut [Box<dyn Player>; 2],
    budgets: [Budget; 2],
) -> Result<(), Forfeit> {
    let stop = StopFlag::new();
    while game.outcome().is_none() {
        let side = game.position().side();
        let k = side.index();
        let result = players[k].choose(game.position(), &budgets[k], &stop, &mut |_| {});
        if result.steps.is_empty() {
            return Err(Forfeit::NoStep { side });
        }
        for step in result.steps {
            if game.outcome().is_some() || game.position().side() != side {
                break;
            }
            game.play(step).map_err(|e| Forfeit::Illegal {
                side,
                step,
                reason: e.to_string(),
            })?;
        }
    }
    Ok(())
}
