//! The puzzle trainer (docs/api.md, Puzzles): `GET /api/puzzles/next` (at
//! the player's puzzle rating, one not tried yet, any theme or one),
//! `GET /api/puzzles/{id}`, and `POST /api/puzzles/{id}/attempt`, which
//! judges the player's turn, answers the reply, and on an account's first
//! try moves its puzzle rating and the puzzle's.

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use virus_wars_ai::puzzles::{LineError, Puzzle, Theme, Verdict, FINISH_NODES};
use virus_wars_ai::solve::Solver;
use virus_wars_rules::{Preset, Step};

use super::accounts::RatingView;
use super::body;
use super::error::ApiError;
use super::games::parse_steps;
use super::refusals::RateLimited;
use super::replay::{frame, Frame};
use super::Limited;
use crate::code::Code;
use crate::store::{PuzzleFilter, PuzzleRow, PUZZLES};
use crate::view::ErrorBody;
use crate::App;

/// How many puzzles nearest the player's rating the next is drawn from.
const NEAREST: i64 = 12;

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    /// Only puzzles of this theme (`cut-off-group`, `bunker`, `fortress`,
    /// `last-live-virus`, `race-for-an-entry-cell`).
    pub theme: Option<String>,
    /// Only puzzles of this preset (`classic`, `paper-tactics`, …).
    pub variant: Option<String>,
    /// Not this puzzle (the one just played).
    pub not: Option<String>,
}

/// A puzzle to solve.
#[derive(Debug, Serialize, ToSchema)]
pub struct PuzzleView {
    pub id: String,
    /// The preset whose rules it is played by.
    pub variant: String,
    /// The position to solve, as a board view draws it: the side to move
    /// (`to_move`) is yours.
    pub start: Frame,
    /// How many of your turns the solution holds.
    pub turns_to_find: usize,
    pub themes: Vec<String>,
    /// The puzzle's rating (Glicko-2, moved by accounts' first tries).
    pub rating: f64,
    /// Accounts' first tries, and how many solved it.
    pub plays: i64,
    pub solved: i64,
    /// Whether you have tried it before (then your rating does not move).
    pub tried: bool,
    /// Your puzzle rating when logged in (before your first puzzle, the
    /// rating every account starts from: 1500, provisional); `null` when not.
    pub your_rating: Option<RatingView>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"steps": ["b3", "e4", "b4"]}))]
pub struct AttemptRequest {
    /// The line from the puzzle's position: your turns and the replies
    /// you were given, ending with your turn.
    pub steps: Vec<String>,
}

/// A rating before and after a try.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingMove {
    pub before: f64,
    pub after: f64,
    pub rd: f64,
}

/// What your turn was worth.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptAnswer {
    /// Your turn is the solution's (the same board after it).
    pub correct: bool,
    /// The other side's reply to play next (empty when done or wrong).
    pub reply: Vec<String>,
    /// Solved: no turn left to find.
    pub done: bool,
    /// The whole solution, once solved or failed.
    pub solution: Option<Vec<Vec<String>>>,
    /// Once solved or failed, where the solution leaves the game on (the
    /// other side then loses whatever it plays): one way on to the end,
    /// whole turns from the end of the solution, the other side's that
    /// holds out longest, then the mover's that wins soonest. Empty where
    /// the solution ends the game or no line was found within the solver's
    /// limit.
    pub to_the_end: Option<Vec<Vec<String>>>,
    /// Your puzzle rating, when this try moved it (an account's first try,
    /// once it is decided).
    pub your_rating: Option<RatingMove>,
    /// The puzzle's rating now.
    pub puzzle_rating: f64,
    /// Accounts' first tries at it and how many solved it, this try
    /// counted.
    pub plays: i64,
    pub solved: i64,
}

