//! What the net sees: planes over the board from the point of view of the
//! side to move, cells rank-major from a1 (index `rank * width + file`),
//! seen through one of the board's symmetries (for training augmentation
//! and averaging at inference). Under fog of war the net reads a side's
//! view ([`encode_view`]): its hidden cells read as empty, and marked on a
//! plane of their own.

use virus_wars_rules::fog::ViewPosition;
use virus_wars_rules::symmetry::Symmetry;
use virus_wars_rules::{with_position, AnyPosition, Cell, Content, Position, Side};

/// Input planes, in this order.
pub const PLANES: usize = 12;

/// The plane of the cells the side to move does not see (fog of war): all
/// zeros for a whole position. Nets trained before it had 11 planes, and
/// read with this plane's weights zero ([`crate::weights`]).
pub const UNKNOWN: usize = 11;

/// The planes' names, for documentation and errors.
pub const PLANE_NAMES: [&str; PLANES] = [
    "own viruses",
    "own zombies",
    "enemy viruses",
    "enemy zombies",
    "legal cells of the side to move",
    "trenches",
    "obstacles",
    "steps left in the turn, over the turn's steps",
    "the side to move has entered",
    "the other side has entered",
    "on the board (ones)",
    "unknown to the side to move (fog of war)",
];

/// A position as the net's input: `PLANES` planes of `width × height`.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    pub width: usize,
    pub height: usize,
    /// Plane-major: `data[plane * width * height + rank * width + file]`.
    pub data: Vec<f32>,
}

impl Input {
    pub fn cells(&self) -> usize {
        self.width * self.height
    }
}

/// Index of `cell` on a `width`-wide board, rank-major.
pub fn index(cell: Cell, width: u8) -> usize {
    cell.rank as usize * width as usize + cell.file as usize
}

/// The planes of `p` seen through `sym` (which must fit the board: on a
/// rectangle, only the four symmetries that keep it).
pub fn encode(p: &AnyPosition, sym: Symmetry) -> Input {
    with_position!(p, q => encode_position(q, sym))
}

/// [`encode`] for a position of a known size.
pub fn encode_position<const N: usize>(p: &Position<N>, sym: Symmetry) -> Input {
    let (w, h) = (p.geometry().width(), p.geometry().height());
    assert!(sym.fits(w, h), "{sym:?} does not fit a {w}x{h} board");
    let (width, height) = (w as usize, h as usize);
    let n = width * height;
    let mut data = vec![0.0f32; PLANES * n];
    let me = p.side();
    let mut set = |plane: usize, cell: Cell, v: f32| {
        data[plane * n + index(sym.apply(cell, w, h), w)] = v;
    };
    for rank in 0..h {
        for file in 0..w {
            let cell = Cell { file, rank };
            let plane = match p.content(cell) {
                Content::Empty => None,
                Content::Virus(s) if s == me => Some(0),
                Content::Zombie(s) if s == me => Some(1),
                Content::Virus(_) => Some(2),
                Content::Zombie(_) => Some(3),
                Content::Trench => Some(5),
                Content::Obstacle => Some(6),
            };
            if let Some(plane) = plane {
                set(plane, cell, 1.0);
            }
            set(10, cell, 1.0);
        }
    }
    for i in p.legal_cells().iter() {
        set(4, p.geometry().cell(i), 1.0);
    }
    let turn_steps = p.rules().steps_in_turn(p.turn()).max(1) as f32;
    let constant = [
        (7, p.steps_left() as f32 / turn_steps),
        (8, p.entered(me) as u8 as f32),
        (9, p.entered(other(me)) as u8 as f32),
    ];
    for (plane, v) in constant {
        data[plane * n..(plane + 1) * n].fill(v);
    }
    Input {
        width,
        height,
        data,
    }
}

/// The planes of a side's view under fog (the side to move's), seen
/// through `sym`: the view as a position with its hidden cells empty (its
/// legal cells are the true ones: every cell a side may step on is one it
/// sees), and those cells on the [`UNKNOWN`] plane.
pub fn encode_view(view: &ViewPosition, sym: Symmetry) -> Input {
    let mut input = encode(&view.as_if_empty(), sym);
    let (w, h) = (view.setup.width, view.setup.height);
    let n = input.cells();
    for (i, _) in view.unknown.iter().enumerate().filter(|(_, &u)| u) {
        let cell = Cell {
            file: (i % w as usize) as u8,
            rank: (i / w as usize) as u8,
        };
        input.data[UNKNOWN * n + index(sym.apply(cell, w, h), w)] = 1.0;
    }
    input
}

fn other(s: Side) -> Side {
    !s
}

