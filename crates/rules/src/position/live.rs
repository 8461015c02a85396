//! Each side's live region (its cells 8-connected to one of its live
//! viruses) and the mover's legal cells, from the caches a step keeps, and
//! what makes them out of date.

use super::Position;
use crate::bitboard::Bitboard;
use crate::side::Side;

/// What of a side's cached live region and legal cells is out of date, from
/// least to most: bits, so that a step raises it by an or, not a branch.
pub(super) mod stale {
    /// Both hold (its legal cells as saved when its last turn ended, less
    /// what became untakeable since).
    pub const NO: u8 = 0;
    /// It lost viruses (its live region less them holds unless one of
    /// the `cut` zombies is left with no virus next to it); its legal cells
    /// must be dilated from its region again.
    pub const REACH: u8 = 1;
    /// Not known (a position just built): flood the region.
    pub const LIVE: u8 = 3;
}

impl<const N: usize> Position<N> {
    /// The live region of either side (its cells 8-connected to one of its
    /// live viruses), computed now.
    pub fn live_region_of(&self, side: Side) -> Bitboard<N> {
        let s = side.index();
        if !self.entered[s] {
            Bitboard::EMPTY
        } else {
            self.live_now(side)
        }
    }

    /// The live region of an entered side, from its cache where that holds.
    /// A virus killed only removes its own cell from the region, unless a
    /// zombie next to it has no other virus next to it: any path from a
    /// zombie to a virus through a killed cell passes, just before it, a
    /// surviving virus or a zombie next to the killed cell, and such a
    /// zombie next to a surviving virus keeps the path. Else: flooded.
    #[inline]
    pub(crate) fn live_now(&self, side: Side) -> Bitboard<N> {
        let s = side.index();
        let cached = match self.stale[s] {
            stale::NO => true,
            // Only the side not to move can have lost viruses this turn.
            stale::REACH => {
                self.cut.is_empty() || (self.cut & !self.geo.dilate(self.virus[s])).is_empty()
            }
            _ => false,
        };
        if cached {
            self.live[s]
        } else {
            self.geo
                .flood(self.virus[s], self.virus[s] | self.zombie[s])
        }
    }

    /// Recomputes the mover's live region and legal cells from scratch.
    pub(super) fn refresh_mover(&mut self) {
        let me = self.side.index();
        if self.entered[me] {
            // Only the loss of a virus can cut a side's groups; otherwise the
            // region from its last turn still holds.
            if self.stale[me] == stale::NO {
                // The opponent's turn can only have made some of these
                // cells untakeable (trenches it took); it cannot have added any.
                self.targets = self.saved_targets[me] & self.takeable(self.side);
            } else {
                self.live[me] = self.live_now(self.side);
                self.targets = self.geo.dilate(self.live[me]) & self.takeable(self.side);
            }
        } else {
            self.live[me] = Bitboard::EMPTY;
            self.targets = self.entry_cells(self.side) & self.empty();
        }
        self.stale[me] = stale::NO;
        self.cut = Bitboard::EMPTY;
    }
}
