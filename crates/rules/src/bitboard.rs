//! A set of cells as a fixed-width bit array.
//!
//! Cell `file + rank * width` is bit `i % 64` of word `i / 64`. `N = 2` words
//! (128 bits) hold every board up to 11×11 and is the fast path; `N = 6`
//! (384 bits) holds the largest board, 19×19.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cell indices below `64 * N`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bitboard<const N: usize>(pub [u64; N]);

impl<const N: usize> Default for Bitboard<N> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const N: usize> Bitboard<N> {
    /// Number of cells this width can hold.
    pub const CAPACITY: usize = 64 * N;
    pub const EMPTY: Self = Bitboard([0; N]);

    /// The set holding exactly `index`.
    ///
    /// Word selection is written as a select over every word (not an indexed
    /// store) so the compiler keeps the board in registers: an indexed store
    /// followed by a wide load stalls store forwarding on the hot path.
    #[inline(always)]
    pub fn from_index(index: usize) -> Self {
        let (w, bit) = (index / 64, 1u64 << (index % 64));
        let mut out = [0u64; N];
        for (k, word) in out.iter_mut().enumerate() {
            *word = if k == w { bit } else { 0 };
        }
        Bitboard(out)
    }

    /// The set of the first `count` indices.
    pub fn first(count: usize) -> Self {
        let mut b = Self::EMPTY;
        for i in 0..count {
            b.insert(i);
        }
        b
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        // One test of the words or-ed together, not a branch per word.
        self.0.iter().fold(0, |all, &w| all | w) == 0
    }

    /// The set if `keep`, else the empty set: by a mask, not a branch.
    #[inline(always)]
    pub fn when(self, keep: bool) -> Self {
        let mask = (keep as u64).wrapping_neg();
        Bitboard(self.0.map(|w| w & mask))
    }

    #[inline(always)]
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline(always)]
    pub fn contains(self, index: usize) -> bool {
        (self & Self::from_index(index)).any()
    }

    #[inline(always)]
    pub fn insert(&mut self, index: usize) {
        *self |= Self::from_index(index);
    }

    #[inline(always)]
    pub fn remove(&mut self, index: usize) {
        *self &= !Self::from_index(index);
    }

    /// The lowest index in the set.
    #[inline(always)]
    pub fn first_index(self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// The `k`-th lowest index (0-based), if the set has more than `k` members.
    #[inline]
    pub fn nth_index(self, mut k: u32) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if k < c {
                return Some(i * 64 + select_in_word(w, k) as usize);
            }
            k -= c;
        }
        None
    }

    /// [`Self::nth_index`] with BMI2's `pdep`, inlined into its caller.
    ///
    /// # Safety
    /// The CPU must support BMI2; call it from code compiled for BMI2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn nth_index_bmi2(self, k: u32) -> Option<usize> {
        if k >= self.count() {
            return None;
        }
        // Which word holds it is a coin toss in a random game: chosen by
        // arithmetic, not by a branch per word.
        let (mut word, mut rest, mut base) = (0u64, k, 0usize);
        let mut found = false;
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            let here = !found & (rest < c);
            word = if here { w } else { word };
            base = if here { i * 64 } else { base };
            rest = if found | here { rest } else { rest - c };
            found |= here;
        }
        let at = unsafe { std::arch::x86_64::_pdep_u64(1u64 << rest, word) };
        Some(base + at.trailing_zeros() as usize)
    }

    /// Shift every index up by `s` (1 ≤ s < 64); bits past the top fall off.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // word i takes a carry from word i-1
    pub fn shift_up(self, s: u32) -> Self {
        if N == 2 {
            // One 128-bit shift (shld) instead of two shifts and an or.
            let x = (self.0[0] as u128 | (self.0[1] as u128) << 64) << (s & 63);
            let mut out = [0u64; N];
            out[0] = x as u64;
            out[1] = (x >> 64) as u64;
            return Bitboard(out);
        }
        let mut out = [0u64; N];
        out[0] = self.0[0] << s;
        for i in 1..N {
            out[i] = (self.0[i] << s) | (self.0[i - 1] >> (64 - s));
        }
        Bitboard(out)
    }

    /// Shift every index down by `s` (1 ≤ s < 64); bits below zero fall off.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // word i takes a carry from word i+1
    pub fn shift_down(self, s: u32) -> Self {
        if N == 2 {
            let x = (self.0[0] as u128 | (self.0[1] as u128) << 64) >> (s & 63);
            let mut out = [0u64; N];
            out[0] = x as u64;
            out[1] = (x >> 64) as u64;
            return Bitboard(out);
        }
        let mut out = [0u64; N];
        for i in 0..N - 1 {
            out[i] = (self.0[i] >> s) | (self.0[i + 1] << (64 - s));
        }
        out[N - 1] = self.0[N - 1] >> s;
        Bitboard(out)
    }

    /// Members in increasing order.
    pub fn iter(self) -> Indices<N> {
        Indices { rest: self }
    }
}

