//! Symmetries of the board (the eight of the square) and which of them a
//! variant keeps: those that map the board, the start layout and each side's
//! entry cells onto themselves, so that search and opening books may treat
//! the images of a position as the same position.

use crate::any_position::AnyPosition;
use crate::cell::Cell;
use crate::rules::entry_cells;
use crate::setup::Setup;
use crate::side::Side;
use crate::variant::Variant;

/// One of the eight symmetries of a square (rectangles keep four).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Symmetry {
    Identity,
    /// Rank `r` ↔ rank `h-1-r`.
    FlipRanks,
    /// File `f` ↔ file `w-1-f`.
    FlipFiles,
    Rotate180,
    /// File ↔ rank (the a1 diagonal); square boards only.
    Transpose,
    /// The other diagonal; square boards only.
    AntiTranspose,
    Rotate90,
    Rotate270,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipRanks,
        Symmetry::FlipFiles,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Whether it maps a `width`×`height` board onto itself.
    pub fn fits(self, width: u8, height: u8) -> bool {
        let swaps = matches!(
            self,
            Symmetry::Transpose
                | Symmetry::AntiTranspose
                | Symmetry::Rotate90
                | Symmetry::Rotate270
        );
        !swaps || width == height
    }

    /// The image of `c` on a `width`×`height` board (the symmetry must fit it).
    pub fn apply(self, c: Cell, width: u8, height: u8) -> Cell {
        let (f, r) = (c.file, c.rank);
        let (mf, mr) = (width - 1 - f, height - 1 - r);
        let (nf, nr) = match self {
            Symmetry::Identity => (f, r),
            Symmetry::FlipRanks => (f, mr),
            Symmetry::FlipFiles => (mf, r),
            Symmetry::Rotate180 => (mf, mr),
            Symmetry::Transpose => (r, f),
            Symmetry::AntiTranspose => (height - 1 - r, width - 1 - f),
            Symmetry::Rotate90 => (r, width - 1 - f),
            Symmetry::Rotate270 => (height - 1 - r, f),
        };
        Cell::new(nf, nr)
    }

    /// The image of a whole setup.
    pub fn apply_setup(self, s: &Setup) -> Setup {
        let (w, h) = (s.width, s.height);
        let mut out = s.clone();
        for rank in 0..h {
            for file in 0..w {
                let from = Cell::new(file, rank);
                let to = self.apply(from, w, h);
                out.cells[to.rank as usize * w as usize + to.file as usize] = s.cell(from);
            }
        }
        out
    }

    /// The image of a position.
    pub fn apply_position(self, p: &AnyPosition) -> AnyPosition {
        AnyPosition::from_setup(&self.apply_setup(&p.to_setup()))
            .expect("a symmetric image of a valid position is valid")
    }
}

impl Variant {
    /// The symmetries that keep this variant's start layout and entry cells.
    pub fn symmetries(&self) -> Vec<Symmetry> {
        let (w, h) = (self.width, self.height);
        let start = self.start_setup();
        Symmetry::ALL
            .into_iter()
            .filter(|s| s.fits(w, h))
            .filter(|s| s.apply_setup(&start) == start)
            .filter(|s| {
                Side::BOTH.iter().all(|&side| {
                    let mut cells = entry_cells(self.rules.start, w, h, side);
                    let mut image: Vec<Cell> = cells.iter().map(|&c| s.apply(c, w, h)).collect();
                    cells.sort();
                    image.sort();
                    cells == image
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Preset;

    #[test]
    fn every_symmetry_is_a_bijection() {
        for (w, h) in [(5u8, 5u8), (4, 7), (19, 19)] {
            for s in Symmetry::ALL.into_iter().filter(|s| s.fits(w, h)) {
                let mut seen = std::collections::HashSet::new();
                for f in 0..w {
                    for r in 0..h {
                        let c = s.apply(Cell::new(f, r), w, h);
                        assert!(c.file < w && c.rank < h);
                        seen.insert(c);
                    }
                }
                assert_eq!(seen.len(), w as usize * h as usize, "{s:?}");
            }
        }
    }

    #[test]
    fn variants_keep_the_expected_symmetries() {
        use Symmetry::*;
        assert_eq!(
            Preset::Classic.variant().symmetries(),
            vec![Identity, Transpose]
        );
        assert_eq!(
            Preset::Gcr.variant().symmetries(),
            vec![Identity, Transpose]
        );
        assert_eq!(
            Preset::IgGameCenter.variant().symmetries(),
            vec![Identity, FlipRanks]
        );
        let rect = Preset::Korobkov.sized(9, 7);
        assert_eq!(rect.symmetries(), vec![Identity]);
    }
}
