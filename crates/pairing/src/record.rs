//! A tournament's players and games as the server stores them: all that
//! the standings, the Swiss history and the TRF export read.

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentPlayer {
    pub account: String,
    pub name: String,
    pub rating: i64,
    pub joined_ms: i64,
    /// `in` or `paused`.
    pub state: String,
    pub points: i64,
    /// Wins in a row.
    pub streak: i64,
    /// The game it plays now ('' for none).
    pub playing: String,
    pub free_since_ms: i64,
    pub last_opponent: String,
    pub x_balance: i64,
    /// Its pairing number in a Swiss or a round robin, fixed once a round
    /// was paired with it in (0 before).
    pub pairing_number: i64,
}

/// A game of a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    pub game: String,
    pub x_account: String,
    pub o_account: String,
    pub paired_ms: i64,
    pub berserk: [bool; 2],
    pub scored: bool,
    /// `x`, `o`, `draw` or `aborted` once scored.
    pub result: String,
    pub points: [i64; 2],
    /// The round it was paired in (0 in an arena).
    pub round: i64,
}
