//! What the API shows and takes: the typed bodies behind every route (the
//! OpenAPI document at `/api/openapi.json` is generated from them) and the
//! state of a game as clients see it.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use virus_wars_rules::notation::format_turn;
use virus_wars_rules::{diagram, position_string, Cell, Side, Variant};

use crate::live::{LiveGame, Player};

/// The state of a game: what `GET /api/games/{id}` answers and what a live
/// socket receives after every change.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameState {
    pub id: String,
    pub variant: VariantInfo,
    /// Every step played, in order.
    #[schema(example = json!(["a1", "b2", "c3"]))]
    pub steps: Vec<String>,
    /// Steps played: the number the next steps must be sent with.
    pub seq: u64,
    /// The position string (docs/notation.md).
    pub position: String,
    /// `X to move`, `O to move`, `X wins`, `O wins`, `draw` or `aborted`:
    /// the words of `replay`'s last line.
    #[schema(example = "O to move")]
    pub status: String,
    /// Why a finished game ended (`O has no legal step`, `X resigned`, …).
    pub ending: Option<String>,
    /// The steps the side to move may make now.
    pub legal: Vec<String>,
    /// The board, top rank first, one character a cell (files from `a`):
    /// `.` empty, `X`/`O` live viruses, `x`/`o` zombies owned by X/O, `#`
    /// trench, `*` obstacle (the position string's letters).
    #[schema(example = json!(["..O", ".X.", "X.."]))]
    pub board: Vec<String>,
    /// Steps the side to move has left in this turn.
    pub steps_left: u8,
    /// The cells of the last turn played (to mark them).
    pub last_turn: Vec<String>,
    /// The turns played, numbered and written as records write them:
    /// `1. X a1-b2-c3`.
    pub turns: Vec<String>,
    /// `null` for an untimed game.
    pub clocks: Option<ClockState>,
    /// `human`, `bot:NAME` or a computer level (`level:3`) on each side.
    pub players: BySide<String>,
    /// Which seats a person may still take (`join`).
    pub seats_free: BySide<bool>,
    /// Listed in the open games list (and found by quick play).
    pub listed: bool,
    /// The side whose draw offer stands (`x`/`o`), if any.
    pub draw_offer: Option<String>,
    /// Whether the end rule allows a draw (only then may one be offered).
    pub draws_allowed: bool,
    /// The rematch's game id, once a player asked for one.
    pub rematch: Option<String>,
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
}

/// `POST /api/games`: any variant option (`size`, `steps`, `first`, `start`,
/// `end`, `deathmatch`, `trenches`, `double-base`, `random-bases`,
/// `obstacles`, `seed`) may stand beside these fields.
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
    /// Variant options.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub options: serde_json::Map<String, serde_json::Value>,
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
        SeatTaken {
            url: format!("{scheme}://{host}/#/game/{id}/seat/{seat}/{token}"),
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
    #[schema(example = "stale_seq")]
    pub code: String,
    pub message: String,
}

/// An entry of the open games list.
#[derive(Debug, Serialize, ToSchema)]
pub struct OpenGame {
    pub id: String,
    pub variant: VariantInfo,
    /// The free seat: `x` or `o`.
    pub free_seat: String,
    /// Who waits on the other seat (`human`, `bot:NAME`).
    pub waiting: String,
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
    /// Who plays each side (`human`, `bot:NAME`, `level:3`).
    pub players: BySide<String>,
    /// Steps played so far.
    pub seq: u64,
    /// `X to move` or `O to move`.
    pub status: String,
    pub clock: Option<ClockState>,
    /// When the game last saw a step (ms since the epoch).
    pub last_active_ms: u64,
}