/// `puzzle`'s line from the end of its solution to the end of the game
/// ([`Puzzle::line_to_end`]): found by the solver off the async threads,
/// its positions bounded (`FINISH_NODES`; the shipped set's take at most a
/// few hundred a call).
async fn to_the_end(puzzle: &Puzzle) -> Vec<Vec<String>> {
    let p = puzzle.clone();
    let found = tokio::task::spawn_blocking(move || p.line_to_end(&mut Solver::new(FINISH_NODES)))
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r.map_err(|e| e.to_string()));
    match found {
        Ok(line) => line.iter().map(|t| cells(t)).collect(),
        Err(e) => {
            tracing::warn!(puzzle = %puzzle.id, error = %e, "no line to the end after the solution");
            Vec::new()
        }
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn cells(steps: &[Step]) -> Vec<String> {
    steps.iter().map(|s| s.to_string()).collect()
}

async fn view(app: &App, row: PuzzleRow, account: Option<&str>) -> Result<PuzzleView, ApiError> {
    let (tried, your_rating) = match account {
        Some(a) => (
            app.store.tried_puzzle(a, &row.puzzle.id).await?,
            app.store
                .ratings_of(a)
                .await?
                .iter()
                .find(|r| r.category == PUZZLES)
                .map_or_else(
                    // Not rated yet: where every account starts.
                    || {
                        RatingView::of(&crate::store::RatingRow {
                            category: PUZZLES.to_string(),
                            glicko: Default::default(),
                            games: 0,
                            last_rated_ms: 0,
                        })
                    },
                    RatingView::of,
                )
                .into(),
        ),
        None => (false, None),
    };
    Ok(PuzzleView {
        id: row.puzzle.id.clone(),
        variant: row.preset,
        start: frame(&row.puzzle.position, 0, None),
        turns_to_find: row.puzzle.mover_turns(),
        themes: row
            .puzzle
            .themes
            .iter()
            .map(|t| t.name().to_string())
            .collect(),
        rating: row.glicko.rating.round(),
        plays: row.plays,
        solved: row.solved,
        tried,
        your_rating,
    })
}

fn no_puzzle(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        Code::NotFound,
        format!("no puzzle '{id}': ask /api/puzzles/next for one"),
    )
}

/// The next puzzle: for a logged-in player one not tried yet, drawn from
/// the 12 nearest its puzzle rating (1500 before its first); for anybody
/// else, any.
#[utoipa::path(get, path = "/api/puzzles/next", tag = "puzzles", params(NextQuery),
    responses(
        (status = 200, body = PuzzleView),
        (status = 400, description = "`malformed`: an unknown theme or variant", body = ErrorBody),
        (status = 404, description = "`not_found`: no puzzle of that theme and variant", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn next(
    Limited { app, headers, .. }: Limited,
    Query(mut q): Query<NextQuery>,
) -> Result<Json<PuzzleView>, ApiError> {
    // An empty value is no filter (`?theme=` from a form's "any").
    for v in [&mut q.theme, &mut q.variant, &mut q.not] {
        if v.as_deref().is_some_and(|s| s.trim().is_empty()) {
            *v = None;
        }
    }
    if let Some(t) = q.theme.as_deref().filter(|t| Theme::from_name(t).is_none()) {
        let known: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        return Err(ApiError::bad_request(format!(
            "theme '{t}' is not one of: {}",
            known.join(", ")
        )));
    }
    if let Some(v) = q.variant.take() {
        // The rules' own reading of a preset's name (any case), stored by
        // its canonical name.
        let preset = v.parse::<Preset>().map_err(|_| {
            let known: Vec<&str> = Preset::ALL.iter().map(|p| p.name()).collect();
            ApiError::bad_request(format!("variant '{v}' is not one of: {}", known.join(", ")))
        })?;
        q.variant = Some(preset.name().to_string());
    }
    let viewer = crate::session::viewer(&app, &headers).await?;
    let account = viewer.as_ref().map(|v| v.account.id.as_str());
    let rating = match account {
        Some(a) => app
            .store
            .ratings_of(a)
            .await?
            .iter()
            .find(|r| r.category == PUZZLES)
            .map_or(1500.0, |r| r.glicko.rating),
        None => 1500.0,
    };
    // Variety: not the last puzzle's variant, nor its themes, twice in a
    // row, unless chosen (or nothing else is left).
    let last = match q.not.as_deref() {
        Some(id) => app.store.puzzle(id).await?,
        None => None,
    };
    let filter = PuzzleFilter {
        theme: q.theme.clone(),
        preset: q.variant.clone(),
        not: q.not.clone(),
        avoid_preset: last
            .as_ref()
            .filter(|_| q.variant.is_none())
            .map(|r| r.preset.clone()),
        avoid_themes: last.as_ref().filter(|_| q.theme.is_none()).map(|r| {
            r.puzzle
                .themes
                .iter()
                .map(|t| t.name().to_string())
                .collect()
        }),
    };
    let pick = (getrandom::u32().unwrap_or(0) % NEAREST as u32) as usize;
    let mut row = app
        .store
        .next_puzzle(account, rating, &filter, NEAREST, pick)
        .await?;
    if row.is_none() && filter.not.is_some() {
        // The one just played is the only one of the choice: it again,
        // rather than none.
        let again = PuzzleFilter {
            not: None,
            avoid_preset: None,
            avoid_themes: None,
            ..filter
        };
        row = app
            .store
            .next_puzzle(account, rating, &again, NEAREST, pick)
            .await?;
    }
    let Some(row) = row else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            Code::NotFound,
            "no puzzle of that theme and variant: ask for another theme or any",
        ));
    };
    Ok(Json(view(&app, row, account).await?))
}

