//! Games: a new game's settings checked ([`settings`]) and the game made,
//! stored and held ([`create`]), whoever asks for it (a person, quick
//! play, a challenge, a rematch, a tournament's pairing).

pub mod create;
pub mod settings;
