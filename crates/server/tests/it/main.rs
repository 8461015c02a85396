//! Every integration test of this crate, in one test binary: each file
//! here is a module (one link of the workspace instead of one a file).

#[macro_use]
mod common;

mod accounts;
mod analyses;
mod api;
mod bounds;
mod challenges;
mod chat;
mod computer;
mod fog;
mod hardened;
mod hostile;
mod hosting;
mod invariants;
mod lobby;
mod mine;
mod notifications;
mod operator;
mod people;
mod plans;
mod players;
mod presented;
mod push;
mod puzzles;
mod rated;
mod reach;
mod requests;
mod scale;
mod swiss;
mod tournament_edges;
mod tournament_rounds;
mod tournaments;
mod web;
