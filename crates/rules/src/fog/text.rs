//! A view as text, for bots that play fog games (docs/engine-protocol.md):
//! the position string with `?` on every cell its side does not see. The
//! side of a view is the side to move; a `?` where that side must see (a
//! cell of, or next to, one of its live groups) is refused with its column.

use crate::position_string::{self, PositionStringError};
use crate::{AnyPosition, Cell, Content, Setup, Side};

use super::View;

/// A view read from text: the setup (unknown cells read as empty) and
/// which cells are unknown (rank-major from a1). Not a position: what is
/// hidden is not known, so its counters cannot be checked against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewPosition {
    pub setup: Setup,
    pub unknown: Vec<bool>,
}

impl ViewPosition {
    /// `p` as `view` sees it: the cells it does not see emptied (and so
    /// marked), the counters as they are (they are no secret).
    pub fn of(p: &AnyPosition, view: &View) -> ViewPosition {
        let mut setup = p.to_setup();
        let unknown: Vec<bool> = view.cells.iter().map(Option::is_none).collect();
        for (cell, &hidden) in setup.cells.iter_mut().zip(&unknown) {
            if hidden {
                *cell = Content::Empty;
            }
        }
        ViewPosition { setup, unknown }
    }

    /// The view read as a whole position, every hidden cell empty: what a
    /// player that ignores the fog plays on (the arena's `naive:`
    /// baseline). Not a position the game could reach: its counters need
    /// not fit its board (the hidden enemy pieces are missing), so it is
    /// not checked against them; its legal steps for the side to move are
    /// the true ones all the same (every cell it may step on is seen).
    pub fn as_if_empty(&self) -> AnyPosition {
        AnyPosition::from_checked_setup(&self.setup)
    }
}

/// `p` as `view`'s side sees it: its position string with `?` on every
/// cell the side does not see.
pub fn write_view(p: &AnyPosition, view: &View) -> String {
    with_board(&position_string::write(p), p.width(), p.height(), |i| {
        view.cells[i]
    })
}

impl ViewPosition {
    /// The view as text (as [`write_view`] writes it, [`read_view`] reads).
    pub fn write(&self) -> String {
        let s = &self.setup;
        with_board(
            &position_string::write(&self.as_if_empty()),
            s.width,
            s.height,
            |i| (!self.unknown[i]).then_some(s.cells[i]),
        )
    }
}

/// `whole`, a position string, with its board written from `cell` (by
/// index, rank-major from a1; `None` for `?`).
fn with_board(
    whole: &str,
    width: u8,
    height: u8,
    cell: impl Fn(usize) -> Option<Content>,
) -> String {
    let w = width as usize;
    let mut board = String::new();
    for rank in (0..height as usize).rev() {
        let mut empty = 0;
        for file in 0..w {
            let c = cell(rank * w + file);
            if c == Some(Content::Empty) {
                empty += 1;
                continue;
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push(c.map_or('?', crate::diagram::letter));
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    let mut fields: Vec<&str> = whole.split(' ').collect();
    fields[2] = &board;
    fields.join(" ")
}

/// The cells of `side`'s live groups in `s` (its viruses, joined through
/// its own zombies, 8-connected) and every cell next to them.
fn near_live_groups(s: &Setup, side: Side) -> Vec<bool> {
    let (w, h) = (s.width as i32, s.height as i32);
    let at = |f: i32, r: i32| (r * w + f) as usize;
    let mut live = vec![false; s.cells.len()];
    let mut stack: Vec<(i32, i32)> = Vec::new();
    for r in 0..h {
        for f in 0..w {
            if s.cells[at(f, r)] == Content::Virus(side) {
                live[at(f, r)] = true;
                stack.push((f, r));
            }
        }
    }
    let around = |f: i32, r: i32| {
        (-1..=1)
            .flat_map(move |df| (-1..=1).map(move |dr| (f + df, r + dr)))
            .filter(move |&(a, b)| (a, b) != (f, r) && (0..w).contains(&a) && (0..h).contains(&b))
    };
    while let Some((f, r)) = stack.pop() {
        for (a, b) in around(f, r) {
            let k = at(a, b);
            if !live[k] && s.cells[k] == Content::Zombie(side) {
                live[k] = true;
                stack.push((a, b));
            }
        }
    }
    let mut near = live.clone();
    for r in 0..h {
        for f in 0..w {
            if live[at(f, r)] {
                for (a, b) in around(f, r) {
                    near[at(a, b)] = true;
                }
            }
        }
    }
    near
}

/// Reads a view: a position string whose board may hold `?`. Refused, with
/// the column, where a `?` stands on a cell its side (the side to move)
/// must see: one of, or next to, its live groups.
pub fn read_view(text: &str) -> Result<ViewPosition, PositionStringError> {
    let (setup, unseen) = position_string::read_view_setup(text)?;
    // All a view can be checked by: its counters cannot be checked against
    // a board whose hidden pieces are missing.
    setup.check_shape()?;
    let side = setup.side;
    let near = near_live_groups(&setup, side);
    let w = setup.width as usize;
    for (i, column) in unseen.iter().enumerate() {
        if let (Some(column), true) = (column, near[i]) {
            let cell = Cell::new((i % w) as u8, (i / w) as u8);
            return Err(PositionStringError::Syntax {
                column: *column,
                message: format!(
                    "{cell} is next to one of {side}'s live groups: {side} sees it, so it cannot be '?'"
                ),
            });
        }
    }
    Ok(ViewPosition {
        unknown: unseen.iter().map(Option::is_some).collect(),
        setup,
    })
}
