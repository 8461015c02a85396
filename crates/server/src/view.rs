//! What the API shows and takes: the typed bodies behind every route (the
//! OpenAPI document at `/api/openapi.json` is generated from them) and the
//! state of a game as clients see it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use virus_wars_rules::ending::Ending;
use virus_wars_rules::{diagram, Cell, Side, Variant};

/// The state of a game: what `GET /api/games/{id}` answers and what a live
/// socket receives after every change.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameState {
    pub id: String,
    pub variant: VariantInfo,
    /// Every step played, in order. In a fog game while it is played, an
    /// enemy step this viewer did not see land is `?`.
    #[schema(example = json!(["a1", "b2", "c3"]))]
    pub steps: Vec<String>,
    /// Steps played: the number the next steps must be sent with.
    pub seq: u64,
    /// The game's version: one more after every change (a step, an offer,
    /// a seat taken, the computer's turn starting). Of two states of a
    /// game, the one with the higher version is the newer.
    pub version: i64,
    /// The position string (docs/notation.md); `null` in a fog game while
    /// it is played (it would tell every hidden cell).
    pub position: Option<String>,
    /// `x` or `o`: the side to move; `null` once the game is over.
    #[schema(example = "o")]
    pub to_move: Option<String>,
    /// `X to move`, `O to move`, `X wins`, `O wins`, `draw` or `aborted`:
    /// the words of `replay`'s last line (kept for older clients: read
    /// `to_move` and `ending`).
    #[schema(example = "O to move")]
    pub status: String,
    /// How a finished game ended; `null` while it is played.
    pub ending: Option<EndingState>,
    /// The steps the side to move may make now (in a fog game while it is
    /// played, only the mover is told them).
    pub legal: Vec<String>,
    /// The board, top rank first, one character a cell (files from `a`):
    /// `.` empty, `X`/`O` live viruses, `x`/`o` zombies owned by X/O, `#`
    /// trench, `*` obstacle (the position string's letters); `?` a cell
    /// this viewer does not see (fog).
    #[schema(example = json!(["..O", ".X.", "X.."]))]
    pub board: Vec<String>,
    /// Steps the side to move has left in this turn.
    pub steps_left: u8,
    /// The cells of the last turn played (to mark them), whole or not.
    pub last_turn: Vec<String>,
    /// The cells of the last whole turn, in the order played: while a side
    /// plays its turn, the other side's turn before it (what to keep
    /// marked); once the game is over, its last turn.
    pub previous_turn: Vec<String>,
    /// The turns played, numbered and written as records write them:
    /// `1. X a1-b2-c3`.
    pub turns: Vec<String>,
    /// `null` for an untimed game.
    pub clocks: Option<ClockState>,
    /// Who plays each side.
    pub players: BySide<PlayerInfo>,
    /// Whether the game may still be called off (`abort`): before both
    /// sides have made a step.
    pub abortable: bool,
    /// Which seats a person may still take (`join`).
    pub seats_free: BySide<bool>,
    /// Listed in the open games list (and found by quick play).
    /// The result moves both players' ratings (docs/api.md, Ratings).
    pub rated: bool,
    pub listed: bool,
    /// The side whose draw offer stands (`x`/`o`), if any.
    pub draw_offer: Option<String>,
    /// Whether the end rule allows a draw (only then may one be offered).
    pub draws_allowed: bool,
    /// The rematch's game id, once a player asked for one.
    pub rematch: Option<String>,
    /// In a fog game while it is played: whose view this is; `null`
    /// otherwise (once a fog game is over, everyone sees all of it).
    pub fog: Option<FogState>,
}

/// What a fog game's state leaves out, and for whom (docs/rules.md §8).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct FogState {
    /// `x` or `o` (a seat's view, sent with its token or its account's
    /// session), or `watchers`: only what both sides see.
    #[schema(example = "x")]
    pub viewer: String,
    /// Cells this viewer does not see (`?` on the board).
    pub unknown: usize,
    /// Enemy viruses shown from memory: seen before, out of sight now,
    /// and standing there still.
    pub remembered: Vec<String>,
    /// For the seat to move: its view as a view position (the position
    /// string with `?` on the cells it does not see; docs/engine-protocol.md),
    /// what a bot hands its engine; `null` for the other seat and watchers.
    pub view: Option<String>,
    /// For the seat to move: how many enemy pieces stand on hidden cells (a
    /// number it knows, docs/rules.md §8); `null` otherwise.
    pub hidden_enemy_pieces: Option<u64>,
}

