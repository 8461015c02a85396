//! Why a change of a game was not made, in the game's own terms: the API
//! says it in HTTP (`error.rs`, the one place), a background loop logs it.

use virus_wars_rules::contest::RefusalError;

use crate::store::StoreError;

/// A change of a game that was not made; nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// The rules refused it (a step, an abort, a draw offer), with their reason.
    #[error(transparent)]
    Refused(#[from] RefusalError),
    /// Steps before both seats are taken.
    #[error("the game starts when both seats are taken: wait for the other player to join")]
    WaitingForOpponent,
    /// It lost a race: another change came first (through this process
    /// or another), and the game has been reloaded.
    #[error(
        "the game changed while this request was on its way (another request came first): \
         it has been reloaded, look at it and try again"
    )]
    Changed,
    /// A berserk where none may be: `.0` says where.
    #[error(
        "no berserk in {0}: a seat berserks before its first step in a tournament's timed game"
    )]
    NoBerserk(&'static str),
    /// No game with that id is stored.
    #[error("no game with that id here")]
    NotFound,
    /// The database failed (its words are for the log).
    #[error(transparent)]
    Store(#[from] StoreError),
}
