//! Perft: the number of legal step sequences of a given length, the test of
//! record for a move generator. A position with no legal step is a leaf that
//! is not counted; the last ply is counted in bulk (no make-step).

use crate::any_position::AnyPosition;
use crate::position::Position;
use crate::with_position;

/// Step sequences of length `depth` from `p`.
pub fn perft<const N: usize>(p: &Position<N>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return p.legal_count() as u64;
    }
    if depth == 2 && !p.can_pass() {
        return p.children_legal_count();
    }
    let mut total = 0;
    for i in p.legal_cells().iter() {
        let mut q = *p;
        // Perft never reads the hash: the copy's is left stale.
        q.play_unhashed(i);
        total += perft(&q, depth - 1);
    }
    if p.can_pass() {
        let mut q = *p;
        q.pass_unchecked();
        total += perft(&q, depth - 1);
    }
    total
}

/// [`perft`] on a position of any size.
pub fn perft_any(p: &AnyPosition, depth: u32) -> u64 {
    with_position!(p, q => perft(q, depth))
}
