//! A game as stored: its row, its steps, and what changes while it is
//! played.

use sqlx::any::AnyRow;
use sqlx::Row;

/// A clock as stored: base and increment in ms, and whether the base is
/// per turn (correspondence).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoredClock {
    pub base_ms: i64,
    pub increment_ms: i64,
    pub per_turn: bool,
}

/// A game's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub start_position: String,
    pub players: [String; 2],
    pub token_hashes: [String; 2],
    /// The name each person chose for their seat, or the account's ('' for none).
    pub names: [String; 2],
    /// The account holding each seat ('' for none).
    pub accounts: [String; 2],
    /// The result moves both accounts' ratings.
    pub rated: bool,
    /// The variant's rating family (`classic`, …, `other`).
    pub family: String,
    pub clock: Option<StoredClock>,
    pub listed: bool,
    pub created_ms: i64,
    /// Bumped by every change: a write names the version it read.
    pub version: i64,
    /// The game this one is the rematch of ('' for none).
    pub rematch_of: String,
    /// Quick play's seeker who listed it ('' for a game made otherwise).
    pub seeker: String,
    pub progress: Progress,
}

/// A stored step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRow {
    pub seq: i64,
    pub step: String,
    pub played_ms: i64,
}

/// What changes during a game: the clocks, the ending, offers, the
/// rematch, the time of the last change, and what the server's watchers
/// look for (when the game ends unless someone acts, whether the computer
/// is to move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub left_ms: [i64; 2],
    /// When the turn in progress started (ms since the Unix epoch).
    pub turn_started_ms: i64,
    pub declared: String,
    pub declared_side: String,
    pub finished: bool,
    /// 'x', 'o' or ''.
    pub draw_offer: String,
    pub rematch_id: String,
    pub last_active_ms: i64,
    /// When the game ends unless someone acts (ms since the Unix epoch).
    pub deadline_ms: i64,
    pub computer_to_move: bool,
    /// Whose move it is, `x` or `o`; '' once finished.
    pub to_move: String,
    /// Once finished: 'x' or 'o' (the winner), 'draw' or 'aborted'; '' before.
    pub result: String,
    /// Written with the change that ends a rated game: what it does to
    /// both ratings (not a column).
    pub rated_end: Option<super::RatedEnd>,
}

/// A deadline that never comes (finished games).
pub const NEVER: i64 = i64::MAX / 2;

pub(super) fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let base: i64 = r.try_get("clock_base_ms")?;
    let inc: i64 = r.try_get("clock_inc_ms")?;
    let per_turn = r.try_get::<i64, _>("clock_per_turn")? != 0;
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        start_position: r.try_get("start_position")?,
        players: [r.try_get("x_player")?, r.try_get("o_player")?],
        token_hashes: [r.try_get("x_token")?, r.try_get("o_token")?],
        names: [r.try_get("x_name")?, r.try_get("o_name")?],
        accounts: [r.try_get("x_account")?, r.try_get("o_account")?],
        rated: r.try_get::<i64, _>("rated")? != 0,
        family: r.try_get("family")?,
        clock: (base >= 0).then_some(StoredClock {
            base_ms: base,
            increment_ms: inc,
            per_turn,
        }),
        listed: r.try_get::<i64, _>("listed")? != 0,
        created_ms: r.try_get("created_ms")?,
        version: r.try_get("version")?,
        rematch_of: r.try_get("rematch_of")?,
        seeker: r.try_get("seeker")?,
        progress: Progress {
            left_ms: [r.try_get("x_left_ms")?, r.try_get("o_left_ms")?],
            turn_started_ms: r.try_get("turn_started_ms")?,
            declared: r.try_get("declared")?,
            declared_side: r.try_get("declared_side")?,
            finished: r.try_get::<i64, _>("finished")? != 0,
            draw_offer: r.try_get("draw_offer")?,
            rematch_id: r.try_get("rematch_id")?,
            last_active_ms: r.try_get("last_active_ms")?,
            deadline_ms: r.try_get("deadline_ms")?,
            computer_to_move: r.try_get::<i64, _>("computer_to_move")? != 0,
            to_move: r.try_get("to_move")?,
            result: r.try_get("result")?,
            rated_end: None,
        },
    })
}
