//! The shape of a board: its size, its cell indices and 8-neighbourhoods.

use crate::bitboard::Bitboard;
use crate::cell::Cell;
use crate::neighbourhood::{NEAR_1, NEAR_2, NEAR_6, WIDTHS};

/// Board size plus the masks that make neighbourhood shifts exact.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry<const N: usize> {
    width: u8,
    height: u8,
    /// Every cell of the board.
    board: Bitboard<N>,
    /// Every cell but file `a` (where an eastward shift would wrap to).
    not_first_file: Bitboard<N>,
    /// Every cell but the last file (where a westward shift would wrap to).
    not_last_file: Bitboard<N>,
}

impl<const N: usize> Geometry<N> {
    /// A board of `width` files and `height` ranks; the caller has checked that
    /// it fits in `N` words.
    pub fn new(width: u8, height: u8) -> Self {
        let (w, h) = (width as usize, height as usize);
        assert!(w * h <= Bitboard::<N>::CAPACITY, "board does not fit");
        let board = Bitboard::first(w * h);
        let mut first = Bitboard::EMPTY;
        let mut last = Bitboard::EMPTY;
        for r in 0..h {
            first.insert(r * w);
            last.insert(r * w + w - 1);
        }
        Geometry {
            width,
            height,
            board,
            not_first_file: board & !first,
            not_last_file: board & !last,
        }
    }

    #[inline(always)]
    pub fn width(&self) -> u8 {
        self.width
    }

    #[inline(always)]
    pub fn height(&self) -> u8 {
        self.height
    }

    #[inline(always)]
    pub fn board(&self) -> Bitboard<N> {
        self.board
    }

