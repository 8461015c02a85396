//! A game in play and its stored form: the row written after a change, and
//! the game built back from its row and steps.

use tokio::sync::broadcast;
use virus_wars_rules::contest::{Clocks, Contest, TimeControl};
use virus_wars_rules::ending::Ending;
use virus_wars_rules::notation::parse_step;
use virus_wars_rules::{position_string, Game, Outcome, Side, Variant};

use crate::seat::{Seat, Table};

use super::LiveGame;
use crate::rating::{self, Category};
use crate::store::{GameResult, GameRow, Progress, RatedEnd, NEVER};

fn clamp(ms: u64) -> i64 {
    ms.min(NEVER as u64) as i64
}

/// When a game ends unless someone acts: the running clock's flag fall, or
/// (untimed, or waiting for a player) being left alone for `abandon_after_ms`.
fn deadline(c: &Contest, waiting: bool, last_active_ms: u64, abandon_after_ms: u64) -> i64 {
    if c.finished() {
        return NEVER;
    }
    let abandoned = last_active_ms.saturating_add(abandon_after_ms);
    match c.flag_at() {
        Some(at) if !waiting => clamp(at),
        _ => clamp(abandoned),
    }
}

/// The stored form of game `g` after the change `d`, made at `now`.
pub fn progress(g: &LiveGame, d: &Table, now: u64, abandon_after_ms: u64) -> Progress {
    let c = &d.contest;
    let (declared, side) = match (c.aborted(), c.declared()) {
        (true, _) => ("aborted".to_string(), None),
        (false, Some(e)) => {
            let loser = match e.outcome {
                Outcome::Draw => None,
                Outcome::Win(w) => Some(!w),
            };
            (e.reason.termination().to_string(), loser)
        }
        (false, None) => (String::new(), None),
    };
    let waiting = g.waiting();
    let computer_to_move = d.computer_to_move() && !waiting;
    // The computer's clock is not watched while its turn waits for a
    // worker: its turn starts when it starts thinking, and its time is
    // checked when it plays.
    let deadline_ms = if computer_to_move {
        NEVER
    } else {
        let left_alone = if waiting {
            g.waits_at_most(abandon_after_ms)
        } else {
            abandon_after_ms
        };
        deadline(c, waiting, now, left_alone)
    };
    Progress {
        left_ms: c.clocks.map_or([0, 0], |k| k.left_ms.map(clamp)),
        turn_started_ms: c.clocks.map_or(0, |k| clamp(k.turn_started_ms)),
        declared,
        declared_side: side,
        finished: c.finished(),
        draw_offer: d.draw_offer,
        rematch_id: g.rematch.clone(),
        last_active_ms: clamp(now),
        deadline_ms,
        computer_to_move,
        to_move: (!c.finished()).then(|| c.side_to_move()),
        result: result_of(c),
        rated_end: (c.finished() && !g.table.contest.finished())
            .then(|| rated_end(g, c))
            .flatten(),
    }
}

/// How a finished game ended; none while it is played.
fn result_of(c: &Contest) -> Option<GameResult> {
    match c.ending() {
        _ if c.aborted() => Some(GameResult::Aborted),
        Some(e) => Some(match e.outcome {
            Outcome::Win(side) => GameResult::Won(side),
            Outcome::Draw => GameResult::Drawn,
        }),
        None => None,
    }
}

/// What the end `c` of the rated game `g` does to ratings: nothing for a
/// game not rated, called off, or ended before each side played a whole
/// turn.
fn rated_end(g: &LiveGame, c: &Contest) -> Option<RatedEnd> {
    if !g.rated
        || g.holders.iter().any(|h| h.account.is_none())
        || c.aborted()
        || !c.each_side_played_a_turn()
    {
        return None;
    }
    let category = Category::of(g.variant(), c.clocks.as_ref().map(|k| &k.control))?;
    let x_outcome = match c.ending()?.outcome {
        Outcome::Win(Side::X) => rating::Outcome::Win,
        Outcome::Win(Side::O) => rating::Outcome::Loss,
        Outcome::Draw => rating::Outcome::Draw,
    };
    Some(RatedEnd {
        category: category.name(),
        accounts: g.holders.clone().map(|h| h.account.unwrap_or_default()),
        x_outcome,
    })
}

/// Builds a game from its stored row and steps. Its clocks run from the
/// stored start of the turn in progress, as in every other process.
pub fn from_row(
    row: &GameRow,
    steps: &[String],
    first_step_within_ms: u64,
) -> Result<LiveGame, String> {
    let variant = Variant::from_options_text(&row.variant)?;
    let start = position_string::read(&row.start_position).map_err(|e| e.to_string())?;
    let mut game = if variant.start().map_err(|e| e.to_string())? == start {
        Game::new(variant.clone()).map_err(|e| e.to_string())?
    } else {
        Game::from_position(variant.clone(), start).map_err(|e| e.to_string())?
    };
    for (k, text) in steps.iter().enumerate() {
        let step = parse_step(text).map_err(|e| e.to_string())?;
        game.play(step)
            .map_err(|e| format!("stored step {} ({step}): {e}", k + 1))?;
    }
    let p = &row.progress;
    let clocks = row.clock.map(|c| Clocks {
        control: TimeControl {
            base_ms: c.base_ms.max(0) as u64,
            increment_ms: c.increment_ms.max(0) as u64,
            per_turn: c.per_turn,
        },
        left_ms: p.left_ms.map(|ms| ms.max(0) as u64),
        turn_started_ms: p.turn_started_ms.max(0) as u64,
    });
    let mut contest = Contest::new(game, clocks);
    contest.first_turn_limit_ms = Some(first_step_within_ms);
    // Stored as the record's Termination words and the losing side.
    let result = match p.declared_side {
        Some(loser) => Outcome::Win(!loser),
        None => Outcome::Draw,
    };
    let declared = Ending::declared(result, &p.declared);
    contest.restore(declared, p.declared == "aborted");
    let seats = [Seat::parse(&row.players[0])?, Seat::parse(&row.players[1])?];
    let mut table = Table::new(contest, seats);
    table.draw_offer = p.draw_offer;
    Ok(LiveGame {
        id: row.id.clone(),
        table,
        rematch: p.rematch_id.clone(),
        holders: row.holders.clone(),
        rated: row.rated,
        // Sockets only need the latest state: a lagging one is sent it afresh.
        updates: broadcast::channel(4).0,
        created_ms: row.created_ms.max(0) as u64,
        listed: row.listed,
        seek: !row.seeker.is_empty(),
        last_active_ms: p.last_active_ms.max(row.created_ms).max(0) as u64,
        version: row.version,
        at_board: Default::default(),
    })
}