/// The cell of the position that `k` (an index of an input seen through
/// `sym`) stands for: the policy's cells mapped back to the board.
pub fn cell_of(k: usize, sym: Symmetry, width: u8, height: u8) -> Cell {
    let seen = Cell {
        file: (k % width as usize) as u8,
        rank: (k / width as usize) as u8,
    };
    // The symmetries of the square are their own inverses, except the
    // two quarter turns, which undo each other.
    let back = match sym {
        Symmetry::Rotate90 => Symmetry::Rotate270,
        Symmetry::Rotate270 => Symmetry::Rotate90,
        s => s,
    };
    back.apply(seen, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use virus_wars_rules::{position_string, Preset};

    fn plane(i: &Input, k: usize) -> &[f32] {
        &i.data[k * i.cells()..(k + 1) * i.cells()]
    }

    #[test]
    fn planes_are_from_the_movers_side() {
        // O to move: O's viruses are "own", X's zombie of an O is "enemy zombie".
        let p = position_string::read(
            "6x6 steps=3,first=3,start=corner-entry,end=standard 4OO/4OO/3xO1/X1X3/XX4/XXXX2 o 3 6 XO 0",
        )
        .unwrap();
        let i = encode(&p, Symmetry::Identity);
        let at = |f: u8, r: u8| index(Cell { file: f, rank: r }, 6);
        assert_eq!(plane(&i, 0)[at(4, 3)], 1.0, "e4 is O's own virus");
        assert_eq!(plane(&i, 2)[at(0, 0)], 1.0, "a1 is the enemy's virus");
        assert_eq!(plane(&i, 3)[at(3, 3)], 1.0, "d4 is X's zombie: the enemy's");
        assert_eq!(plane(&i, 1).iter().sum::<f32>(), 0.0, "O owns no zombie");
        let legal: usize = plane(&i, 4).iter().filter(|v| **v == 1.0).count();
        assert_eq!(legal, p.legal_cells().len());
        assert!(
            plane(&i, 7).iter().all(|v| *v == 1.0),
            "all 3 steps of 3 left"
        );
        assert!(plane(&i, 8).iter().chain(plane(&i, 9)).all(|v| *v == 1.0));
        assert!(plane(&i, 10).iter().all(|v| *v == 1.0));
    }

    #[test]
    fn a_view_is_its_seen_cells_with_the_hidden_ones_marked() {
        use virus_wars_rules::fog::{Sight, ViewPosition};
        let mut v = Preset::Korobkov.variant();
        v.fog = true;
        let mut p = v.start().unwrap();
        let mut sight = Sight::start(&p);
        for _ in 0..9 {
            let steps = p.legal_steps();
            p.play(steps[steps.len() / 2]).unwrap();
            sight.look(&p);
        }
        let view = ViewPosition::of(&p, &sight.view(&p, p.side()));
        assert!(view.unknown.iter().any(|&u| u), "some cells are hidden");
        let whole = encode(&p, Symmetry::Identity);
        assert!(plane(&whole, UNKNOWN).iter().all(|&v| v == 0.0));
        for sym in [Symmetry::Identity, Symmetry::Rotate90] {
            let seen = encode_view(&view, sym);
            let plain = encode(&p, sym);
            for k in 0..seen.cells() {
                let cell = cell_of(k, sym, 8, 8);
                let i = index(cell, 8);
                let hidden = view.unknown[i];
                assert_eq!(plane(&seen, UNKNOWN)[k], hidden as u8 as f32, "{cell}");
                for pl in 0..UNKNOWN {
                    let (a, b) = (plane(&seen, pl)[k], plane(&plain, pl)[k]);
                    if hidden && pl <= 6 {
                        // Nothing of what stands there: read as empty.
                        assert_eq!(a, 0.0, "{cell}, plane {pl}");
                    } else {
                        assert_eq!(a, b, "{cell}, plane {pl}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_symmetry_moves_every_plane_alike_and_cell_of_undoes_it() {
        let p = Preset::Korobkov.variant().start().unwrap();
        let mut q = p;
        for k in [0usize, 3, 5, 2] {
            let steps = q.legal_steps();
            q.play(steps[k % steps.len()]).unwrap();
        }
        let (w, h) = (q.width(), q.height());
        let plain = encode(&q, Symmetry::Identity);
        for sym in Symmetry::ALL.into_iter().filter(|s| s.fits(w, h)) {
            let seen = encode(&q, sym);
            for k in 0..plain.cells() {
                let back = index(cell_of(k, sym, w, h), w);
                for plane in 0..PLANES {
                    assert_eq!(
                        seen.data[plane * seen.cells() + k],
                        plain.data[plane * plain.cells() + back],
                        "{sym:?}, plane {plane}, index {k}"
                    );
                }
            }
        }
    }
}