    pub fn cells_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.file < self.width && cell.rank < self.height
    }

    #[inline(always)]
    pub fn index(&self, cell: Cell) -> usize {
        cell.rank as usize * self.width as usize + cell.file as usize
    }

    #[inline(always)]
    pub fn cell(&self, index: usize) -> Cell {
        let w = self.width as usize;
        Cell::new((index % w) as u8, (index / w) as u8)
    }

    /// The set plus every cell 8-adjacent to it.
    #[inline(always)]
    pub fn dilate(&self, b: Bitboard<N>) -> Bitboard<N> {
        let row =
            b | (b.shift_up(1) & self.not_first_file) | (b.shift_down(1) & self.not_last_file);
        let w = self.width as u32;
        (row | row.shift_up(w) | row.shift_down(w)) & self.board
    }

    /// The number of pairs of distinct 8-adjacent cells, one from `a` and one
    /// from `b`: the sum over `b`'s cells of how many neighbours each has in
    /// `a`, counted one direction at a time instead of one cell at a time.
    #[inline]
    pub fn adjacent_pairs(&self, a: Bitboard<N>, b: Bitboard<N>) -> u32 {
        let w = self.width as u32;
        // `a` moved one file east and one file west, without wrapping rows.
        let east = a.shift_up(1) & self.not_first_file;
        let west = a.shift_down(1) & self.not_last_file;
        let mut pairs = 0;
        for row in [a, east, west] {
            pairs += (row.shift_up(w) & b).count() + (row.shift_down(w) & b).count();
        }
        pairs + (east & b).count() + (west & b).count()
    }

    /// Cell `i` and its 8 neighbours: [`Self::dilate`] of one cell, looked up.
    #[inline(always)]
    pub fn near(&self, i: usize) -> Bitboard<N> {
        let w = self.width as usize;
        let words: &[u64] = match N {
            1 if w < WIDTHS => &NEAR_1[w][i],
            2 if w < WIDTHS => &NEAR_2[w][i],
            6 if w < WIDTHS => &NEAR_6[w][i],
            _ => return self.dilate(Bitboard::from_index(i)),
        };
        Bitboard(std::array::from_fn(|k| words[k])) & self.board
    }

    /// Grows `seed` through `within` (8-connectivity) until it stops growing:
    /// the union of the connected parts of `within | seed` that touch `seed`.
    #[inline]
    pub fn flood(&self, seed: Bitboard<N>, within: Bitboard<N>) -> Bitboard<N> {
        let mut region = seed;
        loop {
            let next = self.dilate(region) & within | region;
            // Done when nothing was added, or nothing is left to add (which
            // saves the last round when everything joins, as it often does).
            if next == region || (within & !next).is_empty() {
                return next;
            }
            region = next;
        }
    }

    /// Every cell of one file (0 = `a`).
    pub fn file(&self, file: u8) -> Bitboard<N> {
        let mut b = Bitboard::EMPTY;
        for r in 0..self.height {
            b.insert(self.index(Cell::new(file, r)));
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours_slow(w: u8, h: u8, c: Cell) -> Vec<Cell> {
        let mut v = vec![];
        for df in -1i32..=1 {
            for dr in -1i32..=1 {
                let f = c.file as i32 + df;
                let r = c.rank as i32 + dr;
                if f >= 0 && r >= 0 && f < w as i32 && r < h as i32 {
                    v.push(Cell::new(f as u8, r as u8));
                }
            }
        }
        v.sort();
        v
    }

    fn check_all<const N: usize>(w: u8, h: u8) {
        let g = Geometry::<N>::new(w, h);
        for i in 0..g.cells_count() {
            let c = g.cell(i);
            assert_eq!(g.index(c), i);
            let mut got: Vec<Cell> = g
                .dilate(Bitboard::from_index(i))
                .iter()
                .map(|j| g.cell(j))
                .collect();
            got.sort();
            assert_eq!(got, neighbours_slow(w, h, c), "{w}x{h} {c}");
            assert_eq!(g.near(i), g.dilate(Bitboard::from_index(i)), "{w}x{h} {c}");
        }
    }

    #[test]
    fn dilation_is_the_8_neighbourhood_on_every_size() {
        for w in 3..=19u8 {
            for h in 3..=19u8 {
                if w as usize * h as usize <= 64 {
                    check_all::<1>(w, h);
                }
                if w as usize * h as usize <= 128 {
                    check_all::<2>(w, h);
                }
                check_all::<6>(w, h);
            }
        }
    }

    #[test]
    fn adjacent_pairs_count_each_neighbour_once() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed = crate::rng::mix(seed.wrapping_add(0x9E37_79B9_7F4A_7C15));
            seed
        };
        for (w, h) in [(3u8, 3u8), (5, 5), (10, 10), (11, 11), (7, 18), (19, 19)] {
            let g = Geometry::<6>::new(w, h);
            for _ in 0..200 {
                let a = Bitboard([next(), next(), next(), next(), next(), next()]) & g.board();
                let b = Bitboard([next(), next(), next(), next(), next(), next()]) & g.board();
                let slow: u32 = a
                    .iter()
                    .map(|i| {
                        (g.dilate(Bitboard::from_index(i)) & b & !Bitboard::from_index(i)).count()
                    })
                    .sum();
                assert_eq!(g.adjacent_pairs(a, b), slow, "{w}x{h}");
                if w as usize * h as usize <= 128 {
                    let g2 = Geometry::<2>::new(w, h);
                    let (a2, b2) = (Bitboard([a.0[0], a.0[1]]), Bitboard([b.0[0], b.0[1]]));
                    assert_eq!(g2.adjacent_pairs(a2, b2), slow, "{w}x{h}");
                }
            }
        }
    }

    #[test]
    fn flood_follows_diagonals_only_within() {
        let g = Geometry::<2>::new(5, 5);
        let at = |s: &str| g.index(s.parse().unwrap());
        let mut within = Bitboard::EMPTY;
        for s in ["b2", "c3", "e5"] {
            within.insert(at(s));
        }
        let region = g.flood(Bitboard::from_index(at("a1")), within);
        assert!(region.contains(at("c3")) && !region.contains(at("e5")));
        assert_eq!(region.count(), 3);
    }
}
