//! `POST /api/replay`: a game step by step, for the analysis board: every
//! position from the start (a record, a position string or a variant) with
//! what a board view needs to draw it. The rules stay on the server.

use axum::extract::rejection::JsonRejection;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use virus_wars_rules::ending::Ending;
use virus_wars_rules::fog::{Known, Sight, Viewer};
use virus_wars_rules::{position_string, record, AnyPosition, Game, Side, Variant};

use super::body;
use super::error::ApiError;
use super::games::parse_steps;
use super::refusals::RateLimited;
use super::{limit, Limited};
use crate::games::settings::settings;
use crate::view::{self, ErrorBody, NewGame};

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"record": "[Variant \"classic\"]\n\n1. a1-b2-c3 j10-i9-h8\n"}))]
pub struct ReplayRequest {
    /// A game record (docs/notation.md); or else:
    pub record: Option<String>,
    /// a position string to start from (or the variant's start), and
    pub position: Option<String>,
    /// the steps played from it.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Fog of war (docs/rules.md §8): every frame as this side saw it then
    /// (`x`, `o`, or `watchers`: what both saw), `?` on the cells it did
    /// not see and for the steps it did not see land.
    pub view: Option<String>,
    /// The first frame to send (its `seq`; default 0): the `next` of the
    /// answer before, for a game whose frames take more than one answer.
    pub from: Option<u64>,
    /// The variant and its options, without a record or a position.
    #[serde(flatten)]
    pub game: NewGame,
}