/// How a game ended.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct EndingState {
    /// `no_legal_step` (the side to step had none), `annihilation` (a side
    /// lost its last live virus), `two_passes` (a draw), `resignation`,
    /// `time` (a clock ran out, or an untimed game was abandoned),
    /// `agreement` (a draw), or `aborted` (called off: no result).
    #[schema(example = "resignation")]
    pub reason: String,
    /// `x` or `o`; `null` for a draw or an aborted game.
    pub winner: Option<String>,
    /// The ending in English, for logs and bots: `O wins (X resigned)`.
    /// Pages translate `reason` and `winner` instead.
    pub text: String,
}

impl EndingState {
    pub fn of(ending: Option<Ending>, aborted: bool) -> Option<EndingState> {
        if aborted {
            return Some(EndingState {
                reason: "aborted".into(),
                winner: None,
                text: "aborted".into(),
            });
        }
        ending.map(|e| EndingState {
            reason: e.reason.code().into(),
            winner: match e.outcome {
                virus_wars_rules::Outcome::Win(s) => Some(side_name(s)),
                virus_wars_rules::Outcome::Draw => None,
            },
            text: e.to_string(),
        })
    }
}

/// A game as a player's lists show it, from that player's side.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PlayedGame {
    pub id: String,
    pub variant: VariantInfo,
    /// `3+2` (minutes + seconds), `1d/turn`, or `null` untimed.
    pub time_control: Option<String>,
    /// The same as fields, for a page to say in its own language; `null`
    /// untimed.
    pub clock: Option<TimeControlInfo>,
    pub rated: bool,
    /// The rating category, for a game with a clock.
    pub category: Option<String>,
    /// The player's side, `x` or `o`.
    pub side: String,
    pub opponent: PlayerInfo,
    /// `won`, `lost`, `drawn`, `aborted`; `playing` while it goes on.
    pub result: String,
    /// What a rated game did to the player's rating.
    pub rating: Option<RatingMove>,
    pub created_ms: i64,
    pub last_active_ms: i64,
}

#[derive(Clone, Copy, Debug, Serialize, ToSchema)]
pub struct RatingMove {
    pub before: f64,
    pub after: f64,
}

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerInfo {
    /// `human` (a person, or a free seat), `computer` or `bot`.
    #[schema(example = "computer")]
    pub kind: String,
    /// The computer's level, 1 to 9.
    pub level: Option<u8>,
    /// A bot's name, an account's, or the name a person chose.
    pub name: Option<String>,
    /// The seat is held by an account (its player page: `/@/name`).
    pub account: bool,
}

/// A value for each side.
#[derive(Clone, Debug, Serialize, Deserialize, ToSchema)]
pub struct BySide<T> {
    pub x: T,
    pub o: T,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct VariantInfo {
    /// The preset the options match, or `custom`.
    pub preset: String,
    /// Every option, `key=value;…`.
    pub options: String,
    /// The board's width and height, `10x10`.
    #[schema(example = "10x10")]
    pub size: String,
}

#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ClockState {
    /// Fischer: base and increment; correspondence: the time of every turn.
    pub base_s: f64,
    pub inc_s: f64,
    /// Correspondence: days for each turn; `null` for Fischer.
    pub days_per_turn: Option<u64>,
    /// Time left as of the answer (the running clock's counts down).
    pub x_ms: u64,
    pub o_ms: u64,
    /// `x` or `o`; `null` once the game is over.
    pub running: Option<String>,
    /// Before the clocks run (each side's first turn): the time left, as of
    /// the answer, for the side to move to make a first step before the
    /// game is called off; `null` once it has, and once the clocks run.
    pub first_step_ms: Option<u64>,
}

