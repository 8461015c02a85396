//! What each side knows of a whole game under fog: the memory of the board
//! ([`Sight`]) and which steps it saw played. A side sees its own steps; an
//! enemy step when the cell stepped on was in its sight just after the
//! step (a virus grown where it sees, or a virus of its own killed: the
//! zombie is seen); an enemy pass always (how many steps each turn has is
//! no secret). Watchers are shown what both sides see.

use super::{in_sight, Sight};
use crate::{AnyPosition, Cell, Content, Game, Side, Step, StepError};

/// Who looks at a game under fog: one side, or the watchers (shown only
/// what both sides see).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Viewer {
    Player(Side),
    Watcher,
}

/// A game's fog: each side's memory of the board, and the steps it saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    sight: Sight,
    /// By side: whether it saw each step of the game (in order).
    steps_seen: [Vec<bool>; 2],
}

impl Known {
    /// Replays `game` step by step, each side looking after every step.
    pub fn of_game(game: &Game) -> Known {
        let mut p = *game.start();
        let mut sight = Sight::start(&p);
        let mut steps_seen = [Vec::new(), Vec::new()];
        for &step in game.steps() {
            let mover = p.side();
            if p.play(step).is_err() {
                break;
            }
            sight.look(&p);
            for side in Side::BOTH {
                let seen = side == mover
                    || match step {
                        Step::Pass => true,
                        Step::Cell(c) => in_sight(&p, side)[index(&p, c)],
                    };
                steps_seen[side.index()].push(seen);
            }
        }
        Known { sight, steps_seen }
    }

    /// The memory of the board.
    pub fn sight(&self) -> &Sight {
        &self.sight
    }

    /// Whether `viewer` saw the `k`-th step of the game (from 0).
    pub fn step_seen(&self, viewer: Viewer, k: usize) -> bool {
        let by = |s: Side| self.steps_seen[s.index()].get(k).copied().unwrap_or(false);
        match viewer {
            Viewer::Player(side) => by(side),
            Viewer::Watcher => by(Side::X) && by(Side::O),
        }
    }

    /// What `viewer` sees of `p` (the position the game has reached), cell
    /// by cell rank-major from a1: `None` where it does not see.
    pub fn cells(&self, p: &AnyPosition, viewer: Viewer) -> Vec<Option<Content>> {
        match viewer {
            Viewer::Player(side) => self.sight.view(p, side).cells,
            Viewer::Watcher => {
                let x = self.sight.view(p, Side::X).cells;
                let o = self.sight.view(p, Side::O).cells;
                x.into_iter()
                    .zip(o)
                    .map(|(a, b)| if b.is_some() { a } else { None })
                    .collect()
            }
        }
    }

    /// The enemy pieces `side` is shown at `p` that are out of its sight
    /// now: remembered from when it saw them.
    pub fn remembered(&self, p: &AnyPosition, side: Side) -> Vec<Cell> {
        let now = in_sight(p, side);
        let view = self.sight.view(p, side);
        let w = p.width() as usize;
        view.cells
            .iter()
            .enumerate()
            .filter(|&(i, c)| !now[i] && *c == Some(Content::Virus(!side)))
            .map(|(i, _)| Cell::new((i % w) as u8, (i / w) as u8))
            .collect()
    }
}

fn index(p: &AnyPosition, c: Cell) -> usize {
    c.rank as usize * p.width() as usize + c.file as usize
}

/// The first of `steps` (sent together for `side`, to move at the end of
/// `game`) that is on a cell `side` does not see now: such a step is
/// refused before any step is played. Were the steps played first, a step
/// on a cell that only the earlier steps brought into sight would pass or
/// fail by what that cell holds (a trench, say), and a refused batch would
/// tell it without the earlier steps being made. Every cell `side` may
/// step on now is one it sees; so is every cell its own earlier steps make
/// it see, once it has been shown them.
pub fn first_unseen(game: &Game, side: Side, steps: &[Step]) -> Option<(usize, StepError)> {
    let p = game.position();
    let view = Sight::of_game(game).view(p, side);
    steps.iter().enumerate().find_map(|(k, step)| match *step {
        Step::Cell(cell) if cell.file < p.width() && cell.rank < p.height() => {
            (!view.sees(cell)).then_some((k, StepError::NotAccessible { cell, side }))
        }
        _ => None,
    })
}
