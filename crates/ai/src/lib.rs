//! Players that choose steps: random, greedy, alpha-beta, MCTS and a
//! whole-turn search, with the
//! evaluation they share, budgets and time control, and a search that runs
//! on its own thread so that no caller ever blocks. Nothing here knows about
//! terminals, sockets or processes.

pub mod alphabeta;
pub mod arena;
pub mod budget;
pub mod duel;
pub mod eval;
pub mod fog;
pub mod greedy;
#[cfg(feature = "train")]
pub mod learn;
pub mod levels;
pub mod lines;
pub mod mcts;
pub mod neural;
pub mod player;
pub mod protocol;
pub mod puzzles;
pub mod random;
pub mod review;
pub mod score;
pub mod search;
pub mod slips;
pub mod solve;
pub mod spec;
pub mod table;
#[cfg(test)]
mod testing;
pub mod thinking;
pub mod tt;
pub mod tune;
pub mod turns;

pub use budget::{Budget, Clock};
pub use player::Player;
pub use search::{SearchInfo, SearchResult, StopFlag};
pub use spec::{PlayerSpec, SpecError};
pub use table::{Seat, Sitting, Table};
pub use thinking::SearchHandle;