/// A game's time control as fields.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct TimeControlInfo {
    /// Fischer: base and increment, in seconds.
    pub base_s: f64,
    pub inc_s: f64,
    /// Correspondence: days for each turn; `null` for Fischer.
    pub days_per_turn: Option<u64>,
}

impl From<virus_wars_rules::contest::TimeControl> for TimeControlInfo {
    fn from(c: virus_wars_rules::contest::TimeControl) -> TimeControlInfo {
        TimeControlInfo {
            base_s: c.base_ms as f64 / 1000.0,
            inc_s: c.increment_ms as f64 / 1000.0,
            days_per_turn: c.per_turn.then_some(c.base_ms / 86_400_000),
        }
    }
}

/// `POST /api/games`: any variant option (`size`, `steps`, `first`, `start`,
/// `end`, `deathmatch`, `trenches`, `double-base`, `random-bases`,
/// `obstacles`, `seed`, `fog`) may stand beside these fields; `"fog": true`
/// plays it in fog of war (docs/rules.md §8: each seat is shown only its view).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[schema(example = json!({"variant": "classic", "opponent": "human", "side": "x", "clock": {"base_s": 300, "inc_s": 5}}))]
pub struct NewGame {
    /// A preset (`classic`, `classic-pass`, `paper-tactics`, `gcr`,
    /// `iggamecenter`, `feup`, `korobkov`) or `custom`; default `classic`.
    pub variant: Option<String>,
    /// `human` (default) or `level:1` … `level:9`.
    pub opponent: Option<String>,
    /// `x`, `o` or `random` (default).
    pub side: Option<String>,
    /// `null` (untimed), Fischer `{"base_s":300,"inc_s":5}` or correspondence
    /// `{"days_per_turn":3}`.
    pub clock: Option<ClockRequest>,
    /// List the game in the open games list (default false: invite only).
    pub listed: Option<bool>,
    /// The name you go by in this game (up to 20 letters, digits, spaces
    /// and `_ - . '`; none by default), shown to your opponent and watchers.
    /// Logged in, your account's name is shown instead.
    pub name: Option<String>,
    /// A rated game: both seats must be accounts (you logged in), and it
    /// needs a clock; not against the computer. Default false.
    pub rated: Option<bool>,
    /// Variant options.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub options: serde_json::Map<String, serde_json::Value>,
}

/// Taking a seat: the body of `POST /api/games/{id}/join` (may be empty).
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The name you go by in this game (as in a new game's `name`).
    pub name: Option<String>,
}

/// A time control.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Fischer: base time, 1 s to a week.
    pub base_s: Option<f64>,
    /// Fischer: increment per turn, 0 to a day.
    pub inc_s: Option<f64>,
    /// Correspondence: whole days for each turn, 1 to 30.
    pub days_per_turn: Option<u64>,
}

/// A seat taken: keep the token secret, it is the only key to the seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatTaken {
    pub id: String,
    /// `x` or `o`.
    pub seat: String,
    pub token: String,
    /// Opens the game in the browser in this seat (the token travels in the
    /// URL fragment, which is never sent to a server, and is then kept in
    /// the browser).
    pub url: String,
    /// The link for the other player: opens the game and takes its free seat
    /// (or watches it, when none is free). The game's id is the short code.
    pub invite: String,
}

impl SeatTaken {
    /// The answer for `side` of game `id`, with links on the address the
    /// request came to (`Host`; `X-Forwarded-Proto` says https behind a proxy).
    pub fn new(
        headers: &axum::http::HeaderMap,
        id: String,
        side: Side,
        token: String,
    ) -> SeatTaken {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let host = header("host")
            .filter(|h| {
                h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-:[]".contains(c))
            })
            .unwrap_or("localhost");
        let scheme = match header("x-forwarded-proto") {
            Some("https") => "https",
            _ => "http",
        };
        let seat = side_name(side);
        // No token: the account asking holds the seat (a rematch asked
        // with the session cookie), and the game's own link opens it.
        let url = if token.is_empty() {
            format!("{scheme}://{host}/#/game/{id}")
        } else {
            format!("{scheme}://{host}/#/game/{id}/seat/{seat}/{token}")
        };
        SeatTaken {
            url,
            invite: format!("{scheme}://{host}/#/join/{id}"),
            id,
            seat,
            token,
        }
    }
}

