//! Every integration test of this crate, in one test binary: each file
//! here is a module (one link of the workspace instead of one a file).

mod learn;
mod mcts;
mod players;
mod specs;

use virus_wars_ai::duel::play_out;
use virus_wars_ai::PlayerSpec;
use virus_wars_rules::{Game, Outcome, Preset, Side};

/// A game on the Korobkov board between the players `mine` and `theirs`,
/// `mine` playing X when `mine_first`: how it ended and `mine`'s side.
pub fn korobkov_game(mine: &str, theirs: &str, mine_first: bool) -> (Option<Outcome>, Side) {
    let (m, bm) = mine.parse::<PlayerSpec>().unwrap().build();
    let (t, bt) = theirs.parse::<PlayerSpec>().unwrap().build();
    let mut game = Game::new(Preset::Korobkov.variant()).unwrap();
    let (mut players, budgets, me) = if mine_first {
        ([m, t], [bm, bt], Side::X)
    } else {
        ([t, m], [bt, bm], Side::O)
    };
    play_out(&mut game, &mut players, budgets).unwrap();
    (game.outcome(), me)
}