/// One puzzle, by its id.
#[utoipa::path(get, path = "/api/puzzles/{id}", tag = "puzzles",
    params(("id" = String, Path, description = "The puzzle's id (16 hex digits)")),
    responses(
        (status = 200, body = PuzzleView),
        (status = 404, description = "`not_found`", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn show(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    let row = app.store.puzzle(&id).await?.ok_or_else(|| no_puzzle(&id))?;
    let viewer = crate::session::viewer(&app, &headers).await?;
    let account = viewer.as_ref().map(|v| v.account.id.as_str());
    Ok(Json(view(&app, row, account).await?))
}

/// Judges your turn: the line from the puzzle's position (your turns and
/// the replies given), ending with your turn. A right turn is answered
/// with the reply to play next, or done; a wrong one fails the puzzle.
/// A logged-in player's first try, once decided (failed, or solved to
/// the end), moves its puzzle rating and the puzzle's, once.
#[utoipa::path(post, path = "/api/puzzles/{id}/attempt", tag = "puzzles",
    params(("id" = String, Path, description = "The puzzle's id")),
    request_body = AttemptRequest,
    responses(
        (status = 200, body = AttemptAnswer),
        (status = 400, description = "`malformed`: no steps, a step that does not read, a turn cut short", body = ErrorBody),
        (status = 404, description = "`not_found`", body = ErrorBody),
        (status = 409, description = "`off_the_line`: a turn before the last is not the puzzle's, the line ends with a reply, or goes past the end", body = ErrorBody),
        (status = 422, description = "`illegal_step`", body = ErrorBody),
        RateLimited,
    )
)]
pub async fn attempt(
    Limited { app, headers, .. }: Limited,
    Path(id): Path<String>,
    request: Result<Json<AttemptRequest>, JsonRejection>,
) -> Result<Json<AttemptAnswer>, ApiError> {
    let r = body(request)?;
    let row = app.store.puzzle(&id).await?.ok_or_else(|| no_puzzle(&id))?;
    let line = parse_steps(&r.steps)?;
    let verdict = row.puzzle.judge(&line).map_err(|e| match e {
        LineError::Illegal { index, step, error } => {
            ApiError::illegal_step(index as u64, &step, &error)
        }
        LineError::Empty | LineError::Unfinished(_) => ApiError::bad_request(e.to_string()),
        LineError::OffLine(_) | LineError::EndsWithReply(_) | LineError::TooLong(_) => {
            ApiError::new(StatusCode::CONFLICT, Code::OffTheLine, e.to_string())
        }
    })?;
    let (correct, reply, done) = match verdict {
        Verdict::Right { reply, done } => (true, reply, done),
        Verdict::Wrong => (false, Vec::new(), false),
    };
    let decided = done || !correct;
    let mut puzzle_rating = row.glicko.rating.round();
    let (mut plays, mut solved) = (row.plays, row.solved);
    let mut your_rating = None;
    if decided {
        if let Some(v) = crate::session::viewer(&app, &headers).await? {
            let rated = app
                .store
                .rate_first_try(&v.account.id, &id, correct, app.clock.now_ms() as i64)
                .await?;
            if let Some(t) = rated {
                puzzle_rating = t.puzzle.rating.round();
                (plays, solved) = (t.plays, t.solved);
                your_rating = Some(RatingMove {
                    before: round1(t.player_before.rating),
                    after: round1(t.player.rating),
                    rd: round1(t.player.rd),
                });
            } else if let Some(now) = app.store.puzzle(&id).await? {
                // Not its first try: the figures as they stand now (a
                // first try racing this one may have counted since).
                (plays, solved) = (now.plays, now.solved);
                puzzle_rating = now.glicko.rating.round();
            }
        }
    }
    let to_the_end = match decided {
        true => Some(to_the_end(&row.puzzle).await),
        false => None,
    };
    Ok(Json(AttemptAnswer {
        to_the_end,
        correct,
        reply: cells(&reply),
        done,
        solution: decided.then(|| row.puzzle.solution.iter().map(|t| cells(t)).collect()),
        your_rating,
        puzzle_rating,
        plays,
        solved,
    }))
}
