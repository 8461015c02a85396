//! One game between two in-process players: the simplest match, used by
//! tests, tuning and the arena's built-in players.

use virus_wars_rules::contest::{Contest, RefusalError};
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
/// its budget. Each answer goes to the referee ([`Contest::play`]) as one
/// turn: all of it or nothing; a step the rules refuse, or one after the
/// turn (or the game) ended, forfeits the game.
pub fn play_out(
    game: &mut Game,
    players: &mut [Box<dyn Player>; 2],
    budgets: [Budget; 2],
) -> Result<(), Forfeit> {
    let stop = StopFlag::new();
    let mut contest = Contest::new(game.clone(), None);
    let result = (|| {
        while contest.game.outcome().is_none() {
            let side = contest.side_to_move();
            let k = side.index();
            let answer =
                players[k].choose(contest.game.position(), &budgets[k], &stop, &mut |_| {});
            if answer.steps.is_empty() {
                return Err(Forfeit::NoStep { side });
            }
            contest
                .play(side, contest.seq(), &answer.steps, 0)
                .map_err(|e| Forfeit::Illegal {
                    side,
                    step: refused_step(&e).unwrap_or(answer.steps[0]),
                    reason: e.to_string(),
                })?;
        }
        Ok(())
    })();
    *game = contest.game;
    result
}

/// The step a refusal names, if it names one.
pub fn refused_step(e: &RefusalError) -> Option<Step> {
    match e {
        RefusalError::Illegal { step, .. } | RefusalError::PastTurn { step, .. } => Some(*step),
        _ => None,
    }
}
