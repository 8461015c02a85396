//! Transposition table: steps of one turn often transpose (the same set of
//! cells in another order gives the same position), so the search stores
//! each position's result under its Zobrist hash.

use crate::score;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (a cut-off happened).
    Lower,
    /// The true score is at most this (no step reached alpha).
    Upper,
}

impl Bound {
    /// The bound that `best`, found by a search within (`alpha`, `beta`),
    /// is of the true score.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored score `v` with this bound answers a search within
    /// (`alpha`, `beta`) without searching.
    pub fn answers(self, v: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => v >= beta,
            Bound::Upper => v <= alpha,
        }
    }
}

/// A step as stored: a cell index, or [`PASS`].
pub const PASS: u16 = u16::MAX;
const NONE: u16 = u16::MAX - 1;

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    key: u64,
    pub score: i32,
    pub depth: u8,
    pub bound: Bound,
    step: u16,
}

impl Entry {
    /// The best step found here: a cell index or [`PASS`].
    pub fn step(&self) -> Option<u16> {
        (self.step != NONE).then_some(self.step)
    }
}

/// A fixed-size table, one entry a slot, replaced by depth.
pub struct TranspositionTable {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (rounded down to a power of two of entries).
    pub fn with_megabytes(megabytes: usize) -> TranspositionTable {
        let want = (megabytes.max(1) << 20) / std::mem::size_of::<Option<Entry>>();
        let size = (want.max(1024) + 1).next_power_of_two() / 2;
        TranspositionTable {
            slots: vec![None; size],
            mask: size - 1,
        }
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    /// The entry for `key`, with a proven score turned back into distance
    /// from the root (it is stored as distance from the entry's position).
    pub fn probe(&self, key: u64, ply: u32) -> Option<Entry> {
        let e = self.slots[key as usize & self.mask]?;
        (e.key == key).then(|| Entry {
            score: from_stored(e.score, ply),
            ..e
        })
    }

    pub fn store(
        &mut self,
        key: u64,
        ply: u32,
        depth: u32,
        score: i32,
        bound: Bound,
        step: Option<u16>,
    ) {
        let slot = &mut self.slots[key as usize & self.mask];
        let depth = depth.min(255) as u8;
        if let Some(old) = slot {
            // Keep a deeper result of the same position unless this one is exact.
            if old.key == key && old.depth > depth && bound != Bound::Exact {
                return;
            }
        }
        *slot = Some(Entry {
            key,
            score: to_stored(score, ply),
            depth,
            bound,
            step: step.unwrap_or(NONE),
        });
    }
}

fn to_stored(score: i32, ply: u32) -> i32 {
    if score > score::PROVEN {
        score + ply as i32
    } else if score < -score::PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_stored(score: i32, ply: u32) -> i32 {
    if score > score::PROVEN {
        score - ply as i32
    } else if score < -score::PROVEN {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_adjusts_proven_scores() {
        let mut t = TranspositionTable::with_megabytes(1);
        t.store(42, 3, 5, score::win_in(7), Bound::Exact, Some(9));
        let e = t.probe(42, 5).unwrap();
        assert_eq!(
            e.score,
            score::win_in(9),
            "two plies deeper, the win is two steps further"
        );
        assert_eq!(e.step(), Some(9));
        assert!(t.probe(43, 0).is_none());
        t.store(42, 3, 2, 10, Bound::Lower, None);
        assert_eq!(
            t.probe(42, 3).unwrap().depth,
            5,
            "a shallower bound does not replace"
        );
    }
}
