//! Every integration test of this crate, in one test binary: each file
//! here is a module (one link of the workspace instead of one a file).

#[macro_use]
mod common;

mod admin;
mod arena;
mod backup;
mod bots;
mod cli;
mod loadtest;
mod output_faults;
mod play;
mod play_terminal;
mod serve;
mod service;
mod settings;
mod stopping;
mod tls_proxy;
mod train;
