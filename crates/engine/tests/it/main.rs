//! Every integration test of the engine, in one test binary.

mod driven;
mod lines;
mod protocol;
