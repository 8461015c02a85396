//! Every integration test of this crate, in one test binary: each file
//! here is a module (one link of the workspace instead of one a file).

#[macro_use]
mod common;

mod consistency;
mod perft_vectors;
mod properties;
mod record;
mod rules_examples;
