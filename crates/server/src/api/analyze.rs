//! `POST /api/analyze`: the computer's view of a position — the best rest
//! of the turn, the win probability and the expected line — thought on the
//! computer pool with a capped player and time. Rate-limited.

use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use virus_wars_ai::{score, PlayerSpec};
use virus_wars_rules::{position_string, Game, Variant};

use super::body;
use super::error::ApiError;
use super::games::parse_steps;
use super::refusals::RateLimited;
use super::{limit, Caller};
use crate::code::Code;
use crate::games::settings::{settings, time_control};
use crate::view::{self, ErrorBody, NewGame};

/// The longest an analysis may think.
pub const MAX_ANALYZE: Duration = Duration::from_secs(5);

#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"variant": "classic", "moves": ["a1", "b2", "c3"], "player": "level:6", "time_ms": 1000}))]
pub struct AnalyzeRequest {
    /// A position string (docs/notation.md); without it, the variant's start.
    pub position: Option<String>,
    /// Steps played from the position (or the start) first. (`steps` is
    /// the variant's option, steps a turn, as when creating a game.)
    #[serde(default)]
    pub moves: Vec<String>,
    /// A player spec (`level:6`, `mcts:playouts=5000`, `alphabeta:depth=6`…);
    /// default `level:6`. Its memory and threads are capped by the server.
    pub player: Option<String>,
    /// Longest to think, in ms (at most 5000, default 1000).
    pub time_ms: Option<u64>,
    /// The variant and its options, when no position is given.
    #[serde(flatten)]
    pub game: NewGame,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Analysis {
    /// The side to move: `x` or `o`.
    pub side: String,
    /// The best rest of the current turn.
    pub turn: Vec<String>,
    /// The side to move's chance to win, 0 to 1 (null if the player does not search).
    pub win_probability: Option<f64>,
    /// The expected line: steps of both sides, from the position.
    pub line: Vec<String>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// The position analysed.
    pub position: String,
}

/// Analyse a position.
#[utoipa::path(post, path = "/api/analyze", tag = "analysis", request_body = AnalyzeRequest,
    responses(
        (status = 200, body = Analysis),
        (status = 400, description = "A bad position, step, variant or player", body = ErrorBody),
        (status = 409, description = "`game_over`: nothing to analyse", body = ErrorBody),
        (status = 422, description = "`illegal_step`", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn analyze(
    Caller { app, client, .. }: Caller,
    request: Result<Json<AnalyzeRequest>, JsonRejection>,
) -> Result<Json<Analysis>, ApiError> {
    limit(&app.limits.analyze, client, "analyses")?;
    let r = body(request)?;
    if r.game.opponent.is_some() || r.game.side.is_some() || r.game.listed.is_some() {
        return Err(ApiError::bad_request(
            "analyze takes a position or a variant, moves, a player and time_ms",
        ));
    }
    if let Some(c) = &r.game.clock {
        time_control(c)?;
    }
    let mut game = match &r.position {
        Some(text) => {
            if r.game.variant.is_some() || !r.game.options.is_empty() {
                return Err(ApiError::bad_request(
                    "give a position or a variant, not both: the position string holds the variant",
                ));
            }
            let p = position_string::read(text)
                .map_err(|e| ApiError::bad_request(format!("position: {e}")))?;
            Game::from_position(Variant::of_position(&p), p)
                .map_err(|e| ApiError::bad_request(e.to_string()))?
        }
        None => Game::new(settings(&r.game)?.variant)
            .map_err(|e| ApiError::bad_request(e.to_string()))?,
    };
    for (k, step) in parse_steps(&r.moves)
        .map_err(|e| ApiError::bad_request(e.message.replacen("steps[", "moves[", 1)))?
        .into_iter()
        .enumerate()
    {
        game.play(step)
            .map_err(|e| ApiError::illegal_step(k as u64 + 1, &step, &e))?;
    }
    let position = *game.position();
    if game.outcome().is_some() || position.legal_steps().is_empty() {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            Code::GameOver,
            "the game is over in this position: there is nothing to analyse",
        ));
    }
    let spec = PlayerSpec::parse_without_files(r.player.as_deref().unwrap_or("level:6"))
        .map_err(|e| ApiError::bad_request(format!("player: {e}")))?;
    let spec = app.computer.capped(&spec);
    let wanted = Duration::from_millis(r.time_ms.unwrap_or(1000));
    if wanted > MAX_ANALYZE || wanted.is_zero() {
        return Err(ApiError::bad_request(format!(
            "time_ms must be between 1 and {}, not {}",
            MAX_ANALYZE.as_millis(),
            wanted.as_millis()
        )));
    }
    let mut budget = spec.budget();
    budget.time = Some(budget.time.map_or(wanted, |t| t.min(wanted)));
    let result = crate::computer::search(
        &app,
        spec,
        position,
        budget,
        crate::computer::Kind::Analysis,
        virus_wars_ai::StopFlag::new(),
    )
    .await?;
    let names = |steps: &[virus_wars_rules::Step]| steps.iter().map(|s| s.to_string()).collect();
    Ok(Json(Analysis {
        side: view::side_name(position.side()),
        turn: names(&result.steps),
        win_probability: result
            .info
            .as_ref()
            .map(|i| score::win_probability(i.score)),
        line: result.info.as_ref().map_or_else(Vec::new, |i| names(&i.pv)),
        depth: result.info.as_ref().map(|i| i.depth),
        nodes: result.info.as_ref().map(|i| i.nodes),
        position: position_string::write(&position),
    }))
}