/// `POST /api/games/{id}/steps` and a live socket's `steps` message.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StepsRequest {
    /// The game's `seq`: a request sent twice is refused the second time.
    pub seq: u64,
    /// One or more steps of the mover's current turn; all or none are played.
    #[schema(example = json!(["c3", "d4"]))]
    pub steps: Vec<String>,
}

/// Every error: a code to act on and a message to show.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    pub code: crate::code::Code,
    pub message: String,
    /// For `illegal_step`: which step was refused and why, for a client to
    /// say in its own words.
    pub detail: Option<RefusedStep>,
}

/// A refused step: its number in the game, its cell and why (docs/api.md).
#[derive(Debug, Serialize, ToSchema)]
pub struct RefusedStep {
    pub step: u64,
    /// The cell, or `pass`.
    pub cell: String,
    /// `off_board`, `own_virus`, `zombie`, `obstacle`, `not_entry`,
    /// `no_live_group`, `not_accessible`, `turn_over`, `pass_not_allowed`,
    /// `pass_mid_turn`, `game_over`.
    #[schema(example = "not_accessible")]
    pub reason: String,
    /// For `not_entry`: where the first step may go.
    pub entry: Option<String>,
}

/// An entry of the open games list.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenGame {
    pub id: String,
    pub variant: VariantInfo,
    /// The free seat: `x` or `o`.
    pub free_seat: String,
    /// Who waits on the other seat.
    pub waiting: PlayerInfo,
    pub clock: Option<ClockState>,
    pub created_ms: u64,
}

/// The seat a token holds (`GET /api/games/{id}/seat`).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatHeld {
    pub id: String,
    /// `x` or `o`.
    pub seat: String,
}

/// An entry of the list of games to watch.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayingGame {
    pub id: String,
    pub variant: VariantInfo,
    /// Who plays each side.
    pub players: BySide<PlayerInfo>,
    /// Steps played so far.
    pub seq: u64,
    /// `x` or `o`.
    pub to_move: String,
    /// `X to move` or `O to move` (kept for older clients: read `to_move`).
    pub status: String,
    pub clock: Option<ClockState>,
    /// When the game last saw a step (ms since the epoch).
    pub last_active_ms: u64,
}

/// The variant as `key=value;…` text with every option (stored with the game).
pub fn variant_text(v: &Variant) -> String {
    v.options_text()
}

/// The variant as the API shows it. A fog game's seed, which lays out its
/// trenches and random bases, is shown as `seed=hidden`: with it anyone
/// could lay the board out and see every trench (its record, served once
/// the game is over, has it).
pub fn variant_info(v: &Variant) -> VariantInfo {
    let options = if v.hides_layout() {
        v.option_values()
            .iter()
            .map(|(key, _, value)| match *key {
                "seed" => "seed=hidden".to_string(),
                _ => format!("{key}={value}"),
            })
            .collect::<Vec<_>>()
            .join(";")
    } else {
        variant_text(v)
    };
    VariantInfo {
        preset: v
            .preset()
            .map_or("custom".to_string(), |p| p.name().to_string()),
        options,
        size: format!("{}x{}", v.width, v.height),
    }
}

pub fn side_name(s: Side) -> String {
    s.to_string().to_lowercase()
}

/// A fog view's board, top rank first, one letter a cell, `?` where the
/// viewer does not see (`cells` rank-major from a1).
pub fn view_rows(
    cells: &[Option<virus_wars_rules::Content>],
    width: u8,
    height: u8,
) -> Vec<String> {
    let w = width as usize;
    (0..height as usize)
        .rev()
        .map(|rank| {
            (0..w)
                .map(|file| cells[rank * w + file].map_or('?', diagram::letter))
                .collect()
        })
        .collect()
}

/// The board, top rank first, one letter a cell (see [`GameState::board`]).
pub fn board_rows(p: &virus_wars_rules::AnyPosition) -> Vec<String> {
    (0..p.height())
        .rev()
        .map(|rank| {
            (0..p.width())
                .map(|file| diagram::letter(p.content(Cell { file, rank })))
                .collect()
        })
        .collect()
}