/// The variant as `key=value;…` text with every option (stored with the game).
pub fn variant_text(v: &Variant) -> String {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let obstacles: Vec<String> = v.obstacles.iter().map(|c| c.to_string()).collect();
    let obstacles = if obstacles.is_empty() {
        "-".to_string()
    } else {
        obstacles.join(" ")
    };
    format!(
        "size={}x{};steps={};first={};start={};end={};deathmatch={};trenches={};double-base={};random-bases={};obstacles={};seed={}",
        v.width, v.height, v.rules.steps_per_turn, v.rules.first_turn_steps, v.rules.start,
        v.rules.end, yes(v.rules.deathmatch), v.trench_percent, yes(v.double_base),
        yes(v.random_bases), obstacles, v.seed
    )
}

pub fn variant_info(v: &Variant) -> VariantInfo {
    VariantInfo {
        preset: v
            .preset()
            .map_or("custom".to_string(), |p| p.name().to_string()),
        options: variant_text(v),
    }
}

pub fn side_name(s: Side) -> String {
    s.to_string().to_lowercase()
}

/// The clocks of `g` as of `now`.
pub fn clock_state(g: &LiveGame, now: u64) -> Option<ClockState> {
    let c = &g.contest;
    c.clocks.map(|k| {
        // No clock runs before both seats are taken, nor after the end.
        let mover = (!c.finished() && !g.waiting()).then(|| c.side_to_move());
        let left = |s: Side| match mover {
            Some(m) => k.left_at(s, m, now),
            None => k.left_ms[s.index()],
        };
        ClockState {
            base_s: k.control.base_ms as f64 / 1000.0,
            inc_s: k.control.increment_ms as f64 / 1000.0,
            days_per_turn: k.control.per_turn.then_some(k.control.base_ms / 86_400_000),
            x_ms: left(Side::X),
            o_ms: left(Side::O),
            running: mover.map(side_name),
        }
    })
}

/// Whether a person may take `side`'s seat.
pub fn seat_free(g: &LiveGame, side: Side) -> bool {
    g.players[side.index()] == Player::Human && g.token_hashes[side.index()].is_empty()
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

/// The game as the API shows it.
pub fn state(g: &LiveGame, now: u64) -> GameState {
    let c = &g.contest;
    let p = c.game.position();
    let status = match (c.aborted(), c.ending()) {
        (true, _) => "aborted".to_string(),
        (false, Some(e)) => e.outcome.to_string(),
        (false, None) => format!("{} to move", p.side()),
    };
    let legal = if c.finished() {
        Vec::new()
    } else {
        p.legal_steps().iter().map(|s| s.to_string()).collect()
    };
    let board = board_rows(p);
    let last_turn = c.game.turns().last().map_or_else(Vec::new, |t| {
        t.steps.iter().map(|s| s.to_string()).collect()
    });
    GameState {
        id: g.id.clone(),
        variant: variant_info(&g.variant),
        steps: c.game.steps().iter().map(|s| s.to_string()).collect(),
        seq: c.seq(),
        position: position_string::write(p),
        status,
        ending: c.ending().map(|e| e.reason.to_string()),
        legal,
        board,
        steps_left: p.steps_left(),
        last_turn,
        turns: c
            .game
            .turns()
            .iter()
            .enumerate()
            .map(|(k, t)| format!("{}. {} {}", k + 1, t.side, format_turn(&t.steps)))
            .collect(),
        clocks: clock_state(g, now),
        players: BySide {
            x: g.players[0].name(),
            o: g.players[1].name(),
        },
        seats_free: BySide {
            x: seat_free(g, Side::X),
            o: seat_free(g, Side::O),
        },
        listed: g.listed,
        draw_offer: g.draw_offer.map(side_name),
        draws_allowed: c.draws_allowed(),
        rematch: g.rematch.clone(),
    }
}

/// The live socket's message for a state.
pub fn state_message(state: &GameState) -> String {
    #[derive(Serialize)]
    struct Message<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(flatten)]
        state: &'a GameState,
    }
    serde_json::to_string(&Message {
        kind: "state",
        state,
    })
    .unwrap_or_default()
}