/// One position of the game.
#[derive(Debug, Serialize, ToSchema)]
pub struct Frame {
    /// Steps played to reach it.
    pub seq: u64,
    /// The step that led here (`null` at the start).
    pub step: Option<String>,
    pub position: String,
    /// As in the game state: top rank first, one letter a cell.
    pub board: Vec<String>,
    pub legal: Vec<String>,
    /// `x` or `o`; `null` once the game is over.
    pub to_move: Option<String>,
    /// `X to move`, `X wins`, … (kept for older clients: read `to_move` and `ending`).
    pub status: String,
    /// How the board ended the game here, if it did.
    pub ending: Option<view::EndingState>,
    pub steps_left: u8,
    /// The turn this position is in, counted from 1 (X's first turn is 1,
    /// O's first 2, …).
    pub turn: u32,
    /// No step of the side to move's turn is made yet: the step that led
    /// here (if any) ended a turn. Where a turn ends is the rules' to say;
    /// a client never works it out from `to_move`.
    pub turn_start: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Replay {
    /// From the frame asked for (`from`), as many as fit in one answer.
    pub frames: Vec<Frame>,
    /// The `seq` of the first frame left out: ask again with `from` set to
    /// it for the rest; `null` when the answer reaches the game's end.
    pub next: Option<u64>,
    /// The game is played in fog of war: its frames may be asked for as
    /// each side saw them (`view`).
    pub fog: bool,
    /// How the record says the game ended, if it ended off the board
    /// (resignation, time, agreement).
    pub declared: Option<view::EndingState>,
}

pub(super) fn frame(p: &AnyPosition, seq: u64, step: Option<String>) -> Frame {
    let ending = Ending::of_position(p);
    Frame {
        seq,
        step,
        position: position_string::write(p),
        board: view::board_rows(p),
        legal: if ending.is_some() {
            Vec::new()
        } else {
            p.legal_steps().iter().map(|s| s.to_string()).collect()
        },
        to_move: ending.is_none().then(|| view::side_name(p.side())),
        status: match ending {
            Some(e) => e.outcome.to_string(),
            None => format!("{} to move", p.side()),
        },
        ending: view::EndingState::of(ending, false),
        steps_left: p.steps_left(),
        turn: p.turn() + 1,
        turn_start: p.at_turn_start(),
    }
}

/// Every position of a game, for stepping through it.
#[utoipa::path(post, path = "/api/replay", tag = "analysis", request_body = ReplayRequest,
    responses(
        (status = 200, body = Replay),
        (status = 400, description = "A record, position, step or variant that does not read", body = ErrorBody),
        (status = 422, description = "`illegal_step`", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn replay(
    Limited { app, client, .. }: Limited,
    request: Result<Json<ReplayRequest>, JsonRejection>,
) -> Result<Json<Replay>, ApiError> {
    limit(&app.limits.replay_bytes, client, "replayed bytes")?;
    let r = body(request)?;
    let bad = |m: String| ApiError::bad_request(m);
    let (start, steps, declared) = match (&r.record, &r.position) {
        (Some(text), None) => {
            if !r.moves.is_empty() || r.game.variant.is_some() || !r.game.options.is_empty() {
                return Err(bad(
                    "a record holds its variant and steps: send it alone".into()
                ));
            }
            let rec = record::read(text).map_err(|e| bad(format!("record: {e}")))?;
            let declared = rec
                .ending()
                .filter(|e| Ending::of_position(rec.game.position()) != Some(*e));
            let steps: Vec<_> = rec.game.steps().to_vec();
            // The record's game taken back to its start: its variant (with
            // a layout of trenches or bases, which no game from a bare
            // position may have) and its start stay as the record says.
            let mut start = rec.game.clone();
            while start.undo_step().is_some() {}
            (start, steps, view::EndingState::of(declared, false))
        }
        (None, Some(text)) => {
            if r.game.variant.is_some() || !r.game.options.is_empty() {
                return Err(bad(
                    "give a position or a variant, not both: the position string holds the variant"
                        .into(),
                ));
            }
            let p = position_string::read(text).map_err(|e| bad(format!("position: {e}")))?;
            let game =
                Game::from_position(Variant::of_position(&p), p).map_err(|e| bad(e.to_string()))?;
            (game, parse_steps(&r.moves)?, None)
        }
        (None, None) => {
            let game = Game::new(settings(&r.game)?.variant).map_err(|e| bad(e.to_string()))?;
            (game, parse_steps(&r.moves)?, None)
        }
        (Some(_), Some(_)) => return Err(bad("send a record or a position, not both".into())),
    };
    let viewer = match r.view.as_deref() {
        None => None,
        Some("x") => Some(Viewer::Player(Side::X)),
        Some("o") => Some(Viewer::Player(Side::O)),
        Some("watchers") => Some(Viewer::Watcher),
        Some(other) => return Err(bad(format!("view is x, o or watchers, not '{other}'"))),
    };
    let from = r.from.unwrap_or(0);
    if from > steps.len() as u64 {
        return Err(bad(format!(
            "from: the game has frames 0 to {}, not {from}",
            steps.len()
        )));
    }
    // Every step is played (and judged); frames are made from `from` on,
    // until the answer holds MAX_BYTES.
    let mut game = start;
    let mut frames = Vec::new();
    let mut bytes = 0;
    let mut next = None;
    let mut add = |p: &AnyPosition, seq: u64, step: Option<String>| {
        if seq < from || next.is_some() {
            return;
        }
        if bytes >= MAX_BYTES {
            next = Some(seq);
            return;
        }
        let f = frame(p, seq, step);
        bytes += serde_json::to_vec(&f).map_or(0, |v| v.len());
        frames.push(f);
    };
    add(game.position(), 0, None);
    for (k, step) in steps.into_iter().enumerate() {
        game.play(step)
            .map_err(|e| ApiError::illegal_step(k as u64 + 1, &step, &e))?;
        add(game.position(), k as u64 + 1, Some(step.to_string()));
    }
    if let Some(viewer) = viewer {
        as_seen(&game, &mut frames, viewer);
    }
    // The answer is charged its size before it is sent: one the client's
    // allowance cannot pay now is refused, saying how long to wait.
    app.limits
        .replay_bytes
        .charge(client, bytes as u64)
        .map_err(|wait| ApiError::rate_limited("replayed bytes", wait))?;
    let fog = game.variant().fog;
    Ok(Json(Replay {
        frames,
        next,
        declared,
        fog,
    }))
}

/// Most bytes of frames one answer holds (it holds one frame at least).
pub const MAX_BYTES: usize = 256 * 1024;

/// `frames` (of `game`, one a step from its start) as `viewer` saw each
/// position then: the cells it did not see and the steps it did not see
/// land as `?`; a frame where the game is over shows all.
fn as_seen(game: &Game, frames: &mut [Frame], viewer: Viewer) {
    let known = Known::of_game(game);
    let mut p = *game.start();
    let mut sight = Sight::start(&p);
    let mut frames = frames.iter_mut().peekable();
    for k in 0..=game.steps().len() {
        if k > 0 {
            if p.play(game.steps()[k - 1]).is_err() {
                return;
            }
            sight.look(&p);
        }
        let Some(f) = frames.next_if(|f| f.seq == k as u64) else {
            continue;
        };
        if k > 0 && !known.step_seen(viewer, k - 1) {
            f.step = Some("?".into());
        }
        if p.outcome().is_some() {
            continue;
        }
        f.board = view::view_rows(&sight.cells(&p, viewer), p.width(), p.height());
    }
}
