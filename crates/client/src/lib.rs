//! Clients of the server, over its HTTP API and live sockets only: `bot`
//! plays a registered bot's games with any engine (`virus-wars bot`),
//! `loadtest` plays many games at once against one or several server
//! processes (`virus-wars loadtest`). Nothing here is part of the server.

pub mod bot;
pub mod http;
pub mod loadtest;
