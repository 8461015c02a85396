//! A game as the lists show it: the open games, the games to watch and a
//! player's games. Built from facts no viewer is denied (who plays, the
//! variant with a fog game's seed hidden, the clocks, the step count),
//! never from a state.

use crate::seat::Seat;
use virus_wars_rules::contest::TimeControl;
use virus_wars_rules::{Side, Variant};

use super::seats::seat_info;
use super::status_words;
use crate::live::LiveGame;
use crate::rating::Category;
use crate::store::GameRow;
use crate::view::{
    self, side_name, variant_info, BySide, OpenGame, PlayedGame, PlayerInfo, PlayingGame,
    RatingMove, VariantInfo,
};

/// An open game as the list shows it, while a seat is free.
pub fn open_game(g: &LiveGame, now: u64) -> Option<OpenGame> {
    let free = Side::BOTH.into_iter().find(|s| g.seat_free(*s))?;
    Some(OpenGame {
        id: g.id.clone(),
        variant: variant_info(g.variant()),
        free_seat: side_name(free),
        waiting: g.player(!free),
        clock: g.clock_state(now),
        created_ms: g.created_ms,
    })
}

/// A game in play as the list of games to watch shows it; `None` once over.
pub fn playing_game(g: &LiveGame, now: u64) -> Option<PlayingGame> {
    let c = &g.table.contest;
    if c.finished() {
        return None;
    }
    Some(PlayingGame {
        id: g.id.clone(),
        variant: variant_info(g.variant()),
        players: BySide {
            x: g.player(Side::X),
            o: g.player(Side::O),
        },
        to_move: side_name(c.side_to_move()),
        seq: c.seq(),
        status: status_words(c),
        clock: g.clock_state(now),
        last_active_ms: g.last_active_ms,
    })
}

/// `row` as `account` played it (with what it did to that account's
/// rating, where it was rated).
pub fn played(row: &GameRow, account: &str, rating: Option<RatingMove>) -> PlayedGame {
    let mine = if row.holders[1].is_account(account) && !row.holders[0].is_account(account) {
        Side::O
    } else {
        Side::X
    };
    let other = (!mine).index();
    let seat = Seat::parse(&row.players[other]).unwrap_or(Seat::Human);
    let variant = Variant::from_options_text(&row.variant).ok();
    let clock = row.clock.map(|c| TimeControl {
        base_ms: c.base_ms.max(0) as u64,
        increment_ms: c.increment_ms.max(0) as u64,
        per_turn: c.per_turn,
    });
    let result = row.progress.result.map_or("playing", |r| r.for_seat(mine));
    PlayedGame {
        id: row.id.clone(),
        variant: variant.as_ref().map_or(
            VariantInfo {
                preset: "custom".into(),
                options: String::new(),
                size: String::new(),
            },
            view::variant_info,
        ),
        // As people read it: `3+2` (minutes + seconds of increment).
        time_control: clock.map(|c| c.text_in(60_000.0)),
        clock: clock.map(view::TimeControlInfo::from),
        rated: row.rated,
        category: variant
            .as_ref()
            .and_then(|v| Category::of(v, clock.as_ref()))
            .map(Category::name),
        side: view::side_name(mine),
        opponent: PlayerInfo {
            account: row.holders[other].account.is_some(),
            ..seat_info(&seat, row.holders[other].name.as_deref().unwrap_or(""))
        },
        result: result.into(),
        rating,
        created_ms: row.created_ms,
        last_active_ms: row.progress.last_active_ms,
    }
}
