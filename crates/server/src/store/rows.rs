//! A game as stored: its row, its steps, and what changes while it is
//! played.

use sqlx::any::AnyRow;
use sqlx::Row;
use virus_wars_rules::Side;

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
    /// Who holds each seat, X's then O's.
    pub holders: [Holder; 2],
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
    /// The record's Termination words for an ending off the board
    /// (`resignation`, `time`, …), `aborted`, or '' for none.
    pub declared: String,
    /// The side that lost by that ending (none for a draw).
    pub declared_side: Option<Side>,
    pub finished: bool,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// The rematch this game led to.
    pub rematch_id: Option<String>,
    pub last_active_ms: i64,
    /// When the game ends unless someone acts (ms since the Unix epoch).
    pub deadline_ms: i64,
    pub computer_to_move: bool,
    /// Whose move it is; none once finished.
    pub to_move: Option<Side>,
    /// How it ended; none before.
    pub result: Option<GameResult>,
    /// Written with the change that ends a rated game: what it does to
    /// both ratings (not a column).
    pub rated_end: Option<super::RatedEnd>,
}

/// Who holds a seat: the token that plays it, the name it plays under
/// and its account, each none until there is one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    /// SHA-256 of the seat's token; none while the seat is free.
    pub token_hash: Option<String>,
    /// The name the person chose for the seat, or the account's.
    pub name: Option<String>,
    /// The account holding the seat.
    pub account: Option<String>,
}

impl Holder {
    /// From columns and requests, where '' says none.
    pub fn new(token_hash: &str, name: &str, account: &str) -> Holder {
        let some = |t: &str| (!t.is_empty()).then(|| t.to_string());
        Holder {
            token_hash: some(token_hash),
            name: some(name),
            account: some(account),
        }
    }

    /// Whether account `id` holds the seat.
    pub fn is_account(&self, id: &str) -> bool {
        self.account.as_deref() == Some(id)
    }

    /// Whether the token of SHA-256 `hash` plays the seat.
    pub fn is_token(&self, hash: &str) -> bool {
        self.token_hash.as_deref() == Some(hash)
    }

    /// Whether a token plays the seat (someone took it).
    pub fn seated(&self) -> bool {
        self.token_hash.is_some()
    }
}

/// An optional text as its column holds it ('' for none).
pub fn column(text: &Option<String>) -> &str {
    text.as_deref().unwrap_or("")
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Won(Side),
    Drawn,
    /// Called off: nobody won or lost.
    Aborted,
}

impl GameResult {
    /// As the `result` column holds it: the winner (`x`, `o`), `draw` or
    /// `aborted`.
    pub fn column(self) -> &'static str {
        match self {
            GameResult::Won(side) => side_column(Some(side)),
            GameResult::Drawn => "draw",
            GameResult::Aborted => "aborted",
        }
    }

    /// The `result` column read back ('' for a game being played).
    pub fn from_column(text: &str) -> Option<GameResult> {
        match text {
            "draw" => Some(GameResult::Drawn),
            "aborted" => Some(GameResult::Aborted),
            other => side_from_column(other).map(GameResult::Won),
        }
    }

    /// What it was for the player in seat `seat`.
    pub fn for_seat(self, seat: Side) -> &'static str {
        match self {
            GameResult::Won(side) if side == seat => "won",
            GameResult::Won(_) => "lost",
            GameResult::Drawn => "drawn",
            GameResult::Aborted => "aborted",
        }
    }
}

/// A side as columns hold it: `x`, `o`, or '' for none.
pub fn side_column(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::X) => "x",
        Some(Side::O) => "o",
        None => "",
    }
}

/// A side column read back.
pub fn side_from_column(text: &str) -> Option<Side> {
    match text {
        "x" => Some(Side::X),
        "o" => Some(Side::O),
        _ => None,
    }
}

/// A deadline that never comes (finished games).
pub const NEVER: i64 = i64::MAX / 2;

/// Who holds a seat, from its columns (`x_token`, `x_name`, `x_account`,
/// or O's).
fn holder(r: &AnyRow, [token, name, account]: [&str; 3]) -> Result<Holder, sqlx::Error> {
    let text = |column: &str| r.try_get::<String, _>(column);
    Ok(Holder::new(&text(token)?, &text(name)?, &text(account)?))
}

pub(super) fn game_row(r: &AnyRow) -> Result<GameRow, sqlx::Error> {
    let base: i64 = r.try_get("clock_base_ms")?;
    let inc: i64 = r.try_get("clock_inc_ms")?;
    let per_turn = r.try_get::<i64, _>("clock_per_turn")? != 0;
    Ok(GameRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        start_position: r.try_get("start_position")?,
        players: [r.try_get("x_player")?, r.try_get("o_player")?],
        holders: [
            holder(r, ["x_token", "x_name", "x_account"])?,
            holder(r, ["o_token", "o_name", "o_account"])?,
        ],
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
            declared_side: side_from_column(&r.try_get::<String, _>("declared_side")?),
            finished: r.try_get::<i64, _>("finished")? != 0,
            draw_offer: side_from_column(&r.try_get::<String, _>("draw_offer")?),
            rematch_id: Some(r.try_get::<String, _>("rematch_id")?).filter(|id| !id.is_empty()),
            last_active_ms: r.try_get("last_active_ms")?,
            deadline_ms: r.try_get("deadline_ms")?,
            computer_to_move: r.try_get::<i64, _>("computer_to_move")? != 0,
            to_move: side_from_column(&r.try_get::<String, _>("to_move")?),
            result: GameResult::from_column(&r.try_get::<String, _>("result")?),
            rated_end: None,
        },
    })
}
