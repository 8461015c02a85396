//! Fog of war (docs/rules.md, Fog of war): what each side sees of a
//! position. Legality is unchanged — every cell a side may step on is one it
//! sees. A side sees its own viruses and zombies; every cell next to or
//! inside one of its live groups; before it has entered, its entry cells;
//! every enemy zombie standing where one of its own viruses stood;
//! obstacles; an enemy piece it has seen, for as long as that piece stands
//! there; a trench it has seen, and that trench's twin through the centre,
//! whatever they become; at the end of the game, everything. [`Sight`] keeps each side's memory step by step;
//! [`View`] is what one side sees of one position, and [`write_view`] /
//! [`read_view`] its text, the position string with `?` cells; [`Known`]
//! is what each side (and the watchers) know of a whole game, the steps
//! each saw among them.

use crate::rules::entry_cells;
use crate::symmetry::Symmetry;
use crate::{with_position, AnyPosition, Cell, Content, Game, Side};

/// Each side's memory (by cell, rank-major from a1): what it last saw on
/// each cell out of its own pieces (enemy pieces and trenches), and where
/// its own viruses have stood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sight {
    width: u8,
    height: u8,
    seen: [Vec<Option<Content>>; 2],
    own: [Vec<bool>; 2],
}

/// What one side sees of a position: each cell's content, or `None` where
/// it does not see (the cell may be empty or hold an enemy virus).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub side: Side,
    pub width: u8,
    pub height: u8,
    /// Rank-major from a1.
    pub cells: Vec<Option<Content>>,
}

impl View {
    /// What the side sees on `c` (`None`: unknown, or off the board).
    pub fn content(&self, c: Cell) -> Option<Content> {
        if c.file >= self.width || c.rank >= self.height {
            return None;
        }
        self.cells[c.rank as usize * self.width as usize + c.file as usize]
    }

    pub fn sees(&self, c: Cell) -> bool {
        self.content(c).is_some()
    }

    /// How many cells it does not see.
    pub fn unknown(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }
}

/// The cells `side` sees in `p` now, before memory (rank-major from a1):
/// its pieces, its live groups and the cells next to them, obstacles, and
/// before it has entered its entry cells.
pub fn in_sight(p: &AnyPosition, side: Side) -> Vec<bool> {
    let (w, h) = (p.width(), p.height());
    let mut out = vec![false; w as usize * h as usize];
    let mut mark = |c: Cell| out[c.rank as usize * w as usize + c.file as usize] = true;
    with_position!(p, q => {
        let geo = q.geometry();
        let near = geo.dilate(q.live_region_of(side));
        let sure = q.viruses(side) | q.zombies(side) | q.obstacles() | near;
        for i in sure.iter() {
            mark(geo.cell(i));
        }
        if !q.entered(side) {
            for c in entry_cells(q.rules().start, w, h, side) {
                mark(c);
            }
        }
    });
    out
}

impl Sight {
    /// The memory at `p`, a game's start: each side has looked once.
    pub fn start(p: &AnyPosition) -> Sight {
        let cells = p.width() as usize * p.height() as usize;
        let mut s = Sight {
            width: p.width(),
            height: p.height(),
            seen: [vec![None; cells], vec![None; cells]],
            own: [vec![false; cells], vec![false; cells]],
        };
        s.look(p);
        s
    }

    /// The memory after the whole of `game`, looked at after every step.
    pub fn of_game(game: &Game) -> Sight {
        let mut p = *game.start();
        let mut s = Sight::start(&p);
        for &step in game.steps() {
            if p.play(step).is_err() {
                break;
            }
            s.look(&p);
        }
        s
    }

    fn index(&self, c: Cell) -> usize {
        c.rank as usize * self.width as usize + c.file as usize
    }

    /// Both sides look at `p` (after a step): each remembers what it sees
    /// on every cell out of its own pieces (a trench's twin with it, as a
    /// trench), and where its own viruses stand.
    pub fn look(&mut self, p: &AnyPosition) {
        for side in Side::BOTH {
            let k = side.index();
            let now = in_sight(p, side);
            for (i, &sees) in now.iter().enumerate() {
                let c = self.cell(i);
                let content = p.content(c);
                if content == Content::Virus(side) {
                    self.own[k][i] = true;
                }
                if !sees {
                    continue;
                }
                match content {
                    Content::Virus(s) | Content::Zombie(s) if s != side => {
                        self.seen[k][i] = Some(content)
                    }
                    Content::Trench => {
                        self.seen[k][i] = Some(content);
                        let twin = Symmetry::Rotate180.apply(c, self.width, self.height);
                        let t = self.index(twin);
                        if self.seen[k][t].is_none() {
                            self.seen[k][t] = Some(Content::Trench);
                        }
                    }
                    _ => self.seen[k][i] = None,
                }
            }
        }
    }

    fn cell(&self, i: usize) -> Cell {
        Cell::new(
            (i % self.width as usize) as u8,
            (i / self.width as usize) as u8,
        )
    }

    /// What `side` sees of `p` (the position this memory has looked at
    /// last): what is in its sight; an enemy piece it saw, while it stands;
    /// a cell it saw a trench on (or its twin), whatever it holds now; an
    /// enemy zombie where one of its own viruses stood (it saw its virus
    /// taken); everything once the game is over.
    pub fn view(&self, p: &AnyPosition, side: Side) -> View {
        let k = side.index();
        let over = p.outcome().is_some();
        let now = in_sight(p, side);
        let cells = (0..now.len())
            .map(|i| {
                let content = p.content(self.cell(i));
                // A piece seen stays seen while it stands; a trench seen (or
                // its twin) stays seen whatever it becomes (taken, it is seen
                // taken).
                let seen = self.seen[k][i];
                let remembered = seen == Some(content) || seen == Some(Content::Trench);
                let taken_from_it = self.own[k][i] && content == Content::Zombie(!side);
                (over || now[i] || remembered || taken_from_it).then_some(content)
            })
            .collect();
        View {
            side,
            width: self.width,
            height: self.height,
            cells,
        }
    }
}

mod known;
mod text;
pub use known::{admitted, first_unseen, Known, Seen, Viewer};
pub use text::{read_view, write_view, ViewPosition};

#[cfg(test)]
mod tests;
