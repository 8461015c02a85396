//! Bulk counting for perft: the number of legal steps two plies down,
//! mostly without playing the steps.

use super::Position;
use crate::bitboard::Bitboard;
use crate::rules::EndRule;

impl<const N: usize> Position<N> {
    /// The sum, over every legal step, of the number of legal steps after
    /// it: perft two plies deep, counted without playing steps wherever the
    /// answer follows from the position (bulk counting one ply above the leaves).
    pub fn children_legal_count(&self) -> u64 {
        let side = self.side;
        let (me, them) = (side.index(), (!side).index());
        let cells = self.legal_cells();
        let fallback = |cells: Bitboard<N>| -> u64 {
            cells
                .iter()
                .map(|i| {
                    let mut next = *self;
                    next.play_unchecked(i);
                    next.legal_count() as u64
                })
                .sum()
        };
        if self.rules.end != EndRule::Standard || !self.entered[me] {
            return fallback(cells) + self.can_pass() as u64;
        }
        if cells.is_empty() {
            return 0;
        }
        if self.steps_left > 1 {
            // Same mover: its legal cells lose the cell taken and gain what
            // that cell reaches (through any dead groups of its own it joins).
            // Summed over the cells at once: each pair of a legal cell and a
            // fresh cell next to it is one step more.
            let dead_own = (self.virus[me] | self.zombie[me]) & !self.live[me];
            let fresh = self.takeable(side) & !self.targets;
            let before = self.targets.count() as u64 - 1;
            let mut total =
                before * cells.count() as u64 + self.geo.adjacent_pairs(cells, fresh) as u64;
            // A cell next to a dead group of the mover's wakes it: it reaches
            // what the group touches too.
            for i in (cells & self.geo.dilate(dead_own)).iter() {
                let bit = Bitboard::from_index(i);
                let near = self.geo.near(i);
                let woken = self.geo.dilate(self.geo.flood(bit, dead_own));
                total += (woken & fresh).count() as u64 - (near & fresh).count() as u64;
            }
            return total;
        }
        // The turn ends: the opponent moves next. A placement leaves its
        // groups as they are (only a trench taken stops being takeable).
        let kills = cells & self.virus[them];
        let placements = cells & !kills;
        if !self.entered[them] {
            return fallback(cells);
        }
        let their_live = self.live_now(!side);
        let their_takeable = self.takeable(!side);
        let theirs = self.geo.dilate(their_live) & their_takeable;
        let per_placement = theirs.count() as u64;
        let mut total = placements.count() as u64 * per_placement
            - (placements & self.trench & theirs).count() as u64;
        // A kill takes a virus out of their groups. With none of their
        // zombies next to it, nothing else was joined through it: their live
        // region loses that one cell. Otherwise it may be cut: played out.
        for i in kills.iter() {
            let bit = Bitboard::from_index(i);
            total += if (self.geo.near(i) & self.zombie[them]).is_empty() {
                let live = their_live & !bit;
                (self.geo.dilate(live) & their_takeable & !bit).count() as u64
            } else {
                let mut next = *self;
                next.play_unchecked(i);
                next.legal_count() as u64
            };
        }
        total
    }
}