/// Position of the `k`-th set bit of `w` (k < popcount(w)).
#[inline(always)]
fn select_in_word(w: u64, k: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU supports BMI2, checked just above.
            return unsafe { select_bmi2(w, k) };
        }
    }
    select_portable(w, k)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn select_bmi2(w: u64, k: u32) -> u32 {
    std::arch::x86_64::_pdep_u64(1u64 << k, w).trailing_zeros()
}

#[inline(always)]
fn select_portable(w: u64, mut k: u32) -> u32 {
    // Find the byte that holds it, then clear the lower bits of that byte.
    let mut shift = 0;
    loop {
        let c = (w >> shift & 0xff).count_ones();
        if k < c {
            break;
        }
        k -= c;
        shift += 8;
    }
    let mut b = w >> shift;
    for _ in 0..k {
        b &= b - 1;
    }
    shift + b.trailing_zeros()
}

/// Iterator over the indices of a [`Bitboard`].
pub struct Indices<const N: usize> {
    rest: Bitboard<N>,
}

impl<const N: usize> Iterator for Indices<N> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        for i in 0..N {
            let w = self.rest.0[i];
            if w != 0 {
                self.rest.0[i] = w & (w - 1);
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $op:tt, $tra:ident, $fa:ident) => {
        impl<const N: usize> $tr for Bitboard<N> {
            type Output = Self;
            #[inline(always)]
            #[allow(clippy::needless_range_loop)]
            fn $f(self, rhs: Self) -> Self {
                let mut out = [0u64; N];
                for i in 0..N {
                    out[i] = self.0[i] $op rhs.0[i];
                }
                Bitboard(out)
            }
        }
        impl<const N: usize> $tra for Bitboard<N> {
            #[inline(always)]
            fn $fa(&mut self, rhs: Self) {
                *self = *self $op rhs;
            }
        }
    };
}
bit_op!(BitAnd, bitand, &, BitAndAssign, bitand_assign);
bit_op!(BitOr, bitor, |, BitOrAssign, bitor_assign);

bit_op!(BitXor, bitxor, ^, BitXorAssign, bitxor_assign);

impl<const N: usize> Not for Bitboard<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Bitboard(self.0.map(|w| !w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_index_agrees_with_iteration() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let a = seed;
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = Bitboard::<2>([a & (seed >> 3), seed]);
            let all: Vec<usize> = b.iter().collect();
            assert_eq!(all.len() as u32, b.count());
            for (k, &i) in all.iter().enumerate() {
                assert_eq!(b.nth_index(k as u32), Some(i));
            }
            assert_eq!(b.nth_index(b.count()), None);
        }
    }

    #[test]
    fn portable_select_agrees() {
        let w = 0xF0F0_1234_8000_0001u64;
        for k in 0..w.count_ones() {
            assert_eq!(select_portable(w, k), select_in_word(w, k));
        }
    }

    #[test]
    fn shifts_carry_across_words() {
        for s in 1..64u32 {
            for i in 0..384usize {
                let b = Bitboard::<6>::from_index(i);
                let up = b.shift_up(s);
                if i + (s as usize) < 384 {
                    assert_eq!(up, Bitboard::from_index(i + s as usize));
                } else {
                    assert!(up.is_empty());
                }
                let down = b.shift_down(s);
                if i >= s as usize {
                    assert_eq!(down, Bitboard::from_index(i - s as usize));
                } else {
                    assert!(down.is_empty());
                }
            }
        }
    }

    #[test]
    fn set_operations() {
        let mut a = Bitboard::<2>::EMPTY;
        a.insert(3);
        a.insert(100);
        assert!(a.contains(100) && a.contains(3) && !a.contains(4));
        assert_eq!(a.count(), 2);
        assert_eq!(a.first_index(), Some(3));
        a.remove(3);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![100]);
        assert_eq!((a | Bitboard::from_index(5)).count(), 2);
        assert_eq!((a & Bitboard::from_index(5)).count(), 0);
        assert_eq!((!Bitboard::<2>::EMPTY).count(), 128);
        assert_eq!(Bitboard::<2>::first(121).count(), 121);
    }
}
