//! Every integration test of this crate, in one test binary: each file
//! here is a module (one link of the workspace instead of one a file).

mod learn;
mod mcts;
mod players;
mod specs;
