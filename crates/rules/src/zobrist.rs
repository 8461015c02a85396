//! Zobrist keys: a position's hash is the XOR of one key per occupied cell
//! and one per piece of turn state, so a step updates it in O(1).

use crate::rng::mix;
use crate::side::Side;

/// Largest cell count of any board (19×19 fits below it).
const CELLS: usize = 384;

/// Kinds of cell contents that carry a key (empty cells carry none).
const KINDS: usize = 6;

const fn build() -> [[u64; CELLS]; KINDS] {
    let mut t = [[0u64; CELLS]; KINDS];
    let mut k = 0;
    while k < KINDS {
        let mut i = 0;
        while i < CELLS {
            t[k][i] = mix(0x5EED_0000_0000_0000 ^ ((k as u64) << 32) ^ i as u64);
            i += 1;
        }
        k += 1;
    }
    t
}

static CELL_KEYS: [[u64; CELLS]; KINDS] = build();

#[inline(always)]
pub(crate) fn virus(side: Side, index: usize) -> u64 {
    CELL_KEYS[side as usize][index]
}

#[inline(always)]
pub(crate) fn zombie(owner: Side, index: usize) -> u64 {
    CELL_KEYS[2 + owner as usize][index]
}

#[inline(always)]
pub(crate) fn trench(index: usize) -> u64 {
    CELL_KEYS[4][index]
}

#[inline(always)]
pub(crate) fn obstacle(index: usize) -> u64 {
    CELL_KEYS[5][index]
}

/// Key of one field of the turn state holding `value`.
#[inline(always)]
pub(crate) const fn field_slow(tag: u64, value: u64) -> u64 {
    mix(tag << 56 ^ value ^ 0xA5A5_0000_0000)
}

const FIELD_VALUES: usize = 128;

const fn build_fields() -> [[u64; FIELD_VALUES]; 6] {
    let mut t = [[0u64; FIELD_VALUES]; 6];
    let mut tag = 0;
    while tag < 6 {
        let mut v = 0;
        while v < FIELD_VALUES {
            t[tag][v] = field_slow(tag as u64, v as u64);
            v += 1;
        }
        tag += 1;
    }
    t
}

static FIELD_KEYS: [[u64; FIELD_VALUES]; 6] = build_fields();

/// Key of one field of the turn state holding `value` (a table look-up for
/// the small values that occur on every step).
#[inline(always)]
pub(crate) fn field(tag: u64, value: u64) -> u64 {
    if (value as usize) < FIELD_VALUES {
        FIELD_KEYS[tag as usize][value as usize]
    } else {
        field_slow(tag, value)
    }
}

pub(crate) const SIDE: u64 = 1;
pub(crate) const STEPS_LEFT: u64 = 2;
pub(crate) const ENTERED: u64 = 3;
pub(crate) const PASSES: u64 = 4;
pub(crate) const TURN: u64 = 5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = CELL_KEYS.iter().flatten().copied().collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), CELLS * KINDS);
    }
}
