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
            let dead_own = (self.virus[me] | self.zombie[me]) & !self.live[me];
            let fresh = self.takeable(side) & !self.targets;
            let before = self.targets.count() as u64 - 1;
            return cells
                .iter()
                .map(|i| {
                    let bit = Bitboard::from_index(i);
                    let near = self.geo.dilate(bit);
                    let reach = if (near & dead_own).is_empty() {
                        near
                    } else {
                        self.geo.dilate(self.geo.flood(bit, dead_own))
                    };
                    before + (reach & fresh).count() as u64
                })
                .sum();
        }
        // The turn ends: the opponent moves next. A placement leaves its
        // groups as they are (only a trench taken stops being takeable); a
        // kill can cut them, so kills are played out.
        let kills = cells & self.virus[them];
        let placements = cells & !kills;
        if !self.entered[them] {
            return fallback(cells);
        }
        let their_live = if self.live_stale[them] {
            self.geo
                .flood(self.virus[them], self.virus[them] | self.zombie[them])
        } else {
            self.live[them]
        };
        let theirs = self.geo.dilate(their_live) & self.takeable(!side);
        let per_placement = theirs.count() as u64;
        placements.count() as u64 * per_placement
            - (placements & self.trench & theirs).count() as u64
            + fallback(kills)
    }
}
